import DragKit
import LanesCore

/// Where cards are on screen, as the board's keys need it: the row a card starts on, and where a
/// card arriving at a row would land.
protocol CardRows {
    /// The screen row of a card's top (0 when it is not laid out).
    func row(of path: ItemPath) -> Int
    /// Where a card arriving sideways at a screen row lands in a column: before the first card
    /// that ends below that row, or at the end (never past the column's length).
    func insertionIndex(in section: Int, atRow row: Int) -> Int
}

/// The board's own keys, when no mode is open and nothing is lifted: the selection, and what
/// each action asks for, as an outcome the app carries out (an edit for the door, a prompt, an
/// effect, words). It checks no board rule: the door does.
struct BoardKeys: Equatable, Sendable {
    /// The selected card (`item` -1: the column is empty); nil when the board has no columns.
    var selection: ItemPath?

    /// What the app does after a key.
    enum Outcome: Equatable, Sendable {
        /// Nothing (already at the edge, nothing that way).
        case stay
        /// The selection moved to another column: show it (a page flip if needed) and scroll to the card.
        case show(section: Int)
        /// The selection moved within its column: scroll to the card.
        case reveal
        /// These words on the status line; nothing else changes.
        case words(String)
        /// Send this edit through the door; `undoHint`: add the undo key to its words.
        case send(BoardEdit, undoHint: Bool)
        /// A quick move: send it, then the selection follows the card (`moved(_:on:)` says where).
        case move(BoardEdit, card: CardID)
        /// A column moved with the keys: send it, then select `select` (the same card place) and show it.
        case moveColumn(BoardEdit, select: ItemPath)
        /// Mark or unmark this card.
        case mark(CardID)
        /// Open this prompt.
        case prompt(PromptMode)
        /// Edit this card in `$EDITOR` (as seen now, so a deletion meanwhile brings it back).
        case editExternally(SeenCard)
        /// The app's own: lift, open, pages, undo, views, lanes, quit and the rest.
        case app(Action)
    }

    /// Takes an action on `board` with the columns laid out as `rows`; `filter` steers up and down.
    mutating func take(_ action: Action, on board: Board, rows: some CardRows, filter: FilterMode, keymap: Keymap)
        -> Outcome
    {
        func hint(_ a: Action, _ words: String = "") -> String {
            guard let key = keymap.keys(for: a).first else { return "" }
            return words.isEmpty ? " (\(key))" : " (\(key) \(words))"
        }
        let card = valid(on: board)
        let noCard = Outcome.words("No card selected")
        switch action {
        case .left: return selectColumn(delta: -1, on: board, rows: rows)
        case .right: return selectColumn(delta: 1, on: board, rows: rows)
        case .up: return selectCard(delta: -1, on: board, filter: filter)
        case .down: return selectCard(delta: 1, on: board, filter: filter)
        case .first: return selectCard(absolute: 0, on: board, filter: filter)
        case .last: return selectCard(absolute: Int.max, on: board, filter: filter)
        case .moveLeft: return quickMove(dx: -1, on: board, rows: rows)
        case .moveRight: return quickMove(dx: 1, on: board, rows: rows)
        case .moveUp: return quickMove(dy: -1, on: board, rows: rows)
        case .moveDown: return quickMove(dy: 1, on: board, rows: rows)
        case .toggleMark:
            guard let card else { return .words("No card to mark") }
            return .mark(board[card].id)
        case .addBelow, .addTop:
            guard let sel = selection, board.columns.indices.contains(sel.section) else {
                return .words("Add a column first" + hint(.addColumn))
            }
            let slot: CardSlot =
                action == .addTop ? .top : board.item(at: sel).map { .after($0.id, orIndex: sel.item + 1) } ?? .index(0)
            return .prompt(PromptMode(.addCard(column: board.columns[sel.section].id, index: sel.section, slot: slot)))
        case .editTitle:
            guard let card else { return noCard }
            return .prompt(PromptMode(.editTitle(seen(card, on: board)), text: board[card].title))
        case .setDue:
            guard let card else { return noCard }
            return .prompt(PromptMode(.setDue(seen(card, on: board)), text: board[card].due ?? ""))
        case .setTags:
            guard let card else { return noCard }
            return .prompt(
                PromptMode(
                    .setTags(seen(card, on: board)), text: board[card].tags.map { "#" + $0 }.joined(separator: " ")))
        case .deleteCard:
            guard let card else { return noCard }
            return .send(.deleteCards([board[card].id], seen: [board[card]]), undoHint: true)
        case .toggleSubtask:
            guard let card else { return noCard }
            // Nothing to tick: the words and the key that edits the whole card (no edit is made).
            if board[card].subtasks.isEmpty {
                return .words("This card has no sub-tasks" + hint(.editExternal, "edits the whole card"))
            }
            return .send(.tickSubtask(board[card].id), undoHint: false)
        case .editExternal:
            guard let card else { return noCard }
            return .editExternally(seen(card, on: board))
        case .addColumn:
            let slot: ColumnSlot =
                selection.flatMap { s in
                    board.columns.indices.contains(s.section)
                        ? .after(board.columns[s.section].id, orIndex: s.section + 1) : nil
                } ?? .index(0)
            return .prompt(PromptMode(.addColumn(slot)))
        case .renameColumn:
            guard let column = selectedColumn(on: board) else { return .stay }
            return .prompt(PromptMode(.renameColumn(column.id), text: column.title))
        case .setLimit:
            guard let column = selectedColumn(on: board) else { return .stay }
            return .prompt(PromptMode(.setLimit(column.id), text: column.wipLimit.map(String.init) ?? ""))
        case .setAccepts:
            guard let column = selectedColumn(on: board) else { return .words("Add a column first" + hint(.addColumn)) }
            return .prompt(PromptMode(.setAccepts(column.id), text: PromptMode.acceptsText(for: column.id, on: board)))
        case .moveColumnLeft, .moveColumnRight:
            guard let sel = selection, let column = selectedColumn(on: board) else { return .stay }
            let to = sel.section + (action == .moveColumnLeft ? -1 : 1)
            guard board.columns.indices.contains(to) else { return .stay }
            return .moveColumn(.moveColumn(column.id, to: to), select: ItemPath(section: to, item: sel.item))
        case .filter:
            return .prompt(PromptMode(.filter, text: filter.query))
        default:
            return .app(action)
        }
    }

    // MARK: Selection

    /// The selection when it is on a card of `board`.
    func valid(on board: Board) -> ItemPath? {
        guard let s = selection, board.item(at: s) != nil else { return nil }
        return s
    }

    func selectedColumn(on board: Board) -> Column? {
        guard let s = selection, board.columns.indices.contains(s.section) else { return nil }
        return board.columns[s.section]
    }

    /// A card as a prompt sees it when it opens: what brings it back if it is deleted meanwhile.
    func seen(_ path: ItemPath, on board: Board) -> SeenCard {
        SeenCard(
            card: board[path], column: board.columns[path.section].id, columnIndex: path.section, position: path.item)
    }

    /// Puts the selection back on the board: the same column and card, or the nearest there is.
    mutating func clamp(to board: Board) {
        guard !board.columns.isEmpty else { selection = nil; return }
        let s = min(max(0, selection?.section ?? 0), board.columns.count - 1)
        let count = board.columns[s].cards.count
        selection = ItemPath(section: s, item: count == 0 ? -1 : min(max(0, selection?.item ?? 0), count - 1))
    }

    /// The next column `delta` away (stopping at the ends), on the card nearest the same row.
    mutating func selectColumn(delta: Int, on board: Board, rows: some CardRows) -> Outcome {
        guard !board.columns.isEmpty else { return .stay }
        let cur = selection ?? ItemPath(section: 0, item: 0)
        let s = min(max(0, cur.section + delta), board.columns.count - 1)
        let count = board.columns[s].cards.count
        let row = rows.row(of: cur)
        selection = ItemPath(section: s, item: count == 0 ? -1 : min(rows.insertionIndex(in: s, atRow: row), count - 1))
        return .show(section: s)
    }

    /// A card `delta` away in the column, or at `absolute` (0 the first, `Int.max` the last); with
    /// a filter on, the nearest matching card that way.
    mutating func selectCard(delta: Int = 0, absolute: Int? = nil, on board: Board, filter: FilterMode) -> Outcome {
        guard let cur = selection, board.columns.indices.contains(cur.section) else { clamp(to: board); return .stay }
        let cards = board.columns[cur.section].cards
        guard !cards.isEmpty else { return .stay }
        selection = ItemPath(
            section: cur.section, item: filter.landing(in: cards, from: cur.item, delta: delta, absolute: absolute))
        return .reveal
    }

    // MARK: Quick moves

    /// A card moved at once with the keys: sideways to the nearest column that would take it (as a
    /// keyboard drag skips a full column or one whose accept rule refuses the card), at the row it
    /// was on; up or down by one. The door decides; the columns skipped are only a choice of aim.
    func quickMove(dx: Int = 0, dy: Int = 0, on board: Board, rows: some CardRows) -> Outcome {
        guard let sel = valid(on: board) else { return .words("No card selected") }
        let id = board[sel].id
        if dx != 0 {
            var s = sel.section + dx
            var why: String?
            while board.columns.indices.contains(s) {
                let index = min(rows.insertionIndex(in: s, atRow: rows.row(of: sel)), board.columns[s].cards.count)
                let edit = BoardEdit.moveCards([id], to: board.columns[s].id, at: .index(index))
                do {
                    _ = try board.applying(edit)
                    return .move(edit, card: id)
                } catch {
                    why = why ?? error.words
                }
                s += dx
            }
            return .words("No column there takes the card" + (why.map { " (\(DisplayText.safe($0)))" } ?? ""))
        }
        let count = board.columns[sel.section].cards.count
        let to = min(max(0, sel.item + dy), count - 1)
        guard to != sel.item else { return .stay }
        // Quick moves know the exact final index (counted without the card).
        return .move(.moveCards([id], to: board.columns[sel.section].id, at: .index(to)), card: id)
    }

    /// After the door took a quick move: the selection follows the card; the words say where it went.
    mutating func moved(_ id: CardID, on board: Board) -> (section: Int, words: String)? {
        guard let now = board.indexPath(for: id) else { return nil }
        selection = now
        let title = DisplayText.truncate(DisplayText.safe(board[now].title), to: 30)
        return (
            now.section,
            "Moved “\(title)” to \(DisplayText.safe(board.columns[now.section].title)), position \(now.item + 1)"
        )
    }
}
