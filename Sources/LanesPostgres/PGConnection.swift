import CLibPQ
import Foundation
import LanesCore

/// An error the server reported (or libpq found), with its SQLSTATE; never holds a password.
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Five characters, e.g. `42501` (insufficient privilege); empty when libpq gave none.
    public var sqlState: String
    public var message: String

    public init(sqlState: String = "", message: String) {
        self.sqlState = sqlState
        self.message = message
    }

    public var description: String { message }
}

/// One libpq connection used from one thread: text-format queries with parameters, LISTEN/NOTIFY.
///
/// Connection faults (the server gone, a reset socket, an administrator's shutdown) throw
/// `StorageUnavailable` and mark the connection dead; the owner makes a new one.
///
/// Nothing is kept in the server's session, so the connection may be a pooler's (PgBouncer in
/// transaction pooling hands each transaction whichever server connection is free): statements
/// are unnamed (`PQsendQueryParams`, never a named prepared statement another client's
/// transaction could meet), and the timeouts are `SET LOCAL` in each transaction Lanes begins
/// (`BEGIN` is sent with them), never a session `SET` that would stay behind on a pooled server
/// connection. Every answer is waited for at most `answerSeconds` (longer where the caller says a
/// statement is big): a server or pooler that stops answering is said in words, never waited for.
final class PGConnection {
    private var conn: OpaquePointer?
    /// What to call the server in messages (no password).
    let displayName: String

    /// A row set in text format.
    struct Rows {
        var fields: [String]
        var values: [[String?]]
        var count: Int { values.count }
        /// The value, or nil when NULL or when there is no such row.
        subscript(row: Int, column: Int) -> String? { row < values.count ? values[row][column] : nil }
        func int(_ row: Int, _ column: Int) -> Int64? { self[row, column].flatMap { Int64($0) } }
    }

    /// Connects with `conninfo` (a libpq URL or key=value string); gives up after `timeout` seconds
    /// unless the string sets its own `connect_timeout`. `overrides` (libpq keywords) win over the string.
    init(conninfo: String, displayName: String, timeout: Int = 5, overrides: [(String, String)] = []) throws {
        self.displayName = displayName
        // Keywords before dbname are defaults; the URL (expanded from dbname) overrides them.
        let keys =
            [
                "connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count",
                "tcp_user_timeout", "application_name", "dbname",
            ] + overrides.map(\.0)
        let values = [String(timeout), "10", "3", "3", String(timeout * 1000), "lanes", conninfo] + overrides.map(\.1)
        conn = withCStrings(keys) { k in
            withCStrings(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let c = conn, PQstatus(c) == CONNECTION_OK else {
            let reason = conn.map { PGConnection.trimmed(String(cString: PQerrorMessage($0))) } ?? "out of memory"
            close()
            throw PGConnection.connectFailure(reason, displayName: displayName)
        }
        lanes_silence_notices(c)
        guard PQsetnonblocking(c, 1) == 0 else {
            close()
            throw PGConnection.connectFailure("cannot make the connection non-blocking", displayName: displayName)
        }
    }

    /// How long a statement of Lanes waits for a lock before it is refused in words (`lock_timeout`).
    static let lockTimeoutSeconds = 10
    /// How long a statement of Lanes may run (`statement_timeout`): a 100,000-card copy takes a few.
    static let statementTimeoutSeconds = 120
    /// How long Lanes waits for the server's answer to an ordinary statement before it drops the
    /// connection and says so: past the lock timeout, so a held lock is the server's own words first.
    static let answerSeconds = Double(lockTimeoutSeconds + 5)
    /// The same for a statement the caller calls big (a whole board written or deleted, a schema
    /// upgrade, the history read): past the statement timeout.
    static let bigAnswerSeconds = Double(statementTimeoutSeconds + 5)

    /// What every transaction Lanes begins sets for itself (`SET LOCAL`: gone at its end, so
    /// nothing stays on a pooled server connection for the next client).
    static let transactionSettings =
        "SET LOCAL lock_timeout = '\(lockTimeoutSeconds)s'; SET LOCAL statement_timeout = '\(statementTimeoutSeconds)s'"

    deinit { close() }

    /// Failures while connecting: a server that is not there is "unavailable"; a refused login is not.
    static func connectFailure(_ reason: String, displayName: String) -> any Error {
        let lower = reason.lowercased()
        let unreachable = [
            "could not connect", "connection refused", "no such file", "timeout expired",
            "could not translate host", "the database system is starting up",
            "the database system is shutting down", "server closed the connection",
            "network is unreachable", "no route to host",
            // A multi-host URL with target_session_attrs=read-write while no server is the primary
            // (a standby not promoted yet): the team's failover is under way.
            "session is read-only", "server is in hot standby mode", "is not the primary",
        ]
        if unreachable.contains(where: { lower.contains($0) }) {
            return StorageUnavailable(reason: "cannot reach \(displayName): \(Masking.mask(reason))")
        }
        return PostgresError(message: "cannot connect to \(displayName): \(Masking.mask(reason))")
    }

    var isOpen: Bool { conn.map { PQstatus($0) == CONNECTION_OK } ?? false }

    /// The socket to poll for notifications; -1 when closed.
    var socket: Int32 { conn.map { PQsocket($0) } ?? -1 }

    /// The server as libpq reached it: `host:port`, `local:port` for a Unix socket.
    private(set) lazy var server: String = {
        guard let c = conn else { return "" }
        let host = PQhost(c).map { String(cString: $0) } ?? ""
        let port = PQport(c).map { String(cString: $0) } ?? ""
        return (host.isEmpty || host.hasPrefix("/") ? "local" : host) + (port.isEmpty ? "" : ":" + port)
    }()

    /// The cluster's system identifier (`pg_control_system()`), read by the store that made the
    /// connection; nil until then, or when the server refused it.
    var system: String?

    /// Whether the connection was found closed by the other end (the server gone or restarted),
    /// as opposed to a server that stopped answering.
    private(set) var closedUnderUs = false

    /// The role the session runs as.
    private(set) lazy var user: String = conn.flatMap { PQuser($0) }.map { String(cString: $0) } ?? ""

    func close() {
        deferred.removeAll()
        if let c = conn { PQfinish(c) }
        conn = nil
    }

    /// Runs one statement with text parameters (`$1`, `$2`, …; nil is NULL), unnamed (nothing is
    /// left in the session), always under Lanes' timeouts: `BEGIN …` is sent with them
    /// (`transactionSettings`, one round trip); a statement outside a transaction runs in an
    /// implicit one that sets them first (a simple query's statements, or a pipeline of two with
    /// parameters, ended by one Sync: still one round trip). `big`: the statement may keep the
    /// server busy long (`bigAnswerSeconds`).
    @discardableResult
    func query(_ sql: String, _ params: [String?] = [], big: Bool = false) throws -> Rows {
        guard let c = conn else { throw StorageUnavailable(reason: "the connection to \(displayName) is closed") }
        if sql.hasPrefix("ROLLBACK") { deferred.removeAll() }
        if !deferred.isEmpty { return try batch([(sql, params)], big: big)[0] }
        waits += 1
        let patience = big ? PGConnection.bigAnswerSeconds : PGConnection.answerSeconds
        let alone =
            PQtransactionStatus(c) == PQTRANS_IDLE && !sql.hasPrefix("COMMIT") && !sql.hasPrefix("ROLLBACK")
            && !PGConnection.outsideTransactions.contains { sql.hasPrefix($0) }
        let result: OpaquePointer
        if params.isEmpty {
            let text =
                sql.hasPrefix("BEGIN")
                ? sql + "; " + PGConnection.transactionSettings
                : alone ? PGConnection.transactionSettings + "; " + sql : sql
            guard PQsendQuery(c, text) == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
            result = try answer(c, sql, patience: patience)
        } else if !alone {
            let sent = withOptionalCStrings(params) { p in
                PQsendQueryParams(c, sql, Int32(params.count), nil, p, nil, nil, 0)
            }
            guard sent == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
            result = try answer(c, sql, patience: patience)
        } else {
            result = try pipelined(c, sql, params, patience: patience)
        }
        defer { PQclear(result) }
        return try rows(result, c)
    }

    /// A statement's result as rows (none for a command); an error result is thrown in words.
    private func rows(_ result: OpaquePointer, _ c: OpaquePointer) throws -> Rows {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_EMPTY_QUERY:
            return Rows(fields: [], values: [])
        case PGRES_TUPLES_OK:
            let nrows = Int(PQntuples(result)), ncols = Int(PQnfields(result))
            var fields: [String] = []
            for j in 0..<ncols { fields.append(String(cString: PQfname(result, Int32(j)))) }
            var values: [[String?]] = []
            values.reserveCapacity(nrows)
            for i in 0..<nrows {
                var row: [String?] = []
                row.reserveCapacity(ncols)
                for j in 0..<ncols {
                    if PQgetisnull(result, Int32(i), Int32(j)) != 0 {
                        row.append(nil)
                    } else {
                        let len = Int(PQgetlength(result, Int32(i), Int32(j)))
                        let p = UnsafeRawPointer(PQgetvalue(result, Int32(i), Int32(j))!).assumingMemoryBound(
                            to: UInt8.self)
                        row.append(String(decoding: UnsafeBufferPointer(start: p, count: len), as: UTF8.self))
                    }
                }
                values.append(row)
            }
            return Rows(fields: fields, values: values)
        default:
            try check(result, c)
            return Rows(fields: [], values: [])
        }
    }

    /// Statements PostgreSQL runs only outside a transaction block (sent as they are; Lanes sends
    /// none of them, its tests and tools do).
    static let outsideTransactions = ["CREATE DATABASE", "DROP DATABASE", "VACUUM", "ALTER SYSTEM", "CHECKPOINT"]

    /// The settings, then `sql`, in one implicit transaction (a pipeline ended by one Sync).
    private func pipelined(_ c: OpaquePointer, _ sql: String, _ params: [String?], patience: Double) throws
        -> OpaquePointer
    {
        guard PQenterPipelineMode(c) == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        let settings =
            "SELECT set_config('lock_timeout', '\(PGConnection.lockTimeoutSeconds)s', true), set_config('statement_timeout', '\(PGConnection.statementTimeoutSeconds)s', true)"
        let sent =
            PQsendQueryParams(c, settings, 0, nil, nil, nil, nil, 0) == 1
            && withOptionalCStrings(params) { p in PQsendQueryParams(c, sql, Int32(params.count), nil, p, nil, nil, 0) }
                == 1
            && PQpipelineSync(c) == 1
        guard sent else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        // Results: the settings', a NULL, the statement's, a NULL, the Sync. An error skips the rest
        // up to the Sync (PGRES_PIPELINE_ABORTED), and the implicit transaction is rolled back.
        var results = try pipelineResults(c, sql, patience: patience)
        defer { results.forEach { PQclear($0) } }
        if let bad = Self.firstFailure(results) {
            try check(bad, c)
            throw PostgresError(message: "\(displayName): the statement failed")
        }
        guard results.count == 2 else { throw PostgresError(message: "\(displayName): the statement gave no answer") }
        return results.removeLast()
    }

    /// Sends what libpq holds in pipeline mode and collects each statement's result up to the Sync
    /// (at most `patience` seconds without a byte), then leaves pipeline mode. The caller clears them.
    private func pipelineResults(_ c: OpaquePointer, _ sql: String, patience: Double) throws -> [OpaquePointer] {
        var results: [OpaquePointer] = []
        var deadline = monotonicSeconds() + patience
        do {
            while true {
                let f = PQflush(c)
                if f == 0 { break }
                if f < 0 { throw lost(reason: String(cString: PQerrorMessage(c))) }
                guard wait(c, for: Int16(POLLIN | POLLOUT), until: deadline) else { throw silent(sql, patience) }
                if PQconsumeInput(c) == 0 { throw lost(reason: String(cString: PQerrorMessage(c))) }
            }
            var synced = false
            while !synced {
                while PQisBusy(c) == 1 {
                    guard wait(c, for: Int16(POLLIN), until: deadline) else { throw silent(sql, patience) }
                    if PQconsumeInput(c) == 0 { throw lost(reason: String(cString: PQerrorMessage(c))) }
                    deadline = monotonicSeconds() + patience
                }
                guard let r = PQgetResult(c) else { continue }  // the end of one query's results
                if PQresultStatus(r) == PGRES_PIPELINE_SYNC {
                    PQclear(r)
                    synced = true
                } else {
                    results.append(r)
                }
            }
            guard PQexitPipelineMode(c) == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        } catch {
            results.forEach { PQclear($0) }
            throw error
        }
        return results
    }

    /// Answers waited for on this connection (one per `query`, `batch` or `snapshot`: a round
    /// trip); tests count a commit's waits while it holds its board's row (43.6, 41.11).
    private(set) var waits = 0

    /// Statements of the open transaction whose answers are not needed at once (a commit's writes):
    /// sent with the next `query` or `batch`, in one pipeline, so a commit that holds its board's
    /// row waits for the server once for all of them. An error in one is thrown by that next call.
    private var deferred: [(sql: String, params: [String?])] = []

    /// Queues `sql` (inside a transaction) for the next round trip; see `deferred`.
    func later(_ sql: String, _ params: [String?] = []) { deferred.append((sql, params)) }

    /// The queued statements, then `statements`, in one pipeline inside the open transaction (one
    /// round trip, one Sync); the rows of each of `statements`. The first error is thrown (the
    /// transaction is then aborted: the caller rolls it back).
    func batch(_ statements: [(sql: String, params: [String?])], big: Bool = false) throws -> [Rows] {
        guard let c = conn else { throw StorageUnavailable(reason: "the connection to \(displayName) is closed") }
        let all = deferred + statements
        deferred.removeAll()
        waits += 1
        guard PQtransactionStatus(c) == PQTRANS_INTRANS else {
            throw PostgresError(message: "\(displayName): statements batched outside a transaction")
        }
        let label = statements.last?.sql ?? ""
        let patience = patienceOverride ?? (big ? PGConnection.bigAnswerSeconds : PGConnection.answerSeconds)
        if label.hasPrefix("COMMIT"), dropBeforeCommitAnswer {
            // Tests: everything goes out, and the connection is dropped before the answer.
            dropBeforeCommitAnswer = false
            try sendPipeline(all, on: c)
            while PQflush(c) == 1 {}
            close()
            throw StorageUnavailable(reason: "lost the connection to \(displayName) (test: reply to COMMIT dropped)")
        }
        try sendPipeline(all, on: c)
        let results = try pipelineResults(c, label, patience: patience)
        defer { results.forEach { PQclear($0) } }
        if let bad = Self.firstFailure(results) {
            try check(bad, c)
            throw PostgresError(message: "\(displayName): the statement failed")
        }
        guard results.count == all.count else {
            throw PostgresError(
                message: "\(displayName): the statements gave \(results.count) answers for \(all.count)")
        }
        return try results.suffix(statements.count).map { try rows($0, c) }
    }

    /// The first of a pipeline's results that is an error (the server's or a broken answer), if any.
    private static func firstFailure(_ results: [OpaquePointer]) -> OpaquePointer? {
        results.first {
            let status = PQresultStatus($0)
            return status == PGRES_FATAL_ERROR || status == PGRES_BAD_RESPONSE || status == PGRES_NONFATAL_ERROR
        }
    }

    /// Enters pipeline mode and sends `statements`, then one Sync: what `batch` and `snapshot` send.
    private func sendPipeline(_ statements: [(sql: String, params: [String?])], on c: OpaquePointer) throws {
        guard PQenterPipelineMode(c) == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        for s in statements {
            let sent = withOptionalCStrings(s.params) { p in
                PQsendQueryParams(c, s.sql, Int32(s.params.count), nil, p, nil, nil, 0)
            }
            guard sent == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        }
        guard PQpipelineSync(c) == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
    }

    /// Tests: the next COMMIT sent by `batch` goes out and the connection is dropped before its answer.
    var dropBeforeCommitAnswer = false

    /// `statements` read from one snapshot: inside the open transaction as they are, else in a
    /// read-only repeatable-read transaction of their own, begun and ended in the same pipeline
    /// (one round trip).
    func snapshot(_ statements: [(sql: String, params: [String?])], big: Bool = false) throws -> [Rows] {
        guard let c = conn else { throw StorageUnavailable(reason: "the connection to \(displayName) is closed") }
        if PQtransactionStatus(c) == PQTRANS_INTRANS { return try batch(statements, big: big) }
        deferred.removeAll()
        waits += 1
        let settings =
            "SELECT set_config('lock_timeout', '\(PGConnection.lockTimeoutSeconds)s', true), set_config('statement_timeout', '\(PGConnection.statementTimeoutSeconds)s', true)"
        let all: [(sql: String, params: [String?])] =
            [("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", []), (settings, [])] + statements + [("ROLLBACK", [])]
        let patience = patienceOverride ?? (big ? PGConnection.bigAnswerSeconds : PGConnection.answerSeconds)
        try sendPipeline(all, on: c)
        let results = try pipelineResults(c, statements.first?.sql ?? "", patience: patience)
        defer { results.forEach { PQclear($0) } }
        if let bad = Self.firstFailure(results) {
            // An error skipped the ROLLBACK: the transaction it began is still open (aborted).
            if PQtransactionStatus(c) != PQTRANS_IDLE, isOpen { _ = try? query("ROLLBACK") }
            try check(bad, c)
            throw PostgresError(message: "\(displayName): the statement failed")
        }
        guard results.count == all.count else {
            throw PostgresError(
                message: "\(displayName): the statements gave \(results.count) answers for \(all.count)")
        }
        return try results.dropFirst(2).prefix(statements.count).map { try rows($0, c) }
    }

    /// Tests: the next answer is waited for this long instead (a stopped server, said in words sooner).
    var patienceOverride: Double?

    /// Sends what libpq holds and waits for the statement's results, at most `patience` seconds
    /// without a byte from the server; returns the last result (each earlier one checked for an
    /// error and cleared). A server that stays silent that long is given up on: the connection is
    /// closed (the server rolls back what it had not committed) and the words say what is known.
    private func answer(_ c: OpaquePointer, _ sql: String, patience: Double) throws -> OpaquePointer {
        let patience = patienceOverride ?? patience
        var deadline = monotonicSeconds() + patience
        while true {
            let f = PQflush(c)
            if f == 0 { break }
            if f < 0 { throw lost(reason: String(cString: PQerrorMessage(c))) }
            guard wait(c, for: Int16(POLLIN | POLLOUT), until: deadline) else { throw silent(sql, patience) }
            if PQconsumeInput(c) == 0 { throw lost(reason: String(cString: PQerrorMessage(c))) }
        }
        var results: [OpaquePointer] = []
        func clearAll() {
            results.forEach { PQclear($0) }
            results.removeAll()
        }
        while true {
            while PQisBusy(c) == 1 {
                guard wait(c, for: Int16(POLLIN), until: deadline) else {
                    clearAll()
                    throw silent(sql, patience)
                }
                if PQconsumeInput(c) == 0 {
                    clearAll()
                    throw lost(reason: String(cString: PQerrorMessage(c)))
                }
                deadline = monotonicSeconds() + patience  // bytes came: the server is answering
            }
            guard let r = PQgetResult(c) else { break }
            let status = PQresultStatus(r)
            if status == PGRES_COPY_OUT || status == PGRES_COPY_IN || status == PGRES_COPY_BOTH {
                clearAll()
                return r  // the caller reads the data (copyOut); no further result before it ends
            }
            results.append(r)
        }
        if let bad = Self.firstFailure(results) {
            defer { clearAll() }
            try check(bad, c)
            throw PostgresError(message: "\(displayName): the statement failed")
        }
        guard let last = results.popLast() else {
            throw lost(reason: String(cString: PQerrorMessage(c)))
        }
        clearAll()
        return last
    }

    /// Waits for the socket to be ready for `events` until `deadline` (monotonic seconds); false when it passed.
    private func wait(_ c: OpaquePointer, for events: Int16, until deadline: Double) -> Bool {
        while true {
            let left = deadline - monotonicSeconds()
            if left <= 0 {
                // Past the deadline, one last look without waiting: a client thread that was not run
                // for a while (a loaded machine) must not call an answer that came meanwhile silence.
                var p = pollfd(fd: PQsocket(c), events: events, revents: 0)
                return poll(&p, 1, 0) > 0
            }
            var p = pollfd(fd: PQsocket(c), events: events, revents: 0)
            let n = poll(&p, 1, Int32(min(left * 1000 + 1, 1_000)))
            if n > 0 { return true }
            if n < 0 && errno != EINTR { return true }  // let libpq find and say what is wrong
        }
    }

    /// The server (or the pooler between) sent nothing for `patience` seconds: the connection is
    /// given up (so nothing waits on it), and the words say whether a COMMIT may have gone through.
    private func silent(_ sql: String, _ patience: Double) -> StorageUnavailable {
        close()
        let seconds = patience == patience.rounded() ? String(Int(patience)) : String(format: "%.1f", patience)
        let what =
            sql.hasPrefix("COMMIT")
            ? "it did not answer COMMIT, so the change may or may not have been saved; what you see once it is back is what was"
            : "nothing of what was being written was committed"
        return StorageUnavailable(
            reason: "\(displayName) stopped answering (nothing for \(seconds) s); the connection was dropped: \(what)")
    }

    /// Runs `COPY (query) TO STDOUT (FORMAT binary)` and hands each row's fields to `row`, straight
    /// from libpq's buffer: no result set is built, no field becomes a string unless the reader
    /// asks (a million-row history read allocates per row only what it keeps). `query` takes no
    /// parameters (COPY does not): callers put only numbers of their own in it.
    func copyOut(_ query: String, row: (BinaryRow) throws -> Void) throws {
        guard let c = conn else { throw StorageUnavailable(reason: "the connection to \(displayName) is closed") }
        let sql = "COPY (\(query)) TO STDOUT (FORMAT binary)"
        guard PQsendQuery(c, sql) == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        let patience = patienceOverride ?? PGConnection.bigAnswerSeconds
        let started = try answer(c, sql, patience: patience)
        let status = PQresultStatus(started)
        if status != PGRES_COPY_OUT {
            defer { PQclear(started) }
            try check(started, c)
            throw PostgresError(message: "\(displayName): COPY did not start")
        }
        PQclear(started)
        var header = true
        var failure: (any Error)?
        let offsets = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        let lengths = UnsafeMutableBufferPointer<Int>.allocate(capacity: 64)
        defer { offsets.deallocate(); lengths.deallocate() }
        var deadline = monotonicSeconds() + patience
        while true {
            var buffer: UnsafeMutablePointer<CChar>?
            let n = PQgetCopyData(c, &buffer, 1)
            if n == 0 {
                guard wait(c, for: Int16(POLLIN), until: deadline) else { throw silent(sql, patience) }
                if PQconsumeInput(c) == 0 { throw lost(reason: String(cString: PQerrorMessage(c))) }
                deadline = monotonicSeconds() + patience
                continue
            }
            if n == -1 { break }
            guard n > 0, let buffer else { throw lost(reason: String(cString: PQerrorMessage(c))) }
            defer { PQfreemem(buffer) }
            guard failure == nil else { continue }  // drain the rest, so the connection stays usable
            var data = UnsafeRawBufferPointer(start: buffer, count: Int(n))
            if header {
                // "PGCOPY\n\xff\r\n\0", flags (int32), extension length (int32) and extension.
                guard data.count >= 19 else {
                    failure = PostgresError(message: "\(displayName): a short COPY header"); continue
                }
                let ext = Int(BinaryRow.int32(data, 15))
                data = UnsafeRawBufferPointer(rebasing: data[(19 + ext)...])
                header = false
                if data.isEmpty { continue }
            }
            guard data.count >= 2, BinaryRow.int16(data, 0) >= 0 else { continue }  // the trailer (-1)
            do { try row(BinaryRow(data: data, offsets: offsets, lengths: lengths)) } catch { failure = error }
        }
        let ended = try answer(c, sql, patience: patience)
        defer { PQclear(ended) }
        if PQresultStatus(ended) != PGRES_COMMAND_OK { try check(ended, c) }
        if let failure { throw failure }
    }

    /// One row of a binary COPY: field count (int16), then each field's length (int32, -1: NULL)
    /// and bytes, integers big-endian. Valid only inside `copyOut`'s closure.
    struct BinaryRow {
        let data: UnsafeRawBufferPointer
        /// Each field's start in `data` (-1: NULL) and length; storage reused from row to row.
        private let offsets: UnsafeMutableBufferPointer<Int>
        private let lengths: UnsafeMutableBufferPointer<Int>
        let count: Int

        /// Reads the field table of `data` into `offsets`/`lengths` (fields past their capacity are not read).
        init(
            data: UnsafeRawBufferPointer, offsets: UnsafeMutableBufferPointer<Int>,
            lengths: UnsafeMutableBufferPointer<Int>
        ) {
            self.data = data
            self.offsets = offsets
            self.lengths = lengths
            let n = min(Int(Self.int16(data, 0)), offsets.count)
            count = n
            var at = 2
            for j in 0..<n {
                offsets[j] = -1
                lengths[j] = 0
                guard at + 4 <= data.count else { continue }
                let len = Int(Self.int32(data, at))
                at += 4
                guard len >= 0, at + len <= data.count else { continue }
                offsets[j] = at
                lengths[j] = len
                at += len
            }
        }

        static func int16(_ d: UnsafeRawBufferPointer, _ at: Int) -> Int16 {
            Int16(bitPattern: UInt16(d[at]) << 8 | UInt16(d[at + 1]))
        }

        static func int32(_ d: UnsafeRawBufferPointer, _ at: Int) -> Int32 {
            Int32(
                bitPattern: UInt32(d[at]) << 24 | UInt32(d[at + 1]) << 16 | UInt32(d[at + 2]) << 8 | UInt32(d[at + 3]))
        }

        static func int64(_ d: UnsafeRawBufferPointer, _ at: Int) -> Int64 {
            var v: UInt64 = 0
            for i in 0..<8 { v = v << 8 | UInt64(d[at + i]) }
            return Int64(bitPattern: v)
        }

        func isNull(_ j: Int) -> Bool { j >= count || offsets[j] < 0 }

        /// A bigint field (nil: NULL).
        func int64(_ j: Int) -> Int64? {
            guard !isNull(j), lengths[j] == 8 else { return nil }
            return Self.int64(data, offsets[j])
        }

        /// A boolean field (nil: NULL).
        func bool(_ j: Int) -> Bool? {
            guard !isNull(j), lengths[j] == 1 else { return nil }
            return data[offsets[j]] != 0
        }

        /// A timestamptz field in whole seconds since 1970 (binary: microseconds since 2000-01-01 UTC), rounded down.
        func seconds(_ j: Int) -> Int64? {
            guard let us = int64(j) else { return nil }
            let s = us >= 0 ? us / 1_000_000 : (us - 999_999) / 1_000_000
            return s + 946_684_800
        }

        /// A field's bytes (nil: NULL); valid only inside `copyOut`'s closure.
        func bytes(_ j: Int) -> UnsafeRawBufferPointer? {
            guard !isNull(j), lengths[j] > 0 else { return nil }
            return UnsafeRawBufferPointer(rebasing: data[offsets[j]..<(offsets[j] + lengths[j])])
        }

        /// A text field (nil: NULL).
        func string(_ j: Int) -> String? {
            guard !isNull(j) else { return nil }
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: data[offsets[j]..<(offsets[j] + lengths[j])]), as: UTF8.self)
        }
    }

    /// Throws the error a failed result holds: connection faults as `StorageUnavailable`.
    private func check(_ result: OpaquePointer, _ c: OpaquePointer) throws {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = PGConnection.trimmed(String(cString: PQresultErrorMessage(result)))
        if PQstatus(c) != CONNECTION_OK || state.hasPrefix("08") || state == "57P01" || state == "57P02"
            || state == "57P03"
        {
            throw lost(reason: message)
        }
        switch state {
        case "55P03":
            throw PostgresError(
                sqlState: state,
                message:
                    "\(displayName): another session has held a lock on the board's tables for over \(PGConnection.lockTimeoutSeconds) s (a LOCK TABLE or a transaction left open); nothing was changed, try again once it lets go"
            )
        case "57014":
            throw PostgresError(
                sqlState: state,
                message:
                    "\(displayName): the server did not finish within \(PGConnection.statementTimeoutSeconds) s (\(message)); nothing was changed"
            )
        default:
            throw PostgresError(sqlState: state, message: message)
        }
    }

    /// Sends a statement and closes the connection without reading the reply (tests: a reply lost on the wire).
    func sendAndDrop(_ sql: String) {
        guard let c = conn else { return }
        _ = PQsendQuery(c, sql)
        while PQflush(c) == 1 {}
        close()
    }

    /// Reads what arrived on the socket and returns the notifications (channel, payload) in order.
    func notifications() throws -> [(channel: String, payload: String)] {
        guard let c = conn else { throw StorageUnavailable(reason: "the connection to \(displayName) is closed") }
        guard PQconsumeInput(c) == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        // A server that went away leaves the socket readable at end of file: the second read sees it.
        if waitReadable(milliseconds: 0) {
            guard PQconsumeInput(c) == 1 else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        }
        var out: [(String, String)] = []
        while let n = PQnotifies(c) {
            out.append((String(cString: n.pointee.relname), String(cString: n.pointee.extra)))
            PQfreemem(n)
        }
        if PQstatus(c) != CONNECTION_OK { throw lost(reason: "the connection was closed") }
        return out
    }

    /// Notifications libpq already read (while answering a query) and queued; no socket read.
    func queued() -> [(channel: String, payload: String)] {
        guard let c = conn else { return [] }
        var out: [(String, String)] = []
        while let n = PQnotifies(c) {
            out.append((String(cString: n.pointee.relname), String(cString: n.pointee.extra)))
            PQfreemem(n)
        }
        return out
    }

    /// Waits up to `milliseconds` for the socket to turn readable; true when it did.
    func waitReadable(milliseconds: Int32) -> Bool {
        var p = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&p, 1, milliseconds) > 0
    }

    private func lost(reason: String) -> StorageUnavailable {
        closedUnderUs = true
        close()
        let r = PGConnection.trimmed(reason)
        return StorageUnavailable(
            reason: "lost the connection to \(displayName)\(r.isEmpty ? "" : ": " + Masking.mask(r))")
    }

    static func trimmed(_ s: String) -> String {
        s.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: " ")
    }

    /// A SQL string literal (for statements that take no parameters, such as LISTEN).
    static func literal(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "''") + "'" }

    /// A quoted SQL identifier.
    static func identifier(_ s: String) -> String { "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}

private func withCStrings<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    var pointers: [UnsafePointer<CChar>?] = copies.map { UnsafePointer($0) }
    pointers.append(nil)
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}

private func withOptionalCStrings<R>(_ strings: [String?], _ body: (UnsafePointer<UnsafePointer<CChar>?>) -> R) -> R {
    let copies = strings.map { $0.map { strdup($0) } ?? nil }
    defer { copies.forEach { free($0) } }
    let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
    return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
