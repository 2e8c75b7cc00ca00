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
public enum PostgresFlowHistory {
    public static func read(url: String, timeout: Int = 5) throws -> (history: FlowHistory, setting: FlowColumns) {
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
            throw NoHistory("the server keeps no history of board “\(u.board)” yet: its Lanes schema predates the change record. "
                            + "Open the board with this version of lanes once (it upgrades the schema); every change from then on is recorded.")
        }
        let cols = try db.query("SELECT id, key, title FROM lanes.columns WHERE board_id = $1 ORDER BY key", [b])
        let now = (0..<cols.count).compactMap { i in
            cols.int(i, 0).map { ServerHistory.NowColumn(id: $0, key: cols[i, 1] ?? "", title: cols[i, 2] ?? "") }
        }
        let cards = try db.query("SELECT id, column_id, title FROM lanes.cards WHERE board_id = $1", [b])
        let nowCards = (0..<cards.count).compactMap { i -> ServerHistory.NowCard? in
            guard let id = cards.int(i, 0), let c = cards.int(i, 1) else { return nil }
            return ServerHistory.NowCard(id: id, column: c, title: cards[i, 2] ?? "")
        }
        // The column rows (few; their own index), then the card rows in one binary COPY, each
        // turned into its compact form as it arrives (`ServerHistory.Stream`): strings only
        // where the events need them.
        let kinds = "('added', 'moved', 'edited', 'deleted')"
        let cr = try db.query("""
            SELECT h.id, floor(extract(epoch FROM h.at))::bigint, h.kind, h.column_id, h.column_title,
                   h.after ->> 'title', h.before ->> 'title', h.after ->> 'key', h.before ->> 'key'
            FROM lanes.history h WHERE h.board_id = $1 AND h.entity = 'column' AND h.kind IN \(kinds) ORDER BY h.id
            """, [b])
        let columnRows = (0..<cr.count).compactMap { i -> (id: Int64, row: ServerHistory.Row)? in
            guard let id = cr.int(i, 0), let at = cr.int(i, 1), let kind = cr[i, 2] else { return nil }
            return (id, ServerHistory.Row(at: at, entity: "column", kind: kind, column: cr.int(i, 3), columnTitle: cr[i, 4],
                                          title: cr[i, 5], titleBefore: cr[i, 6], key: cr[i, 7], keyBefore: cr[i, 8]))
        }
        var stream = ServerHistory.Stream(columnRows: columnRows, columns: now, cards: nowCards)
        // The card rows that are not moves (a tenth: added, edited, deleted, reordered), with the
        // titles the events carry, by the record's id; then every card row from an index that holds
        // all it needs (the table's wide rows are not read): a row the first list does not have is a move.
        var changes: [(id: Int64, kind: ServerHistory.Stream.Kind?, title: String?, before: String?)] = []
        try db.copyOut("""
            SELECT h.id, h.kind, CASE WHEN h.kind IN ('added', 'edited') THEN h.after ->> 'title' END,
                   CASE WHEN h.kind IN ('edited', 'deleted') THEN h.before ->> 'title' END
            FROM lanes.history h
            WHERE h.board_id = \(store.boardID) AND h.entity = 'card' AND h.kind <> 'moved'
            ORDER BY h.id
            """) { r in
            // Kinds that give no event (a card reordered in its column) are kept as nil: their rows are skipped.
            if let id = r.int64(0) { changes.append((id, r.bytes(1).flatMap(ServerHistory.Stream.Kind.init(utf8:)), r.string(2), r.string(3))) }
        }
        var next = 0
        try db.copyOut("""
            SELECT h.id, h.at, h.card_id, h.column_id
            FROM lanes.history h
            WHERE h.board_id = \(store.boardID) AND h.entity = 'card'
            ORDER BY h.id
            """) { r in
            guard let id = r.int64(0), let at = r.seconds(1), let card = r.int64(2) else { return }
            while next < changes.count && changes[next].id < id { next += 1 }
            let change = next < changes.count && changes[next].id == id ? changes[next] : nil
            let kind: ServerHistory.Stream.Kind
            if let change {
                guard let k = change.kind else { return }
                kind = k
            } else {
                kind = .moved
            }
            stream.card(record: id, at: at, kind: kind, card: card, column: r.int64(3), from: nil,
                        title: { change?.title }, titleBefore: { change?.before }, columnTitle: { nil })
        }
        changes = []
        // What the first row of each card from before the record says it left (a move's column).
        let seeds = stream.seedsFromMoves
        if !seeds.isEmpty {
            let r = try db.query("""
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
            let r = try db.query("SELECT id, column_title FROM lanes.history WHERE board_id = $1 AND id = ANY($2::bigint[])",
                                 [b, "{" + unnamed.map { String($0.record) }.joined(separator: ",") + "}"])
            var title: [Int64: String] = [:]
            for i in 0..<r.count { if let id = r.int(i, 0), let t = r[i, 1] { title[id] = t } }
            for u in unnamed { stream.nameColumn(u.column, title: title[u.record]) }
        }
        let versions = columnRows.count + stream.count
        guard versions > 0 else {
            throw NoHistory("board “\(u.board)” has no history yet: the server records every change from now on; run lanes metrics again after some work.")
        }
        let (events, before) = stream.finish()
        guard events.contains(where: { if case .card = $0 { true } else { false } }) else {
            let since = events.first.map { " (since \(FlowDate.iso($0.time)))" } ?? ""
            throw NoHistory("board “\(u.board)” has no history yet: the server has recorded its columns\(since) but no card added, moved or deleted. "
                            + "Add cards and move them through the columns (in lanes, or lanes copy a board file into it); every change is recorded, "
                            + "and lanes metrics reads them.")
        }
        var history = FlowHistory(events: events, source: "PostgreSQL: \(u.display)", versions: versions)
        if before > 0, let start = events.first?.time {
            history.notes.append("\(before) card(s) were on the board before the server's record began (\(FlowDate.iso(start))): they count from then")
        }
        history.lastBoard = board
        history.lastKeys = board.columns.flatMap { $0.cards.map { Int(truncatingIfNeeded: $0.id.rawValue) } }
        return (history, board.acceptRules.flow)
    }
}
