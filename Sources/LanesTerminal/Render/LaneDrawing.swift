import DragKit
import LanesCore

/// How the lane view is drawn: column headers with totals across lanes, then per lane a header
/// row (name, card count, collapsed or not) and its cells' cards.
enum LaneDrawing {
    /// The mark on a card that carries another lane's tag besides the lane it is shown in.
    static let otherLaneMark = "⧉"

    static func drawLanes(_ grid: LaneGrid, scene: BoardScene, into buf: inout CellBuffer) {
        let theme = scene.theme
        for c in scene.layout.columns {
            BoardView.drawColumnHeader(c, highlight: nil, theme: theme, into: &buf)
        }
        let selection = scene.selection.flatMap(grid.cellPath)
        for (k, lane) in grid.lanes.enumerated() {
            drawLaneHeader(grid, band: grid.layout.bands[k], lane: lane, style: theme.header, into: &buf)
        }
        for cell in grid.cells where cell.viewport.height > 0 {
            BoardView.drawCards(cell.body, scene: scene, selection: selection, alsoIn: grid.alsoIn, into: &buf)
        }
        drawScrollHint(grid, scene: scene, into: &buf)
    }

    /// `▾ #frontend  3 ────` (`▸ … collapsed` when collapsed), across the board.
    static func drawLaneHeader(
        _ grid: LaneGrid, band: LaneBands.Band, lane: Int, style: Style, into buf: inout CellBuffer
    ) {
        let h = band.header
        guard h.height > 0 else { return }
        buf.fill(x: h.minX, y: h.minY, width: h.width, height: 1)
        let text = headerText(grid, lane: lane, collapsed: band.collapsed)
        var x = buf.write(DisplayText.truncate(text, to: h.width), x: h.minX, y: h.minY, style: style, maxX: h.maxX)
        x = buf.write(" ", x: x, y: h.minY, style: style, maxX: h.maxX)
        buf.write(repeating: "┄", count: max(0, h.maxX - x), x: x, y: h.minY, style: Style(dim: true), maxX: h.maxX)
    }

    static func headerText(_ grid: LaneGrid, lane: Int, collapsed: Bool) -> String {
        let n = grid.count(lane: lane)
        return (collapsed ? "▸ " : "▾ ") + DisplayText.safe(grid.name(lane: lane)) + "  \(n) card" + (n == 1 ? "" : "s")
            + (collapsed ? " (collapsed)" : "")
    }

    /// During a drag the target lane's header is drawn in the target's (or refusal's) style.
    static func drawLaneHighlight(_ grid: LaneGrid, scene: BoardScene, into buf: inout CellBuffer) {
        let d = scene.decorations
        let (section, style) =
            d.targetSection.map { ($0, scene.theme.target) }
            ?? d.refusedSection.map { ($0, scene.theme.refused) } ?? (-1, scene.theme.header)
        guard section >= 0, grid.columnCount > 0 else { return }
        let lane = section / grid.columnCount
        guard let k = grid.lanes.firstIndex(of: lane) else { return }
        drawLaneHeader(grid, band: grid.layout.bands[k], lane: lane, style: style, into: &buf)
    }

    /// When the lanes do not all fit: which rows are shown, on the rule under the column headers.
    static func drawScrollHint(_ grid: LaneGrid, scene: BoardScene, into buf: inout CellBuffer) {
        let l = grid.layout
        guard l.contentHeight > l.area.height, let last = scene.layout.columns.last else { return }
        let up = l.scroll > 0, down = l.scroll + l.area.height < l.contentHeight
        let text = (up ? "▲" : "") + (down ? "▼" : "") + " lanes scroll─"
        let x = last.frame.maxX - TextWidth.width(of: text)
        guard x > last.frame.minX else { return }
        buf.write(text, x: x, y: last.frame.minY + 1, style: scene.theme.rule, maxX: last.frame.maxX)
    }

    static func markOtherLane(frame: Rect, compact: Bool, theme: Theme, into buf: inout CellBuffer) {
        let x = compact ? frame.maxX - 1 : frame.maxX - 3
        guard x > frame.minX + 4 else { return }
        buf.write(otherLaneMark, x: x, y: frame.minY, style: theme.hint, maxX: frame.maxX)
    }
}
