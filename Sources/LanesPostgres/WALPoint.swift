/// Where in a server's write-ahead log a store's rows were read: whether another server still has them.
///
/// `flushed` is `pg_current_wal_flush_lsn()` taken after the read's snapshot: a transaction is
/// visible only once its commit record is flushed (with synchronous replication, once the standby
/// has it too), so every commit the rows show ends at or before it. Commits made with
/// `synchronous_commit = off` (raw SQL a member sends; Lanes never does) are visible before their
/// flush and are outside this promise.
struct WALPoint: Equatable, Sendable {
    /// `pg_control_system().system_identifier`: a standby cloned from the primary shares it.
    var system: String
    var timeline: UInt32
    var flushed: UInt64
}

/// A server's place in its cluster's history, as a store checks it after a reconnect.
struct ServerLineage: Equatable, Sendable {
    var system: String
    var timeline: UInt32
    /// `pg_last_wal_replay_lsn()`: where its recovery ended, for a promoted standby where it left the
    /// old timeline; nil when it never recovered.
    var replayedTo: UInt64?

    /// Whether every commit the rows read at `point` show is on this server: the same cluster, and
    /// the same timeline (the same server, restarted or not) or the next one from a standby that had
    /// replayed past `point` before its promotion. Anything else (an asynchronous standby that had
    /// not received them, two promotions since, another cluster) is not known to hold them.
    ///
    /// Not seen: a promoted standby that then restarted from a crash reports where that recovery
    /// ended, not where it left the old timeline; a store that stayed away across both may take a
    /// delta where a whole read was due.
    func holds(_ point: WALPoint) -> Bool {
        guard point.system == system else { return false }
        if point.timeline == timeline { return true }
        guard timeline == point.timeline &+ 1, let replayedTo else { return false }
        return point.flushed <= replayedTo
    }

    /// `holds` where either side may be unknown (a server whose place was not read, rows read
    /// without one): unknown is never vouched for.
    static func vouches(_ server: ServerLineage?, for point: WALPoint?) -> Bool {
        guard let server, let point else { return false }
        return server.holds(point)
    }

    /// An LSN as PostgreSQL writes it ("16/B374D848"): two hex numbers, high and low 32 bits.
    static func lsn(_ text: String) -> UInt64? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let hi = UInt32(parts[0], radix: 16), let lo = UInt32(parts[1], radix: 16),
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 8 })
        else { return nil }
        return UInt64(hi) << 32 | UInt64(lo)
    }

    /// The timeline of a WAL file's name (`pg_walfile_name`): its first 8 hex digits.
    static func timeline(walFile name: String) -> UInt32? {
        guard name.count == 24, name.allSatisfy(\.isHexDigit) else { return nil }
        return UInt32(name.prefix(8), radix: 16)
    }

    /// The columns a statement adds to read the server's place, NULL on a server in recovery (where
    /// the WAL functions are refused): the flushed LSN, its WAL file's name, the replay LSN. On a
    /// connection that may not call them (`readable` false: an administrator revoked one), three NULLs.
    static func columns(readable: Bool) -> String {
        readable ? readableColumns : "NULL::text, NULL::text, NULL::text"
    }
    private static let readableColumns = """
        CASE WHEN pg_catalog.pg_is_in_recovery() THEN NULL ELSE pg_catalog.pg_current_wal_flush_lsn()::text END,
        CASE WHEN pg_catalog.pg_is_in_recovery() THEN NULL
            ELSE pg_catalog.pg_walfile_name(pg_catalog.pg_current_wal_flush_lsn()) END,
        pg_catalog.pg_last_wal_replay_lsn()::text
        """

    /// Whether the session may call every function `columns` and the system identifier need (every
    /// role may, unless an administrator revoked one); a query that cannot fail for want of them.
    static let mayRead = """
        SELECT bool_and(pg_catalog.has_function_privilege(f, 'EXECUTE')) FROM unnest(ARRAY[
            'pg_catalog.pg_control_system()', 'pg_catalog.pg_is_in_recovery()',
            'pg_catalog.pg_current_wal_flush_lsn()', 'pg_catalog.pg_walfile_name(pg_lsn)',
            'pg_catalog.pg_last_wal_replay_lsn()']) AS f
        """

    /// The place read by `columns` from `row`, starting at column `at`, on a connection whose cluster
    /// is `system` (nil: unknown, so nothing is known to hold).
    static func read(_ r: PGConnection.Rows, at: Int, system: String?) -> (history: ServerLineage, point: WALPoint)? {
        guard let system, let flushed = r[0, at].flatMap(lsn), let timeline = r[0, at + 1].flatMap(timeline(walFile:))
        else { return nil }
        let history = ServerLineage(system: system, timeline: timeline, replayedTo: r[0, at + 2].flatMap(lsn))
        return (history, WALPoint(system: system, timeline: timeline, flushed: flushed))
    }
}
