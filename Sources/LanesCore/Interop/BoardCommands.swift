import DragKit

/// What the scripting commands (`lanes show`, `add`, `move`, …) do, apart from argument parsing.
///
/// Reading commands do not take the board lock, so they work while the board is
/// open in the terminal UI (saves replace the file atomically, so a read never sees
/// half a file). Changing commands take the lock, keep the file's dialect and style,
/// and save atomically; on any error the file is left untouched.
public enum BoardCommands {
    // MARK: Reading

    /// Columns and their cards as plain text, cards with the numbers `BoardQuery` accepts.
    ///
    ///     Column 1: To do (2 cards)
    ///       1. First card
    ///       2. [x] Second card   due 2024-01-31   sub-tasks 1/2
    ///
    /// `details` adds description lines (`> `) and sub-tasks (`[ ] `/`[x] `) under each card.
    public static func show(_ board: Board, info: BoardFileInfo, details: Bool = false) -> String {
        var out = ""
        var number = 0
        let width = String(board.cardCount).count
        for (s, column) in board.columns.enumerated() {
            if s > 0 { out += "\n" }
            out += "Column \(s + 1): \(printable(column.title)) (\(cardCount(column)))\n"
            if column.cards.isEmpty { out += "  (no cards)\n" }
            for original in column.cards {
                number += 1
                let card = info.dialect == .obsidian ? BoardExport.interpretedObsidianBody(original) : original
                let label = String(number)
                out += "  " + String(repeating: " ", count: width - label.count) + label + ". "
                if card.done { out += "[x] " }
                out += printable(card.title)
                if let due = card.due { out += "   due \(printable(due))" }
                if !card.subtasks.isEmpty {
                    out += "   sub-tasks \(card.subtasks.filter(\.done).count)/\(card.subtasks.count)"
                }
                out += "\n"
                guard details else { continue }
                let indent = String(repeating: " ", count: width + 6)
                for line in card.descriptionLines { out += indent + "> " + printable(line) + "\n" }
                for sub in card.subtasks { out += indent + (sub.done ? "[x] " : "[ ] ") + printable(sub.title) + "\n" }
            }
        }
        if board.columns.isEmpty { out += "(no columns)\n" }
        return out
    }

    /// One line per column: `NUMBER<TAB>TITLE<TAB>CARDS`, CARDS as `3` or `3/5` when the column has a WIP limit.
    public static func columns(_ board: Board) -> String {
        var out = ""
        for (s, column) in board.columns.enumerated() {
            var count = String(column.cards.count)
            if let limit = column.wipLimit { count += "/\(limit)" }
            out += "\(s + 1)\t\(printable(column.title))\t\(count)\n"
        }
        return out
    }

    private static func cardCount(_ column: Column) -> String {
        let n = column.cards.count
        var text = n == 1 ? "1 card" : "\(n) cards"
        if let limit = column.wipLimit { text += ", limit \(limit)" }
        return text
    }

    /// One value on one line of output: every control character (tab and line feed too) shown visibly.
    public static func printable(_ text: String) -> String {
        TerminalSafe.escape(text, keepLayout: false)
    }

    // MARK: Changing

    /// Where a card ended up after `add` or `move`.
    public struct Placement: Equatable, Sendable {
        /// The card's number as `lanes show` prints it after the change.
        public var number: Int
        public var title: String
        public var column: String
        /// 1-based position in the column.
        public var position: Int
        /// False when the card already was there and nothing was written.
        public var changed: Bool
    }

    /// Adds a card at the end of a column, or at the top, through the door (`Board.applying`).
    ///
    /// A full column (at its WIP limit) is refused unless `force`.
    public static func add(
        _ board: inout Board, column query: String, title: String, top: Bool = false, force: Bool = false
    ) throws(CommandError) -> Placement {
        // The text is checked before the column is looked for, as the door would.
        if let refusal = textRefusal(title) { throw CommandError(.badInput, refusal.words) }
        let s = try BoardQuery.column(query, in: board)
        let card = Card(id: CardID.fresh(), title: title)
        let outcome = try door(
            &board, .addCard(card, column: board.columns[s].id, at: top ? .top : .end, fallbackColumn: s),
            force: force)
        let path = board.indexPath(for: outcomeCard(outcome) ?? card.id)!
        return Placement(
            number: BoardQuery.number(of: path, in: board), title: board[path].title,
            column: board.columns[path.section].title,
            position: path.item + 1, changed: true)
    }

    /// Moves a card to a column, at a 1-based `position` counted without the card (default: the end),
    /// through the door. Moving into another column that is at its WIP limit, or whose accept
    /// rule does not name the card's column, is refused unless `force`.
    public static func move(
        _ board: inout Board, card query: String, to columnQuery: String, position: Int? = nil, force: Bool = false
    ) throws(CommandError) -> Placement {
        let from = try BoardQuery.card(query, in: board)
        let s = try BoardQuery.column(columnQuery, in: board)
        let card = board[from]
        let target = board.columns[s]
        let room = target.cards.count - (from.section == s ? 1 : 0)
        if let position, !(1...room + 1).contains(position) {
            throw CommandError(
                .badInput, "position \(position) is outside column \"\(target.title)\"; use 1 to \(room + 1)")
        }
        // The slot: before the card now at that position (not counting the card itself), or the end.
        let others = target.cards.filter { $0.id != card.id }
        let slot: CardSlot =
            position.flatMap { p in p <= others.count ? .before(others[p - 1].id, orIndex: p - 1) : nil } ?? .end
        let outcome = try door(
            &board, .moveCards([card.id], to: target.id, at: slot), force: force)
        let path = board.indexPath(for: card.id)!
        return Placement(
            number: BoardQuery.number(of: path, in: board), title: card.title, column: target.title,
            position: path.item + 1, changed: outcome.changed)
    }

    /// Applies an edit through the door; a refusal becomes the command's error, which carries it
    /// (`CommandError.refused`) for the asker's own hint.
    @discardableResult
    public static func door(_ board: inout Board, _ edit: BoardEdit, force: Bool = false) throws(CommandError)
        -> EditOutcome
    {
        do {
            let outcome = try board.applying(edit, force: force)
            board = outcome.board
            DoorRecording.current?.add(outcome)
            return outcome
        } catch {
            throw CommandError(refused: error, of: edit)
        }
    }

    /// Words as the commands print them (`lanes` does, on stdout and stderr): names in straight
    /// double quotes, like every other line a command prints. The door's words stay the same words
    /// in the terminal and the commands; only the quote marks are each one's own.
    public static func straightQuotes(_ words: String) -> String {
        guard words.contains("“") || words.contains("”") else { return words }
        return words.replacingOccurrences(of: "“", with: "\"").replacingOccurrences(of: "”", with: "\"")
    }

    /// What the door says of a card title it would refuse, before anything else is looked up.
    static func textRefusal(_ title: String) -> EditRefusal? {
        var probe = Board(columns: [Column(title: "probe")])
        do {
            probe = try probe.applying(
                .addCard(Card(id: CardID(1), title: title), column: probe.columns[0].id, at: .end, fallbackColumn: 0),
                force: true
            ).board
            return nil
        } catch { return error }
    }

    private static func outcomeCard(_ o: EditOutcome) -> CardID? {
        if case .card(let id)? = o.focus { return id }
        return nil
    }

    /// Reads the board, applies `change`, and commits it: what others saved meanwhile is merged,
    /// never overwritten or refused. The storage is untouched when `change` throws.
    /// Collisions resolved by the merge rule are handed to `conflicts` (for stderr).
    public static func edit<T>(
        _ storage: some BoardStore, conflicts: ([BoardConflict]) -> Void = { _ in },
        _ change: (inout Board) throws -> T
    ) throws -> T {
        let original = try storage.load()
        var board = original
        let result = try change(&board)
        guard board != original else { return result }
        let outcome = try storage.commit(base: original, ours: board)
        if !outcome.conflicts.isEmpty { conflicts(outcome.conflicts) }
        return result
    }

    /// `edit` on a board file (which must exist).
    public static func edit<T>(
        _ path: String, conflicts: ([BoardConflict]) -> Void = { _ in },
        _ change: (inout Board) throws -> T
    ) throws -> T {
        try edit(FileBoardStore.unread(path), conflicts: conflicts, change)
    }

    // MARK: Accept rules

    /// The accept rules in their file syntax, then a comment for each name that matches no column.
    public static func rules(_ board: Board) -> String {
        let rules = board.acceptRules.rules
        guard !rules.isEmpty else { return "# no accept rules: every column accepts cards from every column\n" }
        var out = rules.map { printable(AcceptRules.line(for: $0)) + "\n" }.joined()
        for name in board.unknownRuleColumns {
            out += "# \(printable(AcceptRules.quoted(name))) is no column of this board: it matches nothing\n"
        }
        return out
    }

    /// Sets which columns `column` accepts cards from (an empty list: from every column).
    /// Columns are found like `lanes move` finds them; returns a one-line summary.
    public static func setRule(_ board: inout Board, column query: String, from queries: [String]) throws(CommandError)
        -> String
    {
        let s = try BoardQuery.column(query, in: board)
        var sources: [ColumnID] = []
        for q in queries { sources.append(board.columns[try BoardQuery.column(q, in: board)].id) }
        let edit = BoardEdit.setAcceptRule(board.columns[s].id, from: sources)
        do {
            board = try board.applying(edit).board
        } catch {
            throw CommandError(refused: error, of: edit)
        }
        let title = board.columns[s].title
        let now = board.acceptRules.sources(for: title) ?? []
        if now.isEmpty { return "\"\(printable(title))\" accepts cards from every column." }
        return "\"\(printable(title))\" accepts cards only from \(Board.listed(now.map { "\"\(printable($0))\"" }))."
    }

    // MARK: Trello

    /// Imports a Trello JSON file into a new board file; returns a one-line summary.
    ///
    /// An existing `output` is refused (`StorageError.exists`) unless `force`; the write holds the output's
    /// write lock and is atomic.
    public static func importTrello(
        from input: String, to output: String, dialect: BoardDialect,
        options: TrelloImport.Options, force: Bool
    ) throws -> String {
        let (bytes, _) = try SafeFile.read(input)
        let (board, changes) = TextRules.storable(try TrelloImport.board(from: bytes, file: input, options: options))
        let text = BoardFormat.serialize(board, as: dialect)
        try WriteLock.holding((try? POSIX.resolveFinalLinks(output).get()) ?? output) {
            let existing = try SafeFile.fingerprint(output)
            if existing != nil && !force { throw StorageError.exists(path: output) }
            try SafeFile.writeAtomically(Array(text.utf8), to: output, expecting: existing)
        }
        let lists = board.columns.count, cards = board.cardCount
        return
            "Imported \(lists) \(lists == 1 ? "list" : "lists") and \(cards) \(cards == 1 ? "card" : "cards") into \(output) (\(dialect == .taskell ? "taskell" : "obsidian"))."
            + (changes.words.map { " In names and descriptions \($0) (a board line holds neither)." } ?? "")
    }
}

extension String {
    /// Without spaces and tabs at either end.
    func trimmingSpaces() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
