import LanesCore

/// A PostgreSQL board's history for flow metrics, read from the server's change record
/// (`lanes.history`, schema migration 2) and turned into the same events as git's (`ServerHistory`).
///
/// One query for the record (ordered by its `id`), one each for the columns and cards now; its own
/// connection, so an open store is not disturbed.
public enum PostgresFlowHistory {
    public static func read(url: String, timeout: Int = 5) throws -> (history: FlowHistory, setting: FlowColumns) {
        let store = try PostgresBoardStore.open(url: url, timeout: timeout)
        let board = try store.load()
        let u = try PostgresURL(url)
        let db = try PGConnection(conninfo: u.conninfo, displayName: u.display, timeout: timeout)
        defer { db.close() }
        let b = String(store.boardID)
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
        // The record, scanned field by field from libpq's result: strings only where a row carries
        // what the events need (a title; a column's key; the first title seen of a column).
        var rows: [ServerHistory.Row] = []
        var titled = Set<Int64>()
        let kinds: [UInt8: String] = [UInt8(ascii: "a"): "added", UInt8(ascii: "m"): "moved", UInt8(ascii: "e"): "edited", UInt8(ascii: "d"): "deleted"]
        try db.scan("""
            SELECT floor(extract(epoch FROM h.at))::bigint, h.entity = 'card', h.kind, h.card_id, h.column_id, h.column_title,
                   CASE WHEN h.kind = 'moved' THEN (h.before ->> 'column_id')::bigint END,
                   h.after ->> 'title', h.before ->> 'title',
                   CASE WHEN h.entity = 'column' THEN h.after ->> 'key' END,
                   CASE WHEN h.entity = 'column' THEN h.before ->> 'key' END
            FROM lanes.history h
            WHERE h.board_id = $1 AND h.entity IN ('card', 'column') AND h.kind IN ('added', 'moved', 'edited', 'deleted')
            ORDER BY h.id
            """, [b]) { r in
            guard let at = r.int(0), !r.isNull(1), !r.isNull(2), let kind = kinds[r.bytes(2).first ?? 0] else { return }
            let card = r.bytes(1).first == UInt8(ascii: "t")
            let column = r.int(4), from = r.int(6)
            var columnTitle: String?
            if !card || column.map({ !titled.contains($0) }) ?? false || from.map({ !titled.contains($0) }) ?? false {
                columnTitle = r.string(5)
                if card {
                    if let column { titled.insert(column) }
                    if let from { titled.insert(from) }
                }
            }
            rows.append(ServerHistory.Row(at: at, entity: card ? "card" : "column", kind: kind, card: r.int(3), column: column,
                                          columnTitle: columnTitle, fromColumn: from, title: r.string(7),
                                          titleBefore: r.string(8), key: r.string(9), keyBefore: r.string(10)))
        }
        guard !rows.isEmpty else {
            throw NoHistory("board “\(u.board)” has no history yet: the server records every change from now on; run lanes metrics again after some work.")
        }
        let (events, before) = ServerHistory.events(rows, columns: now, cards: nowCards)
        var history = FlowHistory(events: events, source: "PostgreSQL: \(u.display)", versions: rows.count)
        if before > 0 {
            history.notes.append("\(before) card(s) were on the board before the server's record began (\(FlowDate.iso(rows[0].at))): they count from then")
        }
        history.lastBoard = board
        history.lastKeys = board.columns.flatMap { $0.cards.map { Int(truncatingIfNeeded: $0.id.rawValue) } }
        return (history, board.acceptRules.flow)
    }
}
