import DragKit
import LanesCore

/// What each key action does: a lifted card's keys, the lanes' selection, the board's keys
/// (`BoardKeys`) carried out, and the app's own actions (lift, open, pages, undo, views).
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
        // K/J in lanes: within the card's own lane (the board's keys below when no lane cell is selected).
        if showsLanes, action == .moveUp || action == .moveDown,
            let steps = laneView.quickMove(dy: action == .moveUp ? -1 : 1, laneContext)
        {
            carryOut(steps)
            return []
        }
        switch action {
        case .left where showsLanes: carryOut(laneView.selectColumn(delta: -1, laneContext))
        case .right where showsLanes: carryOut(laneView.selectColumn(delta: 1, laneContext))
        case .up where showsLanes: carryOut(laneView.selectCard(delta: -1, laneContext))
        case .down where showsLanes: carryOut(laneView.selectCard(delta: 1, laneContext))
        default:
            let rows = self
            var keys = self.keys
            let outcome = keys.take(action, on: board, rows: rows, filter: filtering, keymap: keymap)
            self.keys = keys
            return carryOut(outcome, now: now)
        }
        return []
    }

    /// Does what the board's keys asked for: the edit through the door, the prompt opened, the
    /// selection shown; the app's own actions (`.app`) below.
    mutating func carryOut(_ outcome: BoardKeys.Outcome, now: Double) -> [AppEffect] {
        switch outcome {
        case .stay:
            break
        case .show(let section):
            showSection(section)
            ensureSelectionVisible()
        case .reveal:
            ensureSelectionVisible()
        case .words(let words):
            status = words
        case .send(let edit, let undoHint):
            // One status, said once (the messages log keeps each status set): the words and the hint together.
            send(edit, adding: undoHint ? keyHint(.undo, "undoes") : "")
        case .move(let edit, let id):
            guard send(edit) != nil else { break }
            let board = self.board
            guard let (section, words) = keys.moved(id, on: board) else { break }
            status = words
            showSection(section)
            ensureSelectionVisible()
        case .moveColumn(let edit, let select):
            if send(edit) != nil {
                selection = select
                showSection(select.section)
            }
        case .mark(let id):
            status = marks.toggle(id)
        case .prompt(let prompt):
            mode = .prompt(prompt)
        case .editExternally(let seen):
            reading.externalSeen = seen
            return [.editExternally(seen.card.id)]
        case .app(let action):
            return appAction(action, now: now)
        }
        return []
    }

    /// The actions that are the app's, not the board keys': lifting, opening, pages, undo, views, lanes, quitting.
    private mutating func appAction(_ action: Action, now: Double) -> [AppEffect] {
        switch action {
        case .lift:
            guard let sel = validSelection else { status = "No card to lift"; break }
            showSection(sel.section)
            coordinator.selectedItems = Set(marks.ids.map(ItemID.init))
            if let grid = layout.lanes, let at = grid.cellPath(sel) {
                applyLaneEvents(coordinator.lift(at: at, dataSource: laneSource(grid)), grid: grid, now: now)
            } else {
                apply(coordinator.lift(at: sel, dataSource: document), now: now)
            }
        case .drop:
            // Nothing lifted: enter opens the selected card.
            guard let sel = validSelection else { status = "No card selected"; break }
            openDetail(at: sel)
        case .cancel:
            if let words = marks.clear() ?? filtering.clear() { status = words }
        case .previousPage: flipPage(-1)
        case .nextPage: flipPage(1)
        case .undo:
            if let r = document.undo() { replayed(r, "Undid", "undo") } else { status = "Nothing to undo" }
        case .redo:
            if let r = document.redo() { replayed(r, "Redid", "redo") } else { status = "Nothing to redo" }
        case .help: openHelp()
        case .toggleCompact: toggleCompact()
        case .moveLaneUp, .moveLaneDown, .toggleLanes, .collapseLane:
            let context = laneContext
            carryOut(laneView.take(action, context))
        case .metrics: openMetrics()
        case .messages: openMessages()
        case .quit: return [.quit]
        case .suspend: return [.suspend]
        case .toggleDone:
            guard let sel = validSelection else { status = "No card selected"; break }
            toggleDone(sel)
        case .deleteColumn:
            guard let column = selectedColumn else { break }
            deleteColumn(column.id, confirmed: nil)
        case .nextBoard, .previousBoard, .moveToBoard:
            // The workspace (Workspace.swift) takes these before the board sees them.
            status = "Only one board is open: lanes A.md B.md (or lanes FOLDER) opens several"
        default:
            break  // the board's keys (`BoardKeys`) answer every other action
        }
        return []
    }

    /// The words after an undo or redo: what was put back, or why nothing could be.
    mutating func replayed(_ r: BoardDocument.Replay, _ did: String, _ verb: String) {
        if r.waits {
            status = "Not yet (\(verb) \(r.label) stays): " + DisplayText.safe(r.words)
        } else if r.changed {
            let subject = r.subject.map { " “" + DisplayText.truncate(DisplayText.safe($0), to: 40) + "”" } ?? ""
            status = "\(did) \(r.label)\(subject)" + (r.words.isEmpty ? "" : ": " + DisplayText.safe(r.words))
            focus(r.focus)
            changed()
        } else {
            status =
                "Nothing to \(verb) of \(r.label): "
                + DisplayText.safe(r.words.prefix(1).lowercased() + r.words.dropFirst())
        }
    }

    var validSelection: ItemPath? { keys.valid(on: board) }

    /// The selected column, if any.
    var selectedColumn: Column? { keys.selectedColumn(on: board) }

    /// A card as a prompt sees it when it opens: what brings it back if it is deleted meanwhile.
    func seen(_ path: ItemPath) -> SeenCard { keys.seen(path, on: board) }

    /// Refusal words for the status line (they start in lower case, as the commands print them).
    func refused(_ words: String) -> String {
        DisplayText.safe(words.prefix(1).uppercased() + words.dropFirst())
    }

    /// Sends an edit through the door (one undo step): the status says what happened and the
    /// selection follows the card or column. A refusal changes nothing; its words go on the
    /// status line and, when the edit came from a prompt with text in it, the prompt opens again
    /// with that text and the words above it, so nothing typed is lost.
    /// `more` follows the words when the edit is made (a key hint), in the same status.
    @discardableResult
    mutating func send(_ edit: BoardEdit, from prompt: PromptMode? = nil, adding more: String = "") -> EditOutcome? {
        do {
            let outcome = try document.apply(edit)
            status = DisplayText.safe(outcome.words) + more
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
            if selection?.section != s {
                selection = ItemPath(section: s, item: board.columns[s].cards.isEmpty ? -1 : 0)
            }
        case nil:
            clampSelection()
        }
    }

    /// Deletes a column: one with cards asks first (`confirmed` nil), then deletes it with the
    /// cards the question named (another card put there meanwhile refuses it, in words).
    mutating func deleteColumn(_ id: ColumnID, confirmed seen: [CardID]?) {
        guard let s = board.index(of: id) else { status = "The column is gone (deleted elsewhere)"; return }
        if seen == nil && !board.columns[s].cards.isEmpty {
            mode = .confirm(.deleteColumn(id, seen: board.columns[s].cards.map(\.id)))
            return
        }
        guard send(.deleteColumn(id, seen: seen ?? []), adding: keyHint(.undo, "undoes")) != nil else { return }
        if board.columns.isEmpty {
            selection = nil
        } else {
            let t = min(s, board.columns.count - 1)
            selection = ItemPath(section: t, item: board.columns[t].cards.isEmpty ? -1 : 0)
        }
    }

    /// External edit finished: the card's fields replaced through the door (one undo step); a
    /// card deleted meanwhile comes back with the edit.
    public mutating func finishExternalEdit(_ id: CardID, edited: Card?) {
        let seen = reading.externalSeen
        reading.externalSeen = nil
        guard var edited else { status = "Edit abandoned"; return }
        edited.id = id
        send(.replaceCard(edited, seen: seen?.card.id == id ? seen : nil))
    }

    public mutating func setStatus(_ words: String) { status = words }

}
