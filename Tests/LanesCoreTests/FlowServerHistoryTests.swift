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
            Row(
                at: t0 + 3 * h, entity: "card", kind: "edited", card: 1, column: 11, columnTitle: "Doing",
                title: "Write docs", titleBefore: "Write"),
            Row(
                at: t0 + 4 * h, entity: "column", kind: "edited", column: 11, columnTitle: "In progress",
                title: "In progress", titleBefore: "Doing"),
            Row(
                at: t0 + 50 * h, entity: "card", kind: "moved", card: 1, column: 12, columnTitle: "Done", fromColumn: 11
            ),
            Row(
                at: t0 + 60 * h, entity: "card", kind: "moved", card: 2, column: 11, columnTitle: "In progress",
                fromColumn: 10),
            Row(
                at: t0 + 70 * h, entity: "card", kind: "deleted", card: 1, column: 12, columnTitle: "Done",
                titleBefore: "Write docs"),
        ]
        let (events, before) = ServerHistory.events(
            rows,
            columns: [
                .init(id: 10, key: "a", title: "To do"), .init(id: 11, key: "b", title: "In progress"),
                .init(id: 12, key: "c", title: "Done"),
            ], cards: [.init(id: 2, column: 11, title: "Test")])
        #expect(before == 0)
        let cols = { (titles: [String]) in titles.enumerated().map { FlowColumn(key: $0.offset + 1, title: $0.element) }
        }
        #expect(
            events == [
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
        let report = FlowMetrics.compute(
            FlowHistory(events: events, source: "rows"), options: FlowOptions(now: t0 + 100 * h))
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
            Row(
                at: t0 + 10, entity: "card", kind: "edited", card: 8, column: 20, columnTitle: "To do", title: "New",
                titleBefore: "Old"),
            Row(
                at: t0 + 20, entity: "column", kind: "moved", column: 21, columnTitle: "Doing", key: "0", keyBefore: "z"
            ),
        ]
        let (events, before) = ServerHistory.events(
            rows,
            columns: [
                .init(id: 21, key: "0", title: "Doing"), .init(id: 20, key: "m", title: "To do"),
            ],
            cards: [
                .init(id: 7, column: 21, title: "Seven"), .init(id: 8, column: 20, title: "New"),
                .init(id: 9, column: 20, title: "Nine"),
            ])
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
            rows.append(
                Row(
                    at: versions[0].time, entity: "column", kind: "added", column: Int64(c + 1), columnTitle: title,
                    key: "k\(c)"))
        }
        var prev = FlowOracleTests.Version(time: 0, columns: versions[0].columns, placement: [:], titles: [:])
        for v in versions {
            for (c, title) in v.columns.enumerated() where prev.columns[c] != title {
                rows.append(
                    Row(
                        at: v.time, entity: "column", kind: "edited", column: Int64(c + 1), columnTitle: title,
                        title: title, titleBefore: prev.columns[c]))
            }
            for (id, c) in v.placement.sorted(by: { $0.key < $1.key }) {
                if let old = prev.placement[id] {
                    if old != c {
                        rows.append(
                            Row(
                                at: v.time, entity: "card", kind: "moved", card: Int64(id), column: Int64(c + 1),
                                fromColumn: Int64(old + 1)))
                    }
                    if prev.titles[id] != v.titles[id] {
                        rows.append(
                            Row(
                                at: v.time, entity: "card", kind: "edited", card: Int64(id), column: Int64(c + 1),
                                title: v.titles[id], titleBefore: prev.titles[id]))
                    }
                } else {
                    rows.append(
                        Row(
                            at: v.time, entity: "card", kind: "added", card: Int64(id), column: Int64(c + 1),
                            title: v.titles[id]))
                }
            }
            for (id, c) in prev.placement.sorted(by: { $0.key < $1.key }) where v.placement[id] == nil {
                rows.append(
                    Row(
                        at: v.time, entity: "card", kind: "deleted", card: Int64(id), column: Int64(c + 1),
                        titleBefore: prev.titles[id]))
            }
            prev = v
        }
        let last = versions.last!
        let (events, _) = ServerHistory.events(
            rows,
            columns: last.columns.enumerated().map {
                .init(id: Int64($0.offset + 1), key: "k\($0.offset)", title: $0.element)
            },
            cards: last.placement.map {
                .init(id: Int64($0.key), column: Int64($0.value + 1), title: last.titles[$0.key]!)
            })
        let now = last.time + 86_400
        let report = FlowMetrics.compute(FlowHistory(events: events, source: "rows"), options: FlowOptions(now: now))
        let oracle = FlowOracleTests.Oracle(versions, now: now)
        #expect(
            report.cycle.map { "\($0.title) \($0.started) \($0.finished)" }
                == oracle.cycle.map { "\($0.title) \($0.started) \($0.finished)" })
        #expect(report.daily.map { "\($0.day):\($0.done)" } == oracle.daily.map { "\($0.day):\($0.done)" })
        #expect(
            report.cfd.map { d in d.counts.map { "\($0.title)=\($0.cards)" }.joined(separator: ",") }
                == oracle.cfd.map { d in d.counts.map { "\($0.0)=\($0.1)" }.joined(separator: ",") })
        #expect(
            report.aging.map { "\($0.title)|\($0.seconds)" }.sorted()
                == oracle.aging.map { "\($0.title)|\($0.age)" }.sorted())
    }
}

/// The reading of a change record before it was read in one pass (schema migration 3's reader,
/// kept verbatim as the reference the one-pass `ServerHistory.Stream` must agree with).
enum ReferenceServerHistory {
    typealias Row = ServerHistory.Row
    static func events(_ rows: [Row], columns: [ServerHistory.NowColumn], cards: [ServerHistory.NowCard]) -> (
        events: [FlowEvent], before: Int
    ) {
        guard let start = rows.first?.at else { return ([], 0) }
        var events: [FlowEvent] = []
        // Columns and cards the record does not see being added were there from the start.
        var addedColumns = Set<Int64>(), addedCards = Set<Int64>()
        var firstCardRow: [Int64: Row] = [:]
        var firstColumnRow: [Int64: Row] = [:]
        for r in rows {
            if r.entity == "column", let c = r.column {
                if firstColumnRow[c] == nil { firstColumnRow[c] = r }
                if r.kind == "added" { addedColumns.insert(c) }
            } else if r.entity == "card", let c = r.card {
                if firstCardRow[c] == nil { firstCardRow[c] = r }
                if r.kind == "added" { addedCards.insert(c) }
            }
        }
        var columnState: [Int64: (key: String, title: String)] = [:]
        var keyOf: [Int64: Int] = [:]
        func key(_ id: Int64) -> Int {
            if let k = keyOf[id] { return k }
            keyOf[id] = keyOf.count + 1
            return keyOf[id]!
        }
        let now = Dictionary(columns.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for c in columns where !addedColumns.contains(c.id) {
            // Its key and title before the record's first change of it.
            var k = c.key, t = c.title
            if let r = firstColumnRow[c.id] {
                if r.kind == "moved", let before = r.keyBefore { k = before }
                if r.kind == "edited", let before = r.titleBefore { t = before }
            }
            columnState[c.id] = (k, t)
        }
        for (id, r) in firstColumnRow where !addedColumns.contains(id) && now[id] == nil && r.kind == "deleted" {
            columnState[id] = (r.keyBefore ?? "", r.columnTitle ?? "")
        }
        // Card columns the record names but whose column rows it lacks.
        for r in rows where r.entity == "card" {
            for c in [r.column, r.fromColumn].compactMap({ $0 })
            where columnState[c] == nil && !addedColumns.contains(c) {
                columnState[c] = ("\u{10FFFF}\(c)", r.columnTitle ?? "column \(c)")
            }
        }
        var lastColumns: [FlowColumn] = []
        func emitColumns(_ t: FlowTime) {
            let list = columnState.sorted { a, b in
                a.value.key.utf8.lexicographicallyPrecedes(b.value.key.utf8)
                    || (a.value.key == b.value.key && a.key < b.key)
            }.map { FlowColumn(key: key($0.key), title: $0.value.title) }
            if list != lastColumns {
                events.append(.columns(time: t, list))
                lastColumns = list
            }
        }
        emitColumns(start)
        var title: [Int64: String] = [:]
        for c in cards { title[c.id] = c.title }
        var before = 0
        var seeded = Set<Int64>()
        for (id, r) in firstCardRow where !addedCards.contains(id) { _ = r; seeded.insert(id) }
        for c in cards where !addedCards.contains(c.id) { seeded.insert(c.id) }
        let nowCards = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in seeded.sorted() {
            let r = firstCardRow[id]
            let column: Int64?
            var t = nowCards[id]?.title ?? r?.titleBefore ?? r?.title ?? "card \(id)"
            switch r?.kind {
            case "moved": column = r?.fromColumn
            case "edited":
                column = r?.column
                if let old = r?.titleBefore { t = old }
            case "deleted": column = r?.column
            default: column = nowCards[id]?.column
            }
            guard let column else { continue }
            title[id] = t
            events.append(.card(time: start, card: Int(truncatingIfNeeded: id), title: t, column: key(column)))
            before += 1
        }
        var last = start
        // Column rows of one moment give one snapshot (a board's columns are added together).
        var dirty = false
        for r in rows {
            let t = max(r.at, last)
            if dirty && (t != last || r.entity != "column") {
                emitColumns(last)
                dirty = false
            }
            last = t
            if r.entity == "column", let c = r.column {
                switch r.kind {
                case "added": columnState[c] = (r.key ?? "", r.columnTitle ?? r.title ?? "")
                case "moved": if let k = r.key { columnState[c]?.key = k }
                case "edited": if let nt = r.title { columnState[c]?.title = nt }
                case "deleted": columnState[c] = nil
                default: continue
                }
                dirty = true
            } else if r.entity == "card", let id = r.card {
                let k = Int(truncatingIfNeeded: id)
                switch r.kind {
                case "added":
                    if let nt = r.title { title[id] = nt }
                    guard let c = r.column else { continue }
                    events.append(.card(time: t, card: k, title: title[id] ?? "", column: key(c)))
                case "moved":
                    guard let c = r.column else { continue }
                    events.append(.card(time: t, card: k, title: title[id] ?? "", column: key(c)))
                case "edited":
                    guard let nt = r.title, let c = r.column else { continue }
                    title[id] = nt
                    events.append(.card(time: t, card: k, title: nt, column: key(c)))
                case "deleted":
                    events.append(.card(time: t, card: k, title: r.titleBefore ?? title[id] ?? "", column: nil))
                default: continue
                }
            }
        }
        if dirty { emitColumns(last) }
        return (events, before)
    }
}

@Suite("Flow: the one-pass reading of a change record agrees with the reference")
struct FlowServerStreamTests {
    typealias Row = ServerHistory.Row

    /// A random record: columns added, moved, renamed, deleted; cards from before the record and
    /// added in it, moved, edited (titles or not), reordered, deleted; times that sometimes go back.
    static func record(seed: UInt64) -> (
        rows: [Row], columns: [ServerHistory.NowColumn], cards: [ServerHistory.NowCard]
    ) {
        var rng = SplitMix(state: seed)
        var t: FlowTime = 1_790_000_000
        var rows: [Row] = []
        var columns: [Int64: (key: String, title: String)] = [:]
        var nextColumn: Int64 = 100
        // Columns from before the record (some), and cards in them (some never named by the record).
        for _ in 0..<Int.random(in: 0...3, using: &rng) {
            columns[nextColumn] = (String(UnicodeScalar(UInt8(97 + Int(nextColumn % 26)))), "Old \(nextColumn)")
            nextColumn += 1
        }
        var cards: [Int64: (column: Int64, title: String)] = [:]
        var nextCard: Int64 = 1
        for c in columns.keys.sorted() {
            for _ in 0..<Int.random(in: 0...2, using: &rng) {
                cards[nextCard] = (c, "before \(nextCard)")
                nextCard += 1
            }
        }
        // A column the record's card rows name but no column row does (older than the record, gone now).
        let ghost: Int64 = 9_999
        var ghostCards: [Int64] = []
        if Bool.random(using: &rng) {
            cards[nextCard] = (ghost, "in a ghost column")
            ghostCards.append(nextCard)
            nextCard += 1
        }
        for _ in 0..<Int.random(in: 5...60, using: &rng) {
            t += Int64.random(in: -40...4_000, using: &rng)
            let live = cards.keys.sorted()
            switch Int.random(in: 0..<20, using: &rng) {
            case 0, 1:
                let id = nextColumn
                nextColumn += 1
                let key = String((0..<2).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...122, using: &rng))) })
                columns[id] = (key, "Column \(id)")
                rows.append(
                    Row(
                        at: t, entity: "column", kind: "added", column: id, columnTitle: "Column \(id)",
                        title: "Column \(id)", key: key))
            case 2:
                guard let id = columns.keys.sorted().randomElement(using: &rng) else { continue }
                let key = String((0..<2).map { _ in Character(UnicodeScalar(UInt8.random(in: 97...122, using: &rng))) })
                rows.append(
                    Row(
                        at: t, entity: "column", kind: "moved", column: id, columnTitle: columns[id]!.title, key: key,
                        keyBefore: columns[id]!.key))
                columns[id]!.key = key
            case 3:
                guard let id = columns.keys.sorted().randomElement(using: &rng) else { continue }
                let title = "Renamed \(id) \(t)"
                rows.append(
                    Row(
                        at: t, entity: "column", kind: "edited", column: id, columnTitle: title, title: title,
                        titleBefore: columns[id]!.title))
                columns[id]!.title = title
            case 4:
                guard let id = columns.keys.sorted().randomElement(using: &rng),
                    !cards.values.contains(where: { $0.column == id })
                else { continue }
                rows.append(
                    Row(
                        at: t, entity: "column", kind: "deleted", column: id, columnTitle: columns[id]!.title,
                        keyBefore: columns[id]!.key))
                columns[id] = nil
            case 5, 6, 7:
                guard let c = columns.keys.sorted().randomElement(using: &rng) else { continue }
                let id = nextCard
                nextCard += 1
                cards[id] = (c, "Card \(id)")
                rows.append(
                    Row(
                        at: t, entity: "card", kind: "added", card: id, column: c, columnTitle: columns[c]!.title,
                        title: "Card \(id)"))
            case 8...13:
                guard let id = live.randomElement(using: &rng),
                    let to = columns.keys.sorted().randomElement(using: &rng), to != cards[id]!.column
                else { continue }
                let from = cards[id]!.column
                rows.append(
                    Row(
                        at: t, entity: "card", kind: "moved", card: id, column: to, columnTitle: columns[to]!.title,
                        fromColumn: from))
                cards[id]!.column = to
            case 14, 15:
                guard let id = live.randomElement(using: &rng) else { continue }
                let c = cards[id]!.column
                if Bool.random(using: &rng) {
                    let title = "Card \(id) at \(t)"
                    rows.append(
                        Row(
                            at: t, entity: "card", kind: "edited", card: id, column: c,
                            columnTitle: columns[c]?.title ?? "ghost", title: title, titleBefore: cards[id]!.title))
                    cards[id]!.title = title
                } else {
                    rows.append(
                        Row(
                            at: t, entity: "card", kind: "edited", card: id, column: c,
                            columnTitle: columns[c]?.title ?? "ghost"))
                }
            case 16:
                guard let id = live.randomElement(using: &rng) else { continue }
                let c = cards[id]!.column
                rows.append(
                    Row(
                        at: t, entity: "card", kind: "reordered", card: id, column: c,
                        columnTitle: columns[c]?.title ?? "ghost"))
            default:
                guard let id = live.randomElement(using: &rng) else { continue }
                let c = cards[id]!.column
                rows.append(
                    Row(
                        at: t, entity: "card", kind: "deleted", card: id, column: c,
                        columnTitle: columns[c]?.title ?? "ghost", titleBefore: cards[id]!.title))
                cards[id] = nil
            }
        }
        let nowColumns = columns.map { ServerHistory.NowColumn(id: $0.key, key: $0.value.key, title: $0.value.title) }
            .sorted { $0.id < $1.id }
        let nowCards = cards.filter { $0.value.column != ghost }.map {
            ServerHistory.NowCard(id: $0.key, column: $0.value.column, title: $0.value.title)
        }
        .sorted { $0.id < $1.id }
        return (rows, nowColumns, nowCards)
    }

    @Test("every row given: the same events as the reference, on 400 random records")
    func rowsGiven() {
        for seed in 1...400 as ClosedRange<UInt64> {
            let (rows, columns, cards) = Self.record(seed: seed)
            let reference = ReferenceServerHistory.events(rows, columns: columns, cards: cards)
            let stream = ServerHistory.events(rows, columns: columns, cards: cards)
            #expect(stream.events == reference.events && stream.before == reference.before, "seed \(seed)")
            if stream.events != reference.events { return }
        }
    }

    /// As the PostgreSQL reader gives them: no card row's column before a move, titles only where
    /// events need them, the first rows of cards from before the record and the titles of columns
    /// only card rows name asked for afterwards.
    @Test("as the server reader feeds it: the same events as the reference, on 400 random records")
    func asTheServerFeedsIt() {
        var seeds = 0, unnamed = 0
        defer {
            #expect(
                seeds > 0 && unnamed > 0,
                "the records have cards from before them that moved first, and columns only card rows name")
        }
        for seed in 1...400 as ClosedRange<UInt64> {
            let (rows, columns, cards) = Self.record(seed: seed)
            let reference = ReferenceServerHistory.events(rows, columns: columns, cards: cards)
            let columnRows = rows.enumerated().filter { $0.element.entity == "column" }.map {
                (id: Int64($0.offset), row: $0.element)
            }
            var stream = ServerHistory.Stream(columnRows: columnRows, columns: columns, cards: cards)
            for (i, r) in rows.enumerated() where r.entity == "card" {
                guard let card = r.card, r.kind != "reordered" else { continue }
                let kind = ServerHistory.Stream.Kind(r.kind)
                stream.card(
                    record: Int64(i), at: r.at, kind: kind, card: card, column: r.column, from: nil,
                    title: { kind == .added || kind == .edited ? r.title : nil },
                    titleBefore: { kind == .edited || kind == .deleted ? r.titleBefore : nil }, columnTitle: { nil })
            }
            seeds += stream.seedsFromMoves.count
            for card in stream.seedsFromMoves {
                let i = rows.firstIndex { $0.entity == "card" && $0.card == card && $0.kind != "reordered" }!
                stream.seedMove(
                    card: card, record: Int64(i), from: rows[i].fromColumn, columnTitle: rows[i].columnTitle)
            }
            unnamed += stream.unnamedColumns.count
            for u in stream.unnamedColumns { stream.nameColumn(u.column, title: rows[Int(u.record)].columnTitle) }
            // The reference with the rows the reader asks for (reordered rows are not read).
            let read = rows.filter { $0.kind != "reordered" }
            let expected = ReferenceServerHistory.events(read, columns: columns, cards: cards)
            let got = stream.finish()
            #expect(got.events == expected.events && got.before == expected.before, "seed \(seed)")
            if got.events != expected.events { return }
            _ = reference
        }
    }
}

/// SplitMix64: the same random record for the same seed.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
