import Foundation

extension BoardApp {
    // MARK: Recent messages

    /// Keeps the status just set in the messages log: not the idle hint, and not the words a drag
    /// under way says about where the card would land (one per pointer motion).
    mutating func noteStatus() {
        guard !coordinator.isDragging, status != idleHint else { return }
        messages.record(status, at: Date().timeIntervalSince1970)
    }

    /// Opens the recent messages scrolled to the newest.
    mutating func openMessages() {
        mode = .messages(scroll: MessagesView.maxScroll(messages, size: size))
    }

    /// Keys in the messages view: as in the help (the keymap's up/down, page, first/last keys scroll;
    /// esc, enter, q, ? close), and the messages key closes it again.
    mutating func messagesKey(_ key: Key, _ mods: Modifiers, scroll: Int) {
        let page = max(1, MessagesView.visibleRows(height: size.height) - 1)
        let key = ViewKey(key, mods, keymap: keymap)
        if key == .close || key == .action(.messages) { mode = .normal; return }
        if let s = key.scrolled(scroll, page: page, maxScroll: MessagesView.maxScroll(messages, size: size)) {
            mode = .messages(scroll: s)
        }
    }

    mutating func messagesMouse(_ m: MouseEvent, scroll: Int) -> [AppEffect] {
        switch m.kind {
        case .wheelUp: messagesKey(.up, [], scroll: scroll)
        case .wheelDown: messagesKey(.down, [], scroll: scroll)
        case .press: mode = .normal
        default: break
        }
        return []
    }
}
