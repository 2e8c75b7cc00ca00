import DragKit
import LanesCore

/// Keys to the open mode, and what the app does with each mode's outcome: close it, send its
/// edit through the door, hand its effect to the runner.
extension BoardApp {
    /// No prompt, question or view open, and nothing lifted: the board would take a key as an action.
    var isIdle: Bool {
        guard case .normal = mode else { return false }
        return !coordinator.isDragging
    }

    mutating func handleKey(_ key: Key, _ mods: Modifiers, now: Double) -> [AppEffect] {
        switch mode {
        case .help(var help):
            mode = help.handle(key, mods, keymap: keymap, size: size) == .close ? .normal : .help(help)
            return []
        case .detail(let detail):
            return detailKey(key, mods, detail, now: now)
        case .metrics(var screen):
            mode = screen.handle(key, mods, keymap: keymap) == .close ? .normal : .metrics(screen)
            return []
        case .messages(var list):
            let outcome = list.handle(key, mods, keymap: keymap, size: size, log: messages)
            mode = outcome == .close ? .normal : .messages(list)
            return []
        case .prompt(var prompt):
            mode = .normal  // the editor's text is then ours alone: a key copies nothing
            switch prompt.handle(key, mods, on: board) {
            case .editing:
                mode = .prompt(prompt)
            case .cancel:
                status = "Cancelled"
                returnFromPrompt()
            case .submit(.saveCopy(let path)):
                return path.map { [.saveCopyAndQuit(path: $0)] } ?? []
            case .submit(let answer):
                answered(prompt, answer)
                if case .normal = mode { returnFromPrompt() }
            }
            return []
        case .confirm(let question):
            return answered(question.answer(key, copyPath: copySuggestion))
        case .normal:
            break
        }
        guard let action = keymap.action(for: key, mods) else { return [] }
        // Fresh words: each action says what it did, or the idle hint stands instead of old words.
        if !coordinator.isDragging, action != .quit, action != .suspend {
            status = idleHint; reading.pageWordsShown = false
        }
        return perform(action, now: now)
    }

    // MARK: Prompts

    /// Does what a prompt's answer asks. A refused edit reopens the prompt with its text and the words.
    mutating func answered(_ prompt: PromptMode, _ answer: PromptMode.Answer) {
        switch answer {
        case .send(let edit):
            if send(edit, from: prompt) != nil, case .addColumn = edit, let s = selection?.section { showSection(s) }
        case .nothing(let words):
            status = words
        case .filter(let query):
            status = filtering.set(query, on: board, keymap: keymap)
            if filtering.isOn, let sel = validSelection, !filtering.matches(board[sel]) { selectCard(delta: 1) }
        case .again(let words):
            status = words
            var again = prompt
            again.editor.say(words)
            mode = .prompt(again)
        case .saveCopy:
            break  // an effect: answered in handleKey
        }
    }

    /// After a prompt opened from the detail view: back to it while the card is still there.
    mutating func returnFromPrompt() {
        guard let d = reading.returnTo else { return }
        reading.returnTo = nil
        if case .normal = mode, board.indexPath(for: d.id) != nil { mode = .detail(d) }
    }

    // MARK: Questions

    /// Does what the answer to a question asks.
    mutating func answered(_ outcome: ConfirmMode.Outcome) -> [AppEffect] {
        switch outcome {
        case .stay:
            return []
        case .close(let words):
            mode = .normal
            status = words
        case .send(let edit):
            mode = .normal
            if case .deleteColumn(let id, let seen) = edit { deleteColumn(id, confirmed: seen) } else { send(edit) }
        case .effect(let effect, let words):
            mode = .normal
            if let words { status = words }
            return [effect]
        case .effectAndStay(let effect):
            return [effect]
        case .prompt(let prompt):
            mode = .prompt(prompt)
        }
        return []
    }

    /// The copy could not be written to `path`: the prompt opens again with the path as typed and why.
    public mutating func copyNotWritten(to path: String, because why: String) {
        var prompt = PromptMode(.saveCopy, text: path)
        status = "The copy could not be written: \(DisplayText.safe(why)); type another path (esc: not now)"
        prompt.editor.say(status)
        mode = .prompt(prompt)
    }

    /// Puts the quit question on screen: the last changes are not stored, for the reason given.
    public mutating func askBeforeQuitting(because why: String) {
        if coordinator.isDragging { apply(coordinator.cancel(reason: .requested), now: 0) }
        mode = .confirm(.quitUnsaved(why))
    }

    // MARK: Views over the board

    mutating func openHelp() { mode = .help(HelpMode()) }

    /// Opens the metrics view; the runner reads the history when the board changed since it was
    /// last read (see `wantsFlow`), so pressing `M` again on an unchanged board reads nothing.
    mutating func openMetrics() { mode = .metrics(MetricsScreen()) }

    mutating func openDetail(at path: ItemPath) {
        guard board.item(at: path) != nil else { return }
        selection = path
        mode = .detail(CardDetail(id: board[path].id))
    }

    /// What the detail view shows of its card now (nil when the card is gone).
    func detailPage(_ detail: CardDetail) -> CardDetail.Page? {
        guard let path = board.indexPath(for: detail.id) else { return nil }
        let card = board[path]
        let content = CardDetailView.content(
            card: card, column: board.columns[path.section].title,
            storesDoneMark: board.capacity.doneMark, width: CardDetailView.innerWidth(size),
            flow: flowLines(for: card.id))
        return CardDetail.Page(card: card, content: content, rows: CardDetailView.visibleRows(size))
    }

    mutating func detailKey(_ key: Key, _ mods: Modifiers, _ detail: CardDetail, now: Double) -> [AppEffect] {
        guard let page = detailPage(detail) else { mode = .normal; return [] }
        var d = detail
        let outcome = d.handle(key, mods, keymap: keymap, page: page)
        return detailDid(outcome, d, now: now)
    }

    mutating func detailMouse(_ m: MouseEvent, _ detail: CardDetail) -> [AppEffect] {
        guard let page = detailPage(detail) else { mode = .normal; return [] }
        var d = detail
        let outcome = d.handle(m, keymap: keymap, page: page, box: CardDetailView.box(size))
        return detailDid(outcome, d, now: 0)
    }

    /// Does what the detail view asks; it stays open on `d` while its card is there.
    mutating func detailDid(_ outcome: CardDetail.Outcome, _ d: CardDetail, now: Double) -> [AppEffect] {
        switch outcome {
        case .stay:
            mode = .detail(d)
        case .close:
            mode = .normal
            status = idleHint
        case .say(let words):
            status = words
        case .effect(let effect):
            return [effect]
        case .send(let edit):
            send(edit)
            mode = board.indexPath(for: d.id) == nil ? .normal : .detail(d)
        case .perform(let action) where action == .editTitle || action == .setDue || action == .setTags:
            // The prompt comes back to the detail view.
            reading.returnTo = d
            _ = perform(action, now: now)
        case .perform(let action):
            _ = perform(action, now: now)
            mode = board.indexPath(for: d.id) == nil ? .normal : .detail(d)
        }
        return []
    }
}
