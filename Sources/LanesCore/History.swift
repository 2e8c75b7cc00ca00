import DragKit

/// Undo and redo as snapshots of a value: undo restores the exact previous value.
///
/// Snapshots of copy-on-write values share storage, so a step costs what
/// the change copied, not the whole board.
public struct History<Value: Sendable>: Sendable {
    public struct Step: Sendable {
        public var label: String
        public var value: Value
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

    /// Records the value as it was before a change; clears the redo stack.
    public mutating func record(_ before: Value, label: String) {
        undoStack.append(Step(label: label, value: before))
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
        redoStack.removeAll()
    }

    /// Returns the value to restore and the step's label, and keeps `current` for redo.
    public mutating func undo(current: Value) -> (value: Value, label: String)? {
        guard let step = undoStack.popLast() else { return nil }
        redoStack.append(Step(label: step.label, value: current))
        return (step.value, step.label)
    }

    public mutating func redo(current: Value) -> (value: Value, label: String)? {
        guard let step = redoStack.popLast() else { return nil }
        undoStack.append(Step(label: step.label, value: current))
        return (step.value, step.label)
    }
}

/// A board with its undo history; as a data source, every drop is one undo step.
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
        history.record(before, label: label)
        return true
    }

    @discardableResult
    public mutating func undo() -> String? {
        guard let (value, label) = history.undo(current: board) else { return nil }
        board = value
        return label
    }

    @discardableResult
    public mutating func redo() -> String? {
        guard let (value, label) = history.redo(current: board) else { return nil }
        board = value
        return label
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
        history.record(before, label: "move")
    }
}
