import DragKit

/// A checklist entry of a card.
public struct Subtask: Hashable, Sendable {
    public var title: String
    public var done: Bool

    public init(_ title: String, done: Bool = false) {
        self.title = title
        self.done = done
    }
}

/// One card on the board.
///
/// `id` is assigned when a board is loaded or a card is created and is never
/// written to a file; it keeps a card's identity while it moves.
public struct Card: Hashable, Sendable, Identifiable {
    public var id: ItemID
    public var title: String
    /// The due date as written in the file (taskell: `@ 2024-01-31`, Obsidian: `@{2024/1/31}`).
    public var due: String?
    public var description: [String]
    public var subtasks: [Subtask]
    /// A checked card (Obsidian `- [x]`); taskell has no such flag.
    public var done: Bool
    /// Lines of the card that Lanes does not interpret, kept verbatim for the dialect that wrote them.
    public var extraLines: [String]

    public init(id: ItemID, title: String, due: String? = nil, description: [String] = [],
                subtasks: [Subtask] = [], done: Bool = false, extraLines: [String] = []) {
        self.id = id
        self.title = title
        self.due = due
        self.description = description
        self.subtasks = subtasks
        self.done = done
        self.extraLines = extraLines
    }

    /// `#tags` in the title, in order, without the `#`.
    public var tags: [String] { Card.tags(in: title) }

    /// The title with its `#tags` replaced by `tags` (appended at the end, in order).
    public static func retagged(title: String, tags: [String]) -> String {
        let old = Set(Card.tags(in: title))
        var words = title.split(separator: " ", omittingEmptySubsequences: false).filter { w in
            !(w.hasPrefix("#") && old.contains(String(w.dropFirst())))
        }
        while let last = words.last, last.isEmpty { words.removeLast() }
        return (words.map(String.init) + tags.map { "#" + $0 }).joined(separator: " ")
    }

    public static func tags(in text: String) -> [String] {
        var result: [String] = []
        var current: String?
        var previous: Character = " "
        for ch in text {
            if var tag = current {
                if ch.isLetter || ch.isNumber || ch == "_" || ch == "-" || ch == "/" {
                    tag.append(ch)
                    current = tag
                    previous = ch
                    continue
                }
                if !tag.isEmpty { result.append(tag) }
                current = nil
            }
            if ch == "#" && previous.isWhitespace { current = "" }
            previous = ch
        }
        if let tag = current, !tag.isEmpty { result.append(tag) }
        return result
    }
}

/// A list of cards with a title.
public struct Column: Hashable, Sendable {
    public var title: String
    public var cards: [Card]
    /// Work-in-progress limit: at most this many cards (nil: no limit).
    public var wipLimit: Int?
    /// Lines between the heading and the first card that Lanes does not interpret, kept verbatim.
    public var extraLines: [String]

    public init(title: String, cards: [Card] = [], wipLimit: Int? = nil, extraLines: [String] = []) {
        self.title = title
        self.cards = cards
        self.wipLimit = wipLimit
        self.extraLines = extraLines
    }

    /// Whether another card from elsewhere would exceed the WIP limit.
    public var isFull: Bool {
        guard let limit = wipLimit else { return false }
        return cards.count >= limit
    }
}

/// A Kanban board: ordered columns of cards.
public struct Board: Hashable, Sendable {
    public var columns: [Column]
    /// Which columns may receive cards from which. Not part of the board file: `BoardStore` keeps
    /// them in a sidecar (see `AcceptRules`). Part of the board value, so undo covers them.
    public var acceptRules = AcceptRules()
    public init(columns: [Column] = []) {
        self.columns = columns
    }

    /// A fresh identity for a new card, unique in this process (see `ItemID.fresh()`).
    public mutating func makeID() -> ItemID { ItemID.fresh() }

    public var cardCount: Int { columns.reduce(0) { $0 + $1.cards.count } }

    public subscript(path: ItemPath) -> Card {
        get { columns[path.section].cards[path.item] }
        set { columns[path.section].cards[path.item] = newValue }
    }

    /// Every card identity, column by column; what a drag must never change.
    public var allIDs: [ItemID] { columns.flatMap { $0.cards.map(\.id) } }
}

extension Board: DragDataSource {
    public typealias Item = Card

    public func numberOfItems(inSection section: Int) -> Int {
        columns.indices.contains(section) ? columns[section].cards.count : 0
    }

    public func indexPath(for item: ItemID) -> ItemPath? {
        for (s, column) in columns.enumerated() {
            if let i = column.cards.firstIndex(where: { $0.id == item }) {
                return ItemPath(section: s, item: i)
            }
        }
        return nil
    }

    public func item(at indexPath: ItemPath) -> Card? {
        guard columns.indices.contains(indexPath.section),
              columns[indexPath.section].cards.indices.contains(indexPath.item) else { return nil }
        return columns[indexPath.section].cards[indexPath.item]
    }

    public mutating func moveItem(from: ItemPath, to: ItemPath) {
        precondition(from.section == to.section, "moveItem moves inside one column")
        let card = columns[from.section].cards.remove(at: from.item)
        columns[to.section].cards.insert(card, at: to.item)
    }

    public mutating func insertItem(_ item: Card, at indexPath: ItemPath) {
        columns[indexPath.section].cards.insert(item, at: indexPath.item)
    }

    public mutating func deleteItem(at indexPath: ItemPath) {
        columns[indexPath.section].cards.remove(at: indexPath.item)
    }
}
