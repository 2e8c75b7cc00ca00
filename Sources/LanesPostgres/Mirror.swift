import DragKit
import LanesCore

/// A card as its row holds it, with what the version check needs.
struct CardRow {
    var card: Card
    var column: Int64
    var key: String
    var version: Int64
    var changedBy: String
}

/// A column as its row holds it (cards apart).
struct ColumnRow {
    var id: Int64
    var key: String
    var title: String
    var wipLimit: Int?
    var extraLines: [String]
    var version: Int64
    var changedBy: String
    /// The lane's layout in its file (migration 3): heading, card style, lines after its list.
    var layout = LaneLayout()
}

/// The client's copy of one board's rows, kept up to date by deltas (rows written after `version`).
///
/// Each column keeps its card identities sorted by key and its cards built once, so a delta of
/// one move rebuilds one or two columns, not the board.
struct Mirror {
    var version: Int64 = 0
    /// Where in the server's log the newest read these rows took in was made (nil: not known).
    var readAt: WALPoint?
    var info = BoardFileInfo(dialect: .taskell)
    var rulesText = ""
    var rules = AcceptRules()
    var columns: [ColumnRow] = []
    var cards: [Int64: CardRow] = [:]
    private var order: [Int64: [Int64]] = [:]
    private var built: [Int64: CardList] = [:]

    static let cardFields =
        "id, column_id, key, version, changed_by, title, due, description, subtasks, done, extra_lines"

    /// Applies a delta: the board row's fields, every column, changed cards, and removed card ids.
    /// Built columns are patched in place (a removal and an insertion), not rebuilt.
    mutating func apply(version: Int64, columns newColumns: [ColumnRow], cards changed: [CardRow], removed: [Int64]) {
        self.version = max(self.version, version)
        let known = Set(newColumns.map(\.id))
        for gone in columns.map(\.id) where !known.contains(gone) {
            order[gone] = nil
            built[gone] = nil
        }
        columns = newColumns
        for id in removed {
            guard let old = cards.removeValue(forKey: id) else { continue }
            take(id, from: old.column)
        }
        for row in changed {
            let id = Int64(bitPattern: row.card.id.rawValue)
            if let old = cards[id] { take(id, from: old.column) }
            cards[id] = row
            insertSorted(id, row)
        }
    }

    /// Removes a card from its column's order (and built cards).
    private mutating func take(_ id: Int64, from column: Int64) {
        guard let i = order[column]?.firstIndex(of: id) else { return }
        order[column]!.remove(at: i)
        if built[column] != nil { built[column]!.remove(at: i) }
    }

    /// Replaces everything (a full load).
    mutating func reset(version: Int64, columns: [ColumnRow], cards all: [CardRow]) {
        self.version = version
        self.columns = columns
        cards = [:]
        cards.reserveCapacity(all.count)
        order = [:]
        built = [:]
        for row in all { cards[Int64(bitPattern: row.card.id.rawValue)] = row }
        var grouped: [Int64: [Int64]] = [:]
        for row in all { grouped[row.column, default: []].append(Int64(bitPattern: row.card.id.rawValue)) }
        for (column, ids) in grouped {
            order[column] = ids.sorted { a, b in
                let ka = cards[a]!.key, kb = cards[b]!.key
                return ka != kb ? ka.utf8.lexicographicallyPrecedes(kb.utf8) : a < b
            }
        }
    }

    private mutating func insertSorted(_ id: Int64, _ row: CardRow) {
        var ids = order[row.column] ?? []
        order[row.column] = nil
        var lo = 0, hi = ids.count
        while lo < hi {
            let mid = (lo + hi) / 2
            let other = cards[ids[mid]]!
            let before = other.key != row.key ? other.key.utf8.lexicographicallyPrecedes(row.key.utf8) : ids[mid] < id
            if before { lo = mid + 1 } else { hi = mid }
        }
        ids.insert(id, at: lo)
        order[row.column] = ids
        if built[row.column] != nil { built[row.column]!.insert(row.card, at: lo) }
    }

    /// The card identities of a column in board order.
    func cardIDs(in column: Int64) -> [Int64] { order[column] ?? [] }

    /// The board the rows make: columns by key, cards by key, the rules.
    mutating func board() -> Board {
        Board(
            columns: columns.map { c in
                let cards: CardList
                if let done = built[c.id] {
                    cards = done
                } else {
                    let rows = self.cards
                    cards = CardList((order[c.id] ?? []).lazy.map { rows[$0]!.card })
                    built[c.id] = cards
                }
                return Column(
                    id: ColumnID(UInt64(bitPattern: c.id)), title: c.title, cards: cards, wipLimit: c.wipLimit,
                    extraLines: c.extraLines)
            }, acceptRules: rules)
    }
}

/// How card and column fields sit in text columns.
enum RowCodec {
    /// Lines joined by LF; nil for none (a file's line never holds a line feed).
    static func lines(_ l: [String]) -> String? { l.isEmpty ? nil : l.joined(separator: "\n") }
    static func lines(_ s: String?) -> [String] {
        s.map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) } ?? []
    }

    /// `[x] title` / `[ ] title`, one a line.
    static func subtasks(_ s: [Subtask]) -> String? { lines(s.map { ($0.done ? "[x] " : "[ ] ") + $0.title }) }
    static func subtasks(_ s: String?) -> [Subtask] {
        lines(s).map { Subtask(String($0.dropFirst(4)), done: $0.hasPrefix("[x]")) }
    }

    /// A card from a row selected with `Mirror.cardFields`.
    static func cardRow(_ r: PGConnection.Rows, _ i: Int) -> CardRow {
        let id = r.int(i, 0)!
        let card = Card(
            id: CardID(UInt64(bitPattern: id)), title: r[i, 5] ?? "", due: r[i, 6],
            descriptionLines: lines(r[i, 7]), subtasks: subtasks(r[i, 8]), done: r[i, 9] == "t",
            extraLines: lines(r[i, 10]))
        return CardRow(card: card, column: r.int(i, 1)!, key: r[i, 2]!, version: r.int(i, 3)!, changedBy: r[i, 4] ?? "")
    }

    static let columnFields =
        "id, key, title, wip_limit, extra_lines, version, changed_by, heading, card_style, after_list"

    static func columnRow(_ r: PGConnection.Rows, _ i: Int) -> ColumnRow {
        ColumnRow(
            id: r.int(i, 0)!, key: r[i, 1]!, title: r[i, 2] ?? "", wipLimit: r[i, 3].flatMap { Int($0) },
            extraLines: lines(r[i, 4]), version: r.int(i, 5)!, changedBy: r[i, 6] ?? "",
            layout: LaneLayout(heading: r[i, 7], cardStyle: r[i, 8], afterList: lines(r[i, 9])))
    }

    /// A PostgreSQL array literal of texts (`{"a","b",NULL}`), for `unnest($1::text[])`.
    static func array(_ values: [String?]) -> String {
        var out = "{"
        for (i, v) in values.enumerated() {
            if i > 0 { out += "," }
            guard let v else { out += "NULL"; continue }
            out += "\""
            for ch in v.unicodeScalars {
                if ch == "\"" || ch == "\\" { out += "\\" }
                out.unicodeScalars.append(ch)
            }
            out += "\""
        }
        return out + "}"
    }

    static func array(_ values: [Int64]) -> String { "{" + values.map(String.init).joined(separator: ",") + "}" }
}
