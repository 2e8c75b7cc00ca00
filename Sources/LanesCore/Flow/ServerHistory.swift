#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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
        /// The role that made the change.
        public var role: String?

        public init(
            at: FlowTime, entity: String, kind: String, card: Int64? = nil, column: Int64? = nil,
            columnTitle: String? = nil, fromColumn: Int64? = nil, title: String? = nil,
            titleBefore: String? = nil, key: String? = nil, keyBefore: String? = nil, role: String? = nil
        ) {
            self.role = role
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
        public init(id: Int64, column: Int64, title: String) {
            (self.id, self.column, self.title) = (id, column, title)
        }
    }

    /// The events, and how many cards were already on the board when the record began.
    public static func events(_ rows: [Row], columns: [NowColumn], cards: [NowCard]) -> (
        events: [FlowEvent], before: Int
    ) {
        let columnRows = rows.enumerated().filter { $0.element.entity == "column" }.map {
            (id: Int64($0.offset), row: $0.element)
        }
        var stream = Stream(columnRows: columnRows, columns: columns, cards: cards)
        for (i, r) in rows.enumerated() where r.entity == "card" {
            guard let card = r.card else { continue }
            let kind = Stream.Kind(r.kind)
            stream.card(
                record: Int64(i), at: r.at, kind: kind, card: card, column: r.column, from: r.fromColumn,
                role: r.role, title: { r.title }, titleBefore: { r.titleBefore }, columnTitle: { r.columnTitle })
        }
        return stream.finish()
    }

    /// The record read in one pass as it arrives: the column rows first (a board has few), then
    /// each card row in the record's order, kept in a compact form; `finish` turns them into events.
    ///
    /// A card row's strings are asked for only when the events need them: its title when added or
    /// edited, the title it had when deleted, and what the first row of a card or column from
    /// before the record says it was.
    public struct Stream {
        /// What a card row records; `other` (reordered, …) gives no event.
        public enum Kind: UInt8, Sendable {
            case added, moved, edited, deleted, other

            public init(_ name: String) {
                switch name {
                case "added": self = .added
                case "moved": self = .moved
                case "edited": self = .edited
                case "deleted": self = .deleted
                default: self = .other
                }
            }

            /// From the kind's UTF-8 bytes; nil for a kind that gives no event (reordered, …).
            public init?(utf8: UnsafeRawBufferPointer) {
                func equals(_ s: StaticString) -> Bool {
                    s.utf8CodeUnitCount == utf8.count && memcmp(s.utf8Start, utf8.baseAddress!, utf8.count) == 0
                }
                switch utf8.first {
                case UInt8(ascii: "a") where equals("added"): self = .added
                case UInt8(ascii: "m") where equals("moved"): self = .moved
                case UInt8(ascii: "e") where equals("edited"): self = .edited
                case UInt8(ascii: "d") where equals("deleted"): self = .deleted
                default: return nil
                }
            }
        }

        /// A card row as the events need it: `title` only where the event carries a new one
        /// (added, edited; deleted: the title before).
        private struct CardRow {
            var at: FlowTime
            var card: Int32
            var kind: Kind
            /// Its role in `roles`; -1: none.
            var role: Int32
            var column: Int64?
            var title: String?
        }

        /// A card's first row in the record (what it says of the card before it).
        private struct FirstRow {
            var kind: Kind
            var column: Int64?
            var from: Int64?
            var title: String?
            var titleBefore: String?
        }

        private let columnRows: [(id: Int64, row: Row)]
        /// How many card rows come before each column row in the record.
        private var columnRowAt: [Int] = []
        private let nowColumns: [NowColumn]
        private let nowCards: [NowCard]
        private var rows: [CardRow] = []
        private var cardIDs: [Int64] = []
        private var cardIndex: [Int64: Int32] = [:]
        private var firstRows: [FirstRow] = []
        private var addedCard: [Bool] = []
        private var firstCardRecord: (id: Int64, at: FlowTime)?
        /// Columns the record's column rows or the board now account for at the start.
        private var accounted: Set<Int64> = []
        private var addedColumns: Set<Int64> = []
        /// Columns named only by card rows, with the first such row and its column title (nil: not known yet).
        private var unaccounted: [(id: Int64, record: Int64, title: String?)] = []
        private var checked: (Int64, Int64) = (.min, .min)
        /// The roles the rows name, each once (a board has few writers).
        private var roles: [String] = []
        private var roleIndex: [String: Int32] = [:]
        private var lastRole: (name: String, index: Int32)?

        public init(columnRows: [(id: Int64, row: Row)], columns: [NowColumn], cards: [NowCard]) {
            self.columnRows = columnRows.sorted { $0.id < $1.id }
            nowColumns = columns
            nowCards = cards
            var first: [Int64: Row] = [:]
            for (_, r) in self.columnRows {
                guard let c = r.column else { continue }
                if first[c] == nil { first[c] = r }
                if r.kind == "added" { addedColumns.insert(c) }
            }
            accounted = addedColumns
            for c in columns { accounted.insert(c.id) }
            for (id, r) in first where r.kind == "deleted" { accounted.insert(id) }
        }

        /// How many card rows were fed.
        public var count: Int { rows.count }

        /// The next card row of the record (`record`: its place in the record, rising).
        public mutating func card(
            record: Int64, at: FlowTime, kind: Kind, card: Int64, column: Int64?, from: Int64?, role: String? = nil,
            title: () -> String?, titleBefore: () -> String?, columnTitle: () -> String?
        ) {
            var roleAt: Int32 = -1
            if let role {
                if let last = lastRole, last.name == role {
                    roleAt = last.index
                } else if roles.count <= 16, let i = roles.firstIndex(of: role) {
                    roleAt = Int32(i)
                } else if let i = roleIndex[role] {
                    roleAt = i
                } else {
                    roleAt = Int32(roles.count)
                    roles.append(role)
                    roleIndex[role] = roleAt
                }
                lastRole = (role, roleAt)
            }
            if firstCardRecord == nil { firstCardRecord = (record, at) }
            while columnRowAt.count < columnRows.count && columnRows[columnRowAt.count].id < record {
                columnRowAt.append(rows.count)
            }
            let index: Int32
            if let i = cardIndex[card] {
                index = i
                if kind == .added { addedCard[Int(i)] = true }
            } else {
                index = Int32(cardIDs.count)
                cardIndex[card] = index
                cardIDs.append(card)
                addedCard.append(kind == .added)
                firstRows.append(
                    FirstRow(kind: kind, column: column, from: from, title: title(), titleBefore: titleBefore()))
            }
            if let column { account(column, record: record, columnTitle) }
            if let from { account(from, record: record, columnTitle) }
            let carried: String?
            switch kind {
            case .added, .edited: carried = title()
            case .deleted: carried = titleBefore()
            case .moved, .other: carried = nil
            }
            rows.append(CardRow(at: at, card: index, kind: kind, role: roleAt, column: column, title: carried))
        }

        /// Notes a column a card row names that neither the column rows nor the board now account for.
        private mutating func account(_ c: Int64, record: Int64, _ columnTitle: () -> String?) {
            guard c != checked.0, c != checked.1 else { return }
            checked = (c, checked.0)
            guard !accounted.contains(c) else { return }
            if let i = unaccounted.firstIndex(where: { $0.id == c }) {
                if unaccounted[i].record > record { unaccounted[i] = (c, record, columnTitle()) }
            } else {
                unaccounted.append((c, record, columnTitle()))
            }
        }

        /// Cards from before the record whose first row is a move the reader gave without the
        /// column it left (a server reads that only for these; `seedMove`).
        public var seedsFromMoves: [Int64] {
            cardIDs.indices.filter { !addedCard[$0] && firstRows[$0].kind == .moved && firstRows[$0].from == nil }.map {
                cardIDs[$0]
            }
        }

        /// The column a card from before the record left in its first row (`record`), with that
        /// row's column title.
        public mutating func seedMove(card: Int64, record: Int64, from: Int64?, columnTitle: String?) {
            guard let i = cardIndex[card], let from else { return }
            firstRows[Int(i)].from = from
            checked = (.min, .min)
            account(from, record: record) { columnTitle }
        }

        /// Columns only card rows name whose title (that of the first row naming them) is not known yet.
        public var unnamedColumns: [(column: Int64, record: Int64)] {
            unaccounted.filter { $0.title == nil }.map { ($0.id, $0.record) }
        }

        public mutating func nameColumn(_ c: Int64, title: String?) {
            if let i = unaccounted.firstIndex(where: { $0.id == c }) { unaccounted[i].title = title }
        }

        /// The events, and how many cards were already on the board when the record began.
        public mutating func finish() -> (events: [FlowEvent], before: Int) {
            while columnRowAt.count < columnRows.count { columnRowAt.append(rows.count) }
            let start: FlowTime
            if let c = columnRows.first, firstCardRecord.map({ c.id < $0.id }) ?? true {
                start = c.row.at
            } else if let f = firstCardRecord {
                start = f.at
            } else {
                return ([], 0)
            }
            var events: [FlowEvent] = []
            events.reserveCapacity(rows.count + nowCards.count + 16)
            var firstColumnRow: [Int64: Row] = [:]
            for (_, r) in columnRows { if let c = r.column, firstColumnRow[c] == nil { firstColumnRow[c] = r } }
            var columnState: [Int64: (key: String, title: String)] = [:]
            var keyOf: [Int64: Int] = [:]
            func key(_ id: Int64) -> Int {
                if let k = keyOf[id] { return k }
                keyOf[id] = keyOf.count + 1
                return keyOf[id]!
            }
            let now = Dictionary(nowColumns.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            for c in nowColumns where !addedColumns.contains(c.id) {
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
            for (c, _, title) in unaccounted where columnState[c] == nil {
                columnState[c] = ("\u{10FFFF}\(c)", title ?? "column \(c)")
            }
            var lastColumns: [FlowColumn] = []
            func emitColumns(_ t: FlowTime) {
                let list = columnState.sorted { a, b in
                    a.value.key.utf8.lexicographicallyPrecedes(b.value.key.utf8)
                        || (a.value.key == b.value.key && a.key < b.key)
                }.map { FlowColumn(key: key($0.key), title: $0.value.title) }
                if list != lastColumns {
                    events.append(.columns(time: t, list))
                    lastColumns = list
                }
            }
            emitColumns(start)
            // Titles by card index; cards now that the record never names come after those it does.
            var title = [String?](repeating: nil, count: cardIDs.count)
            var nowByID: [Int64: NowCard] = [:]
            for c in nowCards {
                if nowByID[c.id] == nil { nowByID[c.id] = c }
                if let i = cardIndex[c.id] { title[Int(i)] = c.title }
            }
            var before = 0
            var seeded: [(id: Int64, index: Int32?)] = []
            for (i, id) in cardIDs.enumerated() where !addedCard[i] { seeded.append((id, Int32(i))) }
            var unnamed = Set<Int64>()
            for c in nowCards where cardIndex[c.id] == nil && unnamed.insert(c.id).inserted {
                seeded.append((c.id, nil))
            }
            seeded.sort { $0.id < $1.id }
            for (id, index) in seeded {
                let r = index.map { firstRows[Int($0)] }
                let column: Int64?
                var t = nowByID[id]?.title ?? r?.titleBefore ?? r?.title ?? "card \(id)"
                switch r?.kind {
                case .moved: column = r?.from
                case .edited:
                    column = r?.column
                    if let old = r?.titleBefore { t = old }
                case .deleted: column = r?.column
                default: column = nowByID[id]?.column
                }
                guard let column else { continue }
                if let index { title[Int(index)] = t }
                events.append(.card(time: start, card: Int(truncatingIfNeeded: id), title: t, column: key(column)))
                before += 1
            }
            var last = start
            // Column rows of one moment give one snapshot (a board's columns are added together).
            var dirty = false
            var nextColumnRow = 0
            func columnRow(_ r: Row) {
                let t = max(r.at, last)
                if dirty && t != last {
                    emitColumns(last)
                    dirty = false
                }
                last = t
                guard let c = r.column else { return }
                switch r.kind {
                case "added": columnState[c] = (r.key ?? "", r.columnTitle ?? r.title ?? "")
                case "moved": if let k = r.key { columnState[c]?.key = k }
                case "edited": if let nt = r.title { columnState[c]?.title = nt }
                case "deleted": columnState[c] = nil
                default: return
                }
                dirty = true
            }
            // The last column looked up, and its key.
            var cached: (id: Int64, key: Int) = (.min, 0)
            func columnKey(_ id: Int64) -> Int {
                if id == cached.id { return cached.key }
                cached = (id, key(id))
                return cached.key
            }
            for (i, r) in rows.enumerated() {
                while nextColumnRow < columnRows.count && columnRowAt[nextColumnRow] == i {
                    columnRow(columnRows[nextColumnRow].row)
                    nextColumnRow += 1
                }
                let t = max(r.at, last)
                if dirty {
                    emitColumns(last)
                    dirty = false
                }
                last = t
                let card = Int(truncatingIfNeeded: cardIDs[Int(r.card)])
                let by = r.role >= 0 ? roles[Int(r.role)] : nil
                switch r.kind {
                case .added:
                    if let nt = r.title { title[Int(r.card)] = nt }
                    guard let c = r.column else { continue }
                    events.append(
                        .card(time: t, card: card, title: title[Int(r.card)] ?? "", column: columnKey(c), by: by))
                case .moved:
                    guard let c = r.column else { continue }
                    events.append(
                        .card(time: t, card: card, title: title[Int(r.card)] ?? "", column: columnKey(c), by: by))
                case .edited:
                    guard let nt = r.title, let c = r.column else { continue }
                    title[Int(r.card)] = nt
                    events.append(.card(time: t, card: card, title: nt, column: columnKey(c), by: by))
                case .deleted:
                    events.append(
                        .card(time: t, card: card, title: r.title ?? title[Int(r.card)] ?? "", column: nil, by: by))
                case .other:
                    continue
                }
            }
            while nextColumnRow < columnRows.count {
                columnRow(columnRows[nextColumnRow].row)
                nextColumnRow += 1
            }
            if dirty { emitColumns(last) }
            return (events, before)
        }
    }
}
