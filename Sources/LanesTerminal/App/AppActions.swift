import DragKit
import LanesCore

/// What each key action does on the board: selection, edits through the door, undo, opening prompts and views.
extension BoardApp {
    /// Does what an action asks.
    public mutating func perform(_ action: Action, now: Double) -> [AppEffect] {
        if coordinator.session?.isKeyboard == true {
            if showsLanes, [.up, .moveUp, .down, .moveDown, .left, .moveLeft, .right, .moveRight].contains(action) {
                liftedLaneMove(action)
                return []
            }
            switch DragSession.liftedCommand(action, keymap: keymap) {
            case .move(let dx, let dy): liftedMove(dx: dx, dy: dy)
            case .moveTo(let index): liftedMove(toIndex: index)
            case .drop:
                if let grid = layout.lanes {
                    var source = laneSource(grid)
                    let before = board
                    let events = drag.coordinator.dropLifted(dataSource: &source)
                    document = source.document
                    applyLaneEvents(events, grid: grid, now: now, before: before)
                } else {
                    apply(drag.coordinator.dropLifted(dataSource: &document), now: now)
                }
            case .cancel: apply(coordinator.cancel(reason: .requested), now: now)
            case .cancelAndQuit:
                apply(coordinator.cancel(reason: .requested), now: now)
                return [.quit]
            case .refuse(let words): status = words
            }
            return []
        }
        if coordinator.isDragging, action == .cancel {
            apply(coordinator.cancel(reason: .requested), now: now)
            return []
        }
        switch action {
        case .left where showsLanes: selectLaneColumn(delta: -1)
        case .right where showsLanes: selectLaneColumn(delta: 1)
        case .left: selectColumn(delta: -1)
        case .right: selectColumn(delta: 1)
        case .up where showsLanes: selectLaneCard(delta: -1)
        case .down where showsLanes: selectLaneCard(delta: 1)
        case .up: selectCard(delta: -1)
        case .down: selectCard(delta: 1)
        case .first: selectCard(absolute: 0)
        case .last: selectCard(absolute: Int.max)
        case .lift:
            guard let sel = validSelection else { status = "No card to lift"; break }
            showSection(sel.section)
            coordinator.selectedItems = marks.ids
            if let grid = layout.lanes, let at = grid.cellPath(sel) {
                applyLaneEvents(coordinator.lift(at: at, dataSource: laneSource(grid)), grid: grid, now: now)
            } else {
                apply(coordinator.lift(at: sel, dataSource: document), now: now)
            }
        case .drop:
            // Nothing lifted: enter opens the selected card.
            guard let sel = validSelection else { status = "No card selected"; break }
            openDetail(at: sel)
        case .toggleMark:
            guard let sel = validSelection else { status = "No card to mark"; break }
            status = marks.toggle(board[sel].id)
        case .cancel:
            if let words = marks.clear() ?? filtering.clear() { status = words }
        case .moveLeft: quickMove(dx: -1)
        case .moveRight: quickMove(dx: 1)
        case .moveUp where showsLanes: quickLaneMove(dy: -1)  // #26: within the card's lane
        case .moveDown where showsLanes: quickLaneMove(dy: 1)
        case .moveUp: quickMove(dy: -1)
        case .moveDown: quickMove(dy: 1)
        case .previousPage: flipPage(-1)
        case .nextPage: flipPage(1)
        case .undo:
            if let r = document.undo() { replayed(r, "Undid", "undo") } else { status = "Nothing to undo" }
        case .redo:
            if let r = document.redo() { replayed(r, "Redid", "redo") } else { status = "Nothing to redo" }
        case .help: openHelp()
        case .toggleCompact: toggleCompact()
        case .moveLaneUp, .moveLaneDown, .toggleLanes, .collapseLane: laneAction(action)
        case .metrics: openMetrics()
        case .messages: openMessages()
        case .quit: return [.quit]
        case .suspend: return [.suspend]
        case .addBelow:
            guard let sel = selection, board.columns.indices.contains(sel.section) else { status = "Add a column first" + keyHint(.addColumn); break }
            let slot: CardSlot = board.item(at: sel).map { .after($0.id, orIndex: sel.item + 1) } ?? .index(0)
            mode = .prompt(PromptMode(.addCard(column: board.columns[sel.section].id, index: sel.section, slot: slot)))
        case .addTop:
            guard let sel = selection, board.columns.indices.contains(sel.section) else { status = "Add a column first" + keyHint(.addColumn); break }
            mode = .prompt(PromptMode(.addCard(column: board.columns[sel.section].id, index: sel.section, slot: .top)))
        case .editTitle:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(PromptMode(.editTitle(seen(sel)), text: board[sel].title))
        case .deleteCard:
            guard let sel = validSelection else { status = "No card selected"; break }
            if send(.deleteCards([board[sel].id], seen: [board[sel]])) != nil { status += keyHint(.undo, "undoes") }
        case .toggleDone:
            guard let sel = validSelection else { status = "No card selected"; break }
            toggleDone(sel)
        case .editExternal:
            guard let sel = validSelection else { status = "No card selected"; break }
            reading.externalSeen = seen(sel)
            return [.editExternally(board[sel].id)]
        case .toggleSubtask:
            guard let sel = validSelection else { status = "No card selected"; break }
            if board[sel].subtasks.isEmpty {
                // Nothing to tick: the words and the key that edits the whole card (no edit is made).
                status = "This card has no sub-tasks" + keyHint(.editExternal, "edits the whole card")
                break
            }
            send(.tickSubtask(board[sel].id))
        case .setDue:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(PromptMode(.setDue(seen(sel)), text: board[sel].due ?? ""))
        case .setTags:
            guard let sel = validSelection else { status = "No card selected"; break }
            mode = .prompt(PromptMode(.setTags(seen(sel)), text: board[sel].tags.map { "#" + $0 }.joined(separator: " ")))
        case .addColumn:
            let slot: ColumnSlot = selection.flatMap { s in board.columns.indices.contains(s.section) ? .after(board.columns[s.section].id, orIndex: s.section + 1) : nil } ?? .index(0)
            mode = .prompt(PromptMode(.addColumn(slot)))
        case .renameColumn:
            guard let column = selectedColumn else { break }
            mode = .prompt(PromptMode(.renameColumn(column.id), text: column.title))
        case .deleteColumn:
            guard let column = selectedColumn else { break }
            deleteColumn(column.id, confirmed: nil)
        case .moveColumnLeft, .moveColumnRight:
            guard let sel = selection, let column = selectedColumn else { break }
            let to = sel.section + (action == .moveColumnLeft ? -1 : 1)
            guard board.columns.indices.contains(to) else { break }
            if send(.moveColumn(column.id, to: to)) != nil {
                selection = ItemPath(section: to, item: sel.item)
                showSection(to)
            }
        case .setLimit:
            guard let column = selectedColumn else { break }
            mode = .prompt(PromptMode(.setLimit(column.id), text: column.wipLimit.map(String.init) ?? ""))
        case .setAccepts:
            guard let column = selectedColumn else { status = "Add a column first" + keyHint(.addColumn); break }
            mode = .prompt(PromptMode(.setAccepts(column.id), text: PromptMode.acceptsText(for: column.id, on: board)))
        case .filter:
            mode = .prompt(PromptMode(.filter, text: filter))
        case .nextBoard, .previousBoard, .moveToBoard:
            // The workspace (Workspace.swift) takes these before the board sees them.
            status = "Only one board is open: lanes A.md B.md (or lanes FOLDER) opens several"
        }
        return []
    }

    /// The words after an undo or redo: what was put back, or why nothing could be.
    mutating func replayed(_ r: BoardDocument.Replay, _ did: String, _ verb: String) {
        if r.changed {
            status = "\(did) \(r.label)" + (r.words.isEmpty ? "" : ": " + DisplayText.safe(r.words))
            focus(r.focus)
            changed()
        } else {
            status = "Nothing to \(verb) of \(r.label): " + DisplayText.safe(r.words.prefix(1).lowercased() + r.words.dropFirst())
        }
    }

    var validSelection: ItemPath? {
        guard let s = selection, board.item(at: s) != nil else { return nil }
        return s
    }

    /// The selected column, if any.
    var selectedColumn: Column? {
        guard let s = selection, board.columns.indices.contains(s.section) else { return nil }
        return board.columns[s.section]
    }

    /// A card as a prompt sees it when it opens: what brings it back if it is deleted meanwhile.
    func seen(_ path: ItemPath) -> SeenCard {
        SeenCard(card: board[path], column: board.columns[path.section].id, columnIndex: path.section, position: path.item)
    }

    /// Refusal words for the status line (they start in lower case, as the commands print them).
    func refused(_ words: String) -> String {
        DisplayText.safe(words.prefix(1).uppercased() + words.dropFirst())
    }

    /// Sends an edit through the door (one undo step): the status says what happened and the
    /// selection follows the card or column. A refusal changes nothing; its words go on the
    /// status line and, when the edit came from a prompt with text in it, the prompt opens again
    /// with that text and the words above it, so nothing typed is lost.
    @discardableResult
    mutating func send(_ edit: BoardEdit, from prompt: PromptMode? = nil) -> EditOutcome? {
        do {
            let outcome = try document.apply(edit, dialect: reading.dialect)
            status = DisplayText.safe(outcome.words)
            focus(outcome.focus)
            if outcome.changed { changed() }
            return outcome
        } catch {
            status = refused(error.words)
            if var prompt, !prompt.editor.text.trimmingCharacters(in: " \t").isEmpty {
                prompt.editor.say(status)
                mode = .prompt(prompt)
            }
            return nil
        }
    }

    /// Selects what an edit was about.
    mutating func focus(_ focus: EditOutcome.Focus?) {
        switch focus {
        case .card(let id)?:
            if let p = board.indexPath(for: id) { selection = p }
        case .column(let id)?:
            guard let s = board.index(of: id) else { break }
            if selection?.section != s { selection = ItemPath(section: s, item: board.columns[s].cards.isEmpty ? -1 : 0) }
        case nil:
            clampSelection()
        }
    }

    /// Deletes a column: one with cards asks first (`confirmed` nil), then deletes it with the
    /// cards the question named (another card put there meanwhile refuses it, in words).
    mutating func deleteColumn(_ id: ColumnID, confirmed seen: [ItemID]?) {
        guard let s = board.index(of: id) else { status = "The column is gone (deleted elsewhere)"; return }
        if seen == nil && !board.columns[s].cards.isEmpty {
            mode = .confirm(.deleteColumn(id, seen: board.columns[s].cards.map(\.id)))
            return
        }
        guard send(.deleteColumn(id, seen: seen ?? [])) != nil else { return }
        status += keyHint(.undo, "undoes")
        if board.columns.isEmpty { selection = nil }
        else {
            let t = min(s, board.columns.count - 1)
            selection = ItemPath(section: t, item: board.columns[t].cards.isEmpty ? -1 : 0)
        }
    }

    /// External edit finished: the card's fields replaced through the door (one undo step); a
    /// card deleted meanwhile comes back with the edit.
    public mutating func finishExternalEdit(_ id: ItemID, edited: Card?) {
        let seen = reading.externalSeen
        reading.externalSeen = nil
        guard var edited else { status = "Edit abandoned"; return }
        edited.id = id
        send(.replaceCard(edited, seen: seen?.card.id == id ? seen : nil))
    }

    public mutating func setStatus(_ words: String) { status = words }

}
