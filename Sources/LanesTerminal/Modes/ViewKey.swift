/// A key as a scrolling view (help, card detail, metrics) reads it: the keymap's movement and
/// closing keys; arrows, page keys, home, end and esc always; anything else as the keymap's action.
enum ViewKey: Equatable {
    case up, down, pageUp, pageDown, top, bottom, close
    case action(Action)
    case none

    init(_ key: Key, _ mods: Modifiers, keymap: Keymap) {
        switch key {
        case .up: self = .up; return
        case .down: self = .down; return
        case .pageUp: self = .pageUp; return
        case .pageDown: self = .pageDown; return
        case .home: self = .top; return
        case .end: self = .bottom; return
        case .escape: self = .close; return
        default: break
        }
        guard let action = keymap.action(for: key, mods) else { self = .none; return }
        switch action {
        case .up, .moveUp: self = .up
        case .down, .moveDown: self = .down
        case .previousPage: self = .pageUp
        case .nextPage: self = .pageDown
        case .first: self = .top
        case .last: self = .bottom
        case .cancel, .drop, .help, .quit: self = .close
        default: self = .action(action)
        }
    }
}

/// What a view over the board (help, metrics) does with an input: stays open (its state may
/// have changed) or closes, leaving the board as it was.
extension ViewKey {
    /// Where a list scrolled to `scroll` goes for this key (clamped to 0…`maxScroll`; `page` rows
    /// a page); nil for a key that does not scroll.
    func scrolled(_ scroll: Int, page: Int, maxScroll: Int) -> Int? {
        let s: Int
        switch self {
        case .up: s = scroll - 1
        case .down: s = scroll + 1
        case .pageUp: s = scroll - page
        case .pageDown: s = scroll + page
        case .top: s = 0
        case .bottom: s = maxScroll
        case .close, .action, .none: return nil
        }
        return min(max(0, s), maxScroll)
    }
}

enum ViewOutcome: Equatable, Sendable {
    case stay
    case close
}
