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

/// A card's identity: the model's own, independent of where the card is.
///
/// Given when a board is read (parsers number a file's cards 1, 2, 3…) or a card is made
/// (`CardID.fresh()`), kept while the card moves, across saves and merges; never written to a
/// file. The drag engine names what it drags with its own handle, DragKit's `ItemID`; the one
/// place a card's identity becomes a handle and back is `CardID.init(_: ItemID)` and
/// `ItemID.init(_: CardID)` (EngineHandle.swift).
public struct CardID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: UInt64

    public init(_ rawValue: UInt64) {
        self.rawValue = rawValue
    }

    public static func < (a: CardID, b: CardID) -> Bool { a.rawValue < b.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// One card on the board.
///
/// `id` is assigned when a board is loaded or a card is created and is never
/// written to a file; it keeps a card's identity while it moves.
///
/// Stored in 48 bytes, with no allocation of its own for a card with at most one description
/// line: the title's bytes are in a slab shared with other titles of the same read (`CardTitle`),
/// a single description line is kept as a string, and what most cards lack (a done mark, a due
/// date, sub-tasks, extra lines, a description of several lines) is one `CardExtras` value, a
/// box only when there is more than the done mark. All are kept normalised, so the synthesised
/// equality and hashing of the stored form agree with comparing the public fields.
public struct Card: Hashable, Sendable, Identifiable {
    public var id: CardID
    /// The title's text (a new title gets a slab of its own).
    public var title: String {
        get { titleText.string }
        set { titleText = CardTitle(newValue) }
    }
    private(set) var titleText: CardTitle

    /// Reads the title's UTF-8 bytes where they are kept, without building a `String`.
    public func withTitleUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try titleText.withUTF8(body)
    }
    /// The description when it is exactly one line.
    private var onlyLine: String?
    private var extras: CardExtras

    public init(
        id: CardID, title: String, due: String? = nil, descriptionLines: [String] = [],
        subtasks: [Subtask] = [], done: Bool = false, extraLines: [String] = []
    ) {
        self.init(
            id: id, titleText: CardTitle(title), due: due, descriptionLines: descriptionLines, subtasks: subtasks,
            done: done, extraLines: extraLines)
    }

    /// A card whose title a reader put in a shared slab (see `TitleSlabs`).
    init(
        id: CardID, titleText: CardTitle, due: String? = nil, descriptionLines: [String] = [],
        subtasks: [Subtask] = [], done: Bool = false, extraLines: [String] = []
    ) {
        self.id = id
        self.titleText = titleText
        onlyLine = descriptionLines.count == 1 ? descriptionLines[0] : nil
        extras = CardExtras(
            done: done, due: due, subtasks: subtasks, extraLines: extraLines,
            lines: descriptionLines.count > 1 ? descriptionLines : [])
    }

    /// A checked card (Obsidian `- [x]`); taskell has no such flag.
    public var done: Bool {
        get { extras.done }
        set { extras = extras.with { $0.done = newValue } }
    }

    /// The due date as written in the file (taskell: `@ 2024-01-31`, Obsidian: `@{2024/1/31}`).
    public var due: String? {
        get { extras.fields.due }
        set { extras = extras.with { $0.due = newValue } }
    }

    /// The description, line by line.
    public var descriptionLines: [String] {
        get { onlyLine.map { [$0] } ?? extras.fields.lines }
        set {
            onlyLine = newValue.count == 1 ? newValue[0] : nil
            extras = extras.with { $0.lines = newValue.count > 1 ? newValue : [] }
        }
    }

    /// Whether the card has description lines (without building the array).
    public var hasDescription: Bool { onlyLine != nil || !extras.fields.lines.isEmpty }

    public var subtasks: [Subtask] {
        get { extras.fields.subtasks }
        set { extras = extras.with { $0.subtasks = newValue } }
    }

    /// Lines of the card that Lanes does not interpret, kept verbatim for the dialect that wrote them.
    public var extraLines: [String] {
        get { extras.fields.extraLines }
        set { extras = extras.with { $0.extraLines = newValue } }
    }

    /// Whether the card has lines kept as written (without building the array).
    public var hasExtraLines: Bool {
        if case .more(let f) = extras { return !f.extraLines.isEmpty }
        return false
    }

    /// Sets the details a parser collected, in one step (each `append` through the
    /// accessors would copy what the card already holds: quadratic in a card's lines).
    mutating func setParsedDetails(descriptionLines: [String], subtasks: [Subtask], extraLines: [String]) {
        onlyLine = descriptionLines.count == 1 ? descriptionLines[0] : nil
        let done = extras.done, due = extras.fields.due
        extras = CardExtras(
            done: done, due: due, subtasks: subtasks, extraLines: extraLines,
            lines: descriptionLines.count > 1 ? descriptionLines : [])
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

/// What most cards lack, in 8 bytes: a done mark alone needs no box.
private enum CardExtras: Hashable, Sendable {
    case plain
    case checked
    indirect case more(Fields)

    struct Fields: Hashable, Sendable {
        var done = false
        var due: String?
        var subtasks: [Subtask] = []
        var extraLines: [String] = []
        /// The description when it has two lines or more (one line is `Card.onlyLine`).
        var lines: [String] = []
    }

    init(_ f: Fields) {
        if f.due == nil && f.subtasks.isEmpty && f.extraLines.isEmpty && f.lines.isEmpty {
            self = f.done ? .checked : .plain
        } else {
            self = .more(f)
        }
    }

    init(done: Bool, due: String?, subtasks: [Subtask], extraLines: [String], lines: [String]) {
        self.init(Fields(done: done, due: due, subtasks: subtasks, extraLines: extraLines, lines: lines))
    }

    var fields: Fields {
        switch self {
        case .plain: Fields()
        case .checked: Fields(done: true)
        case .more(let f): f
        }
    }

    var done: Bool {
        switch self {
        case .plain: false
        case .checked: true
        case .more(let f): f.done
        }
    }

    /// The extras with `change` made (normalised again).
    func with(_ change: (inout Fields) -> Void) -> CardExtras {
        var f = fields
        change(&f)
        return CardExtras(f)
    }
}

/// A list of cards with a title.
///
/// `id` is given when the column is read or made and kept across saves and merges; like the
/// board's locator it is not part of the value: equality and hashing compare what a file holds.
public struct Column: Hashable, Sendable, Identifiable {
    public var id: ColumnID
    public var title: String
    public var cards: CardList
    /// Work-in-progress limit: at most this many cards (nil: no limit).
    public var wipLimit: Int?
    /// Lines between the heading and the first card that Lanes does not interpret, kept verbatim.
    public var extraLines: [String]

    public init(
        id: ColumnID = .fresh(), title: String, cards: CardList = [], wipLimit: Int? = nil, extraLines: [String] = []
    ) {
        self.id = id
        self.title = title
        self.cards = cards
        self.wipLimit = wipLimit
        self.extraLines = extraLines
    }

    public init(id: ColumnID = .fresh(), title: String, cards: [Card], wipLimit: Int? = nil, extraLines: [String] = [])
    {
        self.init(id: id, title: title, cards: CardList(cards), wipLimit: wipLimit, extraLines: extraLines)
    }

    public static func == (a: Column, b: Column) -> Bool {
        a.title == b.title && a.wipLimit == b.wipLimit && a.extraLines == b.extraLines && a.cards == b.cards
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(title)
        hasher.combine(wipLimit)
        hasher.combine(extraLines)
        hasher.combine(cards)
    }

    /// Whether another card from elsewhere would exceed the WIP limit.
    public var isFull: Bool {
        guard let limit = wipLimit else { return false }
        return cards.count >= limit
    }
}

/// What a board's storage keeps of a card besides its title, due date, description and sub-tasks.
public struct CardCapacity: Hashable, Sendable {
    /// A done mark (`- [x]`): Obsidian files and PostgreSQL boards keep it; taskell files do not.
    public var doneMark: Bool
    /// Lines the reader did not interpret (`Card.extraLines`): kept verbatim by Obsidian files and
    /// PostgreSQL; a taskell file keeps them only as description lines.
    public var extraLines: Bool

    public static let everything = CardCapacity(doneMark: true, extraLines: true)
    public static let taskell = CardCapacity(doneMark: false, extraLines: false)

    public static func of(_ dialect: BoardDialect) -> CardCapacity {
        dialect == .taskell ? .taskell : .everything
    }
}

/// A Kanban board: ordered columns of cards.
///
/// Equality and hashing look at `columns` and `acceptRules` only: the locator that finds
/// cards by identity and the stamp that tells versions apart are not part of the value.
public struct Board: Hashable, Sendable {
    public internal(set) var columns: [Column] {
        // No `oldValue`: in-place changes (`columns[s].cards.append`) stay in place.
        didSet { stamp = BoardStamp.next() }
    }
    /// Which columns may receive cards from which. Not part of the board file: `BoardStore` keeps
    /// them in a sidecar (see `AcceptRules`). Part of the board value, so undo covers them.
    public internal(set) var acceptRules = AcceptRules()
    /// What the board's storage keeps of a card (a taskell file has no done mark): the door
    /// refuses, or reshapes, what it cannot keep. Set by whoever reads the board; not part of the value.
    public internal(set) var capacity = CardCapacity.everything
    /// Shared by copies; see `CardLocator`.
    let locator = CardLocator()
    /// New on every change of `columns`: lets the locator tell "absent" from "not learned yet".
    private(set) var stamp = BoardStamp.next()

    /// A board made from its parts, as a reader makes it (a file's parser, a store's rows): making
    /// a board is reading; changing one is `applying(_:force:)`.
    public init(columns: [Column] = [], acceptRules: AcceptRules = AcceptRules(), capacity: CardCapacity = .everything)
    {
        self.columns = columns
        self.acceptRules = acceptRules
        self.capacity = capacity
    }

    public static func == (a: Board, b: Board) -> Bool {
        a.columns == b.columns && a.acceptRules == b.acceptRules
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(columns)
        hasher.combine(acceptRules)
    }

    public var cardCount: Int { columns.reduce(0) { $0 + $1.cards.count } }

    public internal(set) subscript(path: ItemPath) -> Card {
        get { columns[path.section].cards[path.item] }
        set { columns[path.section].cards[path.item] = newValue }
    }

    /// Every card identity, column by column; what a drag must never change.
    public var allIDs: [CardID] { columns.flatMap { $0.cards.map(\.id) } }
}

extension Board {
    public func numberOfItems(inSection section: Int) -> Int {
        columns.indices.contains(section) ? columns[section].cards.count : 0
    }

    /// Found through the board's `CardLocator`: no scan of the board, except to learn it
    /// after it changed beyond what the remembered positions can follow.
    public func indexPath(for item: CardID) -> ItemPath? {
        locator.locate(item, in: columns, stamp: stamp)
    }

    public func item(at indexPath: ItemPath) -> Card? {
        guard columns.indices.contains(indexPath.section),
            columns[indexPath.section].cards.indices.contains(indexPath.item)
        else { return nil }
        return columns[indexPath.section].cards[indexPath.item]
    }

    mutating func moveItem(from: ItemPath, to: ItemPath) {
        precondition(from.section == to.section, "moveItem moves inside one column")
        let card = columns[from.section].cards.remove(at: from.item)
        columns[to.section].cards.insert(card, at: to.item)
        locator.note(card.id, at: to)
    }

    mutating func insertItem(_ item: Card, at indexPath: ItemPath) {
        columns[indexPath.section].cards.insert(item, at: indexPath.item)
        locator.note(item.id, at: indexPath)
    }

    mutating func deleteItem(at indexPath: ItemPath) {
        columns[indexPath.section].cards.remove(at: indexPath.item)
    }
}
