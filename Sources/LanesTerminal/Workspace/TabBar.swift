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

    /// Where each tab is on the row, and the markers of tabs scrolled out of it.
    ///
    /// Labels keep their width (each at most half the row) and the row scrolls: it shows the
    /// active tab whole, with as many of the tabs before it as fit (the active one at the right
    /// edge when it had to scroll), then those after; `‹N` and `N›` say how many are hidden on
    /// each side. A tab scrolled out has width 0.
    struct Row {
        var spans: [(x: Int, width: Int)]
        /// The `‹N` marker (x, width) and the hidden tab just before the shown ones.
        var before: (x: Int, width: Int, tab: Int)?
        /// The `N›` marker and the hidden tab just after the shown ones.
        var after: (x: Int, width: Int, tab: Int)?
    }

    func row(width: Int) -> Row {
        guard !tabs.isEmpty, width > 0 else { return Row(spans: []) }
        let cap = max(8, width / 2)
        let widths = tabs.indices.map { min(TextWidth.width(of: label($0)), cap) }
        func fits(_ lo: Int, _ hi: Int) -> Bool {
            let markers = (lo > 0 ? "‹\(lo) ".count : 0) + (hi < tabs.count - 1 ? " \(tabs.count - 1 - hi)›".count : 0)
            return widths[lo...hi].reduce(0, +) + (hi - lo) + markers <= width
        }
        let shown = min(max(0, active), tabs.count - 1)
        var lo = 0
        while lo < shown, !fits(lo, shown) { lo += 1 }
        var hi = shown
        while hi + 1 < tabs.count, fits(lo, hi + 1) { hi += 1 }
        var row = Row(spans: Array(repeating: (x: -1, width: 0), count: tabs.count))
        var x = 0
        if lo > 0 {
            let w = "‹\(lo)".count
            row.before = (0, w, lo - 1)
            x = w + 1
        }
        for i in lo...hi {
            row.spans[i] = (x, min(widths[i], max(1, width - x)))
            x += widths[i] + 1
        }
        if hi < tabs.count - 1 {
            let w = "\(tabs.count - 1 - hi)›".count
            row.after = (max(0, width - w), w, hi + 1)
        }
        return row
    }

    func spans(width: Int) -> [(x: Int, width: Int)] { row(width: width).spans }

    /// The tab at column `x` of the bar (a marker means the hidden tab next to the shown ones).
    func tab(at x: Int, width: Int) -> Int? {
        let r = row(width: width)
        if let b = r.before, x >= b.x, x < b.x + b.width { return b.tab }
        if let a = r.after, x >= a.x, x < a.x + a.width { return a.tab }
        return r.spans.firstIndex { $0.width > 0 && x >= $0.x && x < $0.x + $0.width }
    }

    func draw(into buf: inout CellBuffer, width: Int) {
        guard buf.height > 0 else { return }
        buf.fill(x: 0, y: 0, width: width, height: 1, style: Style(reverse: true))
        let r = row(width: width)
        for (i, span) in r.spans.enumerated() where span.width > 0 && span.x < width {
            let text = DisplayText.truncate(label(i), to: span.width)
            let style = i == active ? Style(bold: true) : Style(reverse: true, underline: i == hovered)
            buf.fill(x: span.x, y: 0, width: min(span.width, width - span.x), height: 1, style: style)
            buf.write(text, x: span.x, y: 0, style: style, maxX: width)
            if span.x + span.width < width { buf.write("│", x: span.x + span.width, y: 0, style: Style(reverse: true)) }
        }
        if let b = r.before {
            buf.write(
                "‹\(b.tab + 1)", x: b.x, y: 0, style: Style(bold: true, reverse: true, underline: b.tab == hovered),
                maxX: width)
        }
        if let a = r.after {
            buf.write(
                "\(tabs.count - a.tab)›", x: a.x, y: 0,
                style: Style(bold: true, reverse: true, underline: a.tab == hovered), maxX: width)
        }
    }
}
