/// Flow metrics written out: text for the terminal, JSON, CSV and SVG.
public enum FlowOutput {
    public enum Format: String, CaseIterable, Sendable {
        case text, json, csv, svg
    }

    /// A history and its metrics, with the board's name for headings.
    public struct Input: Sendable {
        public var board: String
        public var history: FlowHistory
        public var report: FlowReport

        public init(board: String, history: FlowHistory, report: FlowReport) {
            self.board = board
            self.history = history
            self.report = report
        }
    }

    static func days(_ seconds: Int64) -> String { "\(Double(seconds) / 86_400)" }

    /// Days rounded to one decimal, for people.
    static func shortDays(_ seconds: Int64) -> String {
        let v = (Double(seconds) / 8_640).rounded() / 10
        return v == v.rounded() ? String(Int(v)) : String(v)
    }

    // MARK: JSON

    typealias J = JSONWriter.Value

    static func time(_ t: FlowTime?) -> J { t.map { .string(FlowDate.iso($0)) } ?? .null }

    /// Column titles as object keys: a repeated title gets ` (2)`, ` (3)`….
    static func uniqueKeys(_ titles: [String]) -> [String] {
        var seen: [String: Int] = [:]
        return titles.map { t in
            seen[t, default: 0] += 1
            return seen[t]! == 1 ? t : "\(t) (\(seen[t]!))"
        }
    }

    public static func json(_ input: Input) -> String {
        let r = input.report, h = input.history
        let stageNames: [FlowStage: String] = [.notStarted: "not_started", .inProgress: "in_progress", .done: "done"]
        var columns: [(String, J)] = []
        for stage in [FlowStage.notStarted, .inProgress, .done] {
            columns.append(
                (stageNames[stage]!, .array(r.columns.filter { $0.stage == stage }.map { .string($0.title) })))
        }
        let cycle: J = .object([
            ("count", .int(r.percentiles.count)),
            ("p50", r.percentiles.p50.map { .number(days($0)) } ?? .null),
            ("p85", r.percentiles.p85.map { .number(days($0)) } ?? .null),
            ("p95", r.percentiles.p95.map { .number(days($0)) } ?? .null),
            (
                "cards",
                .array(
                    r.cycle.map { c in
                        .object([
                            ("title", .string(c.title)), ("started", time(c.started)), ("finished", time(c.finished)),
                            ("days", .number(days(c.seconds))), ("seconds", .int(Int(c.seconds))),
                            ("finished_by", c.by.map { .string($0) } ?? .null),
                        ])
                    })
            ),
        ])
        func group(_ p: FlowReport.Percentiles) -> [(String, J)] {
            [
                ("count", .int(p.count)), ("p50", p.p50.map { .number(days($0)) } ?? .null),
                ("p85", p.p85.map { .number(days($0)) } ?? .null), ("p95", p.p95.map { .number(days($0)) } ?? .null),
            ]
        }
        let by = r.finishedBy
        let finishedBy: J = .object([
            ("agents_named", .bool(by.agentsNamed)), ("agents", .object(group(by.agents))),
            ("people", .object(group(by.people))), ("unattributed", .int(by.unattributed)),
            (
                "authors",
                .array(
                    by.authors.map { a in
                        .object([("author", .string(a.author)), ("agent", .bool(a.agent))] + group(a.cycle))
                    })
            ),
        ])
        let throughput: J = .object([
            (
                "daily",
                .array(r.daily.map { .object([("date", .string(FlowDate.date($0.day))), ("done", .int($0.done))]) })
            ),
            ("weekly", .array(r.weekly.map { .object([("week", .string($0.week)), ("done", .int($0.done))]) })),
        ])
        let cfd: J = .array(
            r.cfd.map { d in
                let keys = uniqueKeys(d.counts.map(\.title))
                return .object([
                    ("date", .string(FlowDate.date(d.day))),
                    ("counts", .object(zip(keys, d.counts).map { ($0, .int($1.cards)) })),
                ])
            })
        let aging: J = .array(
            r.aging.map { a in
                .object([
                    ("title", .string(a.title)), ("column", .string(a.column)), ("age_days", .number(days(a.seconds))),
                    ("started", time(a.started)), ("over", a.over.map { .string("p\($0)") } ?? .null),
                ])
            })
        let f = r.forecast
        var forecast: [(String, J)] = [
            ("trials", .int(f.trials)), ("seed", .string(String(f.seed))),
            (
                "sample_days",
                .array(
                    f.samples.enumerated().map {
                        .object([("date", .string(FlowDate.date(f.firstSampleDay + $0))), ("done", .int($1))])
                    })
            ),
            ("available", .bool(f.unavailable == nil)),
        ]
        if let why = f.unavailable { forecast.append(("reason", .string(why))) }
        if let hm = f.howMany {
            forecast.append(
                (
                    "how_many",
                    .object(
                        [("by", .string(FlowDate.date(f.byDay))), ("days", .int(f.byDay - f.today))]
                            + Forecast.confidences.map { ("at_\($0)", .int(hm[$0]!)) })
                ))
        }
        if let when = f.when {
            forecast.append(
                (
                    "when",
                    .object(
                        [("cards", .int(f.cards))]
                            + Forecast.confidences.map { c in
                                ("at_\(c)", when[c]!.map { .string(FlowDate.date($0)) } ?? .null)
                            })
                ))
        }
        let history: J = .object([
            ("source", .string(h.source)), ("versions", .int(h.versions)), ("first", time(r.first)),
            ("last", time(r.last)),
            (
                "skipped",
                .array(
                    h.skipped.map {
                        .object([
                            ("version", .string($0.name)), ("time", time($0.time)), ("reason", .string($0.reason)),
                        ])
                    })
            ),
            ("notes", .array(h.notes.map { .string($0) })),
        ])
        let top: J = .object([
            ("board", .string(input.board)), ("now", time(r.options.now)), ("since", time(r.options.since)),
            ("columns", .object(columns)), ("history", history), ("cycle_time_days", cycle),
            ("finished_by", finishedBy), ("throughput", throughput),
            ("cfd", cfd), ("aging", aging), ("forecast", .object(forecast)),
        ])
        return JSONWriter.write(top)
    }

    // MARK: CSV

    static func csvField(_ s: String) -> String {
        // A leading = + - @ would be a formula to a spreadsheet: quoted and prefixed with '.
        var v = s
        if let f = v.first, "=+-@".contains(f), Double(v) == nil { v = "'" + v }
        guard v.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) || v != s else { return v }
        var quoted = "\""
        for ch in v { quoted += ch == "\"" ? "\"\"" : String(ch) }
        return quoted + "\""
    }

    /// One table per chart (default: the cycle times), RFC 4180 with a header row.
    public static func csv(_ input: Input, chart: FlowChartKind?) -> String {
        let r = input.report
        var rows: [[String]]
        switch chart ?? .cycle {
        case .cycle:
            rows = [["title", "started", "finished", "days"]]
            rows += r.cycle.map { [$0.title, FlowDate.iso($0.started), FlowDate.iso($0.finished), days($0.seconds)] }
        case .throughput:
            rows = [["date", "week", "done"]]
            rows += r.daily.map { [FlowDate.date($0.day), FlowDate.week($0.day), String($0.done)] }
        case .cfd:
            let titles = uniqueKeys(r.columns.map(\.title))
            rows = [["date"] + titles]
            for d in r.cfd {
                let keys = uniqueKeys(d.counts.map(\.title))
                var byTitle: [String: Int] = [:]
                for (k, c) in zip(keys, d.counts) { byTitle[k] = c.cards }
                rows.append([FlowDate.date(d.day)] + titles.map { String(byTitle[$0] ?? 0) })
            }
        case .aging:
            rows = [["title", "column", "started", "age_days", "over"]]
            rows += r.aging.map {
                [$0.title, $0.column, FlowDate.iso($0.started), days($0.seconds), $0.over.map { "p\($0)" } ?? ""]
            }
        }
        return rows.map { $0.map(csvField).joined(separator: ",") + "\r\n" }.joined()
    }

    // MARK: Text

    /// The report for a terminal: a summary, tables and the charts (one chart when `chart` is given);
    /// `byAuthor`: each author's finished cards under the agents / people line.
    public static func text(
        _ input: Input, chart: FlowChartKind?, width: Int = 80, colour: Bool = false, byAuthor: Bool = false
    ) -> String {
        let r = input.report, h = input.history
        var out: [String] = []
        func chartLines(_ kind: FlowChartKind, height: Int) {
            let cells = FlowCharts.draw(kind, r, width: width, height: height)
            out.append(colour ? "\u{1B}[1m\(kind.title)\u{1B}[0m" : kind.title)
            out += colour ? cells.coloured : cells.text
            out.append("")
        }
        func safe(_ lines: [String]) -> [String] { lines.map { TerminalSafe.escape($0) } }
        let span =
            r.first.map { "\(FlowDate.date(FlowDate.day(of: $0))) – \(FlowDate.date(FlowDate.day(of: r.last!)))" }
            ?? "no event"
        out.append("Flow of \(input.board) · \(h.source) · \(h.versions) version\(h.versions == 1 ? "" : "s"), \(span)")
        out.append(
            "now \(FlowDate.iso(r.options.now))" + (r.options.since.map { " · since \(FlowDate.iso($0))" } ?? ""))
        var meaning: [String] = []
        for stage in [FlowStage.notStarted, .inProgress, .done] {
            let names = r.columns.filter { $0.stage == stage }.map(\.title)
            if !names.isEmpty { meaning.append("\(stage.name): \(names.joined(separator: ", "))") }
        }
        if meaning.isEmpty {
            // Nothing up to now: no columns to give a meaning to, and it says why and what gives some.
            let starts =
                h.events.first.map { " (the history starts \(FlowDate.iso($0.time)); a later --now reads it)" } ?? ""
            out.append("columns · none yet: the board has no history up to now" + starts)
        } else {
            out.append("columns · " + meaning.joined(separator: " · ") + "  (lanes flow changes this)")
        }
        out.append("")
        out = safe(out)
        if let chart {
            chartLines(chart, height: 16)
            out += safe(notes(h))
            return out.joined(separator: "\n") + "\n"
        }
        let p = r.percentiles
        if p.count == 0 {
            out.append("Cycle time: no card finished yet.")
        } else {
            out.append(
                "Cycle time of \(p.count) finished card\(p.count == 1 ? "" : "s") (days): p50 \(shortDays(p.p50!)) · p85 \(shortDays(p.p85!)) · p95 \(shortDays(p.p95!))"
            )
        }
        out += finishedByLines(r.finishedBy, serverMarks: h.agents != nil, byAuthor: byAuthor)
        let week = r.weekly.suffix(8).map { "\($0.week) \($0.done)" }.joined(separator: " · ")
        out.append("Throughput (cards done per ISO week): " + (week.isEmpty ? "none" : week))
        if let d = r.cfd.last {
            out.append(
                "Now: "
                    + (d.counts.isEmpty
                        ? "no columns yet" : d.counts.map { "\($0.title) \($0.cards)" }.joined(separator: " · ")))
        }
        out.append("")
        out = safe(out)
        chartLines(.cfd, height: 12)
        chartLines(.cycle, height: 10)
        chartLines(.throughput, height: 8)
        chartLines(.aging, height: min(12, r.aging.count + 2))
        out.append(
            "Forecast (\(r.forecast.trials) trials, seed \(r.forecast.seed), throughput of \(r.forecast.samples.count) day\(r.forecast.samples.count == 1 ? "" : "s")"
                + (r.forecast.samples.isEmpty ? ")" : " from \(FlowDate.date(r.forecast.firstSampleDay)))"))
        out += forecastLines(r.forecast)
        out.append("")
        out += safe(notes(h))
        return out.joined(separator: "\n") + "\n"
    }

    /// "Finished by agents: 2 (p50 1.5 d) · people: 3 (p50 2 d)", and each author when asked; nothing
    /// when no card finished. Authors are written as they are (the caller makes the lines safe).
    static func finishedByLines(_ by: FlowReport.FinishedBy, serverMarks: Bool, byAuthor: Bool) -> [String] {
        guard by.agents.count + by.people.count + by.unattributed > 0 else { return [] }
        func group(_ p: FlowReport.Percentiles) -> String {
            "\(p.count)" + (p.p50.map { " (p50 \(shortDays($0)) d)" } ?? "")
        }
        var parts: [String] = []
        if by.agentsNamed {
            parts = ["agents: \(group(by.agents))", "people: \(group(by.people))"]
        } else {
            let how = serverMarks ? "the server has no role lanes_agents" : "--agent PATTERN names them"
            parts = ["people: \(group(by.people))", "agents: none named (\(how))"]
        }
        if by.unattributed > 0 { parts.append("no author: \(by.unattributed)") }
        var lines = ["Finished by " + parts.joined(separator: " · ")]
        if byAuthor {
            for a in by.authors {
                lines.append("  \(a.author)\(a.agent ? " (agent)" : ""): \(group(a.cycle))")
            }
        }
        return lines
    }

    public static func forecastLines(_ f: Forecast) -> [String] {
        if let why = f.unavailable { return ["  no forecast: \(why)"] }
        var lines: [String] = []
        if let hm = f.howMany {
            lines.append(
                "  by \(FlowDate.date(f.byDay)) (\(f.byDay - f.today) days): at least "
                    + Forecast.confidences.map { "\(hm[$0]!) cards (\($0) %)" }.joined(separator: ", "))
        }
        if let when = f.when {
            lines.append(
                "  \(f.cards) card\(f.cards == 1 ? "" : "s") done by "
                    + Forecast.confidences.map { c in "\(when[c]!.map(FlowDate.date) ?? "not within 10 years") (\(c) %)"
                    }.joined(separator: ", "))
        } else if f.cards == 0 {
            lines.append("  no card left to finish")
        }
        return lines
    }

    static func notes(_ h: FlowHistory) -> [String] {
        var out: [String] = []
        for n in h.notes { out.append("note: \(n)") }
        if !h.skipped.isEmpty {
            out.append(
                "skipped \(h.skipped.count) version\(h.skipped.count == 1 ? "" : "s") that do not read as a board:")
            for s in h.skipped { out.append("  \(s.name.prefix(12)) \(FlowDate.iso(s.time)): \(s.reason)") }
        }
        return out
    }

    // MARK: SVG

    static func xml(_ s: String) -> String {
        var out = ""
        for ch in s.unicodeScalars {
            switch ch {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default:
                // XML 1.0 allows no other control characters.
                if ch.value < 0x20 && ch != "\t" && ch != "\n" {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out
    }

    /// One chart as a standalone SVG document (default: cumulative flow).
    public static func svg(_ input: Input, chart: FlowChartKind?) -> String {
        let r = input.report
        let kind = chart ?? .cfd
        let W = 800.0, H = 450.0, L = 60.0, R = 170.0, T = 40.0, B = 50.0
        let pw = W - L - R, ph = H - T - B
        var s =
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(W))\" height=\"\(Int(H))\" viewBox=\"0 0 \(Int(W)) \(Int(H))\" font-family=\"sans-serif\" font-size=\"12\">\n"
        s += "<title>\(xml(kind.title + " · " + input.board))</title>\n"
        s += "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
        s += "<text x=\"\(L)\" y=\"24\" font-size=\"16\">\(xml(kind.title + " · " + input.board))</text>\n"
        func f(_ v: Double) -> String { String((v * 10).rounded() / 10) }
        func axes(_ yMax: Double, _ yLabel: String, _ xFrom: String, _ xTo: String) {
            s += "<line x1=\"\(L)\" y1=\"\(T)\" x2=\"\(L)\" y2=\"\(T + ph)\" stroke=\"black\"/>\n"
            s += "<line x1=\"\(L)\" y1=\"\(T + ph)\" x2=\"\(L + pw)\" y2=\"\(T + ph)\" stroke=\"black\"/>\n"
            s += "<text x=\"\(L - 6)\" y=\"\(T + 4)\" text-anchor=\"end\">\(xml(FlowCharts.number(yMax)))</text>\n"
            s += "<text x=\"\(L - 6)\" y=\"\(T + ph)\" text-anchor=\"end\">0</text>\n"
            s += "<text x=\"\(L)\" y=\"\(T + ph + 18)\">\(xml(xFrom))</text>\n"
            s += "<text x=\"\(L + pw)\" y=\"\(T + ph + 18)\" text-anchor=\"end\">\(xml(xTo))</text>\n"
            s += "<text x=\"\(L + pw / 2)\" y=\"\(T + ph + 38)\" text-anchor=\"middle\">\(xml(yLabel))</text>\n"
        }
        func colour(_ i: Int) -> String { FlowCharts.palette[i % FlowCharts.palette.count].rgb }
        switch kind {
        case .cfd:
            guard let lastDay = r.cfd.last else {
                s += "<text x=\"\(L)\" y=\"\(T + 20)\">No days of history.</text>\n"; break
            }
            let titles = lastDay.counts.map(\.title)
            let maxTotal = Double(max(1, r.cfd.map { $0.counts.reduce(0) { $0 + $1.cards } }.max()!))
            let n = r.cfd.count
            func x(_ i: Int) -> Double { L + (n == 1 ? pw / 2 : Double(i) / Double(n - 1) * pw) }
            func y(_ v: Int) -> Double { T + ph - Double(v) / maxTotal * ph }
            // Bands from the bottom: the rightmost column first.
            var below = [Int](repeating: 0, count: n)
            for (k, title) in titles.enumerated().reversed() {
                var above = below
                for (i, d) in r.cfd.enumerated() { above[i] += d.counts.first { $0.title == title }?.cards ?? 0 }
                var pts = (0..<n).map { "\(f(x($0))),\(f(y(above[$0])))" }
                pts += (0..<n).reversed().map { "\(f(x($0))),\(f(y(below[$0])))" }
                s +=
                    "<polygon fill=\"\(colour(k))\" fill-opacity=\"0.85\" points=\"\(pts.joined(separator: " "))\"><title>\(xml(title))</title></polygon>\n"
                below = above
            }
            for (k, title) in titles.enumerated() {
                s +=
                    "<rect x=\"\(L + pw + 12)\" y=\"\(T + Double(k) * 18)\" width=\"12\" height=\"12\" fill=\"\(colour(k))\"/>"
                s += "<text x=\"\(L + pw + 30)\" y=\"\(T + Double(k) * 18 + 10)\">\(xml(title))</text>\n"
            }
            axes(
                maxTotal, "cards in each column at the end of each UTC day", FlowDate.date(r.cfd.first!.day),
                FlowDate.date(lastDay.day))
        case .cycle:
            guard let first = r.cycle.first, let last = r.cycle.last else {
                s += "<text x=\"\(L)\" y=\"\(T + 20)\">No finished card yet.</text>\n"; break
            }
            let maxDays = max(r.cycle.map(\.days).max()!, 0.01)
            let t0 = Double(first.finished), t1 = Double(max(last.finished, first.finished + 1))
            for c in r.cycle {
                let cx = L + (Double(c.finished) - t0) / (t1 - t0) * pw, cy = T + ph - c.days / maxDays * ph
                s +=
                    "<circle cx=\"\(f(cx))\" cy=\"\(f(cy))\" r=\"3\" fill=\"\(colour(0))\"><title>\(xml(c.title)): \(xml(shortDays(c.seconds))) days</title></circle>\n"
            }
            for (p, k) in [(50, 2), (85, 1), (95, 3)] {
                guard let v = r.percentiles.value(p) else { continue }
                let yy = T + ph - Double(v) / 86_400 / maxDays * ph
                s +=
                    "<line x1=\"\(L)\" y1=\"\(f(yy))\" x2=\"\(L + pw)\" y2=\"\(f(yy))\" stroke=\"\(colour(k))\" stroke-dasharray=\"4 3\"/>"
                s +=
                    "<text x=\"\(L + pw + 6)\" y=\"\(f(yy + 4))\" fill=\"\(colour(k))\">p\(p) \(shortDays(v)) d</text>\n"
            }
            axes(
                maxDays, "cycle time (days) by finish date", FlowDate.date(FlowDate.day(of: first.finished)),
                FlowDate.date(FlowDate.day(of: last.finished)))
        case .throughput:
            guard !r.daily.isEmpty else { s += "<text x=\"\(L)\" y=\"\(T + 20)\">No days of history.</text>\n"; break }
            let weekly = r.daily.count > 120
            let values = weekly ? r.weekly.map(\.done) : r.daily.map(\.done)
            let labels = weekly ? r.weekly.map(\.week) : r.daily.map { FlowDate.date($0.day) }
            let maxV = Double(max(1, values.max()!))
            let bw = pw / Double(values.count)
            for (i, v) in values.enumerated() where v > 0 {
                let hgt = Double(v) / maxV * ph
                s +=
                    "<rect x=\"\(f(L + Double(i) * bw + bw * 0.1))\" y=\"\(f(T + ph - hgt))\" width=\"\(f(bw * 0.8))\" height=\"\(f(hgt))\" fill=\"\(colour(2))\"><title>\(xml(labels[i])): \(v)</title></rect>\n"
            }
            axes(maxV, weekly ? "cards done per ISO week" : "cards done per UTC day", labels.first!, labels.last!)
        case .aging:
            guard !r.aging.isEmpty else {
                s += "<text x=\"\(L)\" y=\"\(T + 20)\">No card in progress now.</text>\n"; break
            }
            let shown = Array(r.aging.prefix(20))
            let maxDays = max(shown.map(\.days).max()!, r.percentiles.p95.map { Double($0) / 86_400 } ?? 0, 0.01)
            let bh = ph / Double(shown.count)
            for (i, a) in shown.enumerated() {
                let wdt = a.days / maxDays * pw
                let k = a.over == 95 ? 3 : a.over == 85 ? 1 : a.over == 50 ? 8 : 2
                s +=
                    "<rect x=\"\(L)\" y=\"\(f(T + Double(i) * bh + bh * 0.1))\" width=\"\(f(wdt))\" height=\"\(f(bh * 0.8))\" fill=\"\(colour(k))\"><title>\(xml(a.title)) (\(xml(a.column))): \(xml(shortDays(a.seconds))) days</title></rect>"
                s +=
                    "<text x=\"\(f(L + wdt + 4))\" y=\"\(f(T + Double(i) * bh + bh * 0.5 + 4))\">\(xml(a.title))</text>\n"
            }
            for (p, k) in [(50, 2), (85, 1), (95, 3)] {
                guard let v = r.percentiles.value(p) else { continue }
                let xx = L + Double(v) / 86_400 / maxDays * pw
                s +=
                    "<line x1=\"\(f(xx))\" y1=\"\(T)\" x2=\"\(f(xx))\" y2=\"\(T + ph)\" stroke=\"\(colour(k))\" stroke-dasharray=\"4 3\"/>"
                s += "<text x=\"\(f(xx))\" y=\"\(T - 4)\" fill=\"\(colour(k))\" text-anchor=\"middle\">p\(p)</text>\n"
            }
            s +=
                "<text x=\"\(L + pw / 2)\" y=\"\(T + ph + 38)\" text-anchor=\"middle\">age in days of each card in progress, against cycle-time percentiles</text>\n"
        }
        s += "</svg>\n"
        return s
    }
}
