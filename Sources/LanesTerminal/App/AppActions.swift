import DragKit
import LanesCore

/// What each key action does: editing cards and columns, undo, prompts.
extension BoardApp {
    /// Does what an action asks.
    public mutating func perform(_ action: Action, now: Double) -> [AppEffect] {
        let lifted = coordinator.session?.isKeyboard == true
        if lifted {
            switch action {
            case .up, .moveUp: liftedMove(dy: -1)
            case .down, .moveDown: liftedMove(dy: 1)
            case .left, .moveLeft: liftedMove(dx: -1)
            case .right, .moveRight: liftedMove(dx: 1)
            case .first: liftedMove(toIndex: 0)
            case .last: liftedMove(toIndex: Int.max)
            case .lift, .drop:
                apply(drag.coordinator.dropLifted(dataSource: &document), now: now)
            case .cancel:
                apply(coordinator.cancel(reason: .requested), now: now)
            case .quit:
                apply(coordinator.cancel(reason: .requested), now: now)
                return [.quit]
            default:
                let drops = [keymap.keys(for: .lift).first, keymap.keys(for: .drop).first].compactMap { $0?.description }
                status = "Drop the card first" + (drops.isEmpty ? "" : " (\(drops.joined(separator: " or ")))")
                    + (keymap.keys(for: .cancel).first.map { ", or \($0) to cancel" } ?? "")
            }
            return []
        }
        if coordinator.isDragging, action == .cancel {
            apply(coordinator.cancel(reason: .requested), now: now)
            return []
        }
        switch action {
        case .left: selectColumn(delta: -1)
        case .right: selectColumn(delta: 1)
        case .up: selectCard(delta: -1)
        case .down: selectCard(delta: 1)
        case .first: selectCard(absolute: 0)
        case .last: selectCard(absolute: Int.max)
        case .lift:
            guard let sel = validSelection else { status = "No card to lift"; break }
            showSection(sel.section)
            coordinator.selectedItems = marked
            apply(coordinator.lift(at: sel, dataSource: document), now: now)
        case .drop:
            // Nothing lifted: enter opens the selected card.
            guard let sel = validSelection else { status = "No card selected"; break }
            openDetail(at: sel)
        case .toggleMark:
            guard let sel = validSelection else { status = "No card to mark"; break }
            toggleMark(board[sel].id)
        case .cancel:
            if !marked.isEmpty { marked = []; status = "Marks cleared" }
            else if !filter.isEmpty { filter = ""; status = "Filter cleared" }
        case .moveLeft: quickMove(dx: -1)
        case .moveRight: quickMove(dx: 1)
        case .moveUp: quickMove(dy: -1)
        case .moveDown: quickMove(dy: 1)
        case .previousPage: flipPage(-1)
        case .nextPage: flipPage(1)
        case .undo:
            if let label = document.undo() { status = "Undid \(label)"; clampSelection(); changed() }
            else { status = "Nothing to undo" }
        case .redo:
            if let label = document.redo() { status = "Redid \(label)"; clampSelection(); changed() }
            else { status = "Nothing to redo" }
        case .help: openHelp()
        case .toggleCompact: toggleCompact()
        case .metrics: openMetrics()
        case .quit: return [.quit]
        case .suspend: return [.suspend]
        case .addBelow:
            guard let sel = selection else { status = "Add a column first" + keyHint(.addColumn); break }
            mode = .prompt(.addCard(section: sel.section, index: sel.item + 1), LineEditor())
        case .addTop:
            guard let sel = selection else { status = "Add a column first" + keyHint(.addColumn); break }
            mode = .prompt(.addCard(section: sel.section, index: 0), LineEditor())
        case .editTitle:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(.editTitle(board[sel].id), LineEditor(board[sel].title))
        case .deleteCard:
            guard let sel = validSelection else { status = "No card selected"; break }
            let t = board[sel].title
            document.perform("delete card") { $0.deleteItem(at: sel) }
            clampSelection()
            status = "Deleted “\(DisplayText.truncate(DisplayText.safe(t), to: 40))”" + keyHint(.undo, "undoes")
            changed()
        case .toggleDone:
            guard let sel = validSelection else { status = "No card selected"; break }
            toggleDone(sel)
        case .editExternal:
            guard let sel = validSelection else { status = "No card selected"; break }
            return [.editExternally(board[sel].id)]
        case .toggleSubtask:
            guard let sel = validSelection else { status = "No card selected"; break }
            let subs = board[sel].subtasks
            guard !subs.isEmpty else { status = "This card has no sub-tasks" + keyHint(.editExternal, "edits the whole card"); break }
            if let i = subs.firstIndex(where: { !$0.done }) {
                document.perform("tick sub-task") { $0[sel].subtasks[i].done = true }
                status = "Ticked “\(DisplayText.truncate(DisplayText.safe(subs[i].title), to: 40))” (\(i + 1) of \(subs.count))"
            } else {
                document.perform("untick sub-tasks") { b in
                    for i in b[sel].subtasks.indices { b[sel].subtasks[i].done = false }
                }
                status = "Unticked all \(subs.count) sub-tasks"
            }
            changed()
        case .setDue:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(.setDue(board[sel].id), LineEditor(board[sel].due ?? ""))
        case .setTags:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(.setTags(board[sel].id), LineEditor(board[sel].tags.map { "#" + $0 }.joined(separator: " ")))
        case .addColumn:
            mode = .prompt(.addColumn(after: selection?.section ?? -1), LineEditor())
        case .renameColumn:
            guard let sel = selection else { break }
            mode = .prompt(.renameColumn(sel.section), LineEditor(board.columns[sel.section].title))
        case .deleteColumn:
            guard let sel = selection else { break }
            deleteColumn(sel.section, confirmed: false)
        case .moveColumnLeft, .moveColumnRight:
            guard let sel = selection else { break }
            let to = sel.section + (action == .moveColumnLeft ? -1 : 1)
            guard board.columns.indices.contains(to) else { break }
            document.perform("move column") { $0.columns.swapAt(sel.section, to) }
            scroll.swapAt(sel.section, to)
            selection = ItemPath(section: to, item: sel.item)
            changed()
            showSection(to)
        case .setLimit:
            guard let sel = selection else { break }
            mode = .prompt(.setLimit(sel.section), LineEditor(board.columns[sel.section].wipLimit.map(String.init) ?? ""))
        case .setAccepts:
            guard let sel = selection else { status = "Add a column first" + keyHint(.addColumn); break }
            mode = .prompt(.setAccepts(sel.section), LineEditor(acceptsPromptText(for: sel.section)))
        case .filter:
            mode = .prompt(.filter, LineEditor(filter))
        }
        return []
    }

    var validSelection: ItemPath? {
        guard let s = selection, board.item(at: s) != nil else { return nil }
        return s
    }

    mutating func submit(_ prompt: Prompt, _ text: String) {
        // The door every prompt's text passes: one storable line (see TextRules).
        let trimmed = TextRules.oneLine(text).text.trimmingCharacters(in: " \t")
        switch prompt {
        case .addCard(let section, let index):
            guard !trimmed.isEmpty else { status = "Empty title: nothing added"; return }
            guard board.columns.indices.contains(section) else { return }
            let at = min(max(0, index), board.columns[section].cards.count)
            document.perform("add card") { b in
                let card = Card(id: b.makeID(), title: trimmed)
                b.insertItem(card, at: ItemPath(section: section, item: at))
            }
            selection = ItemPath(section: section, item: at)
            status = "Added a card to \(DisplayText.safe(board.columns[section].title))"
            changed()
        case .editTitle(let id):
            guard let path = board.indexPath(for: id) else { return }
            guard !trimmed.isEmpty else { status = "Empty title: kept the old one"; return }
            document.perform("edit title") { $0[path].title = trimmed }
            status = "Title changed"
            changed()
        case .addColumn(let after):
            guard !trimmed.isEmpty else { status = "Empty title: nothing added"; return }
            let at = min(after + 1, board.columns.count)
            if let clash = board.columnTitleClash(trimmed) {
                status = "Not added: " + DisplayText.safe(ColumnNameError(title: trimmed, existing: clash).description)
                return
            }
            document.perform("add column") { try? $0.addColumn(titled: trimmed, at: at) }
            status = "Added column “\(DisplayText.safe(trimmed))”"

            scroll.insert(0, at: min(at, scroll.count))
            selection = ItemPath(section: at, item: -1)
            changed()
            showSection(at)
        case .renameColumn(let section):
            guard !trimmed.isEmpty, board.columns.indices.contains(section) else { return }
            if let clash = board.columnTitleClash(trimmed, except: section) {
                status = "Not renamed: " + DisplayText.safe(ColumnNameError(title: trimmed, existing: clash).description)
                return
            }
            // The accept rules follow the new title (one undo step with the rename).
            document.perform("rename column") { try? $0.renameColumn(at: section, toUnique: trimmed) }
            status = "Renamed the column to “\(DisplayText.safe(trimmed))”"
            changed()
        case .setLimit(let section):
            guard board.columns.indices.contains(section) else { return }
            if trimmed.isEmpty {
                document.perform("clear WIP limit") { $0.columns[section].wipLimit = nil }
                status = "\(DisplayText.safe(board.columns[section].title)) has no WIP limit"
            } else if let n = Int(trimmed), n > 0 {
                document.perform("set WIP limit") { $0.columns[section].wipLimit = n }
                status = "\(DisplayText.safe(board.columns[section].title)) takes at most \(n) cards"

            } else {
                status = "A WIP limit is a whole number above 0"
                return
            }
            changed()
        case .setAccepts(let section):
            setAccepts(section, TextRules.oneLine(text).text)
        case .setDue(let id):
            guard let path = board.indexPath(for: id) else { return }
            if !trimmed.isEmpty {
                do { _ = try DueDate(parsing: trimmed) } catch {
                    status = "Not set: " + DisplayText.safe(error.description)
                    return
                }
            }
            document.perform(trimmed.isEmpty ? "clear due date" : "set due date") { $0[path].due = trimmed.isEmpty ? nil : trimmed }
            status = trimmed.isEmpty ? "Due date cleared" : "Due \(DisplayText.safe(trimmed))"
            changed()
        case .setTags(let id):
            guard let path = board.indexPath(for: id) else { return }
            let tags = trimmed.split(separator: " ").map { $0.hasPrefix("#") ? String($0.dropFirst()) : String($0) }.filter { !$0.isEmpty }
            document.perform("set tags") { $0[path].title = Card.retagged(title: $0[path].title, tags: tags) }
            status = tags.isEmpty ? "Tags cleared" : "Tagged " + DisplayText.safe(tags.map { "#" + $0 }.joined(separator: " "))
            changed()
        case .saveCopy:
            break   // answered in handleKey: it ends in an effect
        case .filter:
            filter = trimmed
            if trimmed.isEmpty {
                status = "Filter cleared"
            } else {
                let matches = board.columns.reduce(0) { n, c in n + c.cards.filter { CardFilter.matches($0, trimmed) }.count }
                var how = ["others dimmed"]
                if let down = keymap.keys(for: .down).first, let up = keymap.keys(for: .up).first { how.append("\(down)/\(up) jump between matches") }
                if let esc = keymap.keys(for: .cancel).first { how.append("\(esc) clears") }
                status = "Filter “\(DisplayText.safe(trimmed))”: \(matches) matching (\(how.joined(separator: "; ")))"
                if let sel = validSelection, !CardFilter.matches(board[sel], trimmed) { selectCard(delta: 1) }
            }
        }
    }

    mutating func deleteColumn(_ section: Int, confirmed: Bool) {
        guard board.columns.indices.contains(section) else { return }
        if !confirmed && !board.columns[section].cards.isEmpty {
            mode = .confirm(.deleteColumn(section))
            return
        }
        let t = board.columns[section].title
        var opened: [String] = []
        // Its name leaves the accept rules too (one undo step with the deletion).
        document.perform("delete column") { opened = $0.removeColumn(at: section) }
        if scroll.indices.contains(section) { scroll.remove(at: section) }
        status = "Deleted column “\(DisplayText.safe(t))”" + keyHint(.undo, "undoes")
        if !opened.isEmpty {
            status += "; \(DisplayText.safe(Board.listed(opened, or: "and"))) now \(opened.count == 1 ? "accepts" : "accept") from any column"
        }
        if board.columns.isEmpty { selection = nil }
        else {
            let s = min(section, board.columns.count - 1)
            selection = ItemPath(section: s, item: board.columns[s].cards.isEmpty ? -1 : 0)
        }
        changed()
    }

    /// External edit finished: replace the card's details (one undo step).
    public mutating func finishExternalEdit(_ id: ItemID, edited: Card?) {
        guard let edited, let path = board.indexPath(for: id) else { status = "Edit abandoned"; return }
        let (card, changes) = TextRules.storable(edited)
        document.perform("edit card") { $0[path] = card }
        status = "Card updated" + (changes.words.map { ": \($0) (each field of a card is one line)" } ?? "")
        changed()
    }

    public mutating func setStatus(_ words: String) { status = words }

}
