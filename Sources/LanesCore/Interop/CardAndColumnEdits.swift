import DragKit

/// What `lanes edit`, `lanes remove` and `lanes column …` do: each builds edits and applies them
/// through the door (`Board.applying`), which holds every rule; these only find the card or
/// column named on the command line and say what happened.
extension BoardCommands {
    // MARK: Card fields

    /// The changes `lanes edit` asks of one card; nil fields stay as they are.
    public struct CardChanges: Equatable, Sendable {
        public var title: String?
        /// Some(nil) or an empty string clears the due date.
        public var due: String??
        /// The title's `#tags` replaced by these.
        public var tags: [String]?
        /// The description replaced by these lines (a value with line breaks is several lines).
        public var descriptionLines: [String]?
        /// Sub-tasks added at the end, not done.
        public var addSubtasks: [String] = []
        /// Sub-tasks ticked or unticked by their 1-based number.
        public var subtaskDone: [SubtaskMark] = []
        /// Ticks the first open sub-task, or unticks all when every one is done (the `t` key).
        public var tick = false
        public var done: Bool?

        public struct SubtaskMark: Equatable, Sendable {
            public var number: Int
            public var done: Bool
            public init(number: Int, done: Bool) {
                self.number = number
                self.done = done
            }
        }

        public init() {}

        public var isEmpty: Bool { self == CardChanges() }
    }

    /// Applies `changes` to the card `query` names, one edit at a time through the door (in the
    /// order of the fields above); all or nothing. Returns a one-line summary.
    public static func editCard(_ board: inout Board, card query: String, _ changes: CardChanges) throws(CommandError)
        -> String
    {
        guard !changes.isEmpty else {
            throw CommandError(
                .badInput, "nothing to change; give --title, --due, --tag, --description, --done, … (lanes edit --help)"
            )
        }
        let path = try BoardQuery.card(query, in: board)
        let id = board[path].id
        var words: [String] = []
        func seen() -> SeenCard {
            let p = board.indexPath(for: id)!
            return SeenCard(
                card: board[p], column: board.columns[p.section].id, columnIndex: p.section, position: p.item)
        }
        func apply(_ edit: BoardEdit) throws(CommandError) {
            words.append(try door(&board, edit).words)
        }
        if let title = changes.title { try apply(.setTitle(id, title, seen: seen())) }
        if let tags = changes.tags { try apply(.setTags(id, tags, seen: seen())) }
        if let due = changes.due { try apply(.setDue(id, due, seen: seen())) }
        if changes.descriptionLines != nil || !changes.addSubtasks.isEmpty {
            var card = board[board.indexPath(for: id)!]
            if let lines = changes.descriptionLines {
                card.descriptionLines = lines.flatMap {
                    $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
                }
            }
            for s in changes.addSubtasks { card.subtasks.append(Subtask(s)) }
            try apply(.replaceCard(card, seen: seen()))
        }
        if let done = changes.done { try apply(.setDone(id, done)) }
        for mark in changes.subtaskDone {
            // A number that names no sub-task is the door's to refuse (index -1 included).
            try apply(.setSubtaskDone(id, index: mark.number - 1, done: mark.done))
        }
        if changes.tick { try apply(.tickSubtask(id)) }
        let now = board.indexPath(for: id)!
        return "Card \(BoardQuery.number(of: now, in: board)) \"\(printable(board[now].title))\": "
            + words.map(printable).joined(separator: "; ") + "."
    }

    /// Deletes the cards `queries` name, through the door; returns a one-line summary.
    public static func removeCards(_ board: inout Board, cards queries: [String]) throws(CommandError) -> String {
        var ids: [CardID] = []
        var seen: [Card] = []
        for q in queries {
            let p = try BoardQuery.card(q, in: board)
            if !ids.contains(board[p].id) { ids.append(board[p].id); seen.append(board[p]) }
        }
        return printable(try door(&board, .deleteCards(ids, seen: seen)).words) + "."
    }

    // MARK: Columns

    /// Adds a column titled `title` at the 1-based `position` (default: after the last column).
    public static func addColumn(_ board: inout Board, title: String, position: Int? = nil) throws(CommandError)
        -> String
    {
        try addColumn(&board, title: title, place: position.map { .position($0) } ?? .end)
    }

    /// Where `lanes column add` puts the new column.
    public enum ColumnPlace: Equatable, Sendable {
        case end
        /// 1-based, among the columns afterwards.
        case position(Int)
        /// Right after / before the column the query names (found like `lanes move` finds one).
        case after(String)
        case before(String)
    }

    /// Adds a column at `place`, through the door.
    public static func addColumn(_ board: inout Board, title: String, place: ColumnPlace) throws(CommandError)
        -> String
    {
        let count = board.columns.count
        let slot: ColumnSlot
        switch place {
        case .end:
            slot = .index(count)
        case .position(let position):
            guard (1...count + 1).contains(position) else {
                throw CommandError(
                    .badInput, "position \(position) is outside the board's columns; use 1 to \(count + 1)")
            }
            slot = .index(position - 1)
        case .after(let query):
            let s = try BoardQuery.column(query, in: board)
            slot = .after(board.columns[s].id, orIndex: s + 1)
        case .before(let query):
            slot = .index(try BoardQuery.column(query, in: board))
        }
        let outcome = try door(&board, .addColumn(Column(title: title), at: slot))
        guard case .column(let id)? = outcome.focus, let s = board.index(of: id) else {
            return printable(outcome.words) + "."
        }
        return "Added column \(s + 1) \"\(printable(board.columns[s].title))\"."
    }

    /// Renames the column `query` names.
    public static func renameColumn(_ board: inout Board, column query: String, to title: String) throws(CommandError)
        -> String
    {
        let s = try BoardQuery.column(query, in: board)
        return printable(try door(&board, .renameColumn(board.columns[s].id, title)).words) + "."
    }

    /// Moves the column `query` names to the 1-based `position`.
    public static func moveColumn(_ board: inout Board, column query: String, to position: Int) throws(CommandError)
        -> String
    {
        let s = try BoardQuery.column(query, in: board)
        let count = board.columns.count
        guard (1...count).contains(position) else {
            throw CommandError(.badInput, "position \(position) is outside the board's columns; use 1 to \(count)")
        }
        let outcome = try door(&board, .moveColumn(board.columns[s].id, to: position - 1))
        return printable(outcome.words) + (outcome.changed ? " to position \(position)." : ".")
    }

    /// Deletes the column `query` names with its cards; a column with cards needs `withCards`
    /// (`--yes`), as the terminal asks first.
    public static func deleteColumn(_ board: inout Board, column query: String, withCards: Bool) throws(CommandError)
        -> String
    {
        let s = try BoardQuery.column(query, in: board)
        let column = board.columns[s]
        let n = column.cards.count
        if n > 0 && !withCards {
            throw CommandError(
                .badInput,
                "column \"\(printable(column.title))\" has \(n == 1 ? "1 card" : "\(n) cards"); --yes deletes the column with \(n == 1 ? "it" : "them")"
            )
        }
        let words = try door(&board, .deleteColumn(column.id, seen: column.cards.map(\.id))).words
        return printable(words) + (n > 0 ? " with \(n == 1 ? "its card" : "its \(n) cards")." : ".")
    }

    /// Sets (or with nil, removes) the WIP limit of the column `query` names.
    public static func setLimit(_ board: inout Board, column query: String, to limit: Int?) throws(CommandError)
        -> String
    {
        let s = try BoardQuery.column(query, in: board)
        return printable(try door(&board, .setWIPLimit(board.columns[s].id, limit)).words) + "."
    }
}
