import Foundation
import LanesCore
import Synchronization
import Testing

@testable import LanesPostgres

#if canImport(Glibc)
    import Glibc
#endif

/// A screen reads others' changes on its reading connection while its own commit waits on the
/// other (43.9): the two end in either order, and the boards they hand out are numbered so that the
/// newer always wins; nothing either wrote is lost, and every board ends as the server's.
@Suite(.serialized) struct ReadBesideCommitTests {
    let server: TestServer
    init() throws { server = try TestServer.get() }

    func sharedBoard() throws -> (alice: PostgresBoardStore, bob: PostgresBoardStore, stored: () throws -> Board) {
        let name = TestServer.boardName("beside")
        let (board, info) = try BoardFormat.parse(taskellBoard, file: "fixture.md")
        let alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board, info: info)
        try alice.grant(role: "bob")
        let bob = try PostgresBoardStore.open(url: server.url("bob", board: name))
        let url = server.url("alice", board: name)
        return (alice, bob, { try PostgresBoardStore.open(url: url).load() })
    }

    /// Waits (10 s at most) until `role` has a statement waiting for a lock.
    func waitUntilWaiting(_ role: String, _ superuser: PGConnection) throws {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            let r = try superuser.query(
                "SELECT count(*) FROM pg_stat_activity WHERE usename = $1 AND wait_event_type = 'Lock'", [role])
            if r[0, 0] == "1" { return }
            usleep(20_000)
        }
        Issue.record("\(role)'s commit never waited for a lock")
    }

    /// Waits (5 s at most) for the store's change descriptor to turn readable.
    func waitForNotification(_ store: PostgresBoardStore) throws {
        var p = pollfd(fd: try #require(store.changeDescriptor), events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 5000) == 1)
    }

    /// Runs `body` on a thread of its own; `join` waits for it (15 s at most) and gives its result.
    final class Running<T: Sendable>: Sendable {
        private let result = Mutex<Result<T, any Error>?>(nil)
        private let finished = DispatchSemaphore(value: 0)
        init(_ body: @escaping @Sendable () throws -> T) {
            let t = Thread { [self] in
                let r = Result { try body() }
                result.withLock { $0 = r }
                finished.signal()
            }
            t.start()
        }
        var isDone: Bool { result.withLock { $0 != nil } }
        func join() throws -> T {
            guard finished.wait(timeout: .now() + 15) == .success else {
                throw TestServerError(message: "still running")
            }
            return try result.withLock { $0! }.get()
        }
    }

    @Test func aScreenReadsAnotherWritersChangeWhileItsOwnCommitWaitsThenTheCommitHandsOutANewerBoard() throws {
        let (alice, _, stored) = try sharedBoard()
        let base = try alice.load()
        #expect(try alice.refresh() == nil)  // a screen's first look: its reading connection LISTENs
        let superuser = try server.connect("postgres")
        // Bob holds the board row: a raw edit of a card (its trigger locks the row) left uncommitted.
        let bob = try server.connect("bob")
        try bob.query("BEGIN")
        try bob.query(
            "UPDATE lanes.cards SET title = 'Write docs (bob)' WHERE board_id = $1 AND title = 'Write docs'",
            [String(alice.boardID)])
        // Alice's commit (a move) waits for the row.
        nonisolated(unsafe) let store = alice
        let ours = moved(base, "Deploy staging", to: 2, at: 0)
        let commit = Running { try store.commit(base: base, ours: ours).handedOut ?? 0 }
        try waitUntilWaiting("alice", superuser)
        // Once bob commits, alice's commit takes the row and then waits for a table lock held here,
        // so her screen's read of bob's change comes first, with her commit still in flight.
        try superuser.query("BEGIN")
        try superuser.query("SET LOCAL lock_timeout = '5s'")
        try superuser.query("LOCK TABLE lanes.commits IN ACCESS EXCLUSIVE MODE")
        try bob.query("COMMIT")
        try waitForNotification(alice)
        let read = try #require(try alice.refreshNumbered())
        #expect(!commit.isDone, "the read did not wait for the commit")
        #expect(read.board.columns[0].cards.map(\.title) == ["Fix login", "Write docs (bob)", "Plan release #ops"])
        #expect(read.board.columns[2].cards.map(\.title) == ["Set up CI"])  // alice's move not stored yet
        try superuser.query("ROLLBACK")
        let committed = try commit.join()
        #expect(committed > read.handedOut)
        let now = try stored()
        #expect(titles(now)[0] == ["Fix login", "Write docs (bob)", "Plan release #ops"])
        #expect(titles(now)[2] == ["Deploy staging", "Set up CI"])
        #expect(try alice.refresh() == nil)  // the commit's board was the newest: nothing more to read
    }

    @Test func aDeltaReadBeforeACommitAndHandedOutAfterItIsNotHandedOut() throws {
        let (alice, bob, stored) = try sharedBoard()
        let base = try alice.load()
        #expect(try alice.refresh() == nil)
        let b0 = try bob.load()
        _ = try bob.commit(base: b0, ours: moved(b0, "Fix login", to: 1, at: 0))
        try waitForNotification(alice)
        // Alice's screen reads bob's move and stops before handing it out; her commit meanwhile
        // reads it back with her own and hands that out first.
        let paused = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        alice.pauseBeforeReadHandOut = {
            paused.signal()
            resume.wait()
        }
        nonisolated(unsafe) let store = alice
        let reading = Running { try store.refreshNumbered()?.handedOut }
        #expect(paused.wait(timeout: .now() + 10) == .success)
        alice.pauseBeforeReadHandOut = nil
        let outcome = try alice.commit(base: base, ours: moved(base, "Set up CI", to: 0, at: 0))
        #expect(
            titles(outcome.board) == [
                ["Set up CI", "Write docs", "Plan release #ops"], ["Fix login", "Review PR", "Deploy staging"], [],
            ])
        resume.signal()
        #expect(try reading.join() == nil)  // older than what the commit handed out: not handed out
        #expect(try alice.refresh() == nil)
        #expect(titles(try stored()) == titles(outcome.board))
    }

    @Test func aCommitWhoseReadBackIsOlderThanABoardReadMeanwhileHandsOutTheNewerBoard() throws {
        let (alice, bob, stored) = try sharedBoard()
        let base = try alice.load()
        #expect(try alice.refresh() == nil)
        // Alice's commit stops after its read-back; bob commits, alice's screen reads it and hands
        // it out; then the commit hands out that newer board (which holds her move too).
        let paused = DispatchSemaphore(value: 0), resume = DispatchSemaphore(value: 0)
        alice.pauseBeforeCommitHandOut = {
            paused.signal()
            resume.wait()
        }
        nonisolated(unsafe) let store = alice
        let ours = moved(base, "Set up CI", to: 0, at: 0)
        let commit = Running { () -> CommitOutcome in try store.commit(base: base, ours: ours) }
        #expect(paused.wait(timeout: .now() + 10) == .success)
        let b0 = try bob.load()
        _ = try bob.commit(base: b0, ours: moved(b0, "Review PR", to: 2))
        try waitForNotification(alice)
        let read = try #require(try alice.refreshNumbered())
        let both = [["Set up CI", "Fix login", "Write docs", "Plan release #ops"], ["Deploy staging"], ["Review PR"]]
        #expect(titles(read.board) == both)
        resume.signal()
        let outcome = try commit.join()
        alice.pauseBeforeCommitHandOut = nil
        #expect(try #require(outcome.handedOut) > read.handedOut)
        #expect(titles(outcome.board) == both)
        #expect(titles(try stored()) == both)
    }
}
