import DragKit
import LanesCore

/// The workspace's top row: each board's name, card count (`…` while it opens, `!` when it could
/// not be opened), and `●` when another writer changed it since it was last shown. The board shown is drawn bold on the plain background, the others reversed.
struct TabBar {
    var tabs: [Workspace.Tab]
    var counts: [Int]
    var active: Int
    /// The tab a dragged card is held over (underlined).
    var hovered: Int?

    /// Each tab's label.
    func label(_ i: Int) -> String {
        let count = tabs[i].loading ? "…" : tabs[i].failed != nil ? "!" : "\(counts[i])"
        return " " + DisplayText.safe(tabs[i].name) + " (\(count))" + (tabs[i].changedElsewhere ? " ●" : "") + " "
    }

    /// Where each tab is on the row: labels share the width, each cut to its share when they do not fit.
    func spans(width: Int) -> [(x: Int, width: Int)] {
        guard !tabs.isEmpty, width > 0 else { return [] }
        let natural = tabs.indices.map { TextWidth.width(of: label($0)) }
        let gaps = tabs.count - 1
        let room = max(tabs.count, width - gaps)
        var widths = natural
        if natural.reduce(0, +) > room {
            // The widest shrink first, so short names stay whole: the largest cap that fits.
            var cap = 1
            while natural.map({ min($0, cap + 1) }).reduce(0, +) <= room { cap += 1 }
            widths = natural.map { min($0, cap) }
        }
        var x = 0
        return widths.map { w in defer { x += w + 1 }; return (x, w) }
    }

    /// The tab at column `x` of the bar.
    func tab(at x: Int, width: Int) -> Int? {
        spans(width: width).firstIndex { x >= $0.x && x < $0.x + $0.width }
    }

    func draw(into buf: inout CellBuffer, width: Int) {
        guard buf.height > 0 else { return }
        buf.fill(x: 0, y: 0, width: width, height: 1, style: Style(reverse: true))
        for (i, span) in spans(width: width).enumerated() where span.x < width {
            let text = DisplayText.truncate(label(i), to: span.width)
            let style = i == active ? Style(bold: true) : Style(reverse: true, underline: i == hovered)
            buf.fill(x: span.x, y: 0, width: min(span.width, width - span.x), height: 1, style: style)
            buf.write(text, x: span.x, y: 0, style: style, maxX: width)
            if span.x + span.width < width { buf.write("│", x: span.x + span.width, y: 0, style: Style(reverse: true)) }
        }
    }
}
