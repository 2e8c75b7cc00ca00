/// Two stacks of steps, undo and redo, with a limit on how many are kept.
public struct History<Step: Sendable>: Sendable {
    public private(set) var undoStack: [Step] = []
    public private(set) var redoStack: [Step] = []
    /// How many steps are kept; the oldest are dropped past it.
    public var limit: Int

    public init(limit: Int = 1000) {
        self.limit = max(1, limit)
    }

    public var canUndo: Bool { !undoStack.isEmpty }
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Records a new step; clears the redo stack.
    public mutating func record(_ step: Step) {
        pushUndo(step)
        redoStack.removeAll()
    }

    /// The step to undo, taken off the undo stack.
    public mutating func popUndo() -> Step? { undoStack.popLast() }
    /// The step to redo, taken off the redo stack.
    public mutating func popRedo() -> Step? { redoStack.popLast() }

    /// Puts a step on the undo stack without touching redo (what a redo gives back).
    public mutating func pushUndo(_ step: Step) {
        undoStack.append(step)
        if undoStack.count > limit { undoStack.removeFirst(undoStack.count - limit) }
    }

    public mutating func pushRedo(_ step: Step) {
        redoStack.append(step)
        if redoStack.count > limit { redoStack.removeFirst(redoStack.count - limit) }
    }
}

/// One undo (or redo) step: the edit that reverses a change, as the door returned it.
public struct EditStep: Sendable {
    public var label: String
    public var edit: BoardEdit
}

extension BoardEdit {
    /// What the undo and redo words call it.
    public var label: String {
        switch self {
        case .addCard: "add card"
        case .setTitle: "edit title"
        case .setDue(_, let d, _): (d ?? "").isEmpty ? "clear due date" : "set due date"
        case .setTags: "set tags"
        case .setDone(_, let done): done ? "mark done" : "mark not done"
        case .tickSubtask: "tick sub-task"
        case .setSubtaskDone(_, _, let done): done ? "tick sub-task" : "untick sub-task"
        case .replaceCard: "edit card"
        case .moveCards(let ids, _, _): ids.count == 1 ? "move" : "move \(ids.count) cards"
        case .moveCardsToLane(let ids, _, _, _): ids.count == 1 ? "move to lane" : "move \(ids.count) cards to lane"
        case .deleteCards(let ids, _): ids.count == 1 ? "delete card" : "delete \(ids.count) cards"
        case .receiveCards(let cards, _, _, _, _):
            cards.count == 1 ? "move in from another board" : "move \(cards.count) cards in from another board"
        case .sendCards(let ids, _):
            ids.count == 1 ? "move to another board" : "move \(ids.count) cards to another board"
        case .addColumn: "add column"
        case .renameColumn: "rename column"
        case .moveColumn: "move column"
        case .deleteColumn: "delete column"
        case .setWIPLimit(_, let n): n == nil ? "clear WIP limit" : "set WIP limit"
        case .setAcceptRule(_, let from): from.isEmpty ? "clear accept rule" : "set accept rule"
        case .setSwimlanes(let lanes): lanes == nil ? "remove swimlanes" : "set swimlanes"
        case .setFlow: "set flow columns"
        case .revertCard, .restoreCards, .placeCards, .removeCards, .revertColumn, .restoreColumn, .removeEmptyColumn,
            .group:
            "change"
        }
    }
}
