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
    /// unless the string sets its own `connect_timeout`.
    init(conninfo: String, displayName: String, timeout: Int = 5) throws {
        self.displayName = displayName
        // Keywords before dbname are defaults; the URL (expanded from dbname) overrides them.
        let keys = ["connect_timeout", "keepalives_idle", "keepalives_interval", "keepalives_count",
                    "tcp_user_timeout", "application_name", "dbname"]
        let values = [String(timeout), "10", "3", "3", String(timeout * 1000), "lanes", conninfo]
        conn = withCStrings(keys) { k in
            withCStrings(values) { v in PQconnectdbParams(k, v, 1) }
        }
        guard let c = conn, PQstatus(c) == CONNECTION_OK else {
            let reason = conn.map { PGConnection.trimmed(String(cString: PQerrorMessage($0))) } ?? "out of memory"
            close()
            throw PGConnection.connectFailure(reason, displayName: displayName)
        }
        lanes_silence_notices(c)
    }

    deinit { close() }

    /// Failures while connecting: a server that is not there is "unavailable"; a refused login is not.
    static func connectFailure(_ reason: String, displayName: String) -> any Error {
        let lower = reason.lowercased()
        let unreachable = ["could not connect", "connection refused", "no such file", "timeout expired",
                           "could not translate host", "the database system is starting up",
                           "the database system is shutting down", "server closed the connection",
                           "network is unreachable", "no route to host"]
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

    /// The role the session runs as.
    private(set) lazy var user: String = conn.flatMap { PQuser($0) }.map { String(cString: $0) } ?? ""

    func close() {
        if let c = conn { PQfinish(c) }
        conn = nil
    }

    /// Runs one statement with text parameters (`$1`, `$2`, …; nil is NULL).
    @discardableResult
    func query(_ sql: String, _ params: [String?] = []) throws -> Rows {
        guard let c = conn else { throw StorageUnavailable(reason: "the connection to \(displayName) is closed") }
        let result: OpaquePointer?
        if params.isEmpty {
            result = PQexec(c, sql)
        } else {
            // Statements with parameters are prepared once per connection: parsing and planning
            // (row-level security included) is most of a short statement's cost.
            let name: String
            if let known = prepared[sql] {
                name = known
            } else {
                name = "lanes_\(prepared.count)"
                let made = PQprepare(c, name, sql, Int32(params.count), nil)
                defer { PQclear(made) }
                guard let made else { throw lost(reason: String(cString: PQerrorMessage(c))) }
                if PQresultStatus(made) != PGRES_COMMAND_OK {
                    try check(made, c)
                }
                prepared[sql] = name
            }
            result = withOptionalCStrings(params) { p in PQexecPrepared(c, name, Int32(params.count), p, nil, nil, 0) }
        }
        defer { PQclear(result) }
        guard let result else { throw lost(reason: String(cString: PQerrorMessage(c))) }
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
                        let p = UnsafeRawPointer(PQgetvalue(result, Int32(i), Int32(j))!).assumingMemoryBound(to: UInt8.self)
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

    /// Statement text → prepared statement name, on this connection.
    private var prepared: [String: String] = [:]

    /// Runs a one-off query with parameters and hands each row's fields to `row` as bytes, straight
    /// from libpq's result (no string per field: a million-row history read allocates per row what it keeps).
    func scan(_ sql: String, _ params: [String?], row: (RawRow) throws -> Void) throws {
        guard let c = conn else { throw StorageUnavailable(reason: "the connection to \(displayName) is closed") }
        let result = withOptionalCStrings(params) { p in PQexecParams(c, sql, Int32(params.count), nil, p, nil, nil, 0) }
        defer { PQclear(result) }
        guard let result else { throw lost(reason: String(cString: PQerrorMessage(c))) }
        guard PQresultStatus(result) == PGRES_TUPLES_OK else {
            try check(result, c)
            return
        }
        let n = Int32(PQntuples(result))
        for i in 0..<n { try row(RawRow(result: result, row: i)) }
    }

    /// One row of a result being scanned; valid only inside `scan`'s closure.
    struct RawRow {
        let result: OpaquePointer
        let row: Int32

        func isNull(_ j: Int32) -> Bool { PQgetisnull(result, row, j) != 0 }

        /// The field's text bytes (empty when NULL).
        func bytes(_ j: Int32) -> UnsafeBufferPointer<UInt8> {
            let len = Int(PQgetlength(result, row, j))
            return UnsafeBufferPointer(start: UnsafeRawPointer(PQgetvalue(result, row, j)!).assumingMemoryBound(to: UInt8.self), count: len)
        }

        func string(_ j: Int32) -> String? { isNull(j) ? nil : String(decoding: bytes(j), as: UTF8.self) }

        /// A decimal integer field, or nil when NULL or not one.
        func int(_ j: Int32) -> Int64? {
            guard !isNull(j) else { return nil }
            let b = bytes(j)
            guard !b.isEmpty else { return nil }
            var i = 0, negative = false
            if b[0] == UInt8(ascii: "-") { negative = true; i = 1 }
            guard i < b.count else { return nil }
            var v: Int64 = 0
            while i < b.count {
                let d = b[i] &- 0x30
                guard d < 10 else { return nil }
                v = v &* 10 &+ Int64(d)
                i += 1
            }
            return negative ? -v : v
        }
    }

    /// Throws the error a failed result holds: connection faults as `StorageUnavailable`.
    private func check(_ result: OpaquePointer, _ c: OpaquePointer) throws {
        let state = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
        let message = PGConnection.trimmed(String(cString: PQresultErrorMessage(result)))
        if PQstatus(c) != CONNECTION_OK || state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03" {
            throw lost(reason: message)
        }
        throw PostgresError(sqlState: state, message: message)
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
        close()
        let r = PGConnection.trimmed(reason)
        return StorageUnavailable(reason: "lost the connection to \(displayName)\(r.isEmpty ? "" : ": " + Masking.mask(r))")
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
