import DragKit
import LanesCore

/// What the workspace asks of the runner: a board's own effect, or a move between boards.
public enum WorkspaceEffect: Sendable {
    /// An effect of the board shown (quit, suspend, `$EDITOR`, …).
    case app(AppEffect)
    /// Cards to move from one board to another through the crash-safe protocol (`CrossBoardMove`).
    case move(CrossMove)
}

/// A move of cards between two boards of the workspace, as the user asked for it.
public struct CrossMove: Sendable {
    /// A card as the screen showed it: found again in the stored board by its content.
    public struct Seen: Sendable {
        public var card: Card
        public var column: String
        public var row: Int
    }

    public var from: Int
    public var to: Int
    public var cards: [Seen]
    /// The target column, as `BoardQuery.column` finds it (a title, its start, or a number).
    public var column: String
    /// 1-based; nil: the end of the column.
    public var position: Int?
    /// Undo: WIP limits and accept rules give way, as in every undo (the door replays with force).
    public var force = false
    /// This move undoes the one before; it is not an undo step itself.
    public var undoing = false
    /// This move makes an undone move again (forced, as every redo); it is an undo step again.
    public var redoing = false

    /// Runs the move on the stored boards, finding the cards as the screen showed them (what the
    /// runner does once both boards are stored). The rules are the boards' doors', through `CrossBoardMove`.
    public func run(
        from source: CrossBoardMove.Endpoint, to target: CrossBoardMove.Endpoint,
        journal: MoveJournal
    ) throws -> CrossBoardMove.Outcome {
        let seen = cards.map { (card: $0.card, column: $0.column, row: $0.row) }
        return try CrossBoardMove.move(
            selecting: { try CrossBoardMove.paths(of: seen, in: $0) }, from: source, to: target,
            column: column, position: position, force: force, journal: journal)
    }
}

/// Several boards in one terminal: one `BoardApp` per board (each with its own selection,
/// scroll, page, undo and storage), a tab bar, and moves between boards.
///
/// With one board there is no tab bar: the board has the whole screen and behaves as before.
/// With more, row 0 is the tab bar and the board shown is drawn below it (its events arrive
/// shifted by one row). Keys go to the board shown, except the workspace's own actions
/// (`next-board`, `previous-board`, `move-to-board`) and `undo` right after a move between
/// boards, which moves the cards back (another cross-board move, never a local edit).
public struct Workspace {
    /// A board's tab.
    public struct Tab: Sendable {
        public var name: String
        /// Another writer changed the board since it was last shown.
        public var changedElsewhere = false
        /// The board is still opening in the background (`BoardLoader`): its app is a stand-in.
        public var loading = false
        /// Why the board could not be opened (its app stays a stand-in).
        public var failed: String?

        public init(name: String, loading: Bool = false) {
            self.name = name
            self.loading = loading
        }

        /// The board is open and its app is the board's.
        public var isOpen: Bool { !loading && failed == nil }
    }

    /// A move between boards as it can be undone: the cards back to where each was.
    struct MoveStep: Sendable {
        var move: CrossMove
        /// Undo steps each board had right after the move: a later edit on a board comes first.
        var undoDepth: [Int: Int]
    }

    public internal(set) var boards: [BoardApp]
    public internal(set) var tabs: [Tab]
    public internal(set) var active = 0
    public internal(set) var size: Size
    /// The `m` prompt, while it is open.
    var prompt: MovePrompt?
    /// The prompt whose answer is the move under way: open again, with its text, if the move is refused.
    var answeredPrompt: MovePrompt?
    /// This session's moves between boards, newest last.
    var moves: [MoveStep] = []
    /// Moves undone, newest last: what redo makes again (cleared by a new move).
    var undone: [MoveStep] = []
    /// The move whose undo is running (it goes to `undone` when the undo worked).
    var undoing: CrossMove?
    /// A drag between boards (held over a tab, or carried onto another board).
    var carry = BoardCarry()
    /// The words of the move between boards running now (the runner runs it beside the screen); nil: none.
    public internal(set) var moveUnderWay: String?

    public init(boards: [BoardApp], tabs: [Tab], size: Size) {
        precondition(!boards.isEmpty && boards.count == tabs.count)
        self.boards = boards
        self.tabs = tabs
        self.size = size
        for i in boards.indices { self.boards[i].resize(boardSize) }
    }

    /// The board shown.
    public var app: BoardApp { boards[active] }
    public var showsTabs: Bool { boards.count > 1 }
    /// Rows above the board: the tab bar.
    var top: Int { showsTabs ? 1 : 0 }
    var boardSize: Size { Size(width: size.width, height: max(1, size.height - top)) }

    public mutating func resize(_ newSize: Size) {
        size = newSize
        boards[active].resize(boardSize)
    }

    /// Shows board `i`: it keeps its selection, scroll and page; its change mark is cleared.
    public mutating func show(_ i: Int) {
        guard boards.indices.contains(i) else { return }
        active = i
        tabs[i].changedElsewhere = false
        if let words = moveUnderWay { boards[i].setStatus(words) }
        if boards[i].size != boardSize { boards[i].resize(boardSize) }
    }

    /// Board `i` finished opening in the background: its app takes the stand-in's place (shown at
    /// once when its tab is the one shown).
    public mutating func loaded(_ i: Int, _ app: BoardApp) {
        guard boards.indices.contains(i) else { return }
        boards[i] = app
        boards[i].resize(boardSize)
        tabs[i].loading = false
        tabs[i].failed = nil
    }

    /// Board `i` could not be opened: its tab says so, and so does its place when shown.
    public mutating func failedToOpen(_ i: Int, _ why: String) {
        guard tabs.indices.contains(i) else { return }
        tabs[i].loading = false
        tabs[i].failed = why
    }

    /// A stand-in for a board still opening: no columns, the keys of `like`, nothing to save.
    public static func standIn(named name: String, like app: BoardApp) -> BoardApp {
        BoardApp(board: Board(columns: []), title: "Lanes · \(name)", size: app.size, status: "", keymap: app.keymap)
    }

    /// Another writer changed board `i` (the runner says so): marked on its tab until it is shown.
    public mutating func changedElsewhere(_ i: Int) {
        if i != active, tabs.indices.contains(i) { tabs[i].changedElsewhere = true }
    }

    public func cardCount(_ i: Int) -> Int { boards[i].board.columns.reduce(0) { $0 + $1.cards.count } }

    // MARK: Input

    public mutating func handle(_ event: InputEvent, now: Double) -> [WorkspaceEffect] {
        if prompt != nil { return promptInput(event) }
        switch event {
        case .key(let key, let mods):
            if carry.isActive { return carryKey(key, mods, now: now) }
            let action = app.keymap.action(for: key, mods)
            if action == .nextBoard || action == .previousBoard,
                let effects = carryLifted(action == .nextBoard ? 1 : -1, now: now)
            {
                return effects
            }
            if let action, app.isIdle, let effects = perform(action) { return effects }
            if !tabs[active].isOpen {
                // Only leaving (another board, quit, suspend) means anything on a board not open.
                if action == .quit || action == .suspend { break }
                boards[active].setStatus(
                    tabs[active].loading
                        ? "\(tabs[active].name) is still opening…" : "\(tabs[active].name) could not be opened")
                return []
            }
        case .mouse(let m):
            if showsTabs, let effects = mouse(m, now: now) { return effects }
            if !tabs[active].isOpen { return [] }
        case .focusOut where carry.followsPointer:
            // The button may go up in another window, where this terminal never hears of it.
            let c = carry.carried!
            carry.carried = nil
            return bringBack(c.from, c.cards, "The window lost focus")
        default:
            break
        }
        return boards[active].handle(event, now: now).map { .app($0) }
    }

    /// The workspace's own actions; nil when the board takes the key.
    mutating func perform(_ action: Action) -> [WorkspaceEffect]? {
        guard showsTabs else { return nil }
        switch action {
        case .nextBoard: show((active + 1) % boards.count); return []
        case .previousBoard: show((active + boards.count - 1) % boards.count); return []
        case .moveToBoard:
            guard tabs[active].isOpen else { return nil }
            if moveUnderWay != nil {
                boards[active].setStatus("One move between boards at a time: wait for the one under way"); return []
            }
            guard let cards = cardsToMove() else { boards[active].setStatus("No card to move"); return [] }
            prompt = MovePrompt(cards: cards, from: active, boards: boards.map(\.board), names: tabs.map(\.name))
            return []
        case .undo:
            guard moveUnderWay == nil else { return nil }
            guard let last = moves.last,
                last.undoDepth.allSatisfy({ boards[$0.key].document.history.undoStack.count == $0.value }),
                last.move.from == active || last.move.to == active
            else { return nil }
            moves.removeLast()
            undoing = last.move
            return undoMoves(last.move).map { .move($0) }
        case .redo:
            guard moveUnderWay == nil else { return nil }
            guard let next = undone.last,
                next.undoDepth.allSatisfy({ boards[$0.key].document.history.undoStack.count == $0.value }),
                next.move.from == active || next.move.to == active
            else { return nil }
            undone.removeLast()
            var again = next.move
            again.force = true
            again.redoing = true
            // At the row it went to, or the end when the column is shorter now.
            let count = boards[again.to].board.columns.first { $0.title == again.column }?.cards.count ?? 0
            if let p = again.position, p > count + 1 { again.position = nil }
            return [.move(again)]
        default:
            return nil
        }
    }

    /// The marked cards of the board shown, else its selected card, as the screen shows them.
    func cardsToMove() -> [CrossMove.Seen]? {
        let board = app.board
        var paths: [ItemPath] = []
        for (s, column) in board.columns.enumerated() {
            for (i, card) in column.cards.enumerated() where app.marked.contains(card.id) {
                paths.append(ItemPath(section: s, item: i))
            }
        }
        if paths.isEmpty, let sel = app.validSelection { paths = [sel] }
        guard !paths.isEmpty else { return nil }
        return paths.map { CrossMove.Seen(card: board[$0], column: board.columns[$0.section].title, row: $0.item) }
    }

    /// The moves that put `move`'s cards back: one per column they came from, each at its old row.
    func undoMoves(_ move: CrossMove) -> [CrossMove] {
        var byColumn: [(String, [CrossMove.Seen])] = []
        for seen in move.cards {
            if let k = byColumn.firstIndex(where: { $0.0 == seen.column }) {
                byColumn[k].1.append(seen)
            } else {
                byColumn.append((seen.column, [seen]))
            }
        }
        return byColumn.map { column, cards in
            // Where they are now: the target column, in the order they went in.
            let now = cards.map { CrossMove.Seen(card: $0.card, column: move.column, row: (move.position ?? 1) - 1) }
            let fromBoard = boards[move.from].board
            let count = fromBoard.columns.first { $0.title == column }?.cards.count ?? 0
            let row = cards.map(\.row).min() ?? 0
            return CrossMove(
                from: move.to, to: move.from, cards: now, column: column,
                position: row + 1 <= count + 1 ? row + 1 : nil, force: true, undoing: true)
        }
    }

    /// The runner started `move` beside the screen: the status says so until it is done.
    public mutating func moveStarted(_ move: CrossMove) {
        let what =
            move.cards.count == 1 ? "“\(DisplayText.safe(move.cards[0].card.title))”" : "\(move.cards.count) cards"
        let verb =
            move.undoing
            ? "Undoing the move: moving \(what) back"
            : move.redoing ? "Redoing the move: moving \(what)" : "Moving \(what)"
        let words =
            "\(verb) to \(tabs[move.to].name), “\(DisplayText.safe(move.column))”… "
            + "\(tabs[move.from].name) and \(tabs[move.to].name) are saved when it is done"
        moveUnderWay = words
        boards[active].setStatus(words)
    }

    /// The runner's report on a move: the words on the board shown, and an undo step when it worked.
    public mutating func moveFinished(_ move: CrossMove, result: Result<CrossBoardMove.Outcome, any Error>) {
        moveUnderWay = nil
        let asked = move.undoing || move.redoing ? nil : answeredPrompt
        answeredPrompt = nil
        switch result {
        case .success(let outcome):
            let what =
                outcome.titles.count == 1 ? "“\(DisplayText.safe(outcome.titles[0]))”" : "\(outcome.titles.count) cards"
            var words =
                move.undoing
                ? "Undid the move: \(what) back on \(tabs[move.to].name), “\(DisplayText.safe(outcome.targetColumn))”"
                : "\(move.redoing ? "Redid the move: moved" : "Moved") \(what) to \(tabs[move.to].name), “\(DisplayText.safe(outcome.targetColumn))” at \(outcome.position)"
            if move.undoing, let original = undoing {
                undoing = nil
                undone.append(
                    MoveStep(
                        move: original,
                        undoDepth: [
                            original.from: boards[original.from].document.history.undoStack.count,
                            original.to: boards[original.to].document.history.undoStack.count,
                        ]))
                words += app.keymap.keys(for: .redo).first.map { " · \($0) redoes" } ?? ""
            }
            if !move.undoing && !move.redoing { undone.removeAll() }
            if !outcome.keptOnSource.isEmpty {
                words =
                    "\(outcome.keptOnSource.count == 1 ? "“\(DisplayText.safe(outcome.keptOnSource[0]))” was" : "\(outcome.keptOnSource.count) cards were") edited on \(tabs[move.from].name) while it moved: it stays there with the edit"
            } else if let c = outcome.conflicts.first {
                words += " · " + DisplayText.safe(c.message)
            }
            if !move.undoing {
                var placed = move
                placed.force = false
                placed.redoing = false
                placed.position = outcome.position
                placed.column = outcome.targetColumn
                // Marks of moved cards go with them.
                for seen in move.cards { boards[move.from].marks.unmark(seen.card.id) }
                moves.append(
                    MoveStep(
                        move: placed,
                        undoDepth: [
                            move.from: boards[move.from].document.history.undoStack.count,
                            move.to: boards[move.to].document.history.undoStack.count,
                        ]))
                words += app.keymap.keys(for: .undo).first.map { " · \($0) undoes" } ?? ""
            }
            boards[active].setStatus(words)
        case .failure(let error):
            if move.undoing { undoing = nil }
            let why = "\(error)"
            let what =
                move.undoing ? "Could not undo the move: " : move.redoing ? "Could not redo the move: " : "Not moved: "
            boards[active].setStatus(what + DisplayText.safe(why))
            // What was typed is not lost: the prompt opens again with it, and the door's words above it.
            if var again = asked, prompt == nil, move.from == active {
                again.editor.say(what + DisplayText.safe(why))
                again.cycle = nil
                prompt = again
            }
        }
    }

    // MARK: The prompt

    mutating func promptInput(_ event: InputEvent) -> [WorkspaceEffect] {
        guard var p = prompt else { return [] }
        switch event {
        case .key(.tab, _):
            p.complete()
        case .key(let key, let mods):
            switch p.editor.handle(key, mods) {
            case .editing: break
            case .cancel:
                prompt = nil
                boards[active].setStatus("Cancelled")
                return []
            case .submit:
                switch p.answer() {
                case .success(let (to, column, position)):
                    prompt = nil
                    answeredPrompt = p
                    return [.move(CrossMove(from: active, to: to, cards: p.cards, column: column, position: position))]
                case .failure(let why):
                    p.editor.say(why.words)
                }
            }
        case .paste(let text):
            p.editor.insert(text)
        default:
            break
        }
        prompt = p
        return []
    }

    // MARK: Drawing

    public func render(into buf: inout CellBuffer, now: Double) {
        if buf.width != size.width || buf.height != size.height {
            buf = CellBuffer(width: size.width, height: size.height)
        }
        guard showsTabs else {
            app.render(into: &buf, now: now)
            drawPrompt(into: &buf)
            return
        }
        var inner = CellBuffer(width: boardSize.width, height: boardSize.height)
        if tabs[active].isOpen { app.render(into: &inner, now: now) } else { drawNotOpen(into: &inner) }
        for y in 0..<min(inner.height, buf.height - 1) {
            for x in 0..<inner.width { buf[x, y + 1] = inner[x, y] }
        }
        buf.cursor = inner.cursor.map { Point(x: $0.x, y: $0.y + 1) }
        TabBar(tabs: tabs, counts: boards.indices.map(cardCount), active: active, hovered: carry.hoveredTab)
            .draw(into: &buf, width: size.width)
        carry.drawGhost(into: &buf)
        drawPrompt(into: &buf)
    }

    /// The place of a board still opening (or that could not be opened): what it is waiting for, in words.
    func drawNotOpen(into buf: inout CellBuffer) {
        let tab = tabs[active]
        let lines =
            tab.loading
            ? [
                "Opening \(DisplayText.safe(tab.name))…",
                "It shows here as soon as it is read; ctrl-n/ctrl-p switch boards meanwhile.",
            ]
            : ["Could not open \(DisplayText.safe(tab.name)):", DisplayText.safe(tab.failed ?? "")]
        let y0 = max(0, buf.height / 2 - 1)
        for (k, line) in lines.enumerated() where y0 + k < buf.height {
            let text = DisplayText.truncate(line, to: max(0, buf.width - 2))
            let x = max(0, (buf.width - TextWidth.width(of: text)) / 2)
            buf.write(text, x: x, y: y0 + k, style: Style(bold: k == 0), maxX: buf.width)
        }
        if !app.status.isEmpty, buf.height > 0 {
            buf.write(
                " " + DisplayText.truncate(app.status, to: max(0, buf.width - 1)), x: 0, y: buf.height - 1,
                style: Style(), maxX: buf.width)
        }
    }

    func drawPrompt(into buf: inout CellBuffer) {
        guard let p = prompt, size.height > 0 else { return }
        p.draw(into: &buf, width: size.width, row: size.height - 1)
    }

    /// Deadlines of the board shown and of a card held over a tab.
    public func deadline(now: Double) -> Double? {
        [app.deadline(now: now), carry.deadline].compactMap { $0 }.min()
    }

    public mutating func tick(now: Double) {
        boards[active].tick(now: now)
        springLoadIfDue(now: now)
    }

    public var wantsAllMotion: Bool { app.wantsAllMotion || carry.followsPointer }
}
