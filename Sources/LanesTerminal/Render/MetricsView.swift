import DragKit
import LanesCore

/// Flow metrics full screen: a summary line, one of the four charts (the same `FlowCharts` as
/// `lanes metrics`, so the numbers agree), the forecast, and the keys; readable at 80×24.
public enum MetricsView {
    public enum Content: Sendable {
        case loading
        case problem(String)
        case report(FlowHistory, FlowReport)
    }

    /// Days with one decimal.
    static func days(_ seconds: Int64) -> String {
        let v = (Double(seconds) / 8_640).rounded() / 10
        return v == v.rounded() ? String(Int(v)) : String(v)
    }

    /// The tabs of the top line, with the first cell of each.
    static func tabs() -> [(chart: FlowChartKind, x: Int, label: String)] {
        var x = 1
        var out: [(FlowChartKind, Int, String)] = []
        for (i, c) in FlowChartKind.allCases.enumerated() {
            let label = " \(i + 1) \(c.title) "
            out.append((c, x, label))
            x += TextWidth.width(of: label) + 1
        }
        return out
    }

    /// The chart whose tab is at a column of the top line.
    public static func chart(atColumn x: Int) -> FlowChartKind? {
        tabs().first { x >= $0.x && x < $0.x + TextWidth.width(of: $0.label) }?.chart
    }

    static let seriesColours: [Style.Color] = [.blue, .yellow, .green, .red, .magenta, .cyan, .white]

    public static func draw(_ content: Content, chart: FlowChartKind, keymap: Keymap, into buf: inout CellBuffer) {
        let w = buf.width, h = buf.height
        guard w > 0, h > 0 else { return }
        buf.fill(x: 0, y: 0, width: w, height: h)
        for tab in tabs() {
            let chosen = tab.chart == chart
            buf.write(tab.label, x: tab.x, y: 0, style: Style(bold: chosen, reverse: chosen), maxX: w)
        }
        let close = (keymap.keys(for: .metrics).first.map { "\($0)/" } ?? "") + "esc close · tab next"
        buf.write(close, x: max(0, w - TextWidth.width(of: close) - 1), y: h - 1, style: Style(dim: true), maxX: w)
        switch content {
        case .loading:
            buf.write("Reading the board's history…", x: 1, y: 2, maxX: w)
        case .problem(let why):
            var y = 2
            for line in DisplayText.wrap(DisplayText.safe(why), width: max(10, w - 2)) where y < h - 1 {
                buf.write(line, x: 1, y: y, maxX: w)
                y += 1
            }
        case .report(let history, let r):
            let p = r.percentiles
            var summary =
                p.count == 0
                ? "no card finished yet"
                : "cycle time p50 \(days(p.p50!)) · p85 \(days(p.p85!)) · p95 \(days(p.p95!)) days (\(p.count) cards)"
            if r.finishedBy.agentsNamed && p.count > 0 {
                summary += " · agents finished \(r.finishedBy.agents.count), people \(r.finishedBy.people.count)"
            }
            summary += " · in progress \(r.aging.count)"
            if let week = r.weekly.last { summary += " · this week \(week.done) done" }
            buf.write(DisplayText.safe(summary), x: 1, y: 1, style: Style(bold: true), maxX: w - 1)
            let forecast = FlowOutput.forecastLines(r.forecast).map { String($0.drop { $0 == " " }) }
            let footer = forecast.count + 1 + (history.skipped.isEmpty ? 0 : 1)
            let chartH = max(6, h - 3 - footer)
            let cells = FlowCharts.draw(chart, r, width: max(30, w - 2), height: chartH)
            for (row, line) in cells.lines.enumerated() where 2 + row < h - footer {
                var x = 1
                for cell in line where x < w {
                    let style =
                        cell.style == 0 ? Style() : Style(fg: seriesColours[(cell.style - 1) % seriesColours.count])
                    buf.write(String(cell.character), x: x, y: 2 + row, style: style, maxX: w)
                    x += 1
                }
            }
            var y = h - footer
            for line in forecast where y < h - 1 {
                buf.write("Forecast: " + line, x: 1, y: y, maxX: w - 1)
                y += 1
            }
            if !history.skipped.isEmpty && y < h - 1 {
                buf.write(
                    "skipped \(history.skipped.count) version(s) that do not read as a board (lanes metrics names them)",
                    x: 1, y: y, style: Style(dim: true), maxX: w - 1)
            }
        }
    }
}
