/// Where a column stands in the flow of work.
public enum FlowStage: Int, Hashable, Sendable, Comparable {
    case notStarted, inProgress, done

    public static func < (a: FlowStage, b: FlowStage) -> Bool { a.rawValue < b.rawValue }

    public var name: String {
        switch self {
        case .notStarted: "not started"
        case .inProgress: "in progress"
        case .done: "done"
        }
    }
}

/// What to compute: the column meanings, the window, "now" and the forecast's questions.
public struct FlowOptions: Sendable {
    public var columns: FlowColumns
    /// Cycle times and throughput of cards finished from this moment on; the flow from this day on.
    public var since: FlowTime?
    public var now: FlowTime
    /// "How many cards by this day?" (a UTC day number); default: two weeks after today.
    public var forecastDay: Int?
    /// "By when N cards?"; default: every card not done now.
    public var forecastCards: Int?
    public var seed: UInt64
    public var trials: Int
    /// Which authors of the history's changes are agents.
    public var agents: FlowAgents

    public init(
        columns: FlowColumns = FlowColumns(), since: FlowTime? = nil, now: FlowTime, forecastDay: Int? = nil,
        forecastCards: Int? = nil, seed: UInt64 = 0, trials: Int = 10_000, agents: FlowAgents = FlowAgents()
    ) {
        self.agents = agents
        self.columns = columns
        self.since = since
        self.now = now
        self.forecastDay = forecastDay
        self.forecastCards = forecastCards
        self.seed = seed
        self.trials = trials
    }
}

/// Flow metrics of a board's history; every definition is in the README ("Flow metrics").
public struct FlowReport: Sendable {
    public struct FinishedCard: Hashable, Sendable {
        public var card: Int
        public var title: String
        public var started: FlowTime
        public var finished: FlowTime
        /// Who finished it: the author of its last entry into done (nil: the source does not say,
        /// or a new set of columns put its column in done).
        public var by: String? = nil
        public var seconds: Int64 { finished - started }
        public var days: Double { Double(seconds) / 86_400 }
    }

    public struct AgingCard: Hashable, Sendable {
        public var card: Int
        public var title: String
        public var column: String
        public var started: FlowTime
        public var seconds: Int64
        public var days: Double { Double(seconds) / 86_400 }
        /// The highest cycle-time percentile (50, 85, 95) its age exceeds; nil: none, or no finished card yet.
        public var over: Int?
    }

    /// Nearest-rank percentiles of the cycle times, in seconds.
    public struct Percentiles: Hashable, Sendable {
        public var count: Int
        public var p50: Int64?
        public var p85: Int64?
        public var p95: Int64?

        public func value(_ p: Int) -> Int64? { p == 50 ? p50 : p == 85 ? p85 : p95 }
    }

    public struct DayCounts: Hashable, Sendable {
        public var day: Int
        /// Cards in each column at the end of the day, left to right.
        public var counts: [(title: String, stage: FlowStage, cards: Int)]

        public static func == (a: DayCounts, b: DayCounts) -> Bool {
            a.day == b.day
                && a.counts.elementsEqual(b.counts) {
                    $0.title == $1.title && $0.stage == $1.stage && $0.cards == $1.cards
                }
        }

        public func hash(into h: inout Hasher) {
            h.combine(day)
            for c in counts { h.combine(c.title); h.combine(c.cards) }
        }
    }

    /// A card on the board now: when it appeared, started, and how long it spent in each column.
    public struct CardFlow: Hashable, Sendable {
        public var appeared: FlowTime
        public var started: FlowTime?
        /// The last time it entered done, when it is done now.
        public var finished: FlowTime?
        /// Seconds in each column it has been in (by the column's latest title), in order of first entry.
        public var timeIn: [ColumnTime]
    }

    /// The finished cards split by who finished them: agents, people, and each author.
    public struct FinishedBy: Hashable, Sendable {
        public struct Author: Hashable, Sendable {
            public var author: String
            public var agent: Bool
            public var cycle: Percentiles
        }

        /// Whether anything says who the agents are (`FlowAgents.named`); if not, every author is a person.
        public var agentsNamed: Bool
        public var agents: Percentiles
        public var people: Percentiles
        /// Finished cards whose finish has no author.
        public var unattributed: Int
        /// Every author who finished a card: most cards first, then by name.
        public var authors: [Author]

        init(_ cycle: [FinishedCard], agents named: FlowAgents) {
            agentsNamed = named.named
            var byAuthor: [String: [Int64]] = [:]
            var agentTimes: [Int64] = [], peopleTimes: [Int64] = []
            unattributed = 0
            for c in cycle {
                guard let by = c.by else {
                    unattributed += 1
                    continue
                }
                byAuthor[by, default: []].append(c.seconds)
            }
            authors = byAuthor.map { author, times in
                let agent = named.isAgent(author)
                if agent { agentTimes += times } else { peopleTimes += times }
                return Author(author: author, agent: agent, cycle: FlowMetrics.percentiles(times))
            }
            authors.sort { ($1.cycle.count, $0.author) < ($0.cycle.count, $1.author) }
            agents = FlowMetrics.percentiles(agentTimes)
            people = FlowMetrics.percentiles(peopleTimes)
        }
    }

    public struct ColumnTime: Hashable, Sendable {
        public var column: String
        public var seconds: Int64
    }

    public var options: FlowOptions
    /// The board's columns now, with what they mean.
    public var columns: [(title: String, stage: FlowStage)]
    public var cycle: [FinishedCard]
    public var percentiles: Percentiles
    public var daily: [(day: Int, done: Int)]
    public var weekly: [(week: String, done: Int)]
    public var cfd: [DayCounts]
    public var aging: [AgingCard]
    public var forecast: Forecast
    /// The finished cards of `cycle` by who finished them.
    public var finishedBy: FinishedBy
    /// Cards on the board now, by history key.
    public var cards: [Int: CardFlow]
    /// The history's first and last moments (nil: no event up to now).
    public var first: FlowTime?
    public var last: FlowTime?
}

/// Computes the metrics by replaying a history's events (see `FlowReport`).
public enum FlowMetrics {
    /// What each column of a snapshot means under `setting`: done from the `done` column (by key
    /// in the board now, else by title, else the last column), in progress from the `started`
    /// column (else the second) up to it, not started before.
    static func stages(of columns: [FlowColumn], setting: FlowColumns, startedKey: Int?, doneKey: Int?) -> [FlowStage] {
        let n = columns.count
        guard n > 1 else { return Array(repeating: .notStarted, count: n) }
        func find(_ key: Int?, _ title: String?) -> Int? {
            if let key, let i = columns.firstIndex(where: { $0.key == key }) { return i }
            if let title, let i = columns.firstIndex(where: { $0.title == title }) { return i }
            return nil
        }
        let done = find(doneKey, setting.done) ?? n - 1
        let started = min(find(startedKey, setting.started) ?? 1, done)
        return (0..<n).map { $0 >= done ? .done : $0 >= started ? .inProgress : .notStarted }
    }

    /// What each column of a board means under `setting` (titles as they are now).
    public static func columnStages(titles: [String], setting: FlowColumns) -> [FlowStage] {
        stages(
            of: titles.enumerated().map { FlowColumn(key: $0.offset, title: $0.element) }, setting: setting,
            startedKey: nil, doneKey: nil)
    }

    private struct Track {
        var title: String
        var column: Int?
        var stage: FlowStage
        var appeared: FlowTime
        var started: FlowTime?
        var lastDone: FlowTime?
        /// The author of the change that last put it in done.
        var finishedBy: String?
        var enteredColumn: FlowTime
        var timeIn: [(column: Int, seconds: Int64)] = []

        mutating func addTime(_ column: Int, _ seconds: Int64) {
            if let i = timeIn.firstIndex(where: { $0.column == column }) {
                timeIn[i].seconds += seconds
            } else {
                timeIn.append((column, seconds))
            }
        }

        mutating func enter(_ stage: FlowStage, at t: FlowTime, by: String?) {
            if stage != .notStarted && started == nil { started = t }
            if stage == .done && self.stage != .done {
                lastDone = t
                finishedBy = by
            }
            self.stage = stage
        }
    }

    public static func compute(_ history: FlowHistory, options: FlowOptions) -> FlowReport {
        let now = options.now
        if let summary = history.summary, now >= summary.last { return compute(summary, options: options) }
        let events = history.events.prefix { $0.time <= now }
        // The setting's columns, by key in the latest snapshot (so renamed columns keep their meaning in older versions).
        var latest: [FlowColumn] = []
        for e in events.reversed() { if case .columns(_, let c) = e { latest = c; break } }
        let startedKey = options.columns.started.flatMap { t in latest.first { $0.title == t }?.key }
        let doneKey = options.columns.done.flatMap { t in latest.first { $0.title == t }?.key }

        var columns: [FlowColumn] = []
        var stageOf: [Int: FlowStage] = [:]
        var titleOf: [Int: String] = [:]
        var count: [Int: Int] = [:]
        var tracks: [Int: Track] = [:]
        var finishedGone: [Int: Track] = [:]
        var cfd: [FlowReport.DayCounts] = []
        let first = events.first?.time
        let firstDay = first.map(FlowDate.day) ?? FlowDate.day(of: now)
        let nowDay = FlowDate.day(of: now)
        let sinceDay = options.since.map(FlowDate.day)
        var day = firstDay

        func recordDays(through last: Int) {
            while day <= last {
                if sinceDay.map({ day >= $0 }) ?? true {
                    cfd.append(
                        FlowReport.DayCounts(
                            day: day,
                            counts: columns.map { ($0.title, stageOf[$0.key] ?? .notStarted, count[$0.key] ?? 0) }))
                }
                day += 1
            }
        }

        for e in events {
            let t = e.time
            recordDays(through: FlowDate.day(of: t) - 1)
            switch e {
            case .columns(_, let cols):
                columns = cols
                let stages = FlowMetrics.stages(
                    of: cols, setting: options.columns, startedKey: startedKey, doneKey: doneKey)
                var changed = Set<Int>()
                for (c, s) in zip(cols, stages) {
                    titleOf[c.key] = c.title
                    if stageOf[c.key] != s { changed.insert(c.key) }
                    stageOf[c.key] = s
                }
                if !changed.isEmpty {
                    for key in tracks.keys {
                        if let col = tracks[key]!.column, changed.contains(col) {
                            tracks[key]!.enter(stageOf[col]!, at: t, by: nil)
                        }
                    }
                }
            case .card(_, let key, let title, let column, let by):
                if let i = tracks.index(forKey: key) {
                    // In place: a copy would copy its time-in-column list on every move.
                    func move(_ track: inout Track) {
                        track.title = title
                        guard column != track.column else { return }
                        if let old = track.column {
                            track.addTime(old, t - track.enteredColumn)
                            count[old, default: 0] -= 1
                        }
                        track.column = column
                        track.enteredColumn = t
                        if let column {
                            count[column, default: 0] += 1
                            track.enter(stageOf[column] ?? .notStarted, at: t, by: by)
                        }
                    }
                    move(&tracks.values[i])
                    if column == nil {
                        let track = tracks.remove(at: i).value
                        if track.stage == .done { finishedGone[key] = track } else { finishedGone[key] = nil }
                    }
                } else if let column {
                    var track = Track(title: title, column: column, stage: .notStarted, appeared: t, enteredColumn: t)
                    track.enter(stageOf[column] ?? .notStarted, at: t, by: by)
                    count[column, default: 0] += 1
                    tracks[key] = track
                    finishedGone[key] = nil
                }
            }
        }
        recordDays(through: nowDay)

        // Cycle times of finished cards: done now, or taken off the board while done.
        var finished: [FlowReport.FinishedCard] = []
        for (key, track) in tracks where track.stage == .done {
            if let s = track.started, let f = track.lastDone {
                finished.append(.init(card: key, title: track.title, started: s, finished: f, by: track.finishedBy))
            }
        }
        for (key, track) in finishedGone {
            if let s = track.started, let f = track.lastDone {
                finished.append(.init(card: key, title: track.title, started: s, finished: f, by: track.finishedBy))
            }
        }
        var inProgress: [(card: Int, title: String, column: String, started: FlowTime)] = []
        for (key, track) in tracks where track.stage == .inProgress {
            inProgress.append(
                (key, track.title, track.column.flatMap { titleOf[$0] } ?? "", track.started ?? track.appeared))
        }
        var cards: [Int: FlowReport.CardFlow] = [:]
        for (key, track) in tracks {
            var t = track
            if let c = t.column { t.addTime(c, now - t.enteredColumn) }
            cards[key] = .init(
                appeared: track.appeared, started: track.started, finished: track.stage == .done ? track.lastDone : nil,
                timeIn: t.timeIn.map { .init(column: titleOf[$0.column] ?? "", seconds: $0.seconds) })
        }
        let remaining = tracks.values.filter { $0.stage != .done }.count
        let stagesNow = FlowMetrics.stages(
            of: columns, setting: options.columns, startedKey: startedKey, doneKey: doneKey)
        return report(
            options: options, columns: zip(columns, stagesNow).map { ($0.title, $1) }, finished: finished,
            inProgress: inProgress, cards: cards, remaining: remaining, cfd: cfd, first: first, last: events.last?.time)
    }

    /// The report from what a replay (or a summary) gives: the finished cards, the cards in
    /// progress now (with when they started), the cards on the board now, how many of them are
    /// not done, and the days of flow.
    static func report(
        options: FlowOptions, columns: [(title: String, stage: FlowStage)],
        finished unsorted: [FlowReport.FinishedCard],
        inProgress: [(card: Int, title: String, column: String, started: FlowTime)], cards: [Int: FlowReport.CardFlow],
        remaining: Int, cfd: [FlowReport.DayCounts], first: FlowTime?, last: FlowTime?
    ) -> FlowReport {
        let now = options.now
        let firstDay = first.map(FlowDate.day) ?? FlowDate.day(of: now)
        let nowDay = FlowDate.day(of: now)
        let sinceDay = options.since.map(FlowDate.day)
        var finished = unsorted
        finished.sort { ($0.finished, $0.card) < ($1.finished, $1.card) }
        var doneOn: [Int: Int] = [:]
        for f in finished { doneOn[FlowDate.day(of: f.finished), default: 0] += 1 }
        let since = options.since
        let cycle = finished.filter { card in since.map { card.finished >= $0 } ?? true }
        let percentiles = FlowMetrics.percentiles(cycle.map { $0.seconds })

        // Throughput per UTC day and ISO week.
        var daily: [(day: Int, done: Int)] = []
        let startDay = max(firstDay, sinceDay ?? firstDay)
        if first != nil && startDay <= nowDay {
            for d in startDay...nowDay { daily.append((d, doneOn[d] ?? 0)) }
        }
        var weekly: [(week: String, done: Int)] = []
        for (d, n) in daily {
            let w = FlowDate.week(d)
            if weekly.last?.week == w { weekly[weekly.count - 1].done += n } else { weekly.append((w, n)) }
        }

        // Aging work in progress.
        var aging: [FlowReport.AgingCard] = []
        for c in inProgress {
            let age = now - c.started
            var over: Int?
            for p in [50, 85, 95] { if let v = percentiles.value(p), age > v { over = p } }
            aging.append(
                .init(card: c.card, title: c.title, column: c.column, started: c.started, seconds: age, over: over))
        }
        aging.sort { ($0.seconds, $1.card) > ($1.seconds, $0.card) }

        // Forecast from the whole days of the last 30 before today (those inside the history).
        let sampleFrom = max(firstDay, nowDay - 30)
        let samples = sampleFrom < nowDay ? (sampleFrom..<nowDay).map { doneOn[$0] ?? 0 } : []
        let forecast = Forecast.run(
            samples: samples, firstSampleDay: sampleFrom, today: nowDay,
            byDay: options.forecastDay ?? nowDay + 14, cards: options.forecastCards ?? remaining,
            seed: options.seed, trials: options.trials)
        return FlowReport(
            options: options, columns: columns, cycle: cycle,
            percentiles: percentiles, daily: daily, weekly: weekly, cfd: cfd, aging: aging, forecast: forecast,
            finishedBy: FlowReport.FinishedBy(cycle, agents: options.agents), cards: cards, first: first, last: last)
    }

    /// Nearest-rank percentiles: the value at rank ⌈p/100 × n⌉ of the sorted values.
    public static func percentiles(_ values: [Int64]) -> FlowReport.Percentiles {
        let sorted = values.sorted()
        func at(_ p: Int) -> Int64? { sorted.isEmpty ? nil : sorted[nearestRank(p, sorted.count) - 1] }
        return .init(count: sorted.count, p50: at(50), p85: at(85), p95: at(95))
    }

    /// ⌈p/100 × n⌉, at least 1.
    public static func nearestRank(_ p: Int, _ n: Int) -> Int { max(1, (p * n + 99) / 100) }
}
