import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// Two file boards in a fresh folder: A is `sampleBoard()`, B is the parity board (Doing full at 2,
/// Done accepting only from Doing), both written through a store so B's rules file is there too.
private struct TwoFiles {
    let dir: String
    var a: String { dir + "/A.md" }
    var b: String { dir + "/B.md" }
    var journal: MoveJournal { MoveJournal(folder: dir + "/moves") }

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-parity-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (path, board) in [(a, sampleBoard()), (b, OneDoorParityTests.board())] {
            try Data("## Start\n".utf8).write(to: URL(fileURLWithPath: path))
            let store = FileBoardStore.unread(path)
            _ = try store.commit(base: try store.load(), ours: board)
        }
    }

    func endpoint(_ path: String) -> CrossBoardMove.Endpoint { .init(key: path, storage: FileBoardStore.unread(path)) }
    func titles(_ path: String) throws -> [[String]] {
        LanesTerminalTests.titles(try FileBoardStore.unread(path).load())
    }
    func remove() { try? FileManager.default.removeItem(atPath: dir) }
}

/// Moves between boards: `m` in the workspace (keys, as a person types them, then the move the
/// runner runs) and `lanes move --to-board` (`CrossBoardMove.move(cards:…)`) agree — the same
/// boards after, the same refusals in the same words (the door's: `BoardEdit.receiveCards`).
extension OneDoorParityTests {
    struct CrossRow: Sendable {
        var name: String
        var keys: [(Key, Modifiers)]
        var card: String
        var column: String
        var position: Int?
    }

    static let crossRows: [CrossRow] = [
        CrossRow(
            name: "to a column of another board its rule allows (from a column called Doing)",
            keys: k("lmB.md:Done") + enter, card: "b0", column: "Done"),
        CrossRow(name: "to another board's full column", keys: k("mB.md:Doing") + enter, card: "a0", column: "Doing"),
        CrossRow(
            name: "to another board's column whose rule names no such column", keys: k("mB.md:Done") + enter,
            card: "a0", column: "Done"),
        CrossRow(name: "at a position", keys: k("jmB.md:To do:2") + enter, card: "a1", column: "To do", position: 2),
        CrossRow(
            name: "at a position past the end", keys: k("mB.md:To do:9") + enter, card: "a0", column: "To do",
            position: 9),
        CrossRow(name: "at the end, named by the column's number", keys: k("mB.md:1") + enter, card: "a0", column: "1"),
    ]

    @Test(arguments: 0..<crossRows.count)
    func aMoveBetweenBoardsIsTheDoorsInTheTerminalAndTheCommands(_ i: Int) throws {
        let row = Self.crossRows[i]
        // The terminal: keys on the workspace, then the move it asks for, run as the runner runs it.
        let shown = try TwoFiles()
        defer { shown.remove() }
        var d = WorkspaceDriver(boards: [sampleBoard(), Self.board()], names: ["A.md", "B.md"], width: 100)
        var effects: [WorkspaceEffect] = []
        for (key, mods) in row.keys { effects = d.key(key, mods) }
        let move = try #require(WorkspaceDriver.moves(effects).first, "\(row.name): the keys ask for a move")
        let result = Result {
            try move.run(from: shown.endpoint(shown.a), to: shown.endpoint(shown.b), journal: shown.journal)
        }
        d.ws.moveFinished(move, result: result)
        // The command.
        let typed = try TwoFiles()
        defer { typed.remove() }
        var refusal: String?
        do {
            _ = try CrossBoardMove.move(
                cards: [row.card], from: typed.endpoint(typed.a), to: typed.endpoint(typed.b),
                column: row.column, position: row.position, journal: typed.journal)
        } catch let e as CommandError { refusal = e.message }
        #expect(try shown.titles(shown.a) == typed.titles(typed.a), "\(row.name): the same source board")
        #expect(try shown.titles(shown.b) == typed.titles(typed.b), "\(row.name): the same target board")
        if let refusal {
            #expect(
                d.ws.app.status == "Not moved: "
                    + refusal.replacingOccurrences(of: typed.dir, with: shown.dir),
                "\(row.name): the same words")
            #expect(
                try shown.titles(shown.a) == titles(sampleBoard()) && shown.titles(shown.b) == titles(Self.board()),
                "\(row.name): a refusal changes nothing")
        } else {
            #expect(try shown.titles(shown.a) != titles(sampleBoard()), "\(row.name): the move was made")
        }
    }

    /// The door itself: the target's half refuses with a WIP limit or an accept rule (lifted by
    /// force) and a position outside the column; its inverse takes the cards out again, and the
    /// source's half puts its cards back on undo.
    @Test func theDoorsTwoHalvesOfAMoveBetweenBoards() throws {
        let b = Self.board()
        let incoming = Card(id: CardID.fresh(), title: "visitor")
        let doing = b.columns[1].id, done = b.columns[2].id, todo = b.columns[0].id
        func refusal(_ edit: BoardEdit, force: Bool = false) -> EditRefusal? {
            do { _ = try b.applying(edit, force: force); return nil } catch { return error }
        }
        #expect(
            refusal(.receiveCards([incoming], to: doing, position: nil, from: ["To do"], board: "B.md"))
                == EditRefusal(.full, "column \"Doing\" of B.md is full (WIP limit 2)"))
        #expect(
            refusal(.receiveCards([incoming], to: done, position: nil, from: ["To do"], board: "B.md"))
                == EditRefusal(
                    .acceptRule, "column \"Done\" of B.md accepts cards only from \"Doing\", not from \"To do\""))
        #expect(
            refusal(.receiveCards([incoming], to: done, position: nil, from: ["doing"], board: "B.md")) == nil,
            "the rule names the column the card left, any case")
        #expect(
            refusal(.receiveCards([incoming], to: doing, position: nil, from: ["To do"], board: "B.md"), force: true)
                == nil)
        #expect(
            refusal(.receiveCards([incoming], to: todo, position: 5, from: ["x"], board: "B.md"), force: true)
                == EditRefusal(.number, "position 5 is outside column \"To do\" of B.md; use 1 to 4"))
        let arrived = try b.applying(.receiveCards([incoming], to: todo, position: 2, from: ["x"], board: "B.md"))
        #expect(titles(arrived.board)[0] == ["a0", "visitor", "a1", "a2"])
        #expect(arrived.words == "“visitor” arrived in “To do”")
        let undone = try arrived.board.applying(try #require(arrived.inverse), force: true)
        #expect(titles(undone.board) == titles(b))
        let a1 = b.columns[0].cards[1].id
        let sent = try b.applying(.sendCards([a1], toBoard: "C.md"))
        #expect(titles(sent.board)[0] == ["a0", "a2"] && sent.words == "Moved “a1” to C.md")
        #expect(try sent.board.applying(try #require(sent.inverse), force: true).board == b)
    }
}
