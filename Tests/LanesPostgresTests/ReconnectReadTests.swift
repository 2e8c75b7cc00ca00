import DragKit
import Foundation
@testable import LanesCore
import Synchronization
import Testing
@testable import LanesPostgres
#if canImport(Glibc)
    import Glibc
#endif

/// Where a server's log stood: LSNs and timelines as PostgreSQL writes them, and which server holds what.
@Suite struct ServerLineageTests {
    @Test func lsnsAndTimelinesReadAsPostgreSQLWritesThem() {
        #expect(ServerLineage.lsn("0/1B2C7B0") == 0x1B2_C7B0)
        #expect(ServerLineage.lsn("16/B374D848") == 0x16_B374_D848)
        #expect(ServerLineage.lsn("FFFFFFFF/FFFFFFFF") == UInt64.max)
        for bad in ["", "1", "/1", "1/", "x/1", "1/2/3", "123456789/0", "0/123456789", " 0/1"] {
            #expect(ServerLineage.lsn(bad) == nil, "\(bad)")
        }
        #expect(ServerLineage.timeline(walFile: "000000020000000000000003") == 2)
        #expect(ServerLineage.timeline(walFile: "0000000A00000001000000FF") == 10)
        for bad in ["", "00000002000000000000003", "00000002000000000000000G", "0000000200000000000000030"] {
            #expect(ServerLineage.timeline(walFile: bad) == nil, "\(bad)")
        }
    }

    @Test func aServerHoldsWhatItsTimelineOrItsPromotionHeld() {
        let read = WALPoint(system: "7", timeline: 3, flushed: 1000)
        // The same server, restarted or not: its timeline holds everything read on it.
        #expect(ServerLineage(system: "7", timeline: 3, replayedTo: nil).holds(read))
        #expect(ServerLineage(system: "7", timeline: 3, replayedTo: 10).holds(read))
        // A standby promoted from that timeline: held when it had replayed past the read.
        #expect(ServerLineage(system: "7", timeline: 4, replayedTo: 1000).holds(read))
        #expect(ServerLineage(system: "7", timeline: 4, replayedTo: 5000).holds(read))
        #expect(!ServerLineage(system: "7", timeline: 4, replayedTo: 999).holds(read))
        #expect(!ServerLineage(system: "7", timeline: 4, replayedTo: nil).holds(read))
        // Two promotions since, an older timeline, another cluster: not known to hold it.
        #expect(!ServerLineage(system: "7", timeline: 5, replayedTo: 5000).holds(read))
        #expect(!ServerLineage(system: "7", timeline: 2, replayedTo: 5000).holds(read))
        #expect(!ServerLineage(system: "8", timeline: 3, replayedTo: 5000).holds(read))
        #expect(!ServerLineage(system: "8", timeline: 4, replayedTo: 5000).holds(read))
        // Either side unknown: never vouched for.
        #expect(ServerLineage.vouches(ServerLineage(system: "7", timeline: 3, replayedTo: nil), for: read))
        #expect(!ServerLineage.vouches(nil, for: read))
        #expect(!ServerLineage.vouches(ServerLineage(system: "7", timeline: 3, replayedTo: nil), for: nil))
    }
}

/// After a reconnect a store reads the whole board only when the server reached may lack what it
/// saw: after a restart or a synchronous standby's promotion it reads on from its version; after an
/// asynchronous standby that lacked a commit it shows the board as the new primary has it.
/// Against servers of the suite's own (a primary and its standby).
@Suite(.serialized) struct ReconnectReadTests {
    /// The whole reads a store made, by side (its stageHook).
    final class WholeReads: Sendable {
        private let counts = Mutex((commits: 0, reading: 0))
        init(_ store: PostgresBoardStore) {
            store.stageHook = { [self] stage, _, _ in
                counts.withLock { c in
                    if stage == .wholeReadCommits { c.commits += 1 }
                    if stage == .wholeReadReading { c.reading += 1 }
                }
            }
        }
        var commits: Int { counts.withLock { $0.commits } }
        var reading: Int { counts.withLock { $0.reading } }
    }

    /// `body` again while the store says there is no server (a failover under way), 60 times at most.
    func untilReached<T>(_ body: () throws -> T) throws -> T {
        for _ in 0..<60 {
            do { return try body() } catch is StorageUnavailable { usleep(250_000) }
        }
        return try body()
    }

    /// The next board a store's looks take in that `ok` accepts, 60 looks at most.
    func lookUntil(_ store: PostgresBoardStore, _ ok: (Board) -> Bool) throws -> Board? {
        for _ in 0..<60 {
            if let b = try untilReached({ try store.refresh() }), ok(b) { return b }
            usleep(100_000)
        }
        return nil
    }

    func url(_ role: String, _ board: String, _ servers: [TestServer]) -> String {
        "postgresql://\(role)@/lanes?host=\(servers.map(\.dir).joined(separator: ","))"
            + "&port=\(servers.map(\.port).joined(separator: ","))"
            + "&target_session_attrs=read-write&connect_timeout=3&board=\(board)"
    }

    func titled(_ t: String, in column: Int, of board: Board) throws -> Board {
        let card = Card(id: .fresh(), title: t)
        return try board.applying(.addCard(card, column: board.columns[column].id, at: .end, fallbackColumn: column))
            .board
    }

    /// A board alice copies in at `url(role)` and grants to bob (and `others`); alice's store is
    /// loaded and has looked once (a screen's), bob's loaded. Returns both stores, bob's board and
    /// alice's whole reads.
    func sharedBoard(_ stem: String, others: [String] = [], at url: (String, String) -> String) throws -> (
        alice: PostgresBoardStore, bob: PostgresBoardStore, b0: Board, whole: WholeReads, name: String
    ) {
        let name = TestServer.boardName(stem)
        let (board, info) = try BoardFormat.parse(taskellBoard, file: "fixture.md")
        let alice = try PostgresBoardStore.create(url: url("alice", name), board: board, info: info)
        for role in ["bob"] + others { try alice.grant(role: role) }
        let bob = try PostgresBoardStore.open(url: url("bob", name))
        let whole = WholeReads(alice)
        _ = try alice.load()
        #expect(try alice.refresh() == nil)
        return (alice, bob, try bob.load(), whole, name)
    }

    @Test func aRestartedServerIsReadOnFromTheStoresVersion() throws {
        let own = try TestServer.startOwn()
        defer { own.stop() }
        let (alice, bob, b0, whole, name) = try sharedBoard("restart") { own.url($0, board: $1) }
        try own.restart()
        let b1 = try untilReached { try bob.commit(base: b0, ours: moved(b0, "Write docs", to: 2)) }.board
        let seen = try #require(try lookUntil(alice) { titles($0) == titles(b1) })
        let mine = moved(seen, "Deploy staging", to: 0, at: 0)
        let out = try untilReached { try alice.commit(base: seen, ours: mine) }
        #expect(titles(out.board) == titles(mine))
        // Neither side of the screen read the board whole: the server's timeline is the one it read on.
        #expect(whole.reading == 0 && whole.commits == 0)
        #expect(titles(try PostgresBoardStore.open(url: own.url("alice", board: name)).load()) == titles(mine))
    }

    @Test func whereTheLogFunctionsAreRevokedEveryReconnectReadsTheBoardWhole() throws {
        let own = try TestServer.startOwn()
        defer { own.stop() }
        // An administrator who took one of them from everyone: Lanes works, as before 43.13.
        let root = try own.connect("postgres")
        try root.query("REVOKE EXECUTE ON FUNCTION pg_catalog.pg_current_wal_flush_lsn() FROM PUBLIC")
        let (alice, bob, b0, whole, _) = try sharedBoard("revoked") { own.url($0, board: $1) }
        let b1 = try bob.commit(base: b0, ours: moved(b0, "Write docs", to: 2)).board
        _ = try #require(try lookUntil(alice) { titles($0) == titles(b1) })
        #expect(whole.reading == 0 && whole.commits == 0)
        try own.restart()
        let b2 = try untilReached { try bob.commit(base: b1, ours: moved(b1, "Set up CI", to: 0)) }.board
        let a2 = try #require(try lookUntil(alice) { titles($0) == titles(b2) })
        let mine = moved(a2, "Deploy staging", to: 0, at: 0)
        let out = try untilReached { try alice.commit(base: a2, ours: mine) }
        #expect(titles(out.board) == titles(mine))
        #expect(whole.reading == 1 && whole.commits == 1)
    }

    @Test func aSynchronousStandbyPromotedIsReadOnFromTheStoresVersion() throws {
        let primary = try TestServer.startOwn()
        defer { primary.stop() }
        let standby = try primary.startStandby()
        defer { standby.stop() }
        let servers = [primary, standby]
        let (alice, bob, b0, whole, name) = try sharedBoard("sync") { url($0, $1, servers) }
        let b1 = try bob.commit(base: b0, ours: moved(b0, "Write docs", to: 1)).board
        _ = try #require(try lookUntil(alice) { titles($0) == titles(b1) })
        try primary.crash()
        #expect(throws: StorageUnavailable.self) { try alice.refresh() }
        try standby.promote()
        // On the new primary: bob's next change reaches alice as the rows written since her version.
        let b2 = try untilReached { try bob.commit(base: b1, ours: try titled("after the failover", in: 2, of: b1)) }
            .board
        let a2 = try #require(try lookUntil(alice) { titles($0) == titles(b2) })
        let mine = moved(a2, "Deploy staging", to: 0, at: 0)
        let out = try untilReached { try alice.commit(base: a2, ours: mine) }
        #expect(titles(out.board) == titles(mine))
        #expect(whole.reading == 0 && whole.commits == 0)
        #expect(titles(try PostgresBoardStore.open(url: url("bob", name, servers)).load()) == titles(mine))
    }

    @Test func aStandbyThatLacksACommitTheStoreSawIsReadWhole() throws {
        let primary = try TestServer.startOwn()
        defer { primary.stop() }
        let standby = try primary.startStandby()
        defer { standby.stop() }
        // Asynchronous from now on: the primary acknowledges commits the standby has not received.
        let root = try primary.connect("postgres", database: "postgres")
        try root.query("ALTER SYSTEM RESET synchronous_standby_names")
        try root.query("SELECT pg_reload_conf()")
        for _ in 0..<600
        where try root.query("SELECT string_agg(sync_state, ',') FROM pg_stat_replication")[0, 0] != "async" {
            usleep(50_000)
        }
        let servers = [primary, standby]
        let name = TestServer.boardName("async")
        let (board, info) = try BoardFormat.parse(taskellBoard, file: "fixture.md")
        let alice = try PostgresBoardStore.create(url: url("alice", name, servers), board: board, info: info)
        try alice.grant(role: "bob")
        try alice.grant(role: "carol")
        let bob = try PostgresBoardStore.open(url: url("bob", name, servers))
        let carol = try PostgresBoardStore.open(url: url("carol", name, servers))
        let aliceScreen = try PostgresBoardStore.open(url: url("alice", name, servers))
        let (aliceReads, carolReads, screenReads) = (WholeReads(alice), WholeReads(carol), WholeReads(aliceScreen))
        let a0 = try alice.load()
        _ = try carol.load()
        #expect(try carol.refresh() == nil)
        _ = try aliceScreen.load()
        #expect(try aliceScreen.refresh() == nil)
        let b0 = try bob.load()
        // The primary stops sending: what it acknowledges now is on it alone.
        let sender = try #require(try root.query("SELECT pid FROM pg_stat_replication").int(0, 0))
        #expect(kill(pid_t(sender), SIGSTOP) == 0)
        let b1 = try bob.commit(base: b0, ours: try titled("only on the old primary", in: 1, of: b0)).board
        let c1 = try #require(try lookUntil(carol) { titles($0) == titles(b1) })
        _ = try #require(try lookUntil(aliceScreen) { titles($0) == titles(b1) })
        // The primary dies (its sender killed while stopped, so it never sends again); the standby is promoted.
        let crashing = Thread { try? primary.crash() }
        crashing.start()
        usleep(500_000)
        #expect(kill(pid_t(sender), SIGKILL) == 0)
        try standby.promote()
        // alice's commit from the board before: she never saw the lost card, so her version's rows stand.
        let mine = moved(a0, "Deploy staging", to: 0, at: 0)
        let out = try untilReached { try alice.commit(base: a0, ours: mine) }
        #expect(titles(out.board) == titles(mine))
        #expect(aliceReads.commits == 0)
        // carol saw it: her commit is judged against the board read whole from the new primary, and
        // the lost card, in what she sent, does not come back.
        let theirs = moved(mine, "Set up CI", to: 1)
        let out2 = try untilReached { try carol.commit(base: c1, ours: moved(c1, "Set up CI", to: 1)) }
        #expect(titles(out2.board) == titles(theirs))
        #expect(carolReads.commits == 1)
        // alice's screen saw it too: it drops the card the new primary never had.
        let shown = try #require(try lookUntil(aliceScreen) { titles($0) == titles(theirs) })
        #expect(!titles(shown).joined().contains("only on the old primary"))
        #expect(screenReads.reading == 1)
    }
}
