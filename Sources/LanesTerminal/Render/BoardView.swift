import DragKit
import LanesCore

/// Draws the board into a cell buffer: header, columns, cards, drag overlay, status line.
///
/// A frame is two layers: the board (header, columns, cards, the hidden original's slot)
/// and over it the target column's header, the ghost, the marker and the status line. While a card
/// is dragged only the second layer changes from one motion to the next, so `draw` with a
/// `FrameCache` copies the board layer it kept and draws just the overlay.
public enum BoardView {
    public static func draw(_ scene: BoardScene, into buf: inout CellBuffer) {
        drawBoardLayer(scene, into: &buf)
        drawOverlay(scene, into: &buf, ghostFace: nil)
    }

    /// The same frame as `draw(_:into:)`, reusing the board layer while nothing it shows changed.
    public static func draw(_ scene: BoardScene, into buf: inout CellBuffer, cache: FrameCache) {
        let key = LayerKey(scene)
        if cache.key != key || cache.layer.width != buf.width || cache.layer.height != buf.height {
            cache.layer = CellBuffer(width: buf.width, height: buf.height)
            drawBoardLayer(scene, into: &cache.layer)
            cache.key = key
        }
        buf = cache.layer
        var face: CardFace?
        if let g = scene.ghost, !scene.layout.tooSmall {
            if let k = cache.ghost, k.card == g.card, k.width == g.frame.width, k.face.compact == scene.compact {
                face = k.face
            } else {
                let made = CardFace(
                    card: g.card, width: g.frame.width, maxTitleLines: LayoutMetrics().maxTitleLines,
                    compact: scene.compact)
                cache.ghost = (g.card, g.frame.width, made)
                face = made
            }
        }
        drawOverlay(scene, into: &buf, ghostFace: face)
    }

    /// Header, columns and cards: everything but the ghost, the marker and the status line.
    static func drawBoardLayer(_ scene: BoardScene, into buf: inout CellBuffer) {
        buf.clear()
        let size = scene.layout.size
        if scene.layout.tooSmall {
            drawTooSmall(size: size, minimum: LayoutMetrics().minimumSize, into: &buf)
            return
        }
        drawHeader(scene, into: &buf)
        if let grid = scene.layout.lanes {
            LaneDrawing.drawLanes(grid, scene: scene, into: &buf)
        } else {
            for column in scene.layout.columns {
                drawColumn(column, scene: scene, into: &buf)
            }
        }
        if scene.board.columns.isEmpty {
            buf.write("No columns yet. Press A to add one, ? for help.", x: 1, y: 2, style: scene.theme.hint)
        }
    }

    /// The target's or refusing column's header, the ghost, the marker over it (where the card
    /// lands matters more than the card) and the status line.
    static func drawOverlay(_ scene: BoardScene, into buf: inout CellBuffer, ghostFace: CardFace?) {
        guard !scene.layout.tooSmall else { return }
        let size = scene.layout.size
        let deco = scene.decorations
        let grid = scene.layout.lanes
        let columnOf = { (section: Int?) -> Int? in section.map { s in grid.map { s % max(1, $0.columnCount) } ?? s } }
        for c in scene.layout.columns {
            if columnOf(deco.targetSection) == c.section {
                drawColumnHeader(c, highlight: .target, theme: scene.theme, into: &buf)
            } else if columnOf(deco.refusedSection) == c.section {
                drawColumnHeader(c, highlight: .refused, theme: scene.theme, into: &buf)
            }
        }
        if let grid { LaneDrawing.drawLaneHighlight(grid, scene: scene, into: &buf) }
        let clip = Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 2))
        if let g = scene.ghost {
            drawCard(
                g.card, frame: g.frame, clip: clip, border: scene.theme.ghost, scene: scene, into: &buf, face: ghostFace
            )
            if deco.extraCount > 0 {
                // The count of the other carried cards, on the ghost's top border.
                let badge = " +\(deco.extraCount) "
                let x = max(g.frame.minX + 1, g.frame.maxX - 1 - TextWidth.width(of: badge))
                if clip.contains(Point(x: x, y: g.frame.minY)) {
                    buf.write(
                        badge, x: x, y: g.frame.minY, style: scene.theme.ghost.withReverse(),
                        maxX: min(g.frame.maxX - 1, size.width))
                }
            }
        }
        if let grid {
            for cell in grid.cells { drawMarker(cell.body, scene: scene, sparing: scene.ghost?.frame, into: &buf) }
        } else {
            for column in scene.layout.columns {
                drawMarker(column, scene: scene, sparing: scene.ghost?.frame, into: &buf)
            }
        }
        if let cg = scene.columnGhost { drawColumnDrag(cg, scene: scene, clip: clip, into: &buf) }
        drawStatus(scene, into: &buf)
    }

    /// Everything the board layer is drawn from; equal keys draw equal layers.
    struct LayerKey: Equatable {
        struct ColumnKey: Equatable {
            var section: Int
            var frame: Rect
            var viewport: Rect
            var scroll: Int
            var column: Column
        }
        var size: Size
        var tooSmall: Bool
        var page: Int
        var pageCount: Int
        var columns: [ColumnKey]
        /// The lane view's cells and bands (empty without lanes).
        var cells: [ColumnKey]
        var bands: [LaneBands.Band]
        var laneNames: [String]
        var boardIsEmpty: Bool
        var title: String
        var selection: ItemPath?
        var filter: String
        var compact: Bool
        var theme: Theme
        var hidden: CardID?
        var flash: CardID?
        var marked: Set<CardID>
        var dimmed: Set<CardID>
        var fileCardCounts: [Int]?

        init(_ scene: BoardScene) {
            let l = scene.layout
            size = l.size
            tooSmall = l.tooSmall
            page = l.page
            pageCount = l.pageCount
            columns = l.columns.map {
                ColumnKey(
                    section: $0.section, frame: $0.frame, viewport: $0.viewport, scroll: $0.scroll, column: $0.column)
            }
            cells =
                l.lanes?.cells.map {
                    ColumnKey(
                        section: $0.section, frame: $0.frame, viewport: $0.viewport, scroll: $0.body.scroll,
                        column: $0.body.column)
                } ?? []
            bands = l.lanes?.layout.bands ?? []
            laneNames = l.lanes.map { g in g.lanes.map { g.name(lane: $0) } } ?? []
            boardIsEmpty = scene.board.columns.isEmpty
            title = scene.title
            selection = scene.selection
            filter = scene.filter
            compact = scene.compact
            theme = scene.theme
            let d = scene.decorations
            hidden = d.hidden
            flash = d.flash
            marked = scene.marked
            dimmed = d.dimmed
            fileCardCounts = scene.fileCardCounts
        }
    }

    static func drawTooSmall(size: Size, minimum: Size, into buf: inout CellBuffer) {
        let lines = [
            "Terminal too small", "\(size.width)×\(size.height), need \(minimum.width)×\(minimum.height)", "q quits",
        ]
        for (i, line) in lines.enumerated() {
            let y = max(0, size.height / 2 - 1) + i
            let x = max(0, (size.width - TextWidth.width(of: line)) / 2)
            buf.write(
                DisplayText.truncate(line, to: size.width), x: x, y: y, style: i == 0 ? Style(bold: true) : Style())
        }
    }

    static func drawHeader(_ scene: BoardScene, into buf: inout CellBuffer) {
        let width = scene.layout.size.width
        let l = scene.layout
        var right = "? help"
        if l.pageCount > 1 {
            right = "◀ page \(l.page + 1)/\(l.pageCount) ▶  " + right
        }
        let rightWidth = TextWidth.width(of: right)
        let left = DisplayText.truncate(" " + DisplayText.safe(scene.title), to: max(0, width - rightWidth - 2))
        buf.write(left, x: 0, y: 0, style: scene.theme.header)
        buf.write(right, x: max(0, width - rightWidth - 1), y: 0, style: scene.theme.hint)
    }

    /// Where "? help" is in the title bar, for clicks.
    public static func helpButton(layout: ScreenLayout) -> Rect {
        guard !layout.tooSmall else { return .zero }
        return Rect(
            x: max(0, layout.size.width - TextWidth.width(of: "? help") - 1), y: 0,
            width: TextWidth.width(of: "? help"), height: 1)
    }

    /// Where the page indicator's arrows are, for clicks: (previous, next) cells.
    public static func pageArrows(layout: ScreenLayout) -> (previous: Rect, next: Rect)? {
        guard layout.pageCount > 1 else { return nil }
        let right = "◀ page \(layout.page + 1)/\(layout.pageCount) ▶  ? help"
        let x = max(0, layout.size.width - TextWidth.width(of: right) - 1)
        let nextX = x + TextWidth.width(of: "◀ page \(layout.page + 1)/\(layout.pageCount) ")
        return (Rect(x: x, y: 0, width: 2, height: 1), Rect(x: nextX, y: 0, width: 2, height: 1))
    }

    static func drawColumn(_ c: ColumnDraggable, scene: BoardScene, into buf: inout CellBuffer) {
        let total = scene.fileCardCounts.flatMap { c.section < $0.count ? $0[c.section] : nil }
        drawColumnHeader(c, highlight: nil, theme: scene.theme, count: total, into: &buf)
        guard let (first, i) = drawCards(c, scene: scene, selection: scene.selection, into: &buf) else { return }
        if c.viewport.height > 0, c.metrics.extends(beyond: c.scroll + c.viewport.height) {
            // On the rule under the header, never over a card's text.
            let below =
                (total ?? c.itemCount) - i + (i > first && c.frameOfItem(at: i - 1).maxY > c.viewport.maxY ? 1 : 0)
            let text = "▼ \(below) more─"
            let x = c.frame.maxX - TextWidth.width(of: text)
            if x > c.frame.minX + (c.scroll > 0 ? 8 : 0) {
                buf.write(text, x: x, y: c.frame.minY + 1, style: scene.theme.rule, maxX: c.frame.maxX)
            }
        }
    }

    /// The cards of a column (or a lane's cell) inside its viewport, "(empty)" when it has none;
    /// returns the first card drawn and the one after the last (nil when empty). `alsoIn` marks
    /// cards carrying another lane's tag.
    @discardableResult
    static func drawCards(
        _ c: ColumnDraggable, scene: BoardScene, selection: ItemPath?, alsoIn: [CardID: [Int]] = [:],
        into buf: inout CellBuffer
    ) -> (first: Int, end: Int)? {
        let theme = scene.theme
        let deco = scene.decorations
        guard c.itemCount > 0 else {
            if c.viewport.height > 0 {
                buf.write(
                    DisplayText.truncate("(empty)", to: c.frame.width), x: c.frame.minX + 1, y: c.viewport.minY,
                    style: theme.hint, maxX: c.frame.maxX)
            }
            return nil
        }
        let first = c.firstItem(endingBelow: c.viewport.minY)
        var i = first
        while i < c.itemCount {
            let frame = c.frameOfItem(at: i)
            if frame.minY >= c.viewport.maxY { break }
            let card = c.cards[i]
            if deco.hidden == card.id {
                drawSlot(frame: frame, clip: c.viewport, style: theme.slot, into: &buf)
            } else {
                var border = theme.border
                let isMarked = scene.marked.contains(card.id)
                if isMarked { border = theme.marked }
                let selected = selection.map { $0.section == c.section && $0.item == i } ?? false
                if selected { border = theme.selected }
                if deco.flash == card.id { border = theme.flash }
                drawCard(
                    card, frame: frame, clip: c.viewport, border: border, scene: scene, into: &buf,
                    face: c.metrics.face(at: i))
                if isMarked, frame.width > 6, frame.minY >= c.viewport.minY {
                    // On the mark box: the top border's second cell, or in the compact view the
                    // row's first cell (where ▸ or a blank stands), never over the title.
                    let x = scene.compact ? frame.minX : frame.minX + 2
                    buf.write("●", x: x, y: frame.minY, style: theme.marked, maxX: frame.maxX - 1)
                }
                if alsoIn[card.id] != nil, frame.minY >= c.viewport.minY {
                    LaneDrawing.markOtherLane(frame: frame, compact: scene.compact, theme: theme, into: &buf)
                }
                if selected {
                    // The terminal's cursor rests on the selected card's title (screen readers, braille displays).
                    let row = min(max(frame.minY + 1, c.viewport.minY), c.viewport.maxY - 1)
                    buf.cursor = Point(x: frame.minX + 2, y: row)
                }
                if deco.dimmed.contains(card.id) || (!scene.filter.isEmpty && !CardFilter.matches(card, scene.filter)) {
                    let top = max(frame.minY, c.viewport.minY), bottom = min(frame.maxY, c.viewport.maxY)
                    buf.restyle(x: frame.minX, y: top, width: frame.width, height: bottom - top) {
                        $0.dim = true; $0.bold = false
                    }
                }
            }
            i += 1
        }
        return (first, i)
    }

    /// How a column's header shows that it is the drop target or refuses the card.
    enum HeaderHighlight { case target, refused }

    /// The column's title line (title, card count, WIP limit) and the rule under it, which
    /// says when cards are scrolled out of sight. `count`: the column's cards in the file, where
    /// the board holds only its first ones (still being read).
    static func drawColumnHeader(
        _ c: ColumnDraggable, highlight: HeaderHighlight?, theme: Theme, count cardCount: Int? = nil,
        into buf: inout CellBuffer
    ) {
        let column = c.column
        let cards = cardCount ?? column.cards.count
        var count = "\(cards)"
        if let limit = column.wipLimit { count += "/\(limit)" }
        var headerStyle = theme.columnTitle
        var ruleStyle = theme.rule
        var suffix = " " + count
        switch highlight {
        case .target?:
            headerStyle = theme.target
            ruleStyle = theme.target.withBold(false)
            suffix += " ◆"
        case .refused?:
            headerStyle = theme.refused
            ruleStyle = theme.refused.withBold(false)
            suffix += column.isFull ? " ✕ full" : " ✕"
        case nil:
            // At rest a column at its limit says so, and one over it louder.
            if let limit = column.wipLimit, cards >= limit {
                let over = cards > limit
                suffix += over ? " ▲ over" : " ● full"
                headerStyle = over ? theme.overLimit : theme.atLimit
            }
        }
        buf.fill(x: c.frame.minX, y: c.frame.minY, width: c.frame.width, height: 1)
        let suffixWidth = TextWidth.width(of: suffix)
        let name = DisplayText.truncate(DisplayText.safe(column.title), to: max(1, c.frame.width - suffixWidth - 1))
        let end = buf.write(name, x: c.frame.minX, y: c.frame.minY, style: headerStyle, maxX: c.frame.maxX)
        buf.write(suffix, x: end, y: c.frame.minY, style: headerStyle.withBold(false), maxX: c.frame.maxX)
        var x = c.frame.minX
        if c.scroll > 0 { x = buf.write("─▲ more", x: x, y: c.frame.minY + 1, style: ruleStyle, maxX: c.frame.maxX) }
        buf.write(
            repeating: "─", count: c.frame.maxX - x, x: x, y: c.frame.minY + 1, style: ruleStyle, maxX: c.frame.maxX)
    }

    /// The insertion marker: a bright line on the boundary where the card will land. On the
    /// ghost's text rows (`sparing` is its frame) only the line's two ends are drawn, beside the
    /// ghost where the column leaves room, else on its border: never over the ghost's text.
    /// The terminal's cursor is parked on it.
    static func drawMarker(
        _ c: ColumnDraggable, scene: BoardScene, sparing ghost: Rect? = nil,
        into buf: inout CellBuffer
    ) {
        guard let m = scene.decorations.marker, m.section == c.section, c.viewport.height > 0 else { return }
        var y: Int
        if m.gap < c.itemCount {
            y = c.frameOfItem(at: m.gap).minY
        } else if c.itemCount > 0 {
            y = c.frameOfItem(at: c.itemCount - 1).maxY
        } else {
            y = c.viewport.minY
        }
        y = min(max(y, c.viewport.minY), c.viewport.maxY - 1)
        let style = scene.theme.marker
        buf.cursor = Point(x: c.frame.minX, y: y)
        // The ghost's text rows, and its top border when that carries the "+N" badge; over a plain
        // border the whole line is drawn.
        let sparedTop = scene.decorations.extraCount > 0 ? 0 : 1
        if let g = ghost, y >= g.minY + sparedTop, y < g.maxY - 1, g.minX < c.frame.maxX, g.maxX > c.frame.minX {
            let inside = { (x: Int) in x >= g.minX && x < g.maxX }
            var left = c.frame.minX, right = c.frame.maxX - 1
            if inside(left) { left = g.minX - 1 >= c.frame.minX ? g.minX - 1 : g.minX }
            if inside(right) { right = g.maxX < c.frame.maxX ? g.maxX : g.maxX - 1 }
            buf.write(repeating: "▶", count: 1, x: left, y: y, style: style, maxX: c.frame.maxX)
            if right != left { buf.write(repeating: "◀", count: 1, x: right, y: y, style: style, maxX: c.frame.maxX) }
            buf.cursor = Point(x: max(0, left), y: y)
            return
        }
        var x = buf.write(repeating: "▶", count: 1, x: c.frame.minX, y: y, style: style, maxX: c.frame.maxX)
        x = buf.write(repeating: "━", count: max(0, c.frame.width - 2), x: x, y: y, style: style, maxX: c.frame.maxX)
        buf.write(repeating: "◀", count: 1, x: x, y: y, style: style, maxX: c.frame.maxX)
        if let label = scene.decorations.markerLabel, c.frame.width > 8 {
            let text = " " + DisplayText.truncate(label, to: c.frame.width - 6) + " "
            buf.write(text, x: c.frame.minX + 2, y: y, style: scene.theme.marker.withReverse(), maxX: c.frame.maxX - 2)
        }
    }

    /// A column dragged by its header: a bar between the columns where it would land, and the
    /// ghost header (title in a box) under the pointer. The cursor is parked on the bar.
    static func drawColumnDrag(
        _ g: (title: String, frame: Rect), scene: BoardScene, clip: Rect, into buf: inout CellBuffer
    ) {
        let l = scene.layout
        if let gap = scene.decorations.columnGap, let first = l.columns.first, let last = l.columns.last {
            var x: Int?
            if let c = l.column(section: gap) {
                x = max(0, c.frame.minX - 1)
            } else if gap == last.section + 1 {
                x = min(l.size.width - 1, last.frame.maxX)
            } else if gap < first.section {
                x = 0
            } else if gap > last.section {
                x = l.size.width - 1
            }
            if let x {
                for y in clip.minY..<clip.maxY { buf.write("┃", x: x, y: y, style: scene.theme.marker) }
                buf.cursor = Point(x: x, y: clip.minY)
            }
        }
        let f = g.frame
        guard f.width >= 4 else { return }
        let name = DisplayText.truncate(DisplayText.safe(g.title), to: f.width - 4)
        let rows = [
            "╭" + String(repeating: "─", count: f.width - 2) + "╮",
            "│ " + name + String(repeating: " ", count: max(0, f.width - 3 - TextWidth.width(of: name))) + "│",
            "╰" + String(repeating: "─", count: f.width - 2) + "╯",
        ]
        for (k, row) in rows.enumerated() where clip.contains(Point(x: clip.minX, y: f.minY + k)) {
            buf.write(row, x: f.minX, y: f.minY + k, style: scene.theme.ghost, maxX: min(clip.maxX, f.maxX))
        }
    }

    static func drawSlot(frame: Rect, clip: Rect, style: Style, into buf: inout CellBuffer) {
        let w = frame.width
        guard w >= 2 else { return }
        for y in frame.minY..<frame.maxY where y >= clip.minY && y < clip.maxY {
            let row: String
            if y == frame.minY {
                row = "┌" + String(repeating: "╌", count: w - 2) + "┐"
            } else if y == frame.maxY - 1 {
                row = "└" + String(repeating: "╌", count: w - 2) + "┘"
            } else {
                row = "╎" + String(repeating: " ", count: w - 2) + "╎"
            }
            buf.write(row, x: frame.minX, y: y, style: style, maxX: clip.maxX)
        }
    }

    /// A card as a rounded box, clipped to `clip` (cards half scrolled out show their visible rows).
    /// `face` is the card's wrapped face at this width when the layout already has it.
    static func drawCard(
        _ card: Card, frame: Rect, clip: Rect, border: Style, scene: BoardScene,
        into buf: inout CellBuffer, face known: CardFace? = nil
    ) {
        let w = frame.width
        guard w >= 4 else { return }
        let face =
            known
            ?? CardFace(card: card, width: w, maxTitleLines: LayoutMetrics().maxTitleLines, compact: scene.compact)
        if face.compact {
            drawCompactCard(card, face: face, frame: frame, clip: clip, border: border, scene: scene, into: &buf)
            return
        }
        let inner = w - 4
        let maxX = min(clip.maxX, buf.width)
        for y in frame.minY..<frame.maxY where y >= clip.minY && y < clip.maxY {
            let r = y - frame.minY
            if r == 0 || y == frame.maxY - 1 {
                let (l, rt): (Character, Character) = r == 0 ? ("╭", "╮") : ("╰", "╯")
                var x = buf.write(repeating: l, count: 1, x: frame.minX, y: y, style: border, maxX: maxX)
                x = buf.write(repeating: "─", count: w - 2, x: x, y: y, style: border, maxX: maxX)
                buf.write(repeating: rt, count: 1, x: x, y: y, style: border, maxX: maxX)
                continue
            }
            // Clear the inside so a ghost hides what is under it.
            var x = buf.write(repeating: "│", count: 1, x: frame.minX, y: y, style: border, maxX: maxX)
            x = buf.write(repeating: " ", count: w - 2, x: x, y: y, style: border, maxX: maxX)
            buf.write(repeating: "│", count: 1, x: x, y: y, style: border, maxX: maxX)
            let line: String
            let style: Style
            if r - 1 < face.titleLines.count {
                line = face.titleLines[r - 1]
                style =
                    border == scene.theme.border
                    ? (card.done ? scene.theme.done : scene.theme.title) : border.withReverse(false)
            } else {
                line = face.hint ?? ""
                style = scene.theme.hint
            }
            buf.write(line, x: frame.minX + 2, y: y, style: style, maxX: min(frame.minX + 2 + inner, clip.maxX))
        }
    }

    /// A card in the compact view: one row, `▸` on the selected one, the title, the badges at the right.
    static func drawCompactCard(
        _ card: Card, face: CardFace, frame: Rect, clip: Rect, border: Style, scene: BoardScene,
        into buf: inout CellBuffer
    ) {
        let y = frame.minY
        guard y >= clip.minY, y < clip.maxY else { return }
        let maxX = min(clip.maxX, frame.maxX, buf.width)
        let plain = border == scene.theme.border
        // The selection, the ghost and the flash show as reversed rows: a compact card has no border to colour.
        let rowStyle = plain ? Style() : border.withReverse()
        buf.fill(x: frame.minX, y: y, width: maxX - frame.minX, height: 1, style: rowStyle)
        var x = buf.write(plain ? " " : "▸", x: frame.minX, y: y, style: rowStyle, maxX: maxX)
        let titleStyle = plain ? (card.done ? scene.theme.done : scene.theme.title) : rowStyle
        x = buf.write(face.titleLines.first ?? "", x: x, y: y, style: titleStyle, maxX: maxX)
        if let hint = face.hint {
            let hx = max(x + 1, maxX - 1 - TextWidth.width(of: hint))
            buf.write(hint, x: hx, y: y, style: plain ? scene.theme.hint : rowStyle, maxX: maxX)
        }
    }
}
