import DragKit

/// The recent messages (`^`) over the board: how far their list is scrolled.
///
/// As the help: the keymap's up/down, page and first/last keys scroll it; esc, enter, q and ?
/// close it, and so does the key that opened it; the wheel scrolls a line, a press closes. It
/// changes nothing on the board.
struct MessagesMode: Equatable, Sendable {
    var scroll = 0

    init(scroll: Int = 0) { self.scroll = scroll }

    /// Opened at the newest message (the list's last row at the bottom of the box).
    init(newestOf log: MessageLog, size: Size) { scroll = MessagesView.maxScroll(log, size: size) }

    /// Takes a key; `size` is the terminal's and `log` what the list shows (the page step and
    /// the last scroll position depend on them).
    mutating func handle(_ key: Key, _ mods: Modifiers, keymap: Keymap, size: Size, log: MessageLog) -> ViewOutcome {
        let page = max(1, MessagesView.visibleRows(height: size.height) - 1)
        let key = ViewKey(key, mods, keymap: keymap)
        if key == .close || key == .action(.messages) { return .close }
        if let s = key.scrolled(scroll, page: page, maxScroll: MessagesView.maxScroll(log, size: size)) {
            scroll = s
        }
        return .stay
    }

    mutating func handle(_ m: MouseEvent, keymap: Keymap, size: Size, log: MessageLog) -> ViewOutcome {
        switch m.kind {
        case .wheelUp: return handle(.up, [], keymap: keymap, size: size, log: log)
        case .wheelDown: return handle(.down, [], keymap: keymap, size: size, log: log)
        case .press: return .close
        default: return .stay
        }
    }
}
