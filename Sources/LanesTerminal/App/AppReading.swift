import DragKit
import LanesCore

/// What the app keeps for reading the board: the view's density, the file's abilities, open views.
struct ReadingState: Sendable {
    /// One row per card instead of boxes.
    var compact = false
    /// The format the board is stored in, when known: the door refuses what it cannot store.
    var dialect: BoardDialect?
    /// Whether the board's dialect stores a card's done mark (taskell has none).
    var storesDoneMark: Bool { dialect != .taskell }
    /// The card detail a prompt opened from it returns to.
    var returnTo: CardDetail?
    /// The status line shows a page flip's words, which a drag replaces once the pointer is over a column.
    var pageWordsShown = false
    /// The card as `$EDITOR` got it: what brings it back if another writer deletes it meanwhile.
    var externalSeen: SeenCard?
}

/// The card detail view's state: which card, how far it is scrolled, which sub-task is chosen.
public struct CardDetail: Hashable, Sendable {
    public var id: ItemID
    public var scroll = 0
    /// The chosen sub-task (0 when the card has none).
    public var cursor = 0
}

extension BoardApp {
    // MARK: Settings

    /// Sets how the board is shown and the format it is stored in (the door refuses what that cannot store).
    public mutating func configure(compact: Bool, dialect: BoardDialect) {
        reading.dialect = dialect
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
        if let help = keymap.keys(for: .help).first { parts.append("\(help) help") } else { parts.append("click ? help") }
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

    // MARK: Help

    mutating func openHelp() {
        mode = .help(scroll: 0)
    }

    /// Keys in the help: the keymap's up/down, page and first/last keys scroll (arrows, page keys,
    /// home and end always do); esc, enter, q and ? (and what the keymap binds to close) close it.
    mutating func helpKey(_ key: Key, _ mods: Modifiers, scroll: Int) {
        let page = max(1, HelpView.visibleRows(height: size.height) - 1)
        let maxScroll = HelpView.maxScroll(keymap: keymap, size: size)
        var s = scroll
        switch ViewKey(key, mods, keymap: keymap) {
        case .up: s -= 1
        case .down: s += 1
        case .pageUp: s -= page
        case .pageDown: s += page
        case .top: s = 0
        case .bottom: s = maxScroll
        case .close:
            mode = .normal
            return
        default: return
        }
        mode = .help(scroll: min(max(0, s), maxScroll))
    }

    mutating func helpMouse(_ m: MouseEvent, scroll: Int) -> [AppEffect] {
        switch m.kind {
        case .wheelUp: helpKey(.up, [], scroll: scroll)
        case .wheelDown: helpKey(.down, [], scroll: scroll)
        case .press: mode = .normal
        default: break
        }
        return []
    }

    // MARK: Card detail

    mutating func openDetail(at path: ItemPath) {
        guard board.item(at: path) != nil else { return }
        selection = path
        mode = .detail(CardDetail(id: board[path].id))
    }

    /// After a prompt opened from the detail view: back to it while the card is still there.
    mutating func returnFromPrompt() {
        guard let d = reading.returnTo else { return }
        reading.returnTo = nil
        if case .normal = mode, board.indexPath(for: d.id) != nil { mode = .detail(d) }
    }

    /// Keys in the card detail view (see `CardDetailView`).
    mutating func detailKey(_ key: Key, _ mods: Modifiers, detail: CardDetail, now: Double) -> [AppEffect] {
        guard let path = board.indexPath(for: detail.id) else { mode = .normal; return [] }
        let card = board[path]
        var d = detail
        let content = CardDetailView.content(card: card, column: board.columns[path.section].title,
                                             storesDoneMark: reading.storesDoneMark, width: CardDetailView.innerWidth(size),
                                             flow: flowLines(for: card.id))
        let rows = CardDetailView.visibleRows(size)
        let maxScroll = max(0, content.count - rows)
        let subs = card.subtasks.count
        func cursorShown(_ d: CardDetail) -> Bool {
            guard let line = content.firstIndex(where: { $0.subtask == d.cursor }) else { return false }
            return line >= d.scroll && line < d.scroll + rows
        }
        switch ViewKey(key, mods, keymap: keymap) {
        // Up and down choose the sub-task above or below while the chosen one is in sight; otherwise they scroll.
        case .up:
            if subs > 0, d.cursor > 0, cursorShown(d) { d.cursor -= 1 } else { d.scroll -= 1 }
        case .down:
            if subs > 0, d.cursor < subs - 1, cursorShown(d) { d.cursor += 1 } else { d.scroll += 1 }
        case .pageUp: d.scroll -= max(1, rows - 1)
        case .pageDown: d.scroll += max(1, rows - 1)
        case .top: d.scroll = 0
        case .bottom: d.scroll = maxScroll
        case .close:
            mode = .normal
            status = idleHint
            return []
        case .action(let action):
            switch action {
            case .lift, .toggleSubtask:
                guard subs > 0 else {
                    status = "This card has no sub-tasks" + (keymap.keys(for: .editExternal).first.map { " (\($0) edits the whole card)" } ?? "")
                    return []
                }
                let i = min(d.cursor, subs - 1)
                send(.setSubtaskDone(card.id, index: i, done: !card.subtasks[i].done))
            case .toggleDone:
                toggleDone(path)
            case .editTitle, .setDue, .setTags:
                reading.returnTo = d
                _ = perform(action, now: now)
                return []
            case .editExternal:
                return [.editExternally(card.id)]
            case .undo, .redo:
                _ = perform(action, now: now)
                if board.indexPath(for: d.id) == nil { mode = .normal; return [] }
            default:
                return []
            }
        case .none:
            return []
        }
        // Keep the chosen sub-task in sight when the cursor moved.
        if case .up = ViewKey(key, mods, keymap: keymap), let line = content.firstIndex(where: { $0.subtask == d.cursor }), subs > 0 {
            if line < d.scroll { d.scroll = line }
        }
        if case .down = ViewKey(key, mods, keymap: keymap), let line = content.firstIndex(where: { $0.subtask == d.cursor }), subs > 0 {
            if line >= d.scroll + rows { d.scroll = line - rows + 1 }
        }
        d.scroll = min(max(0, d.scroll), maxScroll)
        d.cursor = subs == 0 ? 0 : min(max(0, d.cursor), subs - 1)
        // Space ticks what is in sight: when scrolling hid the chosen sub-task, the nearest shown one is chosen.
        if subs > 0, !cursorShown(d) {
            let shown = content[d.scroll..<min(content.count, d.scroll + rows)].compactMap(\.subtask)
            if let first = shown.first, let last = shown.last { d.cursor = d.cursor < first ? first : last }
        }
        mode = .detail(d)
        return []
    }

    mutating func detailMouse(_ m: MouseEvent, detail: CardDetail) -> [AppEffect] {
        switch m.kind {
        case .wheelUp: _ = detailKey(.pageUp, [], detail: detail, now: 0)
        case .wheelDown: _ = detailKey(.pageDown, [], detail: detail, now: 0)
        case .press where m.button == .left:
            let box = CardDetailView.box(size)
            if !box.contains(m.location) { mode = .normal; status = idleHint; break }
            // A click on a sub-task chooses it.
            guard let path = board.indexPath(for: detail.id) else { break }
            let content = CardDetailView.content(card: board[path], column: board.columns[path.section].title,
                                                 storesDoneMark: reading.storesDoneMark, width: CardDetailView.innerWidth(size),
                                                 flow: flowLines(for: board[path].id))
            let line = detail.scroll + m.location.y - (box.minY + 1)
            if content.indices.contains(line), let i = content[line].subtask {
                var d = detail
                d.cursor = i
                mode = .detail(d)
            }
        default: break
        }
        return []
    }
}

/// A key as a scrolling view (help, card detail) reads it: the keymap's movement and closing keys,
/// arrows, page keys, home, end and esc always; anything else as the keymap's action.
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
