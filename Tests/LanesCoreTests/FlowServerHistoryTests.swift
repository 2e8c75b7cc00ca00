import Testing
@testable import LanesCore

/// A database board's change record (the rows PostgreSQL's `lanes.history` keeps) as flow events.
@Suite("Flow: a server's change record as flow events")
struct FlowServerHistoryTests {
    typealias Row = ServerHistory.Row
    let t0: FlowTime = 1_790_000_000

    @Test("added, moved, edited, reordered, deleted; a column renamed; metrics from the rows")
    func rows() {
        let h: FlowTime = 3_600
        let rows: [Row] = [
            Row(at: t0, entity: "column", kind: "added", column: 10, columnTitle: "To do", key: "a"),
            Row(at: t0, entity: "column", kind: "added", column: 11, columnTitle: "Doing", key: "b"),
            Row(at: t0, entity: "column", kind: "added", column: 12, columnTitle: "Done", key: "c"),
            Row(at: t0, entity: "card", kind: "added", card: 1, column: 10, columnTitle: "To do", title: "Write"),
            Row(at: t0, entity: "card", kind: "added", card: 2, column: 10, columnTitle: "To do", title: "Test"),
            Row(at: t0 + h, entity: "card", kind: "moved", card: 1, column: 11, columnTitle: "Doing", fromColumn: 10),
            Row(at: t0 + 2 * h, entity: "card", kind: "reordered", card: 2, column: 10, columnTitle: "To do"),
            Row(at: t0 + 3 * h, entity: "card", kind: "edited", card: 1, column: 11, columnTitle: "Doing", title: "Write docs", titleBefore: "Write"),
            Row(at: t0 + 4 * h, entity: "column", kind: "edited", column: 11, columnTitle: "In progress", title: "In progress", titleBefore: "Doing"),
            Row(at: t0 + 50 * h, entity: "card", kind: "moved", card: 1, column: 12, columnTitle: "Done", fromColumn: 11),
            Row(at: t0 + 60 * h, entity: "card", kind: "moved", card: 2, column: 11, columnTitle: "In progress", fromColumn: 10),
            Row(at: t0 + 70 * h, entity: "card", kind: "deleted", card: 1, column: 12, columnTitle: "Done", titleBefore: "Write docs"),
        ]
        let (events, before) = ServerHistory.events(rows, columns: [
            .init(id: 10, key: "a", title: "To do"), .init(id: 11, key: "b", title: "In progress"), .init(id: 12, key: "c", title: "Done"),
        ], cards: [.init(id: 2, column: 11, title: "Test")])
        #expect(before == 0)
        let cols = { (titles: [String]) in titles.enumerated().map { FlowColumn(key: $0.offset + 1, title: $0.element) } }
        #expect(events == [
            .columns(time: t0, cols(["To do", "Doing", "Done"])),
            .card(time: t0, card: 1, title: "Write", column: 1),
            .card(time: t0, card: 2, title: "Test", column: 1),
            .card(time: t0 + h, card: 1, title: "Write", column: 2),
            .card(time: t0 + 3 * h, card: 1, title: "Write docs", column: 2),
            .columns(time: t0 + 4 * h, cols(["To do", "In progress", "Done"])),
            .card(time: t0 + 50 * h, card: 1, title: "Write docs", column: 3),
            .card(time: t0 + 60 * h, card: 2, title: "Test", column: 2),
            .card(time: t0 + 70 * h, card: 1, title: "Write docs", column: nil),
        ])
        let report = FlowMetrics.compute(FlowHistory(events: events, source: "rows"), options: FlowOptions(now: t0 + 100 * h))
        // Card 1 finished (deleted from done): started at +1 h, done at +50 h.
        #expect(report.cycle.map(\.title) == ["Write docs"])
        #expect(report.cycle[0].seconds == 49 * h)
        #expect(report.aging.map { "\($0.title) \($0.column) \($0.seconds)" } == ["Test In progress \(40 * h)"])
        #expect(report.aging[0].over == 50 || report.aging[0].over == nil)
        #expect(report.cfd.last!.counts.map(\.cards) == [0, 1, 0])
    }

    @Test("cards and columns from before the record count from its first moment, where its first row says they were")
    func before() {
        let rows: [Row] = [
            Row(at: t0, entity: "card", kind: "moved", card: 7, column: 21, columnTitle: "Doing", fromColumn: 20),
            Row(at: t0 + 10, entity: "card", kind: "edited", card: 8, column: 20, columnTitle: "To do", title: "New", titleBefore: "Old"),
            Row(at: t0 + 20, entity: "column", kind: "moved", column: 21, columnTitle: "Doing", key: "0", keyBefore: "z"),
        ]
        let (events, before) = ServerHistory.events(rows, columns: [
            .init(id: 21, key: "0", title: "Doing"), .init(id: 20, key: "m", title: "To do"),
        ], cards: [.init(id: 7, column: 21, title: "Seven"), .init(id: 8, column: 20, title: "New"), .init(id: 9, column: 20, title: "Nine")])
        #expect(before == 3)
        // Before its move (key "z" → "0") Doing came after To do; the move puts it first.
        guard case .columns(_, let first) = events[0] else { Issue.record("no columns first"); return }
        #expect(first.map(\.title) == ["To do", "Doing"])
        guard case .columns(let at, let moved) = events.last! else { Issue.record("no column move"); return }
        #expect(at == t0 + 20 && moved.map(\.title) == ["Doing", "To do"])
        let todo = first.first { $0.title == "To do" }!.key, doing = first.first { $0.title == "Doing" }!.key
        #expect(events.contains(.card(time: t0, card: 7, title: "Seven", column: todo)))
        #expect(events.contains(.card(time: t0, card: 8, title: "Old", column: todo)))
        #expect(events.contains(.card(time: t0, card: 9, title: "Nine", column: todo)))
        #expect(events.contains(.card(time: t0, card: 7, title: "Seven", column: doing)))
        #expect(events.contains(.card(time: t0 + 10, card: 8, title: "New", column: todo)))
    }

    @Test("a seeded script's versions as server rows give the oracle's metrics")
    func oracle() throws {
        let repo = try FlowRepo()
        let (versions, _, _) = try FlowOracleTests.buildHistory(seed: 11, repo: repo)
        // The rows a server would have recorded for the same changes (card ids = script ids; columns 1…4).
        var rows: [Row] = []
        for (c, title) in versions[0].columns.enumerated() {
            rows.append(Row(at: versions[0].time, entity: "column", kind: "added", column: Int64(c + 1), columnTitle: title, key: "k\(c)"))
        }
        var prev = FlowOracleTests.Version(time: 0, columns: versions[0].columns, placement: [:], titles: [:])
        for v in versions {
            for (c, title) in v.columns.enumerated() where prev.columns[c] != title {
                rows.append(Row(at: v.time, entity: "column", kind: "edited", column: Int64(c + 1), columnTitle: title, title: title, titleBefore: prev.columns[c]))
            }
            for (id, c) in v.placement.sorted(by: { $0.key < $1.key }) {
                if let old = prev.placement[id] {
                    if old != c {
                        rows.append(Row(at: v.time, entity: "card", kind: "moved", card: Int64(id), column: Int64(c + 1), fromColumn: Int64(old + 1)))
                    }
                    if prev.titles[id] != v.titles[id] {
                        rows.append(Row(at: v.time, entity: "card", kind: "edited", card: Int64(id), column: Int64(c + 1), title: v.titles[id], titleBefore: prev.titles[id]))
                    }
                } else {
                    rows.append(Row(at: v.time, entity: "card", kind: "added", card: Int64(id), column: Int64(c + 1), title: v.titles[id]))
                }
            }
            for (id, c) in prev.placement.sorted(by: { $0.key < $1.key }) where v.placement[id] == nil {
                rows.append(Row(at: v.time, entity: "card", kind: "deleted", card: Int64(id), column: Int64(c + 1), titleBefore: prev.titles[id]))
            }
            prev = v
        }
        let last = versions.last!
        let (events, _) = ServerHistory.events(rows, columns: last.columns.enumerated().map { .init(id: Int64($0.offset + 1), key: "k\($0.offset)", title: $0.element) },
                                               cards: last.placement.map { .init(id: Int64($0.key), column: Int64($0.value + 1), title: last.titles[$0.key]!) })
        let now = last.time + 86_400
        let report = FlowMetrics.compute(FlowHistory(events: events, source: "rows"), options: FlowOptions(now: now))
        let oracle = FlowOracleTests.Oracle(versions, now: now)
        #expect(report.cycle.map { "\($0.title) \($0.started) \($0.finished)" } == oracle.cycle.map { "\($0.title) \($0.started) \($0.finished)" })
        #expect(report.daily.map { "\($0.day):\($0.done)" } == oracle.daily.map { "\($0.day):\($0.done)" })
        #expect(report.cfd.map { d in d.counts.map { "\($0.title)=\($0.cards)" }.joined(separator: ",") }
                == oracle.cfd.map { d in d.counts.map { "\($0.0)=\($0.1)" }.joined(separator: ",") })
        #expect(report.aging.map { "\($0.title)|\($0.seconds)" }.sorted() == oracle.aging.map { "\($0.title)|\($0.age)" }.sorted())
    }
}
