/// The charts of flow metrics.
public enum FlowChartKind: String, CaseIterable, Sendable {
    case cfd, cycle, throughput, aging

    public var title: String {
        switch self {
        case .cfd: "Cumulative flow"
        case .cycle: "Cycle time"
        case .throughput: "Throughput"
        case .aging: "Aging work in progress"
        }
    }
}

/// A chart drawn in character cells (block and braille characters); each cell has a style:
/// 0 text and axes, 1… a series (a column of the board, a percentile line), for colour.
public struct ChartCells: Sendable {
    public struct Cell: Hashable, Sendable {
        public var character: Character
        public var style: Int
    }

    public var width: Int
    public var lines: [[Cell]]

    init(width: Int, height: Int) {
        self.width = width
        lines = Array(repeating: Array(repeating: Cell(character: " ", style: 0), count: width), count: height)
    }

    mutating func put(_ text: String, row: Int, column: Int, style: Int = 0) {
        guard lines.indices.contains(row) else { return }
        var x = column
        for ch in TerminalSafe.escape(text) {
            guard x < width else { break }
            if x >= 0 { lines[row][x] = Cell(character: ch, style: style) }
            x += 1
        }
    }

    mutating func set(_ ch: Character, row: Int, column: Int, style: Int) {
        guard lines.indices.contains(row), column >= 0, column < width else { return }
        lines[row][column] = Cell(character: ch, style: style)
    }

    /// Plain text, one string a line, trailing blanks removed.
    public var text: [String] {
        lines.map { line in
            var s = String(line.map(\.character))
            while s.last == " " { s.removeLast() }
            return s
        }
    }

    /// Text with ANSI colours for the styles (`FlowCharts.ansi`).
    public var coloured: [String] {
        lines.map { line in
            var out = "", current = 0
            var trimmed = line[...]
            while let last = trimmed.last, last.character == " " { trimmed = trimmed.dropLast() }
            for cell in trimmed {
                if cell.style != current {
                    out += cell.style == 0 ? "\u{1B}[0m" : FlowCharts.ansi(cell.style)
                    current = cell.style
                }
                out.append(cell.character)
            }
            if current != 0 { out += "\u{1B}[0m" }
            return out
        }
    }
}

/// Draws `FlowReport`'s charts in character cells, for the terminal and the app alike.
public enum FlowCharts {
    /// Shading by series, so a chart reads without colour too.
    static let shades: [Character] = ["█", "▓", "▒", "░"]
    static let eighths: [Character] = [" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
    /// Series colours (ANSI 256-colour indexes), also used by the SVG.
    public static let palette: [(ansi: Int, rgb: String)] = [
        (33, "#1f77b4"), (208, "#ff7f0e"), (34, "#2ca02c"), (160, "#d62728"), (97, "#9467bd"),
        (130, "#8c564b"), (170, "#e377c2"), (244, "#7f7f7f"), (142, "#bcbd22"), (37, "#17becf"),
    ]

    static func ansi(_ style: Int) -> String { "\u{1B}[38;5;\(palette[(style - 1) % palette.count].ansi)m" }

    public static func draw(_ kind: FlowChartKind, _ report: FlowReport, width: Int, height: Int) -> ChartCells {
        let w = max(width, 30), h = max(height, 6)
        switch kind {
        case .cfd: return cfd(report, width: w, height: h)
        case .cycle: return cycle(report, width: w, height: h)
        case .throughput: return throughput(report, width: w, height: h)
        case .aging: return aging(report, width: w, height: h)
        }
    }

    static func number(_ v: Double) -> String {
        if v == v.rounded() && abs(v) < 1e9 { return String(Int(v)) }
        let r = (v * 10).rounded() / 10
        return r == r.rounded() ? String(Int(r)) : String(r)
    }

    /// `day` as `11-25`.
    static func short(_ day: Int) -> String { String(FlowDate.date(day).dropFirst(5)) }

    /// Which of `count` items each of `slots` positions shows (the last item of its share).
    static func buckets(_ count: Int, _ slots: Int) -> [Int] {
        guard count > slots else { return Array(0..<count) }
        return (0..<slots).map { min(count - 1, ((($0 + 1) * count) + slots - 1) / slots - 1) }
    }

    // MARK: Cumulative flow

    static func cfd(_ r: FlowReport, width: Int, height: Int) -> ChartCells {
        var c = ChartCells(width: width, height: height)
        guard !r.cfd.isEmpty else {
            c.put("No days of history to show.", row: 0, column: 0)
            return c
        }
        let titles = r.cfd.last!.counts.map(\.title)
        let legendRows = 1
        let plotH = height - 2 - legendRows
        let maxTotal = max(1, r.cfd.map { $0.counts.reduce(0) { $0 + $1.cards } }.max()!)
        let label = String(maxTotal)
        let left = label.count + 1
        let plotW = width - left
        let picks = buckets(r.cfd.count, plotW)
        c.put(label, row: 0, column: 0)
        c.put("0", row: plotH - 1, column: left - 2)
        for y in 0..<plotH { c.set("│", row: y, column: left - 1, style: 0) }
        for (x, i) in picks.enumerated() {
            let day = r.cfd[i]
            // Bottom up: the rightmost column (done) first.
            var stack: [(series: Int, upTo: Int)] = []
            var total = 0
            for (k, col) in day.counts.enumerated().reversed() {
                total += col.cards
                let series = titles.firstIndex(of: col.title).map { $0 + 1 } ?? k + 1
                stack.append((series, total))
            }
            for y in 0..<plotH {
                // The value at the middle of the cell, counted from the bottom.
                let mid = (Double(plotH - 1 - y) + 0.5) / Double(plotH) * Double(maxTotal)
                if let s = stack.first(where: { Double($0.upTo) > mid }) {
                    c.set(shades[(s.series - 1) % shades.count], row: y, column: left + x, style: s.series)
                }
            }
        }
        c.put(String(repeating: "─", count: plotW), row: plotH, column: left)
        c.put(short(r.cfd[picks.first!].day), row: plotH + 1, column: left)
        let end = short(r.cfd[picks.last!].day)
        c.put(end, row: plotH + 1, column: max(left + 6, left + picks.count - end.count))
        var x = 0
        for (k, t) in titles.enumerated() {
            let shade = shades[k % shades.count]
            c.set(shade, row: plotH + 1 + legendRows, column: x, style: k + 1)
            let name = " " + t + " " + String(r.cfd.last!.counts[k].cards) + "  "
            c.put(name, row: plotH + 1 + legendRows, column: x + 1)
            x += name.count + 1
        }
        return c
    }

    // MARK: Braille

    /// A dot canvas, 2 × 4 dots a cell.
    struct Braille {
        var cols: Int, rows: Int
        var bits: [[UInt8]]
        var style: [[Int]]

        init(cols: Int, rows: Int) {
            self.cols = cols
            self.rows = rows
            bits = Array(repeating: Array(repeating: 0, count: cols), count: rows)
            style = Array(repeating: Array(repeating: 0, count: cols), count: rows)
        }

        mutating func dot(x: Int, y: Int, style s: Int) {
            guard x >= 0, y >= 0, x < cols * 2, y < rows * 4 else { return }
            let map: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]
            bits[y / 4][x / 2] |= map[y % 4][x % 2]
            if style[y / 4][x / 2] == 0 || s > style[y / 4][x / 2] { style[y / 4][x / 2] = s }
        }

        func draw(into c: inout ChartCells, top: Int, left: Int) {
            for r in 0..<rows {
                for k in 0..<cols where bits[r][k] != 0 {
                    c.set(
                        Character(Unicode.Scalar(0x2800 + UInt32(bits[r][k]))!), row: top + r, column: left + k,
                        style: style[r][k])
                }
            }
        }
    }

    // MARK: Cycle time

    static func cycle(_ r: FlowReport, width: Int, height: Int) -> ChartCells {
        var c = ChartCells(width: width, height: height)
        guard let firstCard = r.cycle.first, let lastCard = r.cycle.last else {
            c.put("No finished card yet: cycle times appear when cards reach done.", row: 0, column: 0)
            return c
        }
        let maxDays = max(r.cycle.map(\.days).max()!, 0.01)
        let top = number(maxDays)
        let right = 9
        let left = top.count + 1
        let plotW = width - left - right, plotH = height - 2
        var b = Braille(cols: plotW, rows: plotH)
        let t0 = Double(firstCard.finished), t1 = Double(max(lastCard.finished, firstCard.finished + 1))
        for p in [50, 85, 95] {
            guard let v = r.percentiles.value(p) else { continue }
            let y = plotH * 4 - 1 - Int((Double(v) / 86_400 / maxDays * Double(plotH * 4 - 1)).rounded())
            for x in stride(from: 0, to: plotW * 2, by: 3) { b.dot(x: x, y: y, style: p == 50 ? 3 : p == 85 ? 2 : 4) }
            c.put(
                "p\(p) " + number(Double(v) / 86_400), row: y / 4, column: left + plotW + 1,
                style: p == 50 ? 3 : p == 85 ? 2 : 4)
        }
        for card in r.cycle {
            let x = Int(((Double(card.finished) - t0) / (t1 - t0) * Double(plotW * 2 - 1)).rounded())
            let y = plotH * 4 - 1 - Int((card.days / maxDays * Double(plotH * 4 - 1)).rounded())
            b.dot(x: x, y: y, style: 1)
        }
        b.draw(into: &c, top: 0, left: left)
        c.put(top, row: 0, column: 0)
        c.put("0", row: plotH - 1, column: left - 2)
        for y in 0..<plotH { c.set("│", row: y, column: left - 1, style: 0) }
        c.put(String(repeating: "─", count: plotW), row: plotH, column: left)
        c.put(short(FlowDate.day(of: firstCard.finished)), row: plotH + 1, column: left)
        let end = short(FlowDate.day(of: lastCard.finished))
        c.put(end, row: plotH + 1, column: left + plotW - end.count)
        c.put(" days, by finish date", row: plotH + 1, column: left + 6)
        return c
    }

    // MARK: Throughput

    static func throughput(_ r: FlowReport, width: Int, height: Int) -> ChartCells {
        var c = ChartCells(width: width, height: height)
        guard !r.daily.isEmpty else {
            c.put("No days of history to show.", row: 0, column: 0)
            return c
        }
        let weekly = r.daily.count > width - 6
        let values = weekly ? r.weekly.map(\.done) : r.daily.map(\.done)
        let labels = weekly ? r.weekly.map(\.week) : r.daily.map { short($0.day) }
        let maxV = max(1, values.max()!)
        let label = String(maxV)
        let left = label.count + 1
        let plotH = height - 2
        let plotW = width - left
        let shown = Array(values.suffix(plotW)), shownLabels = Array(labels.suffix(plotW))
        for (x, v) in shown.enumerated() {
            let eighthsTall = Int((Double(v) / Double(maxV) * Double(plotH * 8)).rounded())
            for y in 0..<plotH {
                let fromBottom = plotH - 1 - y
                let fill = min(8, max(0, eighthsTall - fromBottom * 8))
                if fill > 0 { c.set(eighths[fill], row: y, column: left + x, style: 3) }
            }
        }
        c.put(label, row: 0, column: 0)
        c.put("0", row: plotH - 1, column: left - 2)
        for y in 0..<plotH { c.set("│", row: y, column: left - 1, style: 0) }
        c.put(String(repeating: "─", count: shown.count), row: plotH, column: left)
        c.put(shownLabels.first!, row: plotH + 1, column: left)
        let caption = weekly ? " cards done per ISO week" : " cards done per UTC day"
        c.put(caption, row: plotH + 1, column: left + shownLabels.first!.count)
        if shown.count > shownLabels.first!.count + caption.count + shownLabels.last!.count + 1 {
            c.put(shownLabels.last!, row: plotH + 1, column: left + shown.count - shownLabels.last!.count)
        }
        return c
    }

    // MARK: Aging

    static func aging(_ r: FlowReport, width: Int, height: Int) -> ChartCells {
        var c = ChartCells(width: width, height: height)
        guard !r.aging.isEmpty else {
            c.put("No card in progress now.", row: 0, column: 0)
            return c
        }
        let rows = height - 2
        let shown = r.aging.prefix(rows)
        let maxDays = max(shown.map(\.days).max()!, r.percentiles.p95.map { Double($0) / 86_400 } ?? 0, 0.01)
        let ageW = shown.map { number($0.days).count }.max()! + 2
        let nameW = min(28, max(10, width / 3))
        let barX = nameW + ageW + 1
        let barW = width - barX
        var header = "age (days) of each card in progress, oldest first"
        if r.percentiles.p50 != nil { header += " · ┊ p50 p85 p95 of cycle time" }
        c.put(header, row: 0, column: 0)
        for (i, card) in shown.enumerated() {
            let row = i + 1
            let name = TerminalSafe.escape(card.title)
            let clipped = name.count > nameW - 1 ? String(name.prefix(nameW - 2)) + "…" : name
            c.put(clipped, row: row, column: 0)
            let age = number(card.days) + "d"
            c.put(age, row: row, column: nameW + ageW - age.count)
            let style = card.over == 95 ? 4 : card.over == 85 ? 2 : card.over == 50 ? 9 : 3
            let len = Int((card.days / maxDays * Double(barW * 8)).rounded())
            for k in 0..<barW {
                let fill = min(8, max(0, len - k * 8))
                if fill > 0 {
                    c.set(
                        k * 8 + 8 <= len ? "█" : ["▏", "▎", "▍", "▌", "▋", "▊", "▉", "█"][fill - 1], row: row,
                        column: barX + k, style: style)
                }
            }
            for p in [50, 85, 95] {
                guard let v = r.percentiles.value(p) else { continue }
                let x = barX + min(barW - 1, Int((Double(v) / 86_400 / maxDays * Double(barW)).rounded()))
                if c.lines[row][x].character == " " {
                    c.set("┊", row: row, column: x, style: p == 50 ? 3 : p == 85 ? 2 : 4)
                }
            }
        }
        if r.aging.count > shown.count { c.put("… \(r.aging.count - shown.count) more", row: rows + 1, column: 0) }
        return c
    }
}
