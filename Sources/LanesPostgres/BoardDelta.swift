import LanesCore

/// What one snapshot read of a board brings: the board row, every column, the cards written after
/// a version (every card when none) and the cards removed since.
struct BoardDelta {
    var version: Int64
    var info: BoardFileInfo
    var rulesText: String
    var columns: [ColumnRow]
    var changed: [CardRow]
    var removed: [Int64]
    /// The server's place in its log when it was read (nil: not known).
    var history: ServerLineage?
    var point: WALPoint?
    /// A look's: the board's name and NOTIFY channel (nil for a plain read).
    var name: String?
    var channel: String?

    /// The statements, for `PGConnection.snapshot` (one round trip, one snapshot). `look`: the
    /// board row with its name and channel too (a screen's reading connection).
    /// `place`: the server's place in its log is read too (`ServerLineage.columns`).
    static func statements(board: Int64, since: Int64?, look: Bool, place: Bool = true) -> [(
        sql: String, params: [String?]
    )] {
        let b = String(board)
        var statements: [(sql: String, params: [String?])] = [
            (look ? lookRowQuery(place: place) : boardRowQuery(place: place), [b]),
            ("SELECT \(RowCodec.columnFields) FROM lanes.columns WHERE board_id = $1 ORDER BY key", [b]),
        ]
        if let since {
            statements.append(
                ("SELECT \(Mirror.cardFields) FROM lanes.cards WHERE board_id = $1 AND seq > $2", [b, String(since)]))
            // A removal row is the client's bookkeeping, which any member may write: one whose card is
            // still there is not believed (a forged one could hide a card from other screens).
            statements.append(
                (
                    """
                    SELECT r.card_id FROM lanes.removals r WHERE r.board_id = $1 AND r.seq > $2
                    AND NOT EXISTS (SELECT 1 FROM lanes.cards c WHERE c.board_id = r.board_id AND c.id = r.card_id)
                    """, [b, String(since)]
                ))
        } else {
            statements.append(("SELECT \(Mirror.cardFields) FROM lanes.cards WHERE board_id = $1", [b]))
        }
        return statements
    }

    /// The answers to `statements`, read on a connection to cluster `system`; nil when the board row
    /// was not there (the board deleted, or no longer readable by this role).
    init?(_ r: [PGConnection.Rows], since: Int64?, look: Bool, system: String?) {
        let row = r[0]
        guard row.count == 1, let version = row.int(0, 0) else { return nil }
        var info = BoardFileInfo(dialect: row[0, 1] == "obsidian" ? .obsidian : .taskell)
        if info.dialect == .obsidian {
            info.frontmatter = RowCodec.lines(row[0, 2])
            info.settings = RowCodec.lines(row[0, 5])
        }
        info.preamble = RowCodec.lines(row[0, 3])
        info.archive = RowCodec.lines(row[0, 4])
        info.epilogue = RowCodec.lines(row[0, 6])
        self.version = version
        self.info = info
        rulesText = row[0, 7] ?? ""
        columns = (0..<r[1].count).map { RowCodec.columnRow(r[1], $0) }
        changed = []
        changed.reserveCapacity(r[2].count)
        for i in 0..<r[2].count { changed.append(RowCodec.cardRow(r[2], i)) }
        removed = since == nil ? [] : (0..<r[3].count).compactMap { r[3].int($0, 0) }
        let place = ServerLineage.read(row, at: Self.placeColumn, system: system)
        history = place?.history
        point = place?.point
        if look {
            name = row[0, Self.placeColumn + 3]
            channel = row[0, Self.placeColumn + 4]
        }
    }

    /// The board row's fields a read takes ($1: the board's id).
    private static func boardRowQuery(place: Bool) -> String {
        """
        SELECT version, dialect, frontmatter, preamble, archive, settings, epilogue, accept_rules,
            \(ServerLineage.columns(readable: place))
        FROM lanes.boards WHERE id = $1
        """
    }
    /// The board row as `boardRowQuery` reads it, then its name and channel.
    private static func lookRowQuery(place: Bool) -> String {
        """
        SELECT b.version, b.dialect, b.frontmatter, b.preamble, b.archive, b.settings, b.epilogue, b.accept_rules,
            \(ServerLineage.columns(readable: place)), b.name, n.channel
        FROM lanes.boards b LEFT JOIN lanes.board_names n ON n.board_id = b.id WHERE b.id = $1
        """
    }
    /// Where both board-row queries have `ServerLineage.columns` (three of them).
    private static let placeColumn = 8
}
