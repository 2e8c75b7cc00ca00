import DragKit
import LanesCore

/// What the app keeps for reading the board: the view's density, the file's abilities, open views.
struct ReadingState: Sendable {
    /// One row per card instead of boxes.
    var compact = false
    /// The card detail a prompt opened from it returns to.
    var returnTo: CardDetail?
    /// The status line shows a page flip's words, which a drag replaces once the pointer is over a column.
    var pageWordsShown = false
    /// The card as `$EDITOR` got it: what brings it back if another writer deletes it meanwhile.
    var externalSeen: SeenCard?
}

extension BoardApp {
    // MARK: Settings

    /// Sets how the board is shown.
    public mutating func configure(compact: Bool) {
        if reading.compact != compact { toggleCompact(quiet: true) }
    }

    public var isCompact: Bool { reading.compact }

    /// Switches between boxed cards and one row per card, keeping the selected card in sight.
    mutating func toggleCompact(quiet: Bool = false) {
        reading.compact.toggle()
        cache.removeAll()
        refreshLayout()
        ensureSelectionVisible()
        if !quiet {
            let key = keymap.keys(for: .toggleCompact).first.map { " (\($0) switches back)" } ?? ""
            status = (reading.compact ? "Compact view: one line per card" : "Full cards") + key
        }
    }

    // MARK: Words

    /// The status line at rest, from the keymap as it is: no key is named that is not bound.
    static func idleHint(keymap: Keymap, filter: String) -> String {
        var parts: [String] = []
        if !filter.isEmpty {
            let esc = keymap.keys(for: .cancel).first.map { " · \($0) clears" } ?? ""
            parts.append("Filter “\(DisplayText.safe(filter))”" + esc)
        } else {
            parts.append("Drag with the mouse")
            if let lift = keymap.keys(for: .lift).first { parts[0] += " or \(lift) to lift" }
        }
        if let open = keymap.keys(for: .drop).first { parts.append("\(open) opens a card") }
        if let help = keymap.keys(for: .help).first {
            parts.append("\(help) help")
        } else {
            parts.append("click ? help")
        }
        if let quit = keymap.keys(for: .quit).first { parts.append("\(quit) quit") }
        return parts.joined(separator: " · ")
    }

    var idleHint: String { BoardApp.idleHint(keymap: keymap, filter: filter) }

    /// ` (KEY words)` naming the action's first key, or nothing when no key is bound to it.
    func keyHint(_ action: Action, _ words: String = "") -> String {
        guard let key = keymap.keys(for: action).first else { return "" }
        return words.isEmpty ? " (\(key))" : " (\(key) \(words))"
    }

    // MARK: Done marks

    /// Toggles a card's done mark through the door (which refuses it in words when the board's format has none).
    mutating func toggleDone(_ path: ItemPath) {
        send(.setDone(board[path].id, !board[path].done))
    }
}
