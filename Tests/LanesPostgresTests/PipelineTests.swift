import Foundation
import Testing

@testable import LanesPostgres

/// The round trips a commit makes while it holds its board's row (43.6): writes queued with
/// `later` travel with the next statement, in order, and fail with it; a snapshot begins and ends
/// its own transaction in one pipeline and leaves the connection as it found it.
@Suite struct PipelineTests {
    func connection() throws -> PGConnection {
        let server = try TestServer.get()
        let db = try PGConnection(conninfo: server.conninfo("alice"), displayName: "test")
        try db.query("CREATE TEMP TABLE t (n int PRIMARY KEY)")
        return db
    }

    @Test func queuedWritesGoWithTheNextStatementInTheirOrder() throws {
        let db = try connection()
        try db.query("BEGIN")
        db.later("INSERT INTO t VALUES (1)")
        db.later("UPDATE t SET n = n + 10 WHERE n = $1", ["1"])
        db.later("INSERT INTO t VALUES ($1)", ["2"])
        #expect(try db.query("SELECT string_agg(n::text, ',' ORDER BY n) FROM t")[0, 0] == "2,11")
        let rows = try db.batch([("SELECT count(*) FROM t", []), ("SELECT max(n) FROM t", [])])
        #expect(rows.map { $0[0, 0] } == ["2", "11"])
        db.later("INSERT INTO t VALUES (3)")
        try db.query("COMMIT")
        #expect(try db.query("SELECT count(*) FROM t")[0, 0] == "3")
    }

    @Test func anErrorInAQueuedWriteIsThrownByTheNextCallAndNothingOfTheTransactionStays() throws {
        let db = try connection()
        try db.query("BEGIN")
        db.later("INSERT INTO t VALUES (5)")
        db.later("INSERT INTO t VALUES (5)")  // a duplicate key
        let error = #expect(throws: PostgresError.self) { try db.batch([("COMMIT", [])]) }
        #expect(error?.sqlState == "23505")
        try db.query("ROLLBACK")
        #expect(try db.query("SELECT count(*) FROM t")[0, 0] == "0")
        // ROLLBACK drops what is still queued: nothing of it reaches the next transaction.
        try db.query("BEGIN")
        db.later("INSERT INTO t VALUES (6)")
        try db.query("ROLLBACK")
        #expect(try db.query("SELECT count(*) FROM t")[0, 0] == "0")
    }

    @Test func aSnapshotReadsInOneTransactionOfItsOwnAndLeavesNoneOpen() throws {
        let db = try connection()
        try db.query("INSERT INTO t VALUES (1), (2)")
        let r = try db.snapshot([
            ("SELECT count(*) FROM t", []),
            ("SELECT current_setting('transaction_isolation'), current_setting('transaction_read_only')", []),
            ("SELECT current_setting('lock_timeout'), current_setting('statement_timeout')", []),
        ])
        #expect(r[0][0, 0] == "2")
        #expect(r[1][0, 0] == "repeatable read" && r[1][0, 1] == "on")
        #expect(r[2][0, 0] == "10s" && r[2][0, 1] == "2min")
        // Outside it, the session keeps no setting and no transaction.
        #expect(try db.query("SHOW transaction_isolation")[0, 0] == "read committed")
        // A failing statement: its error in words, and the transaction it began is gone.
        let error = #expect(throws: PostgresError.self) {
            try db.snapshot([("SELECT n / 0 FROM t", []), ("SELECT 1", [])])
        }
        #expect(error?.sqlState == "22012")
        try db.query("INSERT INTO t VALUES (3)")  // would fail in a read-only or aborted transaction
        #expect(try db.query("SELECT count(*) FROM t")[0, 0] == "3")
    }
}
