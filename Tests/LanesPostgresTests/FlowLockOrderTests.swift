import Dispatch
import Foundation
@testable import LanesCore
import Testing
@testable import LanesPostgres

/// A member's raw SQL write and a Lanes commit on one board at the same time take their locks in
/// one order (the board's row, then the flow aggregates: schema migration 6), so neither waits for
/// the other in a cycle: both commit, and the aggregates stay exact.
///
/// The interleaving is forced, not left to timing: a trigger of the test's own (after the flow
/// aggregates' trigger on `lanes.history`) holds the raw write, mid-statement, on an advisory lock
/// the test holds; the Lanes commit starts; the test waits until the server reports that commit
/// blocked by the raw write's session (`pg_blocking_pids`), then lets the raw write go on.
@Suite("Flow: a raw write and a Lanes commit on one board do not deadlock", .serialized)
struct FlowLockOrderTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    /// A board of alice's, made from `markdown`, shared with bob.
    func sharedBoard(_ markdown: String) throws -> (name: String, url: String, alice: PostgresBoardStore) {
        let name = TestServer.boardName("flowlock")
        let (board, info) = try BoardFormat.parse(markdown, file: "lock.md")
        let url = server.url("alice", board: name)
        let alice = try PostgresBoardStore.create(url: url, board: board, info: info)
        try alice.grant(role: "bob")
        return (name, url, alice)
    }

    /// A Lanes commit run on another thread (the store is used by that thread alone until `wait`).
    final class CommitInBackground: @unchecked Sendable {
        private(set) var error: Error?, conflicts = -1
        private let group = DispatchGroup()

        init(_ store: PostgresBoardStore, base: Board, ours: Board) {
            let box = (store, base, ours)
            nonisolated(unsafe) let sent = box
            DispatchQueue.global().async(group: group) { [self] in
                do {
                    conflicts = try sent.0.commit(base: sent.1, ours: sent.2).conflicts.count
                } catch {
                    self.error = error
                }
            }
        }

        /// Whether it ended within a minute.
        func wait() -> Bool { group.wait(timeout: .now() + 60) == .success }
    }

    /// A member's raw statements run on another thread (the connection is used by that thread alone
    /// until `wait`), rolled back at the first error.
    final class RawWriteInBackground: @unchecked Sendable {
        private(set) var error: Error?
        private let group = DispatchGroup()

        init(_ db: PGConnection, _ statements: [(sql: String, params: [String])]) {
            nonisolated(unsafe) let sent = (db, statements)
            DispatchQueue.global().async(group: group) { [self] in
                do {
                    for s in sent.1 { try sent.0.query(s.sql, s.params) }
                } catch {
                    self.error = error
                    _ = try? sent.0.query("ROLLBACK")
                }
            }
        }

        /// Whether it ended within a minute.
        func wait() -> Bool { group.wait(timeout: .now() + 60) == .success }
    }

    /// Waits until the server reports alice's session blocked by session `pid`.
    func aliceWaits(on pid: Int64, _ admin: PGConnection) throws -> Bool {
        try waitFor(
            admin,
            "SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE $1::int = ANY (pg_blocking_pids(pid)) AND usename = 'alice')",
            [String(pid)])
    }

    /// Waits (polling the server, at most 30 s) until `condition` answers true; false if it never does.
    func waitFor(_ db: PGConnection, _ condition: String, _ params: [String]) throws -> Bool {
        for _ in 0..<3_000 {
            if try db.query(condition, params)[0, 0] == "t" { return true }
            usleep(10_000)
        }
        return false
    }

    @Test(
        "raw UPDATE held after its history is folded; a Lanes commit of another card meanwhile: both commit, aggregates exact",
        arguments: ["UPDATE", "INSERT", "DELETE"])
    func rawWriteAndCommit(statement: String) throws {
        let (_, url, alice) = try sharedBoard("## Backlog\n\n- One\n- Two\n- Three\n\n## Doing\n\n## Done\n\n")
        defer { alice.disconnect() }
        let b = String(alice.boardID)
        let admin = try server.connect("lanes_admin")
        defer { admin.close() }
        let raw = try server.connect("bob")
        defer { raw.close() }
        let key = 0x6C_6F_63_6B + Int64(alice.boardID % 1_000)  // "lock", per board
        // The pause: after the aggregates' trigger (triggers fire by name), only in a session that asks for it.
        try admin.query(
            """
            CREATE OR REPLACE FUNCTION lanes.test_pause_after_flow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
                IF current_setting('lanes.test_pause', true) = 'on' THEN
                    PERFORM pg_advisory_xact_lock_shared(current_setting('lanes.test_pause_key')::bigint);
                END IF;
                RETURN NULL;
            END $$
            """)
        try admin.query(
            """
            CREATE TRIGGER history_zz_test_pause AFTER INSERT ON lanes.history
                FOR EACH STATEMENT EXECUTE FUNCTION lanes.test_pause_after_flow()
            """)
        defer {
            _ = try? admin.query("DROP TRIGGER IF EXISTS history_zz_test_pause ON lanes.history")
            _ = try? admin.query("DROP FUNCTION IF EXISTS lanes.test_pause_after_flow()")
        }
        try admin.query("SELECT pg_advisory_lock($1)", [String(key)])
        var released = false
        defer { if !released { _ = try? admin.query("SELECT pg_advisory_unlock($1)", [String(key)]) } }

        let cols = try raw.query("SELECT id FROM lanes.columns WHERE board_id = $1 ORDER BY key", [b])
        let cards = try raw.query("SELECT id FROM lanes.cards WHERE board_id = $1 ORDER BY key", [b])
        let rawCard = try #require(cards.int(0, 0))
        let rawPid = try #require(raw.query("SELECT pg_backend_pid()").int(0, 0))
        try raw.query("SET lanes.test_pause = 'on'")
        try raw.query("SET lanes.test_pause_key = '\(key)'")

        let sql: String
        switch statement {
        case "UPDATE":
            sql =
                "UPDATE lanes.cards SET column_id = \(cols.int(1, 0)!), key = 'zz' WHERE board_id = \(b) AND id = \(rawCard)"
        case "INSERT":
            sql =
                "INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES (\(b), 990001, \(cols.int(2, 0)!), 'zz', 'Raw', 1)"
        default: sql = "INSERT INTO lanes.card_deletions (board_id, id) VALUES (\(b), \(rawCard))"
        }
        let rawWrite = RawWriteInBackground(raw, [("BEGIN", []), (sql, []), ("COMMIT", [])])
        // The raw write is held inside its statement, its history folded (the aggregates' row locked).
        #expect(
            try waitFor(
                admin,
                "SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = $1 AND locktype = 'advisory' AND NOT granted)",
                [String(rawPid)]))
        let base = try alice.load()
        var ours = base
        let moved = try #require(ours.columns[0].cards.firstIndex { Int64(bitPattern: $0.id.rawValue) != rawCard })
        let card = ours.columns[0].cards.remove(at: moved)
        ours.columns[2].cards.append(card)
        let commit = CommitInBackground(alice, base: base, ours: ours)
        // The Lanes commit waits for the raw write's session (for the board's row).
        #expect(try aliceWaits(on: rawPid, admin))
        try admin.query("SELECT pg_advisory_unlock($1)", [String(key)])
        released = true
        #expect(rawWrite.wait() && commit.wait())
        #expect(rawWrite.error == nil, "the raw write: \(String(describing: rawWrite.error))")
        #expect(commit.error == nil, "the Lanes commit: \(String(describing: commit.error))")
        #expect(commit.conflicts == 0)
        try raw.query("RESET lanes.test_pause")

        // Both writes are on the board, and the aggregates still give the whole record's report.
        let now = try raw.query(
            "SELECT column_id FROM lanes.cards WHERE board_id = $1 AND id = $2",
            [b, String(Int64(bitPattern: card.id.rawValue))])
        #expect(now.int(0, 0) == cols.int(2, 0))
        let rawNow = try raw.query(
            "SELECT column_id FROM lanes.cards WHERE board_id = $1 AND id = $2",
            [b, statement == "INSERT" ? "990001" : String(rawCard)])
        switch statement {
        case "UPDATE": #expect(rawNow.int(0, 0) == cols.int(1, 0))
        case "INSERT": #expect(rawNow.int(0, 0) == cols.int(2, 0))
        default: #expect(rawNow.count == 0)
        }
        let last = try admin.query(
            "SELECT floor(extract(epoch FROM max(at)))::bigint FROM lanes.history WHERE board_id = $1", [b]
        ).int(0, 0)!
        try FlowAggregateTests().compare(url: url, last: last, expectSummary: true, seed: 1)
    }

    /// A member's raw transaction that locks a card row with no trigger (`SELECT … FOR UPDATE`)
    /// and then writes another card (whose trigger takes the board's row) can still close a cycle
    /// with a Lanes commit that holds the board's row and waits for that card. The server rolls
    /// back the Lanes commit: it runs again once the raw write is done, and both changes are kept.
    ///
    /// Which session the server rolls back is forced, not left to timing. The server checks for a
    /// cycle once per wait, `deadlock_timeout` after the wait began, in the waiting session. The raw
    /// writer is a role whose check comes after ten minutes; the Lanes commit is held on the board's
    /// columns (a third session locks them) until the raw write waits for it, so it is the commit's
    /// own next wait, for card One, that closes the cycle, and the commit's check (one second later)
    /// finds it.
    @Test("a Lanes commit rolled back to break a deadlock with a raw write runs again: both changes kept")
    func deadlockVictimRunsAgain() throws {
        let superuser = try server.connect("postgres")
        defer { superuser.close() }
        try superuser.query(
            """
            DO $$ BEGIN
                IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'patient_bob') THEN CREATE ROLE patient_bob LOGIN; END IF;
            END $$
            """)
        try superuser.query("ALTER ROLE patient_bob SET deadlock_timeout = '10min'")
        let name = TestServer.boardName("flowlock")
        let (parsed, info) = try BoardFormat.parse(
            "## Backlog\n\n- One\n- Two\n\n## Doing\n\n## Done\n\n", file: "lock.md")
        let alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: parsed, info: info)
        defer { alice.disconnect() }
        try alice.grant(role: "patient_bob")
        let b = String(alice.boardID)
        let admin = try server.connect("lanes_admin")
        defer { admin.close() }
        let raw = try server.connect("patient_bob")
        defer { raw.close() }
        let holder = try server.connect("postgres")  // a superuser: row security would hide the rows from anyone else
        defer { holder.close() }
        #expect(try raw.query("SHOW deadlock_timeout")[0, 0] == "10min")
        let rawPid = try #require(raw.query("SELECT pg_backend_pid()").int(0, 0))
        let holderPid = try #require(holder.query("SELECT pg_backend_pid()").int(0, 0))
        let base = try alice.load()
        let one = base.columns[0].cards[0]
        let two = base.columns[0].cards[1]
        let oneID = String(Int64(bitPattern: one.id.rawValue))
        let twoID = String(Int64(bitPattern: two.id.rawValue))
        // The raw writer holds card One's row, with no trigger run yet (so not the board's row).
        try raw.query("BEGIN")
        try raw.query("SELECT 1 FROM lanes.cards WHERE board_id = $1 AND id = $2 FOR UPDATE", [b, oneID])
        // A third session holds the board's columns: the commit will stop there, holding the board's row.
        // (Were the commit past them, waiting for card One already, its one check would have found no cycle.)
        try holder.query("BEGIN")
        #expect(try holder.query("SELECT 1 FROM lanes.columns WHERE board_id = $1 FOR UPDATE", [b]).count == 3)

        var ours = base
        ours.columns[0].cards.remove(at: 0)
        ours.columns[2].cards.append(one)
        let commit = CommitInBackground(alice, base: base, ours: ours)
        // Were it not held there, the raw write could close a cycle that only its own late check would find.
        try #require(try aliceWaits(on: holderPid, admin))
        // The raw writer writes card Two; its trigger waits for the board's row, which the commit holds.
        let rawWrite = RawWriteInBackground(
            raw,
            [
                ("UPDATE lanes.cards SET title = 'Two, by bob' WHERE board_id = $1 AND id = $2", [b, twoID]),
                ("COMMIT", []),
            ])
        #expect(
            try waitFor(
                admin,
                "SELECT EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.pid = $1 AND cardinality(pg_blocking_pids(a.pid)) > 0 AND EXISTS (SELECT 1 FROM pg_stat_activity w WHERE w.usename = 'alice' AND w.pid = ANY (pg_blocking_pids(a.pid))))",
                [String(rawPid)]))
        // Let the commit go on: its wait for card One closes the cycle, and its check finds it.
        try holder.query("COMMIT")
        #expect(commit.wait())
        #expect(rawWrite.wait())
        #expect(rawWrite.error == nil, "the raw write: \(String(describing: rawWrite.error))")
        #expect(commit.error == nil, "the Lanes commit: \(String(describing: commit.error))")
        #expect(commit.conflicts == 0)
        // Rolled back at least once (the server's choice is forced above); a second time only if, the cycle
        // broken, the commit ran again before the raw write could go on (hence the pause before each run).
        #expect((1...2).contains(alice.commitsTriedAgain), "ran again \(alice.commitsTriedAgain) times")
        // Both changes are on the board.
        let rows = try raw.query("SELECT id, column_id, title FROM lanes.cards WHERE board_id = $1 ORDER BY id", [b])
        let cols = try raw.query("SELECT id FROM lanes.columns WHERE board_id = $1 ORDER BY key", [b])
        var seen: [String: (column: Int64?, title: String)] = [:]
        for i in 0..<rows.count { seen[rows[i, 0] ?? ""] = (rows.int(i, 1), rows[i, 2] ?? "") }
        #expect(seen[oneID]?.column == cols.int(2, 0) && seen[oneID]?.title == "One")
        #expect(seen[twoID]?.column == cols.int(0, 0) && seen[twoID]?.title == "Two, by bob")
        let reloaded = try PostgresBoardStore.open(url: server.url("alice", board: name))
        defer { reloaded.disconnect() }
        let now = try reloaded.load()
        #expect(now.columns.map { $0.cards.map(\.title) } == [["Two, by bob"], [], ["One"]])
    }
}
