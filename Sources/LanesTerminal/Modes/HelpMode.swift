import DragKit

/// The help screen over the board: how far its list of keys is scrolled.
///
/// The keymap's up/down, page and first/last keys scroll it (arrows, page keys, home and end
/// always do); esc, enter, q and ? (and whatever the keymap binds to close) close it, as does a
/// click anywhere. It changes nothing on the board.
struct HelpMode: Equatable, Sendable {
    var scroll = 0

    /// Takes a key; `size` is the terminal's (the page step and the last scroll position depend on it).
    mutating func handle(_ key: Key, _ mods: Modifiers, keymap: Keymap, size: Size) -> ViewOutcome {
        let page = max(1, HelpView.visibleRows(height: size.height) - 1)
        let key = ViewKey(key, mods, keymap: keymap)
        if key == .close { return .close }
        if let s = key.scrolled(scroll, page: page, maxScroll: HelpView.maxScroll(keymap: keymap, size: size)) {
            scroll = s
        }
        return .stay
    }

    /// Takes a mouse event: the wheel scrolls by a line, a press closes.
    mutating func handle(_ m: MouseEvent, keymap: Keymap, size: Size) -> ViewOutcome {
        switch m.kind {
        case .wheelUp: return handle(.up, [], keymap: keymap, size: size)
        case .wheelDown: return handle(.down, [], keymap: keymap, size: size)
        case .press: return .close
        default: return .stay
        }
    }
}
