import DragKit

/// Undo and redo as pairs of snapshots: each step keeps the value before and after one change.
///
/// Snapshots of copy-on-write values share storage, so a step costs what
/// the change copied, not the whole board.
public struct History<Value: Sendable>: Sendable {
    public struct Step: Sendable {
        public var label: String
        public var before: Value
        public var after: Value
    }

    public private(set) var undoStack: [Step] = []
    public private(set) var redoStack: [Step] = []
    /// How many steps are kept; the oldest are dropped past it.
    public var limit: Int

    public init(limit: Int = 1000) {
        self.limit = max(1, limit)
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Records one change; clears the redo stack.
    public mutating func record(before: Value, after: Value, label: String) {
        undoStack.append(Step(label: label, before: before, after: after))
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    /// The step to undo, moved to the redo stack.
    public mutating func undo() -> Step? {
        guard let step = undoStack.popLast() else { return nil }
        redoStack.append(step)
        return step
    }

    /// The step to redo, moved back to the undo stack.
    public mutating func redo() -> Step? {
        guard let step = redoStack.popLast() else { return nil }
        undoStack.append(step)
        return step
    }
}

/// A board with the history of this session's own changes; as a data source, every drop is one undo step.
///
/// Changes others made (merged in by `absorb`) are not steps. Undo and redo replay the inverse
/// (or the step again) onto the board as it is now, through the three-way merge, so they never
/// remove or revert what someone else changed meanwhile.
public struct BoardDocument: Sendable {
    public var board: Board
    public var history: History<Board>

    public init(board: Board, historyLimit: Int = 1000) {
        self.board = board
        self.history = History(limit: historyLimit)
    }

    /// Applies a change as one undo step; a change that alters nothing records nothing.
    ///
    /// A change that throws leaves the board as it was before it.
    @discardableResult
    public mutating func perform(_ label: String, _ change: (inout Board) throws -> Void) rethrows -> Bool {
        let before = board
        do {
            try change(&board)
        } catch {
            board = before
            throw error
        }
        guard board != before else { return false }
        history.record(before: before, after: board, label: label)
        return true
    }

    /// Takes in a board someone else changed: `stored` replaces what we had from `base`, our
    /// changes since `base` are kept on top. Not an undo step. Returns what the merge reported.
    @discardableResult
    public mutating func absorb(stored: Board, base: Board) -> (conflicts: [BoardConflict], incoming: Int) {
        if board == base {
            board = stored
            return ([], 0)
        }
        // Nothing came in (our own save came back): our later changes stand as they are. No
        // merge, which at a million cards would hold up the input for seconds.
        if stored == base { return ([], 0) }
        let merged = BoardMerge.merge(base: base, ours: board, theirs: stored)
        board = merged.board
        return (merged.conflicts, merged.incomingChanges)
    }

    /// Reverses this session's last change on the board as it is now; its label.
    @discardableResult
    public mutating func undo() -> String? {
        guard let step = history.undo() else { return nil }
        board = replay(from: step.after, to: step.before)
        return step.label
    }

    @discardableResult
    public mutating func redo() -> String? {
        guard let step = history.redo() else { return nil }
        board = replay(from: step.before, to: step.after)
        return step.label
    }

    /// The current board with the change `from` → `to` applied (exactly `to` when nothing else changed).
    private func replay(from: Board, to: Board) -> Board {
        if board == from { return to }
        return BoardMerge.merge(base: from, ours: board, theirs: to).board
    }
}

extension BoardDocument: DragDataSource {
    public typealias Item = Card

    public func numberOfItems(inSection section: Int) -> Int { board.numberOfItems(inSection: section) }
    public func indexPath(for item: ItemID) -> ItemPath? { board.indexPath(for: item) }
    public func item(at indexPath: ItemPath) -> Card? { board.item(at: indexPath) }
    public mutating func moveItem(from: ItemPath, to: ItemPath) { board.moveItem(from: from, to: to) }
    public mutating func insertItem(_ item: Card, at indexPath: ItemPath) { board.insertItem(item, at: indexPath) }
    public mutating func deleteItem(at indexPath: ItemPath) { board.deleteItem(at: indexPath) }

    /// Runs the calls of one drop as one undo step; a transaction that changes nothing records nothing.
    public mutating func performTransaction(_ body: (inout BoardDocument) -> Void) {
        let before = board
        body(&self)
        guard board != before else { return }
        history.record(before: before, after: board, label: "move")
    }
}
