#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import LanesCore

/// A PostgreSQL board's history for flow metrics, read from the server's change record
/// (`lanes.history`, schema migration 2) and turned into the same events as git's (`ServerHistory`).
///
/// In one snapshot: the columns and cards now; the record's column rows (few); its card rows that
/// are not moves, with the titles they carry; then every card row (id, time, card, column) as a
/// binary COPY from an index that holds just that (schema migration 4), read as it arrives, in the
/// record's order (`id`): a row the second list does not name is a move. A card row's column before a move is read only for the first row of a card
/// from before the record (that of any other row is the card's column after the row before). Its own
/// connection, so an open store is not disturbed. A board whose record has no card in it (columns
/// only) has no history yet, said in words with what gives one.
///
/// Each card row's role names who made it; the members of role `lanes_agents` are the agents (`agents`).
///
/// Before all that, the aggregates the server's triggers keep (schema migrations 5, 6 and 9, `FlowSummary`):
/// when they stand for the record, they are the whole read (O(cards × columns + days × columns)
/// rows, not every change).
public enum PostgresFlowHistory {
    /// `now`: the moment the metrics will be computed for (the server's aggregates stand only for
    /// a "now" at or after the last change); `summary: false` reads every change even so.
    public static func read(
        url: String, timeout: Int = 5, now: FlowTime? = nil,
        summary useSummary: Bool = true
    ) throws -> (history: FlowHistory, setting: FlowColumns) {
        let store = try PostgresBoardStore.open(url: url, timeout: timeout)
        let board = try store.load()
        let u = try PostgresURL(url)
        let db = try PGConnection(conninfo: u.conninfo, displayName: u.display, timeout: timeout)
        defer { db.close() }
        let b = String(store.boardID)
        // One snapshot for every query below (a row written meanwhile is in all of them or in none).
        try db.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { _ = try? db.query("ROLLBACK") }
        guard try db.query("SELECT to_regclass('lanes.history') IS NOT NULL")[0, 0] == "t" else {
            throw NoHistory(
                "the server keeps no history of board “\(u.board)” yet: its Lanes schema predates the change record. "
                    + "Open the board with this version of lanes once (it upgrades the schema); every change from then on is recorded."
            )
        }
        let cols = try db.query("SELECT id, key, title FROM lanes.columns WHERE board_id = $1 ORDER BY key", [b])
        let nowColumns = (0..<cols.count).compactMap { i in
            cols.int(i, 0).map { ServerHistory.NowColumn(id: $0, key: cols[i, 1] ?? "", title: cols[i, 2] ?? "") }
        }
        let cards = try db.query("SELECT id, column_id, title FROM lanes.cards WHERE board_id = $1", [b])
        let nowCards = (0..<cards.count).compactMap { i -> ServerHistory.NowCard? in
            guard let id = cards.int(i, 0), let c = cards.int(i, 1) else { return nil }
            return ServerHistory.NowCard(id: id, column: c, title: cards[i, 2] ?? "")
        }
        if useSummary,
            let folded = try summary(
                db, board: store.boardID, columns: nowColumns,
                now: now ?? FlowTime(time(nil)))
        {
            var history = FlowHistory(source: "PostgreSQL: \(u.display)", versions: folded.versions)
            history.summary = folded.summary
            history.agents = try agents(db, notes: &history.notes)
            history.lastBoard = board
            history.lastKeys = board.columns.flatMap { $0.cards.map { Int(truncatingIfNeeded: $0.id.rawValue) } }
            return (history, board.acceptRules.flow)
        }
        // The column rows (few; their own index), then the card rows in one binary COPY, each
        // turned into its compact form as it arrives (`ServerHistory.Stream`): strings only
        // where the events need them.
        let kinds = "('added', 'moved', 'edited', 'deleted')"
        let cr = try db.query(
            """
            SELECT h.id, floor(extract(epoch FROM h.at))::bigint, h.kind, h.column_id, h.column_title,
                   h.after ->> 'title', h.before ->> 'title', h.after ->> 'key', h.before ->> 'key'
            FROM lanes.history h WHERE h.board_id = $1 AND h.entity = 'column' AND h.kind IN \(kinds) ORDER BY h.id
            """, [b])
        let columnRows = (0..<cr.count).compactMap { i -> (id: Int64, row: ServerHistory.Row)? in
            guard let id = cr.int(i, 0), let at = cr.int(i, 1), let kind = cr[i, 2] else { return nil }
            return (
                id,
                ServerHistory.Row(
                    at: at, entity: "column", kind: kind, column: cr.int(i, 3), columnTitle: cr[i, 4],
                    title: cr[i, 5], titleBefore: cr[i, 6], key: cr[i, 7], keyBefore: cr[i, 8])
            )
        }
        var stream = ServerHistory.Stream(columnRows: columnRows, columns: nowColumns, cards: nowCards)
        // The card rows that are not moves (a tenth: added, edited, deleted, reordered), with the
        // titles the events carry, by the record's id; then every card row from an index that holds
        // all it needs (the table's wide rows are not read): a row the first list does not have is a move.
        var changes: [(id: Int64, kind: ServerHistory.Stream.Kind?, title: String?, before: String?)] = []
        try db.copyOut(
            """
            SELECT h.id, h.kind, CASE WHEN h.kind IN ('added', 'edited') THEN h.after ->> 'title' END,
                   CASE WHEN h.kind IN ('edited', 'deleted') THEN h.before ->> 'title' END
            FROM lanes.history h
            WHERE h.board_id = \(store.boardID) AND h.entity = 'card' AND h.kind <> 'moved'
            ORDER BY h.id
            """
        ) { r in
            // Kinds that give no event (a card reordered in its column) are kept as nil: their rows are skipped.
            if let id = r.int64(0) {
                changes.append(
                    (id, r.bytes(1).flatMap(ServerHistory.Stream.Kind.init(utf8:)), r.string(2), r.string(3)))
            }
        }
        var next = 0
        // A board has few writers: a role becomes a string once, the first time it is seen (the first 16).
        var knownRoles: [(bytes: [UInt8], name: String)] = []
        try db.copyOut(
            """
            SELECT h.id, h.at, h.card_id, h.column_id, h.role
            FROM lanes.history h
            WHERE h.board_id = \(store.boardID) AND h.entity = 'card'
            ORDER BY h.id
            """
        ) { r in
            guard let id = r.int64(0), let at = r.seconds(1), let card = r.int64(2) else { return }
            var role: String?
            if let b = r.bytes(4) {
                if let known = knownRoles.prefix(16).first(where: { k in
                    k.bytes.count == b.count
                        && (b.isEmpty
                            || k.bytes.withUnsafeBytes { memcmp($0.baseAddress!, b.baseAddress!, b.count) == 0 })
                }) {
                    role = known.name
                } else {
                    let name = String(decoding: b, as: UTF8.self)
                    if knownRoles.count < 16 { knownRoles.append((Array(b), name)) }
                    role = name
                }
            }
            while next < changes.count && changes[next].id < id { next += 1 }
            let change = next < changes.count && changes[next].id == id ? changes[next] : nil
            let kind: ServerHistory.Stream.Kind
            if let change {
                guard let k = change.kind else { return }
                kind = k
            } else {
                kind = .moved
            }
            stream.card(
                record: id, at: at, kind: kind, card: card, column: r.int64(3), from: nil, role: role,
                title: { change?.title }, titleBefore: { change?.before }, columnTitle: { nil })
        }
        changes = []
        // What the first row of each card from before the record says it left (a move's column).
        let seeds = stream.seedsFromMoves
        if !seeds.isEmpty {
            let r = try db.query(
                """
                SELECT DISTINCT ON (h.card_id) h.card_id, h.id, (h.before ->> 'column_id')::bigint, h.column_title
                FROM lanes.history h
                WHERE h.board_id = $1 AND h.entity = 'card' AND h.kind IN \(kinds) AND h.card_id = ANY($2::bigint[])
                ORDER BY h.card_id, h.id
                """, [b, "{" + seeds.map(String.init).joined(separator: ",") + "}"])
            for i in 0..<r.count {
                guard let card = r.int(i, 0), let id = r.int(i, 1) else { continue }
                stream.seedMove(card: card, record: id, from: r.int(i, 2), columnTitle: r[i, 3])
            }
        }
        // Columns only card rows name (older than the record): the title the first such row gives.
        let unnamed = stream.unnamedColumns
        if !unnamed.isEmpty {
            let r = try db.query(
                "SELECT id, column_title FROM lanes.history WHERE board_id = $1 AND id = ANY($2::bigint[])",
                [b, "{" + unnamed.map { String($0.record) }.joined(separator: ",") + "}"])
            var title: [Int64: String] = [:]
            for i in 0..<r.count { if let id = r.int(i, 0), let t = r[i, 1] { title[id] = t } }
            for u in unnamed { stream.nameColumn(u.column, title: title[u.record]) }
        }
        let versions = columnRows.count + stream.count
        guard versions > 0 else {
            throw NoHistory(
                "board “\(u.board)” has no history yet: the server records every change from now on; run lanes metrics again after some work."
            )
        }
        let (events, before) = stream.finish()
        guard events.contains(where: { if case .card = $0 { true } else { false } }) else {
            let since = events.first.map { " (since \(FlowDate.iso($0.time)))" } ?? ""
            throw NoHistory(
                "board “\(u.board)” has no history yet: the server has recorded its columns\(since) but no card added, moved or deleted. "
                    + "Add cards and move them through the columns (in lanes, or lanes copy a board file into it); every change is recorded, "
                    + "and lanes metrics reads them.")
        }
        var history = FlowHistory(events: events, source: "PostgreSQL: \(u.display)", versions: versions)
        history.agents = try agents(db, notes: &history.notes)
        if before > 0, let start = events.first?.time {
            history.notes.append(
                "\(before) card(s) were on the board before the server's record began (\(FlowDate.iso(start))): they count from then"
            )
        }
        history.lastBoard = board
        history.lastKeys = board.columns.flatMap { $0.cards.map { Int(truncatingIfNeeded: $0.id.rawValue) } }
        return (history, board.acceptRules.flow)
    }

    /// The board's history as the server's triggers folded it (migrations 5 and 6), when it stands
    /// for the record: every card and column came in by the record, the fold kept the record's
    /// order, the columns it ends with are the board's, and `now` is at or after the last change.
    static func summary(
        _ db: PGConnection, board: Int64, columns: [ServerHistory.NowColumn],
        now: FlowTime
    ) throws -> (summary: FlowSummary, versions: Int)? {
        guard try db.query("SELECT to_regclass('lanes.flow_presence') IS NOT NULL")[0, 0] == "t" else { return nil }
        let b = String(board)
        let f = try db.query(
            """
            SELECT exact AND card_events, folded_rows, last_event, epoch_rows, epoch_at
            FROM lanes.flow_boards WHERE board_id = $1
            """, [b])
        guard f.count == 1, f[0, 0] == "t", let versions = f.int(0, 1), let lastEvent = f.int(0, 2) else { return nil }
        func ids(_ text: String?) -> [Int64] {
            (text ?? "").filter { $0 != "{" && $0 != "}" }.split(separator: ",").compactMap { Int64($0) }
        }
        let epochRows = ids(f[0, 3]), epochAt = ids(f[0, 4])
        guard !columns.isEmpty, !epochRows.isEmpty, epochRows.count == epochAt.count else { return nil }
        // Left to right by order key (bytes, as the record's reader orders them).
        let layout = columns.sorted { a, b in
            a.key.utf8.lexicographicallyPrecedes(b.key.utf8) || (a.key == b.key && a.id < b.id)
        }.map { FlowColumn(key: Int(truncatingIfNeeded: $0.id), title: $0.title) }
        // Each epoch's columns: the record's column rows up to its last (as the record's reader
        // keeps them: by order key, then id).
        let cr = try db.query(
            """
            SELECT id, kind, column_id, after ->> 'key', column_title, after ->> 'title'
            FROM lanes.history WHERE board_id = $1 AND entity = 'column' AND kind IN ('added', 'moved', 'edited', 'deleted') AND id <= $2
            ORDER BY id
            """, [b, String(epochRows.last!)])
        var state: [Int64: (key: String, title: String)] = [:]
        func list() -> [FlowColumn] {
            state.sorted { a, b in
                a.value.key.utf8.lexicographicallyPrecedes(b.value.key.utf8)
                    || (a.value.key == b.value.key && a.key < b.key)
            }.map { FlowColumn(key: Int(truncatingIfNeeded: $0.key), title: $0.value.title) }
        }
        var epochs: [(at: FlowTime, columns: [FlowColumn])] = []
        var row = 0
        for (end, at) in zip(epochRows, epochAt) {
            while row < cr.count, let id = cr.int(row, 0), id <= end {
                if let c = cr.int(row, 2) {
                    switch cr[row, 1] {
                    case "added": state[c] = (cr[row, 3] ?? "", cr[row, 4] ?? cr[row, 5] ?? "")
                    case "moved": if let k = cr[row, 3] { state[c]?.key = k }
                    case "edited": if let t = cr[row, 5] { state[c]?.title = t }
                    case "deleted": state[c] = nil
                    default: break
                    }
                }
                row += 1
            }
            epochs.append((at, list()))
        }
        guard epochs.last!.columns == layout else { return nil }
        // The history's first and last events: the sets of columns the record's reader gives
        // (one that changes nothing gives none), and the card events.
        var shown: [FlowColumn] = []
        var first: FlowTime?, last = lastEvent
        for e in epochs where e.columns != shown {
            shown = e.columns
            if first == nil { first = e.at }
            last = max(last, e.at)
        }
        guard let first, first <= last, last <= now else { return nil }
        var cards: [FlowSummary.Card] = []
        var index: [Int64: Int] = [:]
        let c = try db.query(
            """
            SELECT card_id, CASE WHEN gone THEN gone_title ELSE title END, column_id, gone, appeared, entered, appeared_epoch, epoch
            FROM lanes.flow_cards WHERE board_id = $1 ORDER BY card_id
            """, [b])
        for i in 0..<c.count {
            guard let id = c.int(i, 0), let column = c.int(i, 2), let appeared = c.int(i, 4), let entered = c.int(i, 5),
                let appearedEpoch = c.int(i, 6), let epoch = c.int(i, 7)
            else { continue }
            index[id] = cards.count
            cards.append(
                FlowSummary.Card(
                    key: Int(truncatingIfNeeded: id), title: c[i, 1] ?? "", column: Int(truncatingIfNeeded: column),
                    gone: c[i, 3] == "t", appeared: appeared, appearedEpoch: Int(appearedEpoch), epoch: Int(epoch),
                    entered: entered))
        }
        let s = try db.query(
            "SELECT card_id, column_id, first_row, seconds FROM lanes.flow_stints WHERE board_id = $1", [b])
        for i in 0..<s.count {
            guard let id = s.int(i, 0), let k = index[id], let column = s.int(i, 1), let order = s.int(i, 2),
                let seconds = s.int(i, 3)
            else { continue }
            cards[k].stints.append((Int(truncatingIfNeeded: column), order, seconds))
        }
        let m = try db.query(
            """
            SELECT card_id, epoch, from_column, to_column, first_at, last_at, last_row, last_by
            FROM lanes.flow_moves WHERE board_id = $1
            """,
            [b])
        for i in 0..<m.count {
            guard let id = m.int(i, 0), let k = index[id], let epoch = m.int(i, 1), let from = m.int(i, 2),
                let to = m.int(i, 3),
                let first = m.int(i, 4), let last = m.int(i, 5), let row = m.int(i, 6)
            else { continue }
            cards[k].moves.append(
                FlowSummary.Move(
                    epoch: Int(epoch), from: from == 0 ? nil : Int(truncatingIfNeeded: from),
                    to: Int(truncatingIfNeeded: to), first: first, last: last, lastRow: row, lastBy: m[i, 7]))
        }
        let p = try db.query("SELECT card_id, epoch, column_id FROM lanes.flow_presence WHERE board_id = $1", [b])
        for i in 0..<p.count {
            guard let id = p.int(i, 0), let k = index[id], let epoch = p.int(i, 1), let column = p.int(i, 2) else {
                continue
            }
            cards[k].presence.append((Int(epoch), Int(truncatingIfNeeded: column)))
        }
        let d = try db.query(
            "SELECT day, column_id, delta FROM lanes.flow_days WHERE board_id = $1 AND delta <> 0", [b])
        var days: [(day: Int, column: Int, delta: Int)] = []
        for i in 0..<d.count {
            guard let day = d.int(i, 0), let column = d.int(i, 1), let delta = d.int(i, 2) else { continue }
            days.append((Int(day), Int(truncatingIfNeeded: column), Int(delta)))
        }
        var folded = FlowSummary(epochs: epochs, cards: cards, days: days, first: first, last: last)
        folded.epochRows = epochRows
        return (folded, Int(versions))
    }

    /// The roles the server marks as agents: members of role `lanes_agents`, directly or through
    /// other roles (`pg_auth_members`, which every role may read; `pg_has_role` would count a
    /// superuser as a member of every role). Without that role every role is a person, and a note says how to mark agents.
    static func agents(_ db: PGConnection, notes: inout [String]) throws -> FlowAgents {
        let r = try db.query(
            """
            WITH RECURSIVE a (oid) AS (
                SELECT oid FROM pg_catalog.pg_roles WHERE rolname = 'lanes_agents'
                UNION SELECT m.member FROM pg_catalog.pg_auth_members m JOIN a ON m.roleid = a.oid)
            SELECT r.rolname FROM pg_catalog.pg_roles r JOIN a ON a.oid = r.oid
            """)
        guard r.count > 0 else {
            notes.append(
                "the server has no role lanes_agents, so every role counts as a person: an administrator marks agents with CREATE ROLE lanes_agents NOLOGIN; GRANT lanes_agents TO ROLE"
            )
            return FlowAgents(named: false)
        }
        return FlowAgents(names: Set((0..<r.count).compactMap { r[$0, 0] }).subtracting(["lanes_agents"]), named: true)
    }
}
