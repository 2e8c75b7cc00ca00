import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesPostgres
#if canImport(Glibc)
    import Glibc
#endif

extension PostgresStoreTests {
    /// #40 against the real server: what a member can write with psql never crashes a client, never
    /// hides changes from open screens, never leaks another board's keys; a revoked member loses the
    /// board's channel; a lock another session holds is answered in words within seconds.
    @Suite struct HostileMemberTests {
        let server: TestServer

        init() throws {
            server = try TestServer.get()
        }

        func sharedBoard(grant: [String] = ["bob"]) throws -> (alice: PostgresBoardStore, name: String) {
            let name = TestServer.boardName("hostile")
            let (board, info) = try BoardFormat.parse(taskellBoard, file: "fixture.md")
            let alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board, info: info)
            for role in grant { try alice.grant(role: role) }
            return (alice, name)
        }

        /// The SQLSTATE a statement was refused with; nil when it was done.
        func refusal(_ db: PGConnection, _ sql: String, _ params: [String?] = []) -> String? {
            do {
                try db.query(sql, params)
                return nil
            } catch let e as PostgresError {
                return e.sqlState
            } catch {
                return "\(error)"
            }
        }

        @Test("a member can neither overflow the version nor move it back; at the ceiling a commit is refused in words")
        func versionOverflowAndRollBack() throws {
            let (alice, _) = try sharedBoard()
            defer { alice.disconnect() }
            var a = try alice.load()
            for _ in 0..<2 { a = try alice.commit(base: a, ours: moved(a, "Write docs", to: 1)).board }
            let bob = try server.connect("bob")
            defer { bob.close() }
            let b = String(alice.boardID)
            #expect(try bob.query("SELECT version > 1 FROM lanes.boards WHERE id = $1", [b])[0, 0] == "t")
            // The issue's attack: the next commit's `version + 1` trapped every client (SIGILL).
            #expect(refusal(bob, "UPDATE lanes.boards SET version = 9223372036854775807 WHERE id = $1", [b]) == "23514")
            #expect(refusal(bob, "UPDATE lanes.boards SET version = 1 WHERE id = $1", [b]) == "22023")
            for table in ["cards", "columns"] {
                #expect(
                    refusal(bob, "UPDATE lanes.\(table) SET seq = 9223372036854775807 WHERE board_id = $1", [b])
                        == "23514", "\(table).seq")
                #expect(
                    refusal(bob, "UPDATE lanes.\(table) SET version = 9223372036854775807 WHERE board_id = $1", [b])
                        == "23514", "\(table).version")
            }
            // The highest value the server takes: the next commit cannot go past it, and says so.
            try bob.query("UPDATE lanes.boards SET version = $2 WHERE id = $1", [b, String(Schema.counterCeiling)])
            do {
                _ = try alice.commit(base: a, ours: moved(a, "Fix login", to: 2))
                Issue.record("the commit went past the ceiling")
            } catch let e as PostgresError {
                #expect(e.message.contains("at the ceiling"), "\(e.message)")
            }
            let shown = try PostgresBoardStore.open(url: server.url("alice", board: alice.url.board)).load()
            #expect(titles(shown) == titles(a), "nothing was changed")
        }

        @Test("a unique-key error never tells a member which order keys another board's column holds")
        func noKeyLeaksFromAnotherBoard() throws {
            let (mine, _) = try sharedBoard()
            defer { mine.disconnect() }
            let (theirs, _) = try sharedBoard(grant: [])
            defer { theirs.disconnect() }
            let owner = try server.connect("alice")  // owns both boards; bob is a member of `mine` only
            defer { owner.close() }
            let row = try owner.query(
                "SELECT column_id, key FROM lanes.cards WHERE board_id = $1 LIMIT 1", [String(theirs.boardID)])
            let (column, key) = (try #require(row[0, 0]), try #require(row[0, 1]))
            let bob = try server.connect("bob")
            defer { bob.close() }
            do {
                try bob.query(
                    "INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ($1, 4040404, $2, $3, 'probe', 1)",
                    [String(mine.boardID), column, key])
                Issue.record("the probe was inserted")
            } catch let e as PostgresError {
                #expect(
                    e.sqlState == "23503", "refused by the foreign key, not a unique key: \(e.sqlState) \(e.message)")
                #expect(!e.message.contains("already exists"), "\(e.message)")
            }
        }

        @Test("a revoke gives the board a new channel: open screens follow it, the revoked member hears nothing")
        func revokeRotatesTheChannel() throws {
            // A role of its own for the member who stays (carol must stay without grants: other tests count on it).
            let superuser = try server.connect("postgres")
            defer { superuser.close() }
            try superuser.query(
                "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'hostile_dora') THEN CREATE ROLE hostile_dora LOGIN; END IF; END $$"
            )
            let (alice, name) = try sharedBoard(grant: ["bob", "hostile_dora"])
            defer { alice.disconnect() }
            let admin = try server.connect("lanes_admin")
            defer { admin.close() }
            let b = String(alice.boardID)
            func channel() throws -> String {
                try #require(try admin.query("SELECT channel FROM lanes.board_names WHERE board_id = $1", [b])[0, 0])
            }
            let old = try channel()
            let bob = try server.connect("bob")
            defer { bob.close() }
            try bob.query("LISTEN \(PGConnection.identifier(old))")
            let carol = try PostgresBoardStore.open(url: server.url("hostile_dora", board: name))
            defer { carol.disconnect() }
            var seen = try carol.load()
            _ = try carol.refresh()  // a screen's first look: it LISTENs from here on

            try alice.revoke(role: "bob")
            let new = try channel()
            #expect(new != old)
            // Carol's screen hears the revoke on the old channel, and reads the new one.
            let fd = try #require(carol.changeDescriptor)
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            #expect(poll(&p, 1, 20_000) == 1, "carol's store heard the revoke")
            _ = try carol.refresh()
            let a = try alice.load()
            _ = try alice.commit(base: a, ours: moved(a, "Fix login", to: 2))
            let after = try waitForRefresh(carol) { titles($0) != titles(seen) }
            seen = try #require(after, "carol's screen saw alice's change through the new channel")
            #expect(titles(seen) == titles(try alice.load()))
            // Bob's last word on the old channel is the revoke's; then a marker shows the change sent none.
            try admin.query("SELECT pg_notify($1, 'marker')", [old])
            var heard: [(channel: String, payload: String)] = []
            let deadline = hostileNow() + 20
            while !heard.contains(where: { $0.payload == "marker" }) && hostileNow() < deadline {
                _ = bob.waitReadable(milliseconds: 200)
                heard += try bob.notifications()
            }
            let beforeMarker = heard.prefix { $0.payload != "marker" }
            #expect(heard.contains { $0.payload == "marker" })
            #expect(beforeMarker.count <= 1, "after the revoke's own, nothing on the old channel: \(beforeMarker)")
            #expect(try bob.query("SELECT count(*) FROM lanes.board_names WHERE board_id = $1", [b])[0, 0] == "0")
        }

        @Test("a lock another session holds on the board's tables is answered in words within seconds")
        func heldLockIsAnsweredInWords() throws {
            // A database of its own: a table lock in the shared one would stop every test beside this one.
            let database = "lanes_lock_test"
            let superuser = try server.connect("postgres")
            defer { superuser.close() }
            if try superuser.query("SELECT 1 FROM pg_database WHERE datname = $1", [database]).count == 0 {
                try superuser.query("CREATE DATABASE \(database) OWNER lanes_admin")
            }
            let setup = try server.connect("lanes_admin", database: database)
            try Schema.migrate(setup)
            setup.close()
            let (parsed, info) = try BoardFormat.parse(taskellBoard, file: "fixture.md")
            let alice = try PostgresBoardStore.create(
                url: server.conninfo("alice", database: database) + "&board=\(TestServer.boardName("lock"))",
                board: parsed, info: info)
            defer { alice.disconnect() }
            let a = try alice.load()
            let holder = try server.connect("lanes_admin", database: database)
            defer { holder.close() }
            try holder.query("BEGIN")
            try holder.query("LOCK TABLE lanes.boards, lanes.cards IN ACCESS EXCLUSIVE MODE")
            let start = hostileNow()
            do {
                _ = try alice.commit(base: a, ours: moved(a, "Fix login", to: 2))
                Issue.record("the commit went through a held lock")
            } catch let e as PostgresError {
                #expect(e.sqlState == "55P03")
                #expect(e.message.contains("held a lock on the board's tables"), "\(e.message)")
            }
            let took = hostileNow() - start
            #expect(took < Double(PGConnection.lockTimeoutSeconds) + 20, "answered after \(took) s")
            try holder.query("ROLLBACK")
            let b = try alice.load()
            #expect(titles(b) == titles(a), "nothing was changed")
        }
    }
}

/// Refreshes `store` until `done` holds for what it hands out (a condition, up to a hang guard).
private func waitForRefresh(_ store: PostgresBoardStore, until done: (Board) -> Bool) throws -> Board? {
    let deadline = hostileNow() + 30
    while hostileNow() < deadline {
        if let fd = store.changeDescriptor {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 200)
        }
        if let board = try store.refresh(), done(board) { return board }
    }
    return nil
}

private func hostileNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
