import DragKit
import LanesCore

/// How the app takes in boards changed elsewhere.
extension BoardApp {
    /// Merges a board someone else stored (`stored`, replacing `base`) under this session's own
    /// changes. A drag in progress keeps its card in hand (drops land by anchor); a prompt stays
    /// open. Not an undo step. The status says what came in and any collision, and who made the
    /// change when the storage can say (`writer`: "moved by agent claude-code", "changed by alice").
    public mutating func absorb(stored: Board, base: Board, by writer: String? = nil) {
        let before = board
        let selected = selection.flatMap { board.item(at: $0)?.id }
        let (conflicts, incoming) = document.absorb(stored: stored, base: base)
        guard board != before || !conflicts.isEmpty else { return }
        if let first = conflicts.first {
            status = DisplayText.safe(first.message) + (conflicts.count > 1 ? " (and \(conflicts.count - 1) more)" : "")
        } else {
            let n = max(incoming, 1)
            let how = writer.map { DisplayText.safe($0) } ?? "changed elsewhere"
            status = n == 1 ? "1 card \(how)" : "\(n) cards \(how)"
        }
        // Marks of deleted cards go; a drag in progress keeps the card in hand (the layout
        // refresh hands the coordinator the new arena, which re-resolves by identity).
        marks.prune(to: board)
        if !coordinator.isDragging { clampSelection() }
        // The selected card stays selected wherever the other writer's change put it (#26: lanes re-laid).
        if !coordinator.isDragging, let id = selected, let p = board.indexPath(for: id) { selection = p }
        changed()
    }
}
