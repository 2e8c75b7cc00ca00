import DragKit
import Foundation
@testable import LanesCore
import SeededRandom
import Synchronization
import Testing
@testable import LanesTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// A terminal whose person types a list of keystroke groups, each after a pause in which the storage
/// worker's reports wake the runner as a real terminal's wait would; `q` when the list is done.
final class PacedTerminal: TerminalDevice {
    private let steps: [(pause: Double, input: [TerminalInput])]
    let size = Size(width: 120, height: 30)
    /// Called just before a step is typed, with its index (after the runner has sent what the last one changed).
    var beforeStep: ((Int) -> Void)?
    private var next = 0

    init(steps: [(pause: Double, input: [TerminalInput])]) {
        self.steps = steps
    }

    func start() throws {}
    func stop() {}
    func present(_ buffer: CellBuffer) {}
    func invalidate() {}
    func suspend(while body: () -> Void) { body() }

    func wait(timeout: Double?, wakingOn: Int32?) -> [TerminalInput] {
        guard next < steps.count else { return [.bytes(Array("q".utf8))] }
        let step = steps[next]
        if step.pause > 0, let fd = wakingOn {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&p, 1, Int32(step.pause * 1000)) > 0 { return [] }  // the report first, then the step
        }
        beforeStep?(next)
        next += 1
        return step.input
    }
}

/// The real file store, with a hook run on the worker's thread before each refresh and each commit
/// reads the file: where a test's other writer acts, at the moments a timing race would pick.
final class SteppedFileStore: BoardStore, @unchecked Sendable {
    let file: FileBoardStore
    let beforeRefresh = Mutex<(@Sendable () -> Void)?>(nil)
    let beforeCommit = Mutex<(@Sendable () -> Void)?>(nil)

    init(_ file: FileBoardStore) { self.file = file }

    var displayName: String { file.displayName }
    var changeDescriptor: Int32? { file.changeDescriptor }
    func load() throws -> Board { try file.load() }

    func refresh() throws -> Board? {
        beforeRefresh.withLock { $0 }?()
        return try file.refresh()
    }

    func commit(base: Board, ours: Board) throws -> CommitOutcome {
        beforeCommit.withLock { $0 }?()
        return try file.commit(base: base, ours: ours)
    }
}

/// Another writer with a store of its own on the same file: adds its cards at the top of Review and
/// moves them between Review and Done; remembers where each completed change put each card.
final class OtherWriter: Sendable {
    private struct State {
        var store: FileBoardStore
        var rng: SplitMix64
        var placed: [String: String] = [:]
        var added = 0
        var changes = 0
        var failure: String?
    }
    private let state: Mutex<State>

    init(path: String, seed: UInt64) throws {
        let (store, _, _) = try FileBoardStore.open(path, starter: nil)
        store.quietPeriod = 0  // whole writes by rename only: no file here is ever half written
        nonisolated(unsafe) let handed = store
        state = Mutex(State(store: handed, rng: SplitMix64(seed: seed)))
    }

    var placed: [String: String] { state.withLock { $0.placed } }
    var failure: String? { state.withLock { $0.failure } }
    /// How many changes it stored.
    var changes: Int { state.withLock { $0.changes } }

    /// One change, stored before this returns: a new card, or one of its cards to the other column.
    func act(adding: Bool? = nil) {
        state.withLock { s in
            let add = adding ?? (s.placed.isEmpty || s.rng.next() % 5 < 2)
            let title: String, to: String
            if add {
                title = "theirs \(s.added)"
                to = "Review"
                s.added += 1
            } else {
                // Its newest card half the time (the one a screen has most likely only just heard of).
                let mine = s.placed.keys.sorted()
                title = s.rng.next() % 2 == 0 ? "theirs \(s.added - 1)" : mine[Int(s.rng.next() % UInt64(mine.count))]
                to = s.placed[title] == "Review" ? "Done" : "Review"
            }
            do {
                _ = try OthersMovesKeptTests.commit(s.store) { b in
                    let column = b.columns.first { $0.title == to }!.id
                    if add {
                        return .addCard(Card(id: .fresh(), title: title), column: column, at: .top, fallbackColumn: 0)
                    }
                    let id = b.columns.lazy.flatMap(\.cards).first { $0.title == title }!.id
                    return .moveCards([id], to: column, at: .top)
                }
                s.placed[title] = to
                s.changes += 1
            } catch {
                s.failure = s.failure ?? "the other writer: \(error)"
            }
        }
    }
}

/// Another writer's completed move is never reverted by a screen saving its own edits (#41, DECISIONS 41.10).
@Suite(.serialized) struct OthersMovesKeptTests {
    let dir: String
    let path: String

    init() throws {
        dir = NSTemporaryDirectory() + "lanes-others-moves-\(UUID().uuidString)"
        path = dir + "/board.md"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "## Review\n\n- r0\n\n## Done\n\n- d0\n".write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// A change through a store: the edit made on the board as the store knows it after a refresh, committed.
    static func commit(_ store: FileBoardStore, _ edit: (Board) throws -> BoardEdit) throws -> Board {
        _ = try store.refresh()
        let base = store.known
        return try store.commit(base: base, ours: try base.applying(try edit(base)).board).board
    }

    func screen(_ steps: [(pause: Double, input: [TerminalInput])]) throws -> (
        SteppedFileStore, PacedTerminal, () throws -> AppRunner
    ) {
        let (file, board, _) = try FileBoardStore.open(path, starter: nil)
        file.quietPeriod = 0
        let store = SteppedFileStore(file)
        let device = PacedTerminal(steps: steps)
        return (
            store, device,
            {
                AppRunner(
                    app: BoardApp(board: board, title: "t"), device: device, storage: store,
                    environment: ["HOME": dir])
            }
        )
    }

    static func place(_ title: String, in board: Board) -> String? {
        board.columns.first { $0.cards.contains { $0.title == title } }?.title
    }

    /// The interleaving the crowd test found: another writer adds a card; the screen's worker reads it
    /// while the person's own save is on its way (so the app hears of it after sending that save);
    /// the other writer moves the card before that save reads the file. The save's stored board has
    /// the card moved; taking it in must not put the card back where the earlier report had it (the
    /// app took that card for one it had added itself, and its next save wrote it back).
    @Test func aChangeHeardWhileASaveIsOnItsWayIsNotTakenForOurs() throws {
        let other = try OtherWriter(path: path, seed: 1)
        let steps: [(pause: Double, input: [TerminalInput])] =
            [(0, [.bytes(Array("O".utf8))]), (0, [.bytes(Array("mine\r".utf8))])]
            + Array(repeating: (0.2, []), count: 8)
        let (store, device, makeRunner) = try screen(steps)
        let runner = try makeRunner()
        let refreshWaiting = DispatchSemaphore(value: 0)
        let releaseRefresh = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        device.beforeStep = { step in
            switch step {
            case 0:
                // The worker's next refresh waits before it reads; then the other writer adds a card.
                store.beforeRefresh.withLock {
                    $0 = {
                        store.beforeRefresh.withLock { $0 = nil }
                        refreshWaiting.signal()
                        releaseRefresh.wait()
                    }
                }
                if refreshWaiting.wait(timeout: .now() + 10) == .timedOut {
                    failure.withLock { $0 = "the worker never refreshed" }
                }
                other.act(adding: true)
                // Before the worker's commit reads the file, the other writer moves that card to Done.
                store.beforeCommit.withLock {
                    $0 = {
                        store.beforeCommit.withLock { $0 = nil }
                        other.act(adding: false)
                    }
                }
            case 2:
                // The person's save ("mine") is on its way; now the worker reads the new card and reports it.
                if runner.hosts[0].inFlight == nil { failure.withLock { $0 = "the save was not on its way" } }
                releaseRefresh.signal()
            default: break
            }
        }
        try runner.run()
        #expect(failure.withLock { $0 } == nil)
        #expect(other.failure == nil)
        #expect(other.placed == ["theirs 0": "Done"])
        let (final, _) = try FileBoardStore.load(path)
        #expect(titles(final) == [["mine", "r0"], ["theirs 0", "d0"]])
        #expect(titles(runner.app.board) == [["mine", "r0"], ["theirs 0", "d0"]])
    }
}
