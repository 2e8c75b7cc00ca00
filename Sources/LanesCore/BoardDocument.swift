import DragKit
import Synchronization

/// A board with the history of this session's own edits; as a drag's data source, every drop is one edit.
///
/// Every change goes through the door (`Board.applying`), which hands back the edit that
/// reverses it; undo applies that edit to the board as it is now and keeps what the door hands
/// back as the redo step. Such edits name cards and columns by identity and change only what is
/// still as the step left it, so undo and redo never revert what someone else changed meanwhile,
/// never duplicate a card, and never grow a text. Boards others stored are absorbed, not steps.
public struct BoardDocument: Sendable {
    public internal(set) var board: Board
    public internal(set) var history: History<EditStep>
    /// Cards on their way to another board: edits naming them are refused (`CardsInTransit`).
    public var inTransit = CardsInTransit()
    /// The door's last answer to a drag's hover (`refusal(of:)`).
    let hoverMemo = HoverMemo()

    public init(board: Board, historyLimit: Int = 1000) {
        self.board = board
        self.history = History(limit: historyLimit)
    }

    /// Applies an edit through the door as one undo step (a refusal changes nothing and records nothing).
    @discardableResult
    public mutating func apply(_ edit: BoardEdit, force: Bool = false) throws(EditRefusal) -> EditOutcome {
        if let refusal = inTransit.refusal(of: edit, on: board) { throw refusal }
        let outcome = try board.applying(edit, force: force)
        board = outcome.board
        if let inverse = outcome.inverse { history.record(EditStep(label: edit.label, edit: inverse)) }
        return outcome
    }

    /// Takes in a board someone else changed: `stored` replaces what we had from `base`, our
    /// changes since `base` are kept on top. Not an undo step. Returns what the merge reported.
    @discardableResult
    public mutating func absorb(stored: Board, base: Board) -> (conflicts: [BoardConflict], incoming: Int) {
        defer { if !inTransit.isEmpty { inTransit.refind(in: board) } }
        if board == base {
            board = stored.keepingColumnIdentities(of: board)
            return ([], Self.cardsChanged(from: base, to: board))
        }
        // Nothing came in (our own save came back): our later changes stand as they are. No
        // merge, which at a million cards would hold up the input for seconds.
        if stored == base { return ([], 0) }
        let merged = BoardMerge.merge(base: base, ours: board, theirs: stored)
        board = merged.board
        return (merged.conflicts, merged.incomingChanges)
    }

    /// How many cards `new` added, deleted, edited or moved to another column since `old`: what
    /// the status counts as changed elsewhere. Only the window between each column's common start
    /// and end is read (chunks both share are skipped), so a few cards added to a big board cost
    /// a few cards; a card that only moved within its column's window is not counted. A card
    /// that went and one that came in the same column count once (one card rewritten).
    static func cardsChanged(from old: Board, to new: Board) -> Int {
        var before: [CardID: (column: ColumnID, card: Card)] = [:]
        var after: [(column: ColumnID, card: Card)] = []
        for column in old.columns {
            guard let now = new.column(column.id) else {
                for card in column.cards { before[card.id] = (column.id, card) }
                continue
            }
            guard let span = now.cards.changedSpan(from: column.cards) else { continue }
            for i in span.old { before[column.cards[i].id] = (column.id, column.cards[i]) }
            for i in span.new { after.append((column.id, now.cards[i])) }
        }
        for column in new.columns where old.column(column.id) == nil {
            for card in column.cards { after.append((column.id, card)) }
        }
        var edited = 0
        var added: [ColumnID: Int] = [:]
        var deleted: [ColumnID: Int] = [:]
        var seen = Set<CardID>()
        for (column, card) in after {
            seen.insert(card.id)
            guard let was = before[card.id] else {
                if old.indexPath(for: card.id) == nil { added[column, default: 0] += 1 }
                continue
            }
            if was.column != column || was.card != card { edited += 1 }
        }
        for (id, was) in before where !seen.contains(id) && new.indexPath(for: id) == nil {
            deleted[was.column, default: 0] += 1
        }
        return edited + Set(added.keys).union(deleted.keys).reduce(0) { $0 + max(added[$1] ?? 0, deleted[$1] ?? 0) }
    }

    /// What an undo or redo did: the step's label and the door's words (empty when all went back as it was).
    public struct Replay: Sendable, Equatable {
        public var label: String
        public var words: String
        /// False when nothing could be put back (changed or deleted elsewhere); the step is gone.
        public var changed: Bool
        public var focus: EditOutcome.Focus?
        /// The step names a card on its way to another board: it stays, to be undone (or redone) later.
        public var waits = false
        /// The title of the card or column the replay put back (what the status names after the label).
        public var subject: String? = nil
    }

    /// Reverses this session's last change on the board as it is now.
    @discardableResult
    public mutating func undo() -> Replay? {
        guard let last = history.undoStack.last else { return nil }
        // A step naming a card on its way to another board waits (it stays on the stack).
        if let refusal = inTransit.refusal(of: last.edit, on: board) {
            return Replay(label: last.label, words: refusal.words, changed: false, focus: nil, waits: true)
        }
        guard let step = history.popUndo() else { return nil }
        let r = replay(step)
        if let inverse = r.inverse { history.pushRedo(EditStep(label: step.label, edit: inverse)) }
        return r.replay
    }

    @discardableResult
    public mutating func redo() -> Replay? {
        guard let last = history.redoStack.last else { return nil }
        if let refusal = inTransit.refusal(of: last.edit, on: board) {
            return Replay(label: last.label, words: refusal.words, changed: false, focus: nil, waits: true)
        }
        guard let step = history.popRedo() else { return nil }
        let r = replay(step)
        if let inverse = r.inverse { history.pushUndo(EditStep(label: step.label, edit: inverse)) }
        return r.replay
    }

    private mutating func replay(_ step: EditStep) -> (replay: Replay, inverse: BoardEdit?) {
        do {
            let outcome = try board.applying(step.edit, force: true)
            board = outcome.board
            // The words say what did not go back as it was. A column moved back gets the door's
            // "Moved column “…”", which the label and subject already say ("Undid move column “Review”").
            var words = outcome.words
            if case .moveColumn = step.edit, outcome.changed { words = "" }
            let subject: String? =
                switch outcome.focus {
                case .card(let id)?: board.indexPath(for: id).map { board[$0].title }
                case .column(let id)?: board.column(id)?.title
                case nil: nil
                }
            return (
                Replay(
                    label: step.label, words: words, changed: outcome.changed, focus: outcome.focus,
                    subject: outcome.changed ? subject : nil),
                outcome.inverse
            )
        } catch {
            return (Replay(label: step.label, words: error.words, changed: false, focus: nil), nil)
        }
    }
}

extension BoardDocument: DragDataSource {
    public typealias Item = Card

    public func numberOfItems(inSection section: Int) -> Int { board.numberOfItems(inSection: section) }
    public func indexPath(for item: ItemID) -> ItemPath? { board.indexPath(for: CardID(item)) }
    public func item(at indexPath: ItemPath) -> Card? { board.item(at: indexPath) }

    /// The edit a drop is: the cards to the target's column, before the card they land before (at
    /// the end when none), or a column to its final index. Nil when the target column has gone.
    public func edit(for drop: DropProposal) -> BoardEdit? {
        switch drop.kind {
        case .section:
            guard let (from, to) = drop.sectionMove(in: self), board.columns.indices.contains(from) else { return nil }
            return .moveColumn(board.columns[from].id, to: to)
        case .item:
            guard board.columns.indices.contains(drop.target.section) else { return nil }
            let slot: CardSlot = drop.target.anchor.map { .before(CardID($0), orIndex: drop.target.index) } ?? .end
            return .moveCards(drop.items.map(CardID.init), to: board.columns[drop.target.section].id, at: slot)
        }
    }

    /// The door's words for the drop, asked on the board as it is (nothing changes).
    public func refusal(of drop: DropProposal) -> String? {
        guard let edit = edit(for: drop) else { return Self.columnGone }
        return refusal(of: edit)?.words
    }

    /// The drop through the door: one undo step, or the door's words (nothing changed).
    public mutating func perform(_ drop: DropProposal) -> String? {
        guard let edit = edit(for: drop) else { return Self.columnGone }
        do { try apply(edit) } catch { return error.words }
        return nil
    }

    public static let columnGone = "the column is gone (deleted elsewhere)"
}

extension BoardDocument {
    /// Why the door would refuse `edit` on the board as it is now (nil: it would apply); changes
    /// nothing. What a drag asks while it hovers: the same door as the drop, so they agree. The
    /// last answer is kept for the same edit on the same board, rules and cards in transit (a
    /// pointer moving inside one gap asks the same question at every motion).
    public func refusal(of edit: BoardEdit) -> EditRefusal? {
        let key = HoverMemo.Key(stamp: board.stamp, rules: board.acceptRules, inTransit: inTransit, edit: edit)
        if let known = hoverMemo.answer(for: key) { return known }
        var answer = inTransit.refusal(of: edit, on: board)
        if answer == nil {
            do { _ = try board.applying(edit) } catch { answer = error }
        }
        hoverMemo.keep(answer, for: key)
        return answer
    }
}

/// The door's last answer to a hover, shared by copies of a document (a drag asks on copies).
final class HoverMemo: Sendable {
    struct Key: Equatable, Sendable {
        var stamp: UInt64
        var rules: AcceptRules
        var inTransit: CardsInTransit
        var edit: BoardEdit
    }

    private let last = Mutex<(key: Key, answer: EditRefusal?)?>(nil)

    /// The kept answer (`.some(nil)`: it would apply), or nil when the question is new.
    func answer(for key: Key) -> EditRefusal?? {
        last.withLock { kept in kept.flatMap { $0.key == key ? .some($0.answer) : nil } }
    }

    func keep(_ answer: EditRefusal?, for key: Key) {
        last.withLock { $0 = (key, answer) }
    }
}
