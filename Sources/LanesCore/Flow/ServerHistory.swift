/// A database board's change record turned into flow events (the same stream as git's).
///
/// The rows are what PostgreSQL's `lanes.history` keeps for cards and columns, in its order (`id`):
/// a card added, moved (between columns), edited or deleted; a column added, moved (a new order
/// key), edited (a new title) or deleted. Columns are ordered by their key (byte order, as the
/// server's `COLLATE "C"`). Cards and columns already on the board when the record began (a board
/// upgraded from a schema without history) count from the record's first moment, where the first
/// row about them says they were (`from`), else where they are now.
public enum ServerHistory {
    public struct Row: Hashable, Sendable {
        public var at: FlowTime
        /// `card` or `column`.
        public var entity: String
        /// added, moved, edited, deleted (`reordered` and others are ignored).
        public var kind: String
        public var card: Int64?
        /// The card's column after the change (deleted: the one it was in); a column row: the column.
        public var column: Int64?
        public var columnTitle: String?
        /// A card move: the column it left.
        public var fromColumn: Int64?
        /// The title after the change, when the row carries one (added, an edit of the title).
        public var title: String?
        /// The title before the change (deleted, an edit of the title).
        public var titleBefore: String?
        /// A column's order key after the change (added, moved).
        public var key: String?
        /// A column's order key before the change (moved, deleted).
        public var keyBefore: String?

        public init(at: FlowTime, entity: String, kind: String, card: Int64? = nil, column: Int64? = nil,
                    columnTitle: String? = nil, fromColumn: Int64? = nil, title: String? = nil,
                    titleBefore: String? = nil, key: String? = nil, keyBefore: String? = nil) {
            self.at = at
            self.entity = entity
            self.kind = kind
            self.card = card
            self.column = column
            self.columnTitle = columnTitle
            self.fromColumn = fromColumn
            self.title = title
            self.titleBefore = titleBefore
            self.key = key
            self.keyBefore = keyBefore
        }
    }

    /// A column or card of the board as it is now.
    public struct NowColumn: Hashable, Sendable {
        public var id: Int64, key: String, title: String
        public init(id: Int64, key: String, title: String) { (self.id, self.key, self.title) = (id, key, title) }
    }

    public struct NowCard: Hashable, Sendable {
        public var id: Int64, column: Int64, title: String
        public init(id: Int64, column: Int64, title: String) { (self.id, self.column, self.title) = (id, column, title) }
    }

    /// The events, and how many cards were already on the board when the record began.
    public static func events(_ rows: [Row], columns: [NowColumn], cards: [NowCard]) -> (events: [FlowEvent], before: Int) {
        guard let start = rows.first?.at else { return ([], 0) }
        var events: [FlowEvent] = []
        // Columns and cards the record does not see being added were there from the start.
        var addedColumns = Set<Int64>(), addedCards = Set<Int64>()
        var firstCardRow: [Int64: Row] = [:]
        var firstColumnRow: [Int64: Row] = [:]
        for r in rows {
            if r.entity == "column", let c = r.column {
                if firstColumnRow[c] == nil { firstColumnRow[c] = r }
                if r.kind == "added" { addedColumns.insert(c) }
            } else if r.entity == "card", let c = r.card {
                if firstCardRow[c] == nil { firstCardRow[c] = r }
                if r.kind == "added" { addedCards.insert(c) }
            }
        }
        var columnState: [Int64: (key: String, title: String)] = [:]
        var keyOf: [Int64: Int] = [:]
        func key(_ id: Int64) -> Int {
            if let k = keyOf[id] { return k }
            keyOf[id] = keyOf.count + 1
            return keyOf[id]!
        }
        let now = Dictionary(columns.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for c in columns where !addedColumns.contains(c.id) {
            // Its key and title before the record's first change of it.
            var k = c.key, t = c.title
            if let r = firstColumnRow[c.id] {
                if r.kind == "moved", let before = r.keyBefore { k = before }
                if r.kind == "edited", let before = r.titleBefore { t = before }
            }
            columnState[c.id] = (k, t)
        }
        for (id, r) in firstColumnRow where !addedColumns.contains(id) && now[id] == nil && r.kind == "deleted" {
            columnState[id] = (r.keyBefore ?? "", r.columnTitle ?? "")
        }
        // Card columns the record names but whose column rows it lacks.
        for r in rows where r.entity == "card" {
            for c in [r.column, r.fromColumn].compactMap({ $0 }) where columnState[c] == nil && !addedColumns.contains(c) {
                columnState[c] = ("\u{10FFFF}\(c)", r.columnTitle ?? "column \(c)")
            }
        }
        var lastColumns: [FlowColumn] = []
        func emitColumns(_ t: FlowTime) {
            let list = columnState.sorted { a, b in
                a.value.key.utf8.lexicographicallyPrecedes(b.value.key.utf8) || (a.value.key == b.value.key && a.key < b.key)
            }.map { FlowColumn(key: key($0.key), title: $0.value.title) }
            if list != lastColumns {
                events.append(.columns(time: t, list))
                lastColumns = list
            }
        }
        emitColumns(start)
        var title: [Int64: String] = [:]
        for c in cards { title[c.id] = c.title }
        var before = 0
        var seeded = Set<Int64>()
        for (id, r) in firstCardRow where !addedCards.contains(id) { _ = r; seeded.insert(id) }
        for c in cards where !addedCards.contains(c.id) { seeded.insert(c.id) }
        let nowCards = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in seeded.sorted() {
            let r = firstCardRow[id]
            let column: Int64?
            var t = nowCards[id]?.title ?? r?.titleBefore ?? r?.title ?? "card \(id)"
            switch r?.kind {
            case "moved": column = r?.fromColumn
            case "edited":
                column = r?.column
                if let old = r?.titleBefore { t = old }
            case "deleted": column = r?.column
            default: column = nowCards[id]?.column
            }
            guard let column else { continue }
            title[id] = t
            events.append(.card(time: start, card: Int(truncatingIfNeeded: id), title: t, column: key(column)))
            before += 1
        }
        var last = start
        // Column rows of one moment give one snapshot (a board's columns are added together).
        var dirty = false
        for r in rows {
            let t = max(r.at, last)
            if dirty && (t != last || r.entity != "column") {
                emitColumns(last)
                dirty = false
            }
            last = t
            if r.entity == "column", let c = r.column {
                switch r.kind {
                case "added": columnState[c] = (r.key ?? "", r.columnTitle ?? r.title ?? "")
                case "moved": if let k = r.key { columnState[c]?.key = k }
                case "edited": if let nt = r.title { columnState[c]?.title = nt }
                case "deleted": columnState[c] = nil
                default: continue
                }
                dirty = true
            } else if r.entity == "card", let id = r.card {
                let k = Int(truncatingIfNeeded: id)
                switch r.kind {
                case "added":
                    if let nt = r.title { title[id] = nt }
                    guard let c = r.column else { continue }
                    events.append(.card(time: t, card: k, title: title[id] ?? "", column: key(c)))
                case "moved":
                    guard let c = r.column else { continue }
                    events.append(.card(time: t, card: k, title: title[id] ?? "", column: key(c)))
                case "edited":
                    guard let nt = r.title, let c = r.column else { continue }
                    title[id] = nt
                    events.append(.card(time: t, card: k, title: nt, column: key(c)))
                case "deleted":
                    events.append(.card(time: t, card: k, title: r.titleBefore ?? title[id] ?? "", column: nil))
                default: continue
                }
            }
        }
        if dirty { emitColumns(last) }
        return (events, before)
    }
}
