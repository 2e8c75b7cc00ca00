import Foundation
@testable import LanesCore
import Testing
@testable import LanesPostgres

/// Migration 8 (#40) on a database that lived at migration 7: a member's table-level DELETE, and the
/// `LOCK TABLE … IN ACCESS EXCLUSIVE MODE` it allowed, are gone; deletes go through the deletion
/// views and do what a member's DELETE did (row security, version, removals, history); a `restored`
/// entry is the server's to write.
@Suite("Migration 8: no table-level DELETE, deletion views, restore entries the server writes", .serialized)
struct DeletionViewTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
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

    /// Rows an INSERT into a deletion view deleted (its RETURNING rows, counted by a SELECT: the
    /// extended protocol describes a rule-rewritten INSERT as returning nothing).
    func deleted(_ db: PGConnection, _ insert: String, _ params: [String?]) throws -> Int64 {
        try db.query("WITH d AS (\(insert) RETURNING 1) SELECT count(*) FROM d", params).int(0, 0) ?? -1
    }

    @Test(
        "a migration-7 database upgraded: rows kept, DELETE and LOCK refused, the deletion views delete as the member did"
    )
    func upgradeFromSeven() throws {
        let superuser = try server.connect("postgres", database: "postgres")
        defer { superuser.close() }
        let db = "up8_\(UInt32.random(in: 0...UInt32.max))"
        try superuser.query("CREATE DATABASE \(db) OWNER lanes_admin")
        defer { _ = try? superuser.query("DROP DATABASE \(db) WITH (FORCE)") }
        let admin = try server.connect("lanes_admin", database: db)
        defer { admin.close() }
        try Schema.migrate(admin, through: 7)

        // A board as a migration-7 Lanes left it: alice owns it, bob is a member, carol is not.
        let alice = try server.connect("alice", database: db)
        defer { alice.close() }
        try alice.query("INSERT INTO lanes.boards (name, version) VALUES ('team', 0)")
        let id = try #require(try alice.query("SELECT currval('lanes.board_ids')")[0, 0])
        try alice.query("UPDATE lanes.boards SET version = 1 WHERE id = $1", [id])
        let column = try #require(
            try alice.query(
                "INSERT INTO lanes.columns (board_id, key, title, seq) VALUES ($1, 'k', 'To do', 1) RETURNING id", [id])[
                    0, 0])
        let empty = try #require(
            try alice.query(
                "INSERT INTO lanes.columns (board_id, key, title, seq) VALUES ($1, 'l', 'Later', 1) RETURNING id", [id])[
                    0, 0])
        for j in 1...5 {
            try alice.query(
                "INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ($1, $2, $3, $4, $5, 1)",
                [id, String(j * 1_000_003), column, "c\(j)", "Task \(j)"])
        }
        try alice.query("INSERT INTO lanes.members (board_id, role) VALUES ($1, 'bob')", [id])
        let bob = try server.connect("bob", database: db)
        defer { bob.close() }
        // The hole: at 7, a member's DELETE privilege takes the lock that stops every team.
        try bob.query("BEGIN")
        #expect(refusal(bob, "LOCK TABLE lanes.boards, lanes.cards IN ACCESS EXCLUSIVE MODE") == nil)
        try bob.query("ROLLBACK")

        try Schema.migrate(admin)
        #expect(try Schema.currentVersion(admin) == Schema.latest)
        #expect(try alice.query("SELECT count(*) FROM lanes.cards WHERE board_id = $1", [id]).int(0, 0) == 5)

        // Every role but the tables' owner: no table-level DELETE, no lock beyond a read's.
        let carol = try server.connect("carol", database: db)
        defer { carol.close() }
        for (name, conn) in [("alice", alice), ("bob", bob), ("carol", carol)] {
            let held = try conn.query(
                """
                SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'lanes' AND c.relkind = 'r'
                AND (has_table_privilege(c.oid, 'DELETE') OR has_table_privilege(c.oid, 'UPDATE')
                     OR has_table_privilege(c.oid, 'TRUNCATE'))
                """)
            #expect(held.values.isEmpty, "\(name) holds table-level DELETE, UPDATE or TRUNCATE on \(held.values)")
            for mode in ["ROW SHARE", "ROW EXCLUSIVE", "SHARE", "EXCLUSIVE", "ACCESS EXCLUSIVE"] {
                try conn.query("BEGIN")
                #expect(
                    refusal(conn, "LOCK TABLE lanes.boards, lanes.cards IN \(mode) MODE") == "42501", "\(name), \(mode)"
                )
                try conn.query("ROLLBACK")
            }
            #expect(refusal(conn, "DELETE FROM lanes.cards WHERE board_id = $1", [id]) == "42501", "\(name)")
        }

        // Through the view, bob deletes as he did: his name on the removal and the history, the version raised.
        let before = try #require(try alice.query("SELECT version FROM lanes.boards WHERE id = $1", [id]).int(0, 0))
        let card = String(1 * 1_000_003)
        #expect(try deleted(bob, "INSERT INTO lanes.card_deletions (board_id, id) VALUES ($1, $2)", [id, card]) == 1)
        #expect(try alice.query("SELECT count(*) FROM lanes.cards WHERE board_id = $1", [id]).int(0, 0) == 4)
        #expect(
            try alice.query("SELECT removed_by FROM lanes.removals WHERE board_id = $1 AND card_id = $2", [id, card])
                .values == [["bob"]])
        #expect(
            try alice.query(
                "SELECT role FROM lanes.history WHERE board_id = $1 AND entity = 'card' AND kind = 'deleted'", [id]
            ).values == [["bob"]])
        #expect(try alice.query("SELECT version FROM lanes.boards WHERE id = $1", [id]).int(0, 0) == before + 1)
        // A non-member names the same board's rows: nothing is deleted, nothing raised.
        let other = String(2 * 1_000_003)
        #expect(
            try deleted(carol, "INSERT INTO lanes.card_deletions (board_id, id) VALUES ($1, $2)", [id, other]) == 0)
        #expect(
            try deleted(carol, "INSERT INTO lanes.column_deletions (board_id, id) VALUES ($1, $2)", [id, empty]) == 0)
        #expect(try deleted(carol, "INSERT INTO lanes.board_deletions (id) VALUES ($1)", [id]) == 0)
        // bob may not revoke (no --can-grant), nor delete the board; he may delete an empty column.
        #expect(
            try deleted(bob, "INSERT INTO lanes.member_deletions (board_id, role) VALUES ($1, 'bob')", [id]) == 0)
        #expect(try deleted(bob, "INSERT INTO lanes.board_deletions (id) VALUES ($1)", [id]) == 0)
        #expect(
            try deleted(bob, "INSERT INTO lanes.column_deletions (board_id, id) VALUES ($1, $2)", [id, empty]) == 1)
        #expect(try alice.query("SELECT count(*) FROM lanes.cards WHERE board_id = $1", [id]).int(0, 0) == 4)
        #expect(try alice.query("SELECT count(*) FROM lanes.boards WHERE id = $1", [id]).int(0, 0) == 1)

        // A restore entry: no longer a column to write; the function refuses one with no change.
        #expect(refusal(bob, "UPDATE lanes.boards SET restore_point = now() WHERE id = $1", [id]) == "42501")
        #expect(refusal(bob, "SELECT lanes.record_restore($1, now() - interval '1 minute')", [id]) == "42501")
        #expect(refusal(carol, "SELECT lanes.record_restore($1, now() - interval '1 minute')", [id]) == "42501")
        try bob.query("BEGIN")
        try bob.query("UPDATE lanes.cards SET title = 'back' WHERE board_id = $1 AND id = $2", [id, other])
        #expect(refusal(bob, "SELECT lanes.record_restore($1, now() + interval '1 minute')", [id]) == "22023")
        try bob.query("ROLLBACK")
        try bob.query("BEGIN")
        try bob.query("UPDATE lanes.cards SET title = 'back' WHERE board_id = $1 AND id = $2", [id, other])
        try bob.query("SELECT lanes.record_restore($1, now() - interval '1 minute')", [id])
        try bob.query("COMMIT")
        #expect(
            try alice.query(
                "SELECT role FROM lanes.history WHERE board_id = $1 AND kind = 'restored'", [id]
            ).values == [["bob"]])

        // alice revokes bob (the owner may), then deletes the board, both through the views.
        #expect(
            try deleted(alice, "INSERT INTO lanes.member_deletions (board_id, role) VALUES ($1, 'bob')", [id]) == 1)
        #expect(try deleted(alice, "INSERT INTO lanes.board_deletions (id) VALUES ($1)", [id]) == 1)
        let all = try server.connect("postgres", database: db)  // a superuser sees past row security
        defer { all.close() }
        #expect(try all.query("SELECT count(*) FROM lanes.boards WHERE id = $1", [id]).int(0, 0) == 0)
        #expect(try all.query("SELECT count(*) FROM lanes.cards WHERE board_id = $1", [id]).int(0, 0) == 0)
        #expect(
            try all.query(
                "SELECT role FROM lanes.history WHERE board_id = $1 AND kind IN ('revoked', 'deleted') AND entity IN ('member', 'board') ORDER BY id",
                [id]
            ).values
                == [["alice"], ["alice"]])
    }
}
