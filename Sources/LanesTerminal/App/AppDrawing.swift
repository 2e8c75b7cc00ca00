import DragKit
import LanesCore

/// Drawing: the board scene for the current state, and the mode's view over it.
extension BoardApp {
    /// What the board view draws for the current state.
    func scene(now: Double) -> BoardScene {
        var statusText = status
        if case .prompt(let prompt) = mode {
            statusText = prompt.label + prompt.editor.prefix(512)
        } else if case .confirm(let question) = mode, let words = question.words(on: board) {
            statusText = words
        }
        var ghost = renderer.ghost(now: now)
        if var g = ghost, renderer.isDragging, let width = layout.columns.first?.frame.width, g.frame.width != width {
            // After a resize mid-drag the ghost takes the columns' new width, keeping the pointer on it.
            let grab = renderer.start.map { $0.grabOffset.x } ?? 0
            if grab >= width { g.frame.origin.x += grab - (width - 1) }
            g.frame.size.width = width
            ghost = g
        }
        var scene = BoardScene(
            board: board, layout: layout,
            selection: coordinator.isDragging ? nil : selection,
            decorations: renderer.decorations(now: now), ghost: ghost,
            title: title, status: statusText, filter: filter, compact: reading.compact)
        scene.marked = marked
        scene.fileCardCounts = fileCardCounts
        // A prompt is drawn on the last row by `render`; the idle hint is no message to read whole.
        if case .prompt = mode { scene.wrapsStatus = false } else if status == idleHint { scene.wrapsStatus = false }
        scene.messagesKey = keymap.keys(for: .messages).first?.description
        scene.columnGhost = renderer.columnGhost()
        if var cg = scene.columnGhost, let width = layout.columns.first?.frame.width {
            cg.frame.size.width = width; scene.columnGhost = cg
        }
        return scene
    }

    /// Draws the whole frame.
    public func render(into buf: inout CellBuffer, now: Double) {
        if buf.width != size.width || buf.height != size.height {
            buf = CellBuffer(width: size.width, height: size.height)
        }
        let scene = scene(now: now)
        BoardView.draw(scene, into: &buf, cache: frames)
        if case .prompt(let prompt) = mode, size.height > 0 {
            let editor = prompt.editor
            let y = size.height - 1
            let labelWidth = TextWidth.width(of: prompt.label) + 1
            let shown = editor.visible(width: max(1, size.width - labelWidth - 1))
            buf.fill(x: 0, y: y, width: size.width, height: 1, style: Style(reverse: true))
            buf.write(" " + prompt.label, x: 0, y: y, style: Style(reverse: true))
            buf.write(shown.text, x: labelWidth, y: y, style: Style(reverse: true))
            let cx = labelWidth + shown.cursor
            if cx < size.width { buf[cx, y] = Cell(buf[cx, y].text.isEmpty ? " " : buf[cx, y].text, style: Style()) }
            buf.cursor = Point(x: min(cx, size.width - 1), y: y)
            if let note = editor.note, y > 0 {
                // What the last paste changed or why it was refused, above the prompt.
                buf.fill(x: 0, y: y - 1, width: size.width, height: 1, style: Style(reverse: true))
                buf.write(" " + note, x: 0, y: y - 1, style: Style(bold: true, reverse: true))
            }
        }
        if case .help(let help) = mode {
            HelpView.draw(keymap: keymap, scroll: help.scroll, into: &buf)
            buf.cursor = nil
        }
        if case .detail(let d) = mode, let path = board.indexPath(for: d.id) {
            CardDetailView.draw(
                card: board[path], column: board.columns[path.section].title, scroll: d.scroll, cursor: d.cursor,
                keymap: keymap,
                storesDoneMark: board.capacity.doneMark, flow: flowLines(for: board[path].id), into: &buf)
            buf.cursor = nil
        }
        if case .metrics(let s) = mode {
            MetricsView.draw(flow.view, chart: s.chart, keymap: keymap, into: &buf)
            buf.cursor = nil
        }
        if case .messages(let s) = mode {
            MessagesView.draw(messages, scroll: s.scroll, keymap: keymap, into: &buf)
            buf.cursor = nil
        }
        // A message wrapped onto several rows is drawn again over the help and the card view.
        if scene.wrapsStatus, BoardView.statusLines(scene.status, width: size.width, height: size.height).count > 1 {
            if case .help = mode { BoardView.drawStatus(scene, into: &buf) }
            if case .detail = mode { BoardView.drawStatus(scene, into: &buf) }
        }
    }
}
