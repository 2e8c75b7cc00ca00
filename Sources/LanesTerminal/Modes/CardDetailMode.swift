import DragKit
import LanesCore

/// The card detail view's state: which card (by identity), how far it is scrolled, which sub-task is chosen.
///
/// Up and down choose the sub-task above or below while the chosen one is in sight, else they
/// scroll; page keys, home and end scroll; space (lift) or the sub-task key ticks the chosen
/// sub-task, `x` the card's done mark; the title, due and tags keys open their prompt (which
/// comes back here); `E` edits the card in `$EDITOR`; undo and redo work as on the board; a
/// closing key or a click outside the box closes it. Scrolling keeps the chosen sub-task in
/// sight, or chooses the nearest one shown. Whether an edit is allowed is the door's to say.
public struct CardDetail: Hashable, Sendable {
    public var id: CardID
    public var scroll = 0
    /// The chosen sub-task (0 when the card has none).
    public var cursor = 0

    public init(id: CardID, scroll: Int = 0, cursor: Int = 0) {
        self.id = id
        self.scroll = scroll
        self.cursor = cursor
    }

    /// What the app does after the view took an input (the view's own state already changed).
    enum Outcome: Equatable, Sendable {
        case stay
        /// Back to the board, the idle hint on the status line.
        case close
        /// Send this edit through the door; the view stays open while its card is there.
        case send(BoardEdit)
        /// Do what the board does for this action (a prompt that comes back here; undo; redo).
        case perform(Action)
        /// Put these words on the status line; nothing else happens.
        case say(String)
        case effect(AppEffect)
    }

    /// What the view shows and how much of it fits: the card's lines and the visible rows.
    struct Page {
        var card: Card
        var content: [CardDetailView.Line]
        var rows: Int
    }

    private func cursorShown(_ page: Page) -> Bool {
        guard let line = page.content.firstIndex(where: { $0.subtask == cursor }) else { return false }
        return line >= scroll && line < scroll + page.rows
    }

    /// Takes a key on the page the view shows now.
    mutating func handle(_ key: Key, _ mods: Modifiers, keymap: Keymap, page: Page) -> Outcome {
        let card = page.card
        let subs = card.subtasks.count
        let maxScroll = max(0, page.content.count - page.rows)
        var outcome = Outcome.stay
        let viewKey = ViewKey(key, mods, keymap: keymap)
        switch viewKey {
        case .up:
            if subs > 0, cursor > 0, cursorShown(page) { cursor -= 1 } else { scroll -= 1 }
        case .down:
            if subs > 0, cursor < subs - 1, cursorShown(page) { cursor += 1 } else { scroll += 1 }
        case .pageUp: scroll -= max(1, page.rows - 1)
        case .pageDown: scroll += max(1, page.rows - 1)
        case .top: scroll = 0
        case .bottom: scroll = maxScroll
        case .close:
            return .close
        case .action(let action):
            switch action {
            case .lift, .toggleSubtask:
                guard subs > 0 else {
                    return .say(
                        "This card has no sub-tasks"
                            + (keymap.keys(for: .editExternal).first.map { " (\($0) edits the whole card)" } ?? ""))
                }
                let i = min(cursor, subs - 1)
                outcome = .send(.setSubtaskDone(card.id, index: i, done: !card.subtasks[i].done))
            case .toggleDone:
                outcome = .send(.setDone(card.id, !card.done))
            case .editTitle, .setDue, .setTags:
                return .perform(action)
            case .editExternal:
                return .effect(.editExternally(card.id))
            case .undo, .redo:
                outcome = .perform(action)
            default:
                return .stay
            }
        case .none:
            return .stay
        }
        // Keep the chosen sub-task in sight when the cursor moved.
        if subs > 0, let line = page.content.firstIndex(where: { $0.subtask == cursor }) {
            if viewKey == .up, line < scroll { scroll = line }
            if viewKey == .down, line >= scroll + page.rows { scroll = line - page.rows + 1 }
        }
        scroll = min(max(0, scroll), maxScroll)
        cursor = subs == 0 ? 0 : min(max(0, cursor), subs - 1)
        // Space ticks what is in sight: when scrolling hid the chosen sub-task, the nearest shown one is chosen.
        if subs > 0, !cursorShown(page) {
            let shown = page.content[scroll..<min(page.content.count, scroll + page.rows)].compactMap(\.subtask)
            if let first = shown.first, let last = shown.last { cursor = cursor < first ? first : last }
        }
        return outcome
    }

    /// Takes a mouse event: the wheel scrolls a page, a click on a sub-task chooses it, a click outside `box` closes.
    mutating func handle(_ m: MouseEvent, keymap: Keymap, page: Page, box: Rect) -> Outcome {
        switch m.kind {
        case .wheelUp: return handle(.pageUp, [], keymap: keymap, page: page)
        case .wheelDown: return handle(.pageDown, [], keymap: keymap, page: page)
        case .press where m.button == .left:
            guard box.contains(m.location) else { return .close }
            let line = scroll + m.location.y - (box.minY + 1)
            if page.content.indices.contains(line), let i = page.content[line].subtask { cursor = i }
            return .stay
        default:
            return .stay
        }
    }
}
