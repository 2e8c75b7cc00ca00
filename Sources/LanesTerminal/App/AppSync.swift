import DragKit
import LanesCore

/// How the app takes in boards changed elsewhere, and the question asked before quitting unsaved.
extension BoardApp {
    /// Merges a board someone else stored (`stored`, replacing `base`) under this session's own
    /// changes. A drag in progress keeps its card in hand (drops land by anchor); a prompt stays
    /// open. Not an undo step. The status says what came in and any collision.
    public mutating func absorb(stored: Board, base: Board) {
        let before = board
        let selected = selection.flatMap { board.item(at: $0)?.id }
        let (conflicts, incoming) = document.absorb(stored: stored, base: base)
        guard board != before || !conflicts.isEmpty else { return }
        if let first = conflicts.first {
            status = DisplayText.safe(first.message) + (conflicts.count > 1 ? " (and \(conflicts.count - 1) more)" : "")
        } else {
            let n = max(incoming, 1)
            status = n == 1 ? "1 card changed elsewhere" : "\(n) cards changed elsewhere"
        }
        // Marks of deleted cards go; a drag in progress keeps the card in hand (the layout
        // refresh hands the coordinator the new arena, which re-resolves by identity).
        pruneMarks()
        if !coordinator.isDragging { clampSelection() }
        // The selected card stays selected wherever the other writer's change put it (#26: lanes re-laid).
        if !coordinator.isDragging, let id = selected, let p = board.indexPath(for: id) { selection = p }
        changed()
    }

    /// Puts the quit question on screen: the last changes are not stored, for the reason given.
    public mutating func askBeforeQuitting(because why: String) {
        if coordinator.isDragging { apply(coordinator.cancel(reason: .requested), now: 0) }
        mode = .confirm(.quitUnsaved(why))
    }

    static func quitQuestion(_ why: String) -> String {
        "NOT SAVED — r retry · s save a copy · d quit, discard · esc stay — \(DisplayText.safe(why))"
    }

    mutating func answerQuitQuestion(_ key: Key, why: String) -> [AppEffect] {
        switch key {
        case .char("r"):
            mode = .normal
            status = "Saving again…"
            return [.retrySaveAndQuit]
        case .char("s"):
            mode = .prompt(.saveCopy, LineEditor(suggestedCopyPath))
            return []
        case .char("d"):
            return [.quitDiscarding]
        case .escape, .char("n"):
            mode = .normal
            status = "Not quitting. NOT SAVED: \(DisplayText.safe(why))"
            return []
        default:
            return []
        }
    }

    func saveCopyAnswer(_ text: String) -> [AppEffect] {
        let path = text.trimmingCharacters(in: " \t")
        guard !path.isEmpty else { return [] }
        return [.saveCopyAndQuit(path: path)]
    }

    /// Where the save-a-copy prompt starts: set by the runner (the recovery folder).
    var suggestedCopyPath: String { copySuggestion }
}
