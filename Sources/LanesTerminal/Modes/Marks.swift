import DragKit
import LanesCore

/// The multi-selection: cards marked with `v`, alt- or ctrl-click, or a click on a card's mark
/// box. A drag of any marked card carries all of them; marks follow the cards by identity and
/// end with esc or when their card is deleted.
struct Marks: Equatable, Sendable {
    private(set) var ids: Set<CardID> = []
    /// An alt- or ctrl-press toggled a mark: its drags and its release start nothing.
    var markingClick = false

    var isEmpty: Bool { ids.isEmpty }

    /// Marks or unmarks a card; the words say how many are marked.
    mutating func toggle(_ id: CardID) -> String {
        if ids.remove(id) == nil { ids.insert(id) }
        return ids.isEmpty
            ? "No cards marked"
            : "\(ids.count) card\(ids.count == 1 ? "" : "s") marked: drag one to carry all · esc clears"
    }

    /// Unmarks every card; the words, or nil when none was marked.
    mutating func clear() -> String? {
        guard !ids.isEmpty else { return nil }
        ids = []
        return "Marks cleared"
    }

    /// Unmarks one card (one that left the board with a move to another).
    mutating func unmark(_ id: CardID) { ids.remove(id) }

    /// Keeps only the marks of cards still on `board`.
    mutating func prune(to board: Board) {
        guard !ids.isEmpty else { return }
        var present = Set<CardID>()
        for c in board.columns { for card in c.cards where ids.contains(card.id) { present.insert(card.id) } }
        ids = present
    }

    /// Takes a mouse event with the card under it (nil: none): whether the marks took it. An
    /// alt- or ctrl-press marks (alt-click, or ctrl-click where the terminal passes it on;
    /// shift-click is the terminal's own selection); the drags and release that follow it are
    /// swallowed. `dragging`: a drag is under way, and a press belongs to it.
    mutating func take(_ m: MouseEvent, card: CardID?, dragging: Bool) -> (taken: Bool, words: String?) {
        switch m.kind {
        case .press where m.button == .left && !dragging && (m.modifiers.contains(.alt) || m.modifiers.contains(.ctrl)):
            markingClick = true
            return (true, card.map { toggle($0) })
        case .drag where markingClick:
            return (true, nil)
        case .release where markingClick:
            markingClick = false
            return (true, nil)
        default:
            return (false, nil)
        }
    }
}
