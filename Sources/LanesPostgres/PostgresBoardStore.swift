import CLibPQ
import DragKit
import Foundation
import LanesCore
#if canImport(Glibc)
    import Glibc
#endif

/// A board in PostgreSQL, shared live by every client granted it: the `BoardStore` for URLs.
///
/// `commit` turns `ours` minus `base` into row operations applied in one transaction under the
/// board row's lock. Each operation is checked against the row version this client last saw: a
/// row someone else changed first keeps their change (the operation is skipped and reported as
/// a `.refused` conflict with words) unless the fields it writes still hold `base`'s values.
/// The schema's triggers NOTIFY the board's channel (a random name only members can read) with no
/// payload; `refresh` takes a notification as a hint only: it looks at the board's version under
/// row-level security (at most every `lookInterval`) and fetches only the rows written since.
/// A board this role can no longer read (revoked, deleted, renamed) throws `BoardGone`.
///
/// `changeDescriptor` is an epoll descriptor watching the reading connection's socket and an
/// eventfd the store signals when libpq queued a notification while answering a query (the socket
/// then has nothing left to read, yet a change is waiting); it stays the same across reconnects.
///
/// From its first `refresh` on (a screen's) the store reads and LISTENs on a second connection,
/// so `refresh` may run on another thread while `commit` waits for the board row
/// (`RefreshesBesideCommits`); with `listen=` in the URL that connection is to the server named
/// there. A command, which never refreshes, keeps one connection and LISTENs nowhere (a LISTEN left
/// on a pooled server connection keeps receiving notifications for no client; with PgBouncer 1.18
/// in session pooling a later client of that connection then got another query's results, 1 run
/// in 3 of twelve commands). The two sides share only the newest rows read (`latest`, under a
/// lock): a commit starts from them and publishes what it read back, a refresh applies its delta
/// to them unless something newer is there already.
///
/// Offline: every method throws `StorageUnavailable` when the server cannot be reached (connect
/// timeout 5 s), and the next call reconnects and LISTENs again; `changeDescriptor` is nil while
/// offline (call `refresh` on a timer then). A commit whose outcome was lost with the connection
/// is safe to repeat with the same `base` and `ours`: it carries the same token, and a token
/// the database already holds is not applied again.
public final class PostgresBoardStore: BoardStore, WriterNaming, RefreshesBesideCommits {
    public let url: PostgresURL
    public var displayName: String { url.display }
    /// The board's row id.
    public private(set) var boardID: Int64 = 0
    /// Commits and commands (through the pooler when there is one).
    private var db: PGConnection?
    /// A screen's (from its first `refresh`): LISTEN and reads; with `listen=`, to the server named there.
    private var reader: PGConnection?
    /// The rows the commits' side judges against (copied from `latest` when a commit starts).
    var mirror = Mirror()
    /// Guards `latest`, `generation` and `handOuts`, the one state both threads touch.
    private let sharing = NSLock()
    /// The newest rows either side read.
    private var latest = Mirror()
    /// Counts whole reads: a delta read before one is not applied after it (another server's versions).
    private var generation = 0
    /// The generation `mirror` was copied from or published as.
    private var mirrorGeneration = 0
    /// Boards handed out so far (`CommitOutcome.handedOut`).
    private var handOuts: UInt64 = 0
    /// Whole reads taken into `mirror` (`apply(_:full:)`), so a commit knows it made one.
    private var mirrorResets = 0
    /// Column row ids of the board last handed out, in board order.
    private var handedColumns: [Int64] = []
    private var handedTitles: [String] = []
    /// A commit whose reply was lost: its token is reused for the same base and ours.
    private var unsure: (token: String, base: Board, ours: Board)?
    private let timeout: Int
    /// Tests: the next commit sends COMMIT and drops the connection before the reply.
    var dropReplyToNextCommit = false

    /// The role this store works as (from the URL, the environment or libpq's default).
    public private(set) var role: String = ""
    /// The server as connected to: `host:port` (`local:port` for a Unix socket).
    public private(set) var server: String = ""
    /// For a title bar: `role@host:port · board`.
    public var title: String { "\(role)@\(server) · \(url.board)" }

    /// The board's NOTIFY channel: a random name only its members can read (`board_names.channel`).
    private var channel = ""
    /// A notification arrived (on any channel of ours) that no look at the version has answered yet.
    private var hinted = false
    /// When the version was last looked at (monotonic seconds): looks are at most one per `lookInterval`.
    private var lastLook = 0.0
    /// Notifications are hints anyone may forge: however many arrive, at most this often a look.
    /// 250 ms, not 50: 200 screens of one board each read every change, and at 50 ms their reads
    /// took the server's CPU from the commits (43.9); a screen that looked longer ago looks at once.
    static let lookInterval = 0.25
    /// Looks at the version made (tests: a flood of forged notifications makes few).
    public private(set) var looks = 0
    /// When the last commit that reached the board row had its lock, and when the server answered its
    /// COMMIT (CLOCK_MONOTONIC nanoseconds; lanes-bench splits a change's way to other screens by them).
    public private(set) var lastCommitClock: (locked: UInt64, committed: UInt64) = (0, 0)

    private let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
    private let wake = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))

    private init(url: PostgresURL, timeout: Int) {
        self.url = url
        self.timeout = timeout
        _ = lanes_epoll_add(epoll, wake)
    }

    deinit {
        db?.close()
        reader?.close()
        close(epoll)
        close(wake)
    }

    /// Takes notifications libpq queued during a query; signals the descriptor when one is news.
    /// Only the reading connection LISTENs: on the commits' one nothing is queued, and nothing of
    /// the reading side is touched (it may be another thread's).
    private func collectQueued(_ c: PGConnection) {
        guard c.queued().contains(where: { $0.channel == channel }) else { return }
        hinted = true
        lookAgain()
    }

    /// Makes `changeDescriptor` readable, so the reading side looks once more.
    private func lookAgain() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    /// Whether `s` names a PostgreSQL board rather than a file.
    public static func isURL(_ s: String) -> Bool { PostgresURL.isURL(s) }

    /// Opens an existing board: connects, brings the schema up to date, loads nothing yet (LISTEN waits for the first `refresh`).
    ///
    /// Throws `CommandError(.notFound)` when there is no such board, `CommandError(.badInput)`
    /// when the role has no grant on it (exit status 2 in the CLI), `StorageUnavailable` when the
    /// server cannot be reached, `PostgresError` for anything else the server says.
    public static func open(url: String, timeout: Int = 5) throws -> PostgresBoardStore {
        let store = PostgresBoardStore(url: try PostgresURL(url), timeout: timeout)
        let db = try store.connect()
        guard let id = try db.query("SELECT id FROM lanes.boards WHERE name = $1", [store.url.board]).int(0, 0) else {
            if try db.query("SELECT lanes.board_exists($1)", [store.url.board])[0, 0] == "t" {
                throw CommandError(
                    .badInput,
                    "role \(db.user) has no access to board “\(store.url.board)” at \(store.url.display); its owner can give it: lanes grant URL \(db.user)"
                )
            }
            throw CommandError(
                .notFound, "no board “\(store.url.board)” at \(store.url.display); create it with lanes copy FILE URL")
        }
        store.boardID = id
        return store
    }

    /// Reads the board's channel (members only) and LISTENs on it.
    private func listen(_ c: PGConnection) throws {
        guard
            let name = try c.query("SELECT channel FROM lanes.board_names WHERE board_id = $1", [String(boardID)])[
                0, 0]
        else {
            throw gone(c)
        }
        channel = name
        try c.query("LISTEN \(PGConnection.identifier(name))")
    }

    /// The board this store opened is called `name` now: its URL no longer names it.
    private func renamed(to name: String) -> BoardGone {
        BoardGone(message: "board “\(url.board)” was renamed “\(name)” by its owner; open it again with board=\(name)")
    }

    /// Why the board cannot be read: deleted, renamed, or this role's access revoked.
    func gone(_ db: PGConnection) -> BoardGone {
        let name = (try? db.query("SELECT lanes.board_exists($1)", [url.board])[0, 0]) ?? nil
        if name == "t" {
            return BoardGone(
                message:
                    "role \(db.user) no longer has access to board “\(url.board)” (revoked by its owner or a member who may grant)"
            )
        }
        return BoardGone(message: "board “\(url.board)” was deleted (or renamed and then deleted) at \(url.display)")
    }

    /// Brings the database's Lanes schema up to date (what every open does first); the role must
    /// own the schema or, the first time, be allowed to create one. The URL's `board` is ignored.
    public static func setUpSchema(url: String, timeout: Int = 5) throws {
        let parsed = try PostgresURL(url)
        let db = try PGConnection(conninfo: parsed.conninfo, displayName: parsed.display, timeout: timeout)
        try Schema.migrate(db)
    }

    /// Creates the board (the schema too on first use) from `board` and `info`; every card gets a
    /// fresh identity. An existing board is refused unless `replace`, which rewrites its columns,
    /// cards and rules in one transaction (members stay) and notifies open clients.
    public static func create(
        url: String, board: Board, info: BoardFileInfo, replace: Bool = false,
        timeout: Int = 5
    ) throws -> PostgresBoardStore {
        let parsed = try PostgresURL(url)
        let store = PostgresBoardStore(url: parsed, timeout: timeout)
        let db = try store.connect()
        try db.query("BEGIN")
        do {
            let existing = try db.query("SELECT id FROM lanes.boards WHERE name = $1 FOR UPDATE", [parsed.board]).int(
                0, 0)
            let id: Int64
            if let existing {
                guard replace else {
                    throw CommandError(
                        .badInput,
                        "board “\(parsed.board)” already exists at \(parsed.display); add --replace to overwrite it")
                }
                id = existing
                // (deletes go through the deletion views: no role holds DELETE on a table, migration 8)
                try db.query(
                    "INSERT INTO lanes.card_deletions (board_id, id) SELECT board_id, id FROM lanes.cards WHERE board_id = $1",
                    [String(id)], big: true)
                try db.query(
                    "INSERT INTO lanes.column_deletions (board_id, id) SELECT board_id, id FROM lanes.columns WHERE board_id = $1",
                    [String(id)])
            } else {
                if try db.query("SELECT lanes.board_exists($1)", [parsed.board])[0, 0] == "t" {
                    throw CommandError(
                        .badInput,
                        "board “\(parsed.board)” exists at \(parsed.display) and role \(db.user) has no access to it")
                }
                try db.query("INSERT INTO lanes.boards (name, version) VALUES ($1, 0)", [parsed.board])
                id = try db.query("SELECT currval('lanes.board_ids')").int(0, 0)!
            }
            let version = try db.query("SELECT version + 1 FROM lanes.boards WHERE id = $1", [String(id)]).int(0, 0)!
            let v = String(version), b = String(id)
            try db.query(
                """
                UPDATE lanes.boards SET version = $2, dialect = $3, frontmatter = $4, preamble = $5, archive = $6,
                    settings = $7, epilogue = $8, accept_rules = $9 WHERE id = $1
                """,
                [
                    b, v, info.dialect == .obsidian ? "obsidian" : "taskell", RowCodec.lines(info.frontmatter),
                    RowCodec.lines(info.preamble), RowCodec.lines(info.archive), RowCodec.lines(info.settings),
                    RowCodec.lines(info.epilogue), board.acceptRules.serialized(),
                ])
            let columnKeys = OrderKey.spread(board.columns.count)
            let layouts = info.laneLayouts(titles: board.columns.map(\.title))
            for (i, column) in board.columns.enumerated() {
                let cid = try db.query(
                    """
                    INSERT INTO lanes.columns (board_id, key, title, wip_limit, extra_lines, seq, heading, card_style, after_list)
                    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id
                    """,
                    [
                        b, columnKeys[i], column.title, column.wipLimit.map(String.init),
                        RowCodec.lines(column.extraLines), v, layouts[i].heading, layouts[i].cardStyle,
                        RowCodec.lines(layouts[i].afterList),
                    ]
                ).int(0, 0)!
                guard !column.cards.isEmpty else { continue }
                let keys = OrderKey.spread(column.cards.count)
                let cards = column.cards
                try db.query(
                    """
                    INSERT INTO lanes.cards (board_id, id, column_id, key, title, due, description, subtasks, done, extra_lines, seq)
                    SELECT $1, u.id, $2, u.key, u.title, u.due, u.description, u.subtasks, u.done, u.extra, $3
                    FROM unnest($4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::boolean[], $11::text[])
                        AS u(id, key, title, due, description, subtasks, done, extra)
                    """,
                    [
                        b, String(cid), v,
                        RowCodec.array(cards.map { _ in Int64(bitPattern: CardID.fresh().rawValue) }),
                        RowCodec.array(keys), RowCodec.array(cards.map(\.title)), RowCodec.array(cards.map(\.due)),
                        RowCodec.array(cards.map { RowCodec.lines($0.descriptionLines) }),
                        RowCodec.array(cards.map { RowCodec.subtasks($0.subtasks) }),
                        "{" + cards.map { $0.done ? "t" : "f" }.joined(separator: ",") + "}",
                        RowCodec.array(cards.map { RowCodec.lines($0.extraLines) }),
                    ], big: true)
            }
            try db.query(
                "INSERT INTO lanes.removal_deletions (board_id, card_id) SELECT board_id, card_id FROM lanes.removals WHERE board_id = $1",
                [b])
            try db.query("COMMIT")
            store.boardID = id
        } catch {
            if db.isOpen { _ = try? db.query("ROLLBACK") }
            throw error
        }
        return store
    }

    // MARK: Connection

    /// The commits' connection, reconnecting when it was lost.
    @discardableResult
    private func connect() throws -> PGConnection {
        if let db, db.isOpen { return db }
        db?.close()
        db = nil
        let began = monotonicNanos()
        let c = try PGConnection(conninfo: url.conninfo, displayName: url.display, timeout: timeout)
        try Schema.migrate(c)
        c.system = Self.systemIdentifier(c)
        stageHook?(.connectCommits, began, monotonicNanos())
        if role != c.user { role = c.user }
        if server != c.server { server = c.server }
        db = c
        if boardID != 0 { wholeReadPending = true }
        return c
    }

    /// The reading connection (a screen's), made and LISTENing when it was lost; with `listen=` (a
    /// pooler in front) to the server named there. Made again after a loss, its next look reads the
    /// whole board (the server reached may not be the one left).
    private func connectReader() throws -> PGConnection {
        if let reader, reader.isOpen { return reader }
        reader?.close()
        reader = nil
        let began = monotonicNanos()
        let c: PGConnection
        if let at = url.listen {
            var overrides = [("port", at.port)]
            if let host = at.host { overrides.insert(("host", host), at: 0) }
            let shown = "\(url.display) (listening at \(at.host.map { $0 + ":" } ?? "")\(at.port))"
            c = try PGConnection(conninfo: url.conninfo, displayName: shown, timeout: timeout, overrides: overrides)
        } else {
            c = try PGConnection(conninfo: url.conninfo, displayName: url.display, timeout: timeout)
        }
        do { try listen(c) } catch {
            c.close()
            throw error
        }
        c.system = Self.systemIdentifier(c)
        _ = lanes_epoll_add(epoll, c.socket)
        reader = c
        stageHook?(.connectReading, began, monotonicNanos())
        if readerMade {
            reconnected = true
            readerWholeRead = true
        }
        readerMade = true
        return c
    }

    /// Runs `body` on the commits' connection; a lost connection is dropped so the next call reconnects.
    func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        let c = try connect()
        do {
            return try body(c)
        } catch let e as StorageUnavailable {
            db?.close()
            db = nil
            throw e
        }
    }

    /// The cluster's system identifier, which a reconnect compares (`ServerLineage`); nil when the
    /// session may not call it or the WAL functions (then no read takes the server's place, and every
    /// reconnect reads the board whole).
    private static func systemIdentifier(_ c: PGConnection) -> String? {
        guard (try? c.query(ServerLineage.mayRead))?[0, 0] == "t" else { return nil }
        return (try? c.query("SELECT system_identifier::text FROM pg_catalog.pg_control_system()"))?[0, 0]
    }

    /// Runs `body` on the reading connection; a lost connection is dropped so the next call makes it again.
    private func withReader<T>(_ body: (PGConnection) throws -> T) throws -> T {
        let c = try connectReader()
        do {
            return try body(c)
        } catch let e as StorageUnavailable {
            reader?.close()
            reader = nil
            throw e
        }
    }

    public var changeDescriptor: Int32? {
        if listening { return (reader?.isOpen ?? false) ? epoll : nil }
        guard let db, db.isOpen else { return nil }
        return epoll
    }

    /// The board version of the newest board handed out (each commit that changes something adds one).
    public var version: Int64 { shared { $0.latest.version } }

    /// The file parts of the board (dialect, frontmatter…) as stored, for writing it out to a file.
    /// The board row's file info with each lane's layout from its row.
    public var fileInfo: BoardFileInfo {
        shared { s in
            var info = s.latest.info
            info.setLaneLayouts(s.latest.columns.map(\.layout), titles: s.latest.columns.map(\.title))
            return info
        }
    }

    /// Runs `body` with `sharing` held.
    private func shared<T>(_ body: (PostgresBoardStore) throws -> T) rethrows -> T {
        sharing.lock()
        defer { sharing.unlock() }
        return try body(self)
    }

    /// Hands out the newest board with its number (`sharing` held).
    private func handOutLatest() -> (board: Board, handedOut: UInt64) {
        handOuts += 1
        return (latest.board(), handOuts)
    }

    /// A commit starts from the newest rows either side read.
    private func takeLatest() {
        shared { s in
            if s.mirrorGeneration != s.generation || s.latest.version > s.mirror.version {
                s.mirror = s.latest
                s.mirrorGeneration = s.generation
            }
        }
    }

    /// After a load or a commit: what the commits' side read becomes the newest unless the reading
    /// side read something newer meanwhile (then that board is handed out: it holds the commit too).
    /// `resets`: `mirrorResets` when the commit began (a whole read since replaces the rows whatever they say).
    private func publish(_ outcome: CommitOutcome, resets: Int) -> CommitOutcome {
        var outcome = outcome
        shared { s in
            if s.mirrorResets != resets {
                s.generation += 1
                s.latest = s.mirror
                s.mirrorGeneration = s.generation
            } else if s.mirrorGeneration == s.generation && s.mirror.version >= s.latest.version {
                s.latest = s.mirror
            } else {
                // The reading side is ahead (or read the whole board again meanwhile).
                let (board, n) = s.handOutLatest()
                outcome.board = board
                outcome.handedOut = n
                return
            }
            s.handOuts += 1
            outcome.handedOut = s.handOuts
        }
        return outcome
    }

    // MARK: Reading

    public func load() throws -> Board {
        let resets = mirrorResets
        let board = try withConnection { db in
            apply(try fetchDelta(db, since: nil), full: true)
            wholeReadPending = false
            return handOut()
        }
        return publish(CommitOutcome(board: board), resets: resets).board
    }

    /// Looks for changes: after a notification (or a reconnect), the board's version under
    /// row-level security, then the rows written since. A notification's payload is never
    /// trusted (anyone may NOTIFY); a flood of them costs one look per `lookInterval`.
    public func refresh() throws -> Board? { try refreshNumbered()?.board }

    /// `refresh` on the reading connection, which may run while a commit waits on the other one.
    public func refreshNumbered() throws -> (board: Board, handedOut: UInt64)? {
        let began = monotonicNanos()
        return try withReader { db in
            if !listening {
                // The first look (a screen's): the reading connection LISTENs from now on, and looks
                // once for what came since the load. A command, which never looks, LISTENs nowhere:
                // nothing of it stays on a pooled server connection.
                listening = true
                hinted = true
            }
            var drained: UInt64 = 0
            _ = read(wake, &drained, 8)
            if try db.notifications().contains(where: { $0.channel == channel }) { hinted = true }
            guard hinted || reconnected else { return nil }
            let wait = lastLook + Self.lookInterval - monotonicSeconds()
            if wait > 0 {
                usleep(UInt32(wait * 1_000_000))
                _ = try db.notifications()  // those that came meanwhile are answered by this look
            }
            hinted = false
            reconnected = false
            lastLook = monotonicSeconds()
            looks += 1
            // The version under row-level security and the rows written since the newest we hold, in
            // one round trip (43.9: 200 screens of one board read each change).
            let (known, generationRead, seenAt) = shared { ($0.latest.version, $0.generation, $0.latest.readAt) }
            var before: Int64? = known
            let lookBegan = monotonicNanos()
            var look = try fetchDelta(db, since: before, look: true)
            if let name = look.name, name != url.board { throw renamed(to: name) }
            if let now = look.channel, now != channel {
                // The server gave the board a new channel (a member revoked, the board handed over).
                try db.query("UNLISTEN \(PGConnection.identifier(channel))")
                channel = now
                try db.query("LISTEN \(PGConnection.identifier(now))")
            }
            if readerWholeRead {
                // Made again after a loss: the server reached may lack commits we saw (a standby
                // promoted that had not received them), unless its history shows it holds them.
                if ServerLineage.vouches(look.history, for: seenAt) {
                    readerWholeRead = false
                } else {
                    before = nil
                }
            }
            if before != nil, look.version < known {
                // A version only rises on a server (migration 7); one below ours means this server
                // lacks commits we saw (a standby promoted that had not received them, a restored
                // backup): read the whole board again, as it is here.
                before = nil
            }
            if before == nil { look = try fetchDelta(db, since: nil, look: true) }
            guard look.version != known || before == nil else { return nil }
            let delta = look
            if before == nil { stageHook?(.wholeReadReading, lookBegan, monotonicNanos()) }
            collectQueued(db)
            pauseBeforeReadHandOut?()
            let out: (board: Board, handedOut: UInt64)? = shared { s in
                if before == nil {
                    s.apply(delta, full: true, to: &s.latest)
                    s.generation += 1
                } else if s.generation == generationRead && delta.version > s.latest.version {
                    // Rows written after `before` on the newest rows, which are at `before` or later.
                    s.apply(delta, full: false, to: &s.latest)
                } else {
                    return nil  // a commit published these or newer meanwhile
                }
                return s.handOutLatest()
            }
            guard let out else {
                // Looked again soon: a commit's whole read may have come from before this delta.
                hinted = true
                lookAgain()
                return nil
            }
            if before == nil { readerWholeRead = false }
            lastChangeWriter = before == nil ? nil : Self.writers(delta.changed.map(\.changedBy))
            readHook?(known, delta.version, began)
            return out
        }
    }

    /// What `stageHook` times: a connection made (the commits' side, the reading side), a whole read.
    public enum Stage: Sendable {
        case connectCommits, connectReading, wholeReadCommits, wholeReadReading
    }
    /// lanes-bench: each connection made and each whole read of the board, when it began and ended
    /// (CLOCK_MONOTONIC ns); called on the thread that did it (43.11: where a failover's time goes).
    public var stageHook: ((_ stage: Stage, _ began: UInt64, _ ended: UInt64) -> Void)?

    /// lanes-bench: after each board `refresh` took in, the version it held before and after, and
    /// when that refresh began (CLOCK_MONOTONIC ns); called on the reading thread.
    public var readHook: ((_ before: Int64, _ after: Int64, _ began: UInt64) -> Void)?
    /// lanes-bench: after each commit, when it began, when it had the board row and when COMMIT was
    /// answered (CLOCK_MONOTONIC ns; 0 when it did not get so far), the version it started from and
    /// the version it read back; called on the committing thread.
    public var commitHook:
        ((_ began: UInt64, _ locked: UInt64, _ committed: UInt64, _ from: Int64, _ version: Int64) -> Void)?

    /// Set when the reading connection was made again after a loss (so `refresh` looks instead of waiting).
    private var reconnected = false
    /// Set by a reconnect of the commits' connection: the next commit reads the whole board,
    /// whatever its version says. The server reached may not be the one left (a promoted standby
    /// that lacks commits we saw, which may since have reached our version number with other commits).
    private var wholeReadPending = false
    /// The same for the reading connection: its next look reads the whole board.
    private var readerWholeRead = false
    /// Whether the reading connection was made before (so a new one is a reconnect).
    private var readerMade = false
    /// Whether notifications are wanted: from the first `refresh` on (a screen's worker; a command
    /// that only loads and commits never LISTENs, nor opens a second connection).
    private var listening = false

    /// Hands the mirror's board out as the next base.
    private func handOut() -> Board {
        handedColumns = mirror.columns.map(\.id)
        handedTitles = mirror.columns.map(\.title)
        return mirror.board()
    }

    /// The roles that wrote the cards the last `refresh` took in ("changed by alice"; nil when none is known).
    public private(set) var lastChangeWriter: String?

    /// "changed by alice", "changed by alice, bob": the roles in the rows, once each, by name.
    static func writers(_ roles: [String]) -> String? {
        let names = Set(roles.filter { !$0.isEmpty }).sorted()
        return names.isEmpty ? nil : "changed by " + names.joined(separator: ", ")
    }

    /// Reads what was written after `since` (nil: everything), from one snapshot in one round trip;
    /// `look`: a screen's look, with the board's name and channel.
    private func fetchDelta(_ db: PGConnection, since: Int64?, look: Bool = false) throws -> BoardDelta {
        let r = try db.snapshot(
            BoardDelta.statements(board: boardID, since: since, look: look, place: db.system != nil))
        guard let delta = BoardDelta(r, since: since, look: look, system: db.system) else { throw gone(db) }
        return delta
    }

    /// Takes a delta into the mirror (a full one replaces it).
    private func apply(_ d: BoardDelta, full: Bool) {
        if full { mirrorResets += 1 }
        apply(d, full: full, to: &mirror)
    }

    private func apply(_ d: BoardDelta, full: Bool, to mirror: inout Mirror) {
        mirror.readAt = d.point
        mirror.info = d.info
        if d.rulesText != mirror.rulesText || full {
            mirror.rules =
                (try? AcceptRules.parse(Array(d.rulesText.utf8), file: "\(url.display) accept rules")) ?? AcceptRules()
            mirror.rulesText = d.rulesText
        }
        if full {
            mirror.reset(version: d.version, columns: d.columns, cards: d.changed)
        } else {
            mirror.apply(version: d.version, columns: d.columns, cards: d.changed, removed: d.removed)
        }
    }

    // MARK: Writing

    public func commit(base: Board, ours: Board) throws -> CommitOutcome {
        try commit(base: base, ours: ours, alsoWhenWritten: nil)
    }

    /// A commit; `alsoWhenWritten` runs in its transaction when it wrote something (restore's marker).
    func commit(base: Board, ours: Board, alsoWhenWritten: ((PGConnection) throws -> Void)?) throws -> CommitOutcome {
        if base == ours {
            let (board, n) = shared { $0.handOutLatest() }
            return CommitOutcome(board: board, handedOut: n)
        }
        takeLatest()
        let resets = mirrorResets
        let (began, from) = (monotonicNanos(), mirror.version)
        lastCommitClock = (0, 0)
        let outcome: CommitOutcome
        do {
            outcome = try commitTrying(base: base, ours: ours, alsoWhenWritten: alsoWhenWritten)
        } catch let e as PostgresError where e.sqlState == "25006" {
            throw Self.readOnly(url, role: role)
        }
        commitHook?(began, lastCommitClock.locked, lastCommitClock.committed, from, mirror.version)
        pauseBeforeCommitHandOut?()
        return publish(outcome, resets: resets)
    }

    /// Tests: run by `refresh` between reading a delta and handing its board out, and by `commit`
    /// between its read-back and handing its board out (to make the two end in either order).
    var pauseBeforeReadHandOut: (() -> Void)?
    var pauseBeforeCommitHandOut: (() -> Void)?

    /// The commit, run again when the server rolled it back for another's sake.
    private func commitTrying(base: Board, ours: Board, alsoWhenWritten: ((PGConnection) throws -> Void)?) throws
        -> CommitOutcome
    {
        let token: String
        if let u = unsure, u.base == base, u.ours == ours {
            token = u.token
        } else {
            token = UUID().uuidString
        }
        unsure = (token, base, ours)
        var attempts = 1
        var foundClosed = false
        while true {
            let reused = db?.isOpen ?? false
            var used: PGConnection?
            do {
                let outcome = try withConnection { db in
                    used = db
                    return try commitTransaction(
                        db, token: token, base: base, ours: ours, alsoWhenWritten: alsoWhenWritten)
                }
                unsure = nil
                return outcome
            } catch is StorageUnavailable where reused && !foundClosed && used?.closedUnderUs == true {
                // The connection, idle since its last use, was found closed (the server restarted, a
                // standby promoted): once more at once on a new one, rather than "offline" while a
                // server takes writes. Its token makes a repeat of a COMMIT whose answer was lost harmless.
                foundClosed = true
            } catch let e as PostgresError where Self.triedAgain.contains(e.sqlState) && attempts < 3 {
                // The server rolled this commit back to break a deadlock with another writer (a
                // member's raw SQL holding a row this commit writes): nothing of it was kept, so
                // it runs again, merged with whatever the other writer committed meanwhile. It first
                // gives the other writer a moment to finish: run again at once, it could take the
                // board's row back before the writer the server let through does, and close the same
                // cycle again (seen in FlowLockOrderTests on a loaded machine).
                usleep(useconds_t(UInt32.random(in: 20_000...60_000) * UInt32(attempts)))
                attempts += 1
                commitsTriedAgain += 1
            }
        }
    }

    /// A write refused because the session may only read (SQLSTATE 25006), in words.
    static func readOnly(_ url: PostgresURL, role: String) -> PostgresError {
        PostgresError(
            sqlState: "25006",
            message:
                "\(url.display): this session may only read board “\(url.board)” (the server runs its transactions read-only for role \(role): default_transaction_read_only is on, or it is a standby); nothing was changed"
        )
    }

    /// SQLSTATEs of a transaction the server rolled back for another's sake: a deadlock
    /// (40P01) or a serialisation failure (40001).
    static let triedAgain: Set<String> = ["40P01", "40001"]

    /// Tests: how many times the last commit that wrote waited for the server from its board-row
    /// lock to its COMMIT, both included (43.6; 41.11).
    private(set) var lastCommitWaits = 0

    /// How many commits ran again after the server rolled them back (`triedAgain`); for tests.
    private(set) var commitsTriedAgain = 0

    private func commitTransaction(
        _ db: PGConnection, token: String, base: Board, ours: Board,
        alsoWhenWritten: ((PGConnection) throws -> Void)? = nil
    ) throws -> CommitOutcome {
        // Where the diff could blame either of two cards (one moved past the other), it blames ours.
        let diff = BoardDiff(base: base, ours: ours) { [mirror] id in
            mirror.cards[Int64(bitPattern: id.rawValue)].map { $0.changedBy != db.user } ?? false
        }
        var before = mirror.version
        let b = String(boardID)
        try db.query("BEGIN")
        var committed = false
        defer { if !committed, db.isOpen { _ = try? db.query("ROLLBACK") } }

        // The board row's lock orders all commits on the board; it also holds the version. Waiting for
        // the row behind other writers is a chain of lock waits (the tuple, then each holder's
        // transaction in turn), each bounded by lock_timeout alone: the whole wait is bounded here,
        // by this statement's own timeout, 2 s past the lock timeout (so a single held lock, a LOCK
        // TABLE, is still the lock timeout's words). Every commit of the board waits while this one
        // holds the row, so from the lock to COMMIT it waits for the server as few times as it can
        // (43.6): the lock, the token, the columns and the cards it touches in one round trip, its
        // writes sent with the next read or with COMMIT.
        let rowWait = PGConnection.lockTimeoutSeconds + 2
        let ids = CommitWork.cardIDs(diff)
        var first: [(sql: String, params: [String?])] = [
            ("SET LOCAL statement_timeout = '\(rowWait)s'", []),
            (
                // The server's place only after a reconnect (below), not on every commit under the row.
                "SELECT version, name, \(ServerLineage.columns(readable: wholeReadPending && db.system != nil)) FROM lanes.boards WHERE id = $1 FOR UPDATE",
                [b]
            ),
            ("SET LOCAL statement_timeout = '\(PGConnection.statementTimeoutSeconds)s'", []),
            ("SELECT 1 FROM lanes.commits WHERE board_id = $1 AND token = $2", [b, token]),
            (CommitWork.columnsForUpdate, [b]),
        ]
        if !ids.isEmpty { first.append((CommitWork.cardsForUpdate, [b, RowCodec.array(ids)])) }
        let read: [PGConnection.Rows]
        let waitsBefore = db.waits
        do {
            read = try db.batch(first)
        } catch let e as PostgresError where e.sqlState == "57014" {
            throw PostgresError(
                sqlState: e.sqlState,
                message:
                    "\(url.display): other writers' changes to board “\(url.board)” kept it busy for over \(rowWait) s; nothing was changed, try again"
            )
        }
        lastCommitClock = (monotonicNanos(), 0)
        let lockedRow = read[1]
        guard let locked = lockedRow.int(0, 0) else { throw gone(db) }
        if let name = lockedRow[0, 1], name != url.board { throw renamed(to: name) }
        // After a reconnect this server may lack commits we saw (a standby promoted that had not
        // received them): unless its history shows it holds them, the rows as they are here are
        // what the commit is checked against.
        let server = ServerLineage.read(lockedRow, at: 2, system: db.system)?.history
        let whole = locked < before || (wholeReadPending && !ServerLineage.vouches(server, for: mirror.readAt))
        wholeReadPending = false
        if whole {
            let wholeBegan = monotonicNanos()
            apply(try fetchDelta(db, since: nil), full: true)
            stageHook?(.wholeReadCommits, wholeBegan, monotonicNanos())
            before = locked
        }
        if read[3].count > 0 {
            // This very commit was applied before its reply was lost.
            let delta = try fetchDelta(db, since: before)
            try db.query("COMMIT")
            committed = true
            apply(delta, full: false)
            return CommitOutcome(board: handOut())
        }
        // The version is a member's to write (within the server's bounds, migration 7): never trusted with `+ 1`.
        let (next, overflow) = locked.addingReportingOverflow(1)
        guard !overflow, next <= Schema.counterCeiling else {
            throw PostgresError(
                sqlState: "22023",
                message:
                    "board “\(url.board)” cannot take another change: its version (\(locked)) is at the ceiling (\(Schema.counterCeiling)); it was written outside Lanes. Nothing was changed; its owner can copy it to a new board (lanes copy URL NEW-URL)"
            )
        }
        var tx = CommitWork(
            db: db, boardID: boardID, seq: next, me: db.user,
            seenCard: { [unowned self] in self.mirror.cards[$0] }, seenColumns: mirror.columns,
            baseColumns: baseColumnIDs(base), diff: diff, base: base, ours: ours)
        try tx.run(columns: read[4], cards: ids.isEmpty ? nil : read[5])
        if tx.wrote {
            try alsoWhenWritten?(db)
            db.later("UPDATE lanes.boards SET version = $2 WHERE id = $1", [b, String(tx.seq)])
            db.later(
                "INSERT INTO lanes.commits (board_id, token, seq) VALUES ($1, $2, $3)", [b, token, String(tx.seq)])
        }
        if dropReplyToNextCommit {
            dropReplyToNextCommit = false
            committed = true
            db.dropBeforeCommitAnswer = true
        }
        // The writes still queued go with it.
        _ = try db.batch([("COMMIT", [])])
        committed = true
        lastCommitClock.committed = monotonicNanos()
        lastCommitWaits = db.waits - waitsBefore
        // Read back after the lock is released: rows from later commits may come too (the version
        // is read first, so they are fetched again next time; applying a row twice is harmless).
        let delta = try fetchDelta(db, since: before)
        apply(delta, full: false)
        collectQueued(db)
        let others = Set(
            delta.changed.filter {
                $0.changedBy != db.user || !tx.touched.contains(Int64(bitPattern: $0.card.id.rawValue))
            }
            .map { Int64(bitPattern: $0.card.id.rawValue) })
        let incoming = others.count + delta.removed.filter { !tx.touched.contains($0) }.count
        return CommitOutcome(
            board: handOut(), conflicts: tx.conflicts, incomingChanges: incoming,
            incomingWriter: Self.writers(delta.changed.map(\.changedBy).filter { $0 != db.user }))
    }

    /// The row ids of `base`'s columns: those handed out with it, else by title among the rows.
    private func baseColumnIDs(_ base: Board) -> [Int64?] {
        if handedTitles == base.columns.map(\.title) { return handedColumns }
        // Base is older than the last board handed out: by title, then by position among the rest.
        var used = Set<Int64>()
        var ids: [Int64?] = base.columns.map { c in
            guard let row = mirror.columns.first(where: { $0.title == c.title && !used.contains($0.id) }) else {
                return nil
            }
            used.insert(row.id)
            return row.id
        }
        if handedColumns.count == base.columns.count {
            for i in ids.indices where ids[i] == nil && !used.contains(handedColumns[i]) {
                ids[i] = handedColumns[i]
                used.insert(handedColumns[i])
            }
        }
        return ids
    }

    // MARK: Access

    /// Gives `role` access to this board (`canGrant`: it may grant and revoke too).
    public func grant(role grantee: String, canGrant: Bool = false) throws {
        try withConnection { db in
            guard try db.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [grantee]).count == 1 else {
                throw CommandError(.notFound, "no role “\(grantee)” in \(url.display)")
            }
            if try db.query(
                "SELECT 1 FROM lanes.members WHERE board_id = $1 AND role = $2 AND is_owner",
                [String(boardID), grantee]
            ).count == 1 {
                throw CommandError(.badInput, "role \(grantee) owns board “\(url.board)”: it may do everything already")
            }
            do {
                try db.query(
                    """
                    INSERT INTO lanes.members (board_id, role, can_grant) VALUES ($1, $2, $3)
                    ON CONFLICT (board_id, role) DO UPDATE SET can_grant = EXCLUDED.can_grant
                    """, [String(boardID), grantee, canGrant ? "t" : "f"])
            } catch let e as PostgresError where e.sqlState == "42501" {
                throw CommandError(
                    .badInput,
                    "role \(db.user) may not grant access to board “\(url.board)”: only its owner and members given --can-grant may (\(e.message))"
                )
            }
        }
    }

    /// Takes `role`'s access to this board away (never the owner's).
    public func revoke(role grantee: String) throws {
        try withConnection { db in
            let b = String(boardID)
            let r = try db.query(
                """
                WITH d AS (INSERT INTO lanes.member_deletions (board_id, role) VALUES ($1, $2) RETURNING 1)
                SELECT count(*) FROM d
                """, [b, grantee])
            guard r.int(0, 0) == 0 else { return }
            let member = try db.query(
                "SELECT is_owner FROM lanes.members WHERE board_id = $1 AND role = $2", [b, grantee])
            if member.count == 1 && member[0, 0] == "t" {
                throw CommandError(
                    .badInput, "role \(grantee) owns board “\(url.board)”; the owner's access cannot be revoked")
            }
            if try db.query("SELECT lanes.may_grant($1, current_user)", [b])[0, 0] != "t" {
                throw CommandError(
                    .badInput,
                    "role \(db.user) may not revoke access to board “\(url.board)”: only its owner and members given --can-grant may"
                )
            }
            throw CommandError(.notFound, "role \(grantee) has no access to board “\(url.board)”; nothing to revoke")
        }
    }

    /// The roles with access to the board: (role, may grant, owner), by name.
    public func members() throws -> [(role: String, canGrant: Bool, owner: Bool)] {
        try withConnection { db in
            let r = try db.query(
                "SELECT role, can_grant, is_owner FROM lanes.members WHERE board_id = $1 ORDER BY role",
                [String(boardID)])
            return (0..<r.count).map { (r[$0, 0] ?? "", r[$0, 1] == "t", r[$0, 2] == "t") }
        }
    }

    /// Drops the connections (tests: a client that vanished); the next call reconnects.
    public func disconnect() {
        db?.close()
        db = nil
        reader?.close()
        reader = nil
    }

    /// The server process serving this store (tests kill it to cut the connection).
    public func backendPID() throws -> Int32 {
        try withConnection { db in Int32(try db.query("SELECT pg_backend_pid()").int(0, 0)!) }
    }
}

/// CLOCK_MONOTONIC in nanoseconds.
func monotonicNanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// CLOCK_MONOTONIC in seconds.
func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
