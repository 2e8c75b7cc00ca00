import DragKit
import Foundation
import LanesCore

/// What the `lanes` executable lends the agent: how it opens a board, what it says of an error, and
/// the parts of its commands that live there (the JSON of `lanes show`, a move between boards,
/// `lanes metrics`). So a tool says exactly what the command says.
public struct AgentHost: @unchecked Sendable {
    /// The board's storage for a change (`BoardLocation.storage`: moves a dead process left are finished first).
    public var openStorage: (String) throws -> any BoardStore
    /// The line `lanes` prints for an error (`lanes: …`, or `FILE:LINE: …` for a malformed file).
    public var words: (any Error) -> String
    /// `lanes show BOARD --json` of this board; only the cards whose ids are in the range (nil: all),
    /// and the members given after the document's own.
    public var showJSON: (Board, BoardFileInfo, String, Range<Int>?, [(String, JSONWriter.Value)]) -> String
    /// How the board is laid out in its file (dialect), from its store.
    public var info: (any BoardStore) -> BoardFileInfo
    /// `lanes move BOARD CARD… --to-board OTHER --to COLUMN`: its output line.
    public var moveToBoard:
        (_ board: String, _ cards: [String], _ toBoard: String, _ column: String, _ position: Int?, _ force: Bool)
            throws -> String
    /// `lanes metrics BOARD --json` with an `--agent` for each pattern (stdout), or an error with its words.
    public var metrics: (_ board: String, _ agents: [String]) throws -> String
    /// The key a board has in move records (its real path, or its URL without a password).
    public var key: (String) -> String

    public init(
        openStorage: @escaping (String) throws -> any BoardStore, words: @escaping (any Error) -> String,
        showJSON: @escaping (Board, BoardFileInfo, String, Range<Int>?, [(String, JSONWriter.Value)]) -> String,
        info: @escaping (any BoardStore) -> BoardFileInfo,
        moveToBoard: @escaping (String, [String], String, String, Int?, Bool) throws -> String,
        metrics: @escaping (String, [String]) throws -> String, key: @escaping (String) -> String
    ) {
        self.openStorage = openStorage
        self.words = words
        self.showJSON = showJSON
        self.info = info
        self.moveToBoard = moveToBoard
        self.metrics = metrics
        self.key = key
    }
}

/// Bad input to a tool (an unknown tool, a missing or mistyped argument, a board the server was not
/// started with): a JSON-RPC error with these words; no board is touched.
public struct AgentInputError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What a tool answers: text, and whether it is the tool's error result (the door's refusal, a card
/// not found: the words `lanes` prints).
public struct ToolReply: Sendable, Equatable {
    public var text: String
    public var isError: Bool
    public init(_ text: String, isError: Bool = false) {
        self.text = text
        self.isError = isError
    }
}

/// One board the server was started with, kept open for the session like the terminal keeps it: one
/// store, the board as last stored (`synced`) in the store's identities, so this agent's undo steps
/// (inverse edits naming cards by identity) still name the same cards after others' changes.
final class AgentBoard {
    let spec: String
    let key: String
    private let host: AgentHost
    private var store: (any BoardStore)?
    private(set) var synced = Board()

    init(spec: String, host: AgentHost) {
        self.spec = spec
        self.key = host.key(spec)
        self.host = host
    }

    var displayName: String { store?.displayName ?? spec }

    /// The board as stored now (what others stored since is taken in: a refresh, no read when nothing changed).
    func current() throws -> Board {
        if let store {
            if let changed = try store.refresh() { synced = changed }
        } else {
            let opened = try host.openStorage(spec)
            synced = try opened.load()
            store = opened
        }
        return synced
    }

    var info: BoardFileInfo { store.map(host.info) ?? BoardFileInfo(dialect: .taskell) }

    /// Applies `change` (the commands' own functions, through the door) to the board as stored now
    /// and commits it, merged with what others stored meanwhile. Returns the door's outcomes in order
    /// and the merge's collisions. Nothing is stored when `change` throws. A file board gets a
    /// `WriterNote` with the save (`note`: what was done, by whom), for a screen that has it open.
    func change<T>(_ note: WriterNote, _ change: (inout Board) throws -> T) throws -> (
        result: T, outcomes: [EditOutcome], conflicts: [BoardConflict]
    ) {
        let base = try current()
        if let file = store as? FileBoardStore {
            if file.isReadOnly { throw StorageError.readOnly(path: file.path) }
            file.writerNote = note
        }
        var board = base
        let (result, outcomes) = try DoorRecording.recording { try change(&board) }
        guard board != base, let store else { return (result, outcomes, []) }
        let committed = try store.commit(base: base, ours: board)
        synced = committed.board
        return (result, outcomes, committed.conflicts)
    }
}

/// One undo (or redo) step of this agent: the inverse edits the door returned, in the order to apply.
struct AgentStep {
    var board: AgentBoard
    var label: String
    var edits: [BoardEdit]
    /// A move to another board: not undone here (it is two boards' commits and a journal record).
    var acrossBoards = false
}
