/// A board's history folded per card, per (card, column) and per (day, column), as a server keeps
/// it (PostgreSQL's `lanes.flow_*` tables): enough for every metric, without every change.
///
/// It holds where cards went, not what columns mean; `FlowMetrics.compute` applies the columns'
/// meanings when it reads it, and gives what replaying the history's events gives. It stands for a
/// history whose columns were set once (at one moment, with nothing but new cards added among
/// them: `settling`), and for a "now" at or after its last event (a reader falls back to the
/// events otherwise).
public struct FlowSummary: Sendable {
    /// A card's current life (a card deleted and added again starts a new one).
    public struct Card: Sendable {
        public var key: Int
        /// The title of its last event.
        public var title: String
        /// The column it is in (or, when gone, the one it left).
        public var column: Int
        public var gone: Bool
        public var appeared: FlowTime
        /// Its appearance's place in the record (`FlowSummary.settling`).
        public var appearedRow: Int64
        /// When it entered `column`.
        public var entered: FlowTime
        /// Per column it entered: the seconds of its closed stays, and an order of first entry.
        public var stints: [(column: Int, order: Int64, seconds: Int64)]
        /// Per (column left, column entered; nil: it appeared): the first and last time.
        public var moves: [(from: Int?, to: Int, first: FlowTime, last: FlowTime)]

        public init(key: Int, title: String, column: Int, gone: Bool, appeared: FlowTime, appearedRow: Int64 = 0, entered: FlowTime,
                    stints: [(column: Int, order: Int64, seconds: Int64)] = [],
                    moves: [(from: Int?, to: Int, first: FlowTime, last: FlowTime)] = []) {
            self.key = key
            self.title = title
            self.column = column
            self.gone = gone
            self.appeared = appeared
            self.appearedRow = appearedRow
            self.entered = entered
            self.stints = stints
            self.moves = moves
        }
    }

    /// The board's columns, left to right (keys as the cards' columns name them).
    public var columns: [FlowColumn]
    /// While the columns were being set (one moment; a board created with its cards, column by
    /// column), the columns each card added then saw, and saw change until they were all set: per
    /// place in the record (`row`), the columns from there on.
    public var settling: [(row: Int64, columns: [FlowColumn])]
    /// The place in the record where the columns were all set.
    public var settled: Int64
    public var cards: [Card]
    /// Per UTC day and column: how the column's card count changed that day.
    public var days: [(day: Int, column: Int, delta: Int)]
    /// The history's first and last events.
    public var first: FlowTime
    public var last: FlowTime

    public init(columns: [FlowColumn], settling: [(row: Int64, columns: [FlowColumn])] = [], settled: Int64 = 0, cards: [Card],
                days: [(day: Int, column: Int, delta: Int)], first: FlowTime, last: FlowTime) {
        self.columns = columns
        self.settling = settling
        self.settled = settled
        self.cards = cards
        self.days = days
        self.first = first
        self.last = last
    }
}

extension FlowMetrics {
    /// The metrics from a summary: the same report as replaying the history it folds (see `FlowSummary`).
    public static func compute(_ s: FlowSummary, options: FlowOptions) -> FlowReport {
        let now = options.now
        let startedKey = options.columns.started.flatMap { t in s.columns.first { $0.title == t }?.key }
        let doneKey = options.columns.done.flatMap { t in s.columns.first { $0.title == t }?.key }
        let stages = FlowMetrics.stages(of: s.columns, setting: options.columns, startedKey: startedKey, doneKey: doneKey)
        var stageOf: [Int: FlowStage] = [:]
        var titleOf: [Int: String] = [:]
        for (c, st) in zip(s.columns, stages) {
            stageOf[c.key] = st
            titleOf[c.key] = c.title
        }
        var finished: [FlowReport.FinishedCard] = []
        var inProgress: [(card: Int, title: String, column: String, started: FlowTime)] = []
        var cards: [Int: FlowReport.CardFlow] = [:]
        var remaining = 0
        let settling = s.settling.map { e -> (row: Int64, stage: [Int: FlowStage]) in
            let st = FlowMetrics.stages(of: e.columns, setting: options.columns, startedKey: startedKey, doneKey: doneKey)
            return (e.row, Dictionary(zip(e.columns.map(\.key), st), uniquingKeysWith: { a, _ in a }))
        }
        for card in s.cards {
            // Started: the first time it entered a column in progress or done; finished: the last
            // time it entered done from a column not done (or appeared there).
            var started: FlowTime?, lastDone: FlowTime?
            // A card added while the columns were being set went through what its column meant
            // in each set of columns until the last.
            let settlingAppearance = card.appearedRow < s.settled ? card.moves.first { $0.from == nil } : nil
            if let a = settlingAppearance {
                var seq: [FlowStage] = []
                if let seen = settling.last(where: { $0.row < card.appearedRow }) { seq.append(seen.stage[a.to] ?? .notStarted) }
                for e in settling where e.row > card.appearedRow { seq.append(e.stage[a.to] ?? .notStarted) }
                seq.append(stageOf[a.to] ?? .notStarted)
                var was = FlowStage.notStarted
                for stage in seq {
                    if stage != .notStarted && started == nil { started = a.first }
                    if stage == .done && was != .done { lastDone = a.first }
                    was = stage
                }
            }
            for m in card.moves where settlingAppearance == nil || m.from != nil {
                let to = stageOf[m.to] ?? .notStarted
                let from = m.from.map { stageOf[$0] ?? .notStarted } ?? .notStarted
                if to != .notStarted { started = min(started ?? m.first, m.first) }
                if to == .done && from != .done { lastDone = max(lastDone ?? m.last, m.last) }
            }
            let stage = stageOf[card.column] ?? .notStarted
            if stage == .done, let st = started, let f = lastDone {
                finished.append(.init(card: card.key, title: card.title, started: st, finished: f))
            }
            guard !card.gone else { continue }
            if stage == .inProgress { inProgress.append((card.key, card.title, titleOf[card.column] ?? "", started ?? card.appeared)) }
            if stage != .done { remaining += 1 }
            let timeIn = card.stints.sorted { $0.order < $1.order }.map { st in
                FlowReport.ColumnTime(column: titleOf[st.column] ?? "",
                                      seconds: st.seconds + (st.column == card.column ? now - card.entered : 0))
            }
            cards[card.key] = .init(appeared: card.appeared, started: started, finished: stage == .done ? lastDone : nil, timeIn: timeIn)
        }
        // Cumulative flow: each column's count at the end of each day, from the day changes.
        var cfd: [FlowReport.DayCounts] = []
        let firstDay = FlowDate.day(of: s.first), nowDay = FlowDate.day(of: now)
        let sinceDay = options.since.map(FlowDate.day)
        var count: [Int: Int] = [:]
        var byDay = s.days.sorted { $0.day < $1.day }[...]
        if firstDay <= nowDay {
            for day in firstDay...nowDay {
                while let d = byDay.first, d.day <= day {
                    count[d.column, default: 0] += d.delta
                    byDay = byDay.dropFirst()
                }
                if sinceDay.map({ day >= $0 }) ?? true {
                    cfd.append(FlowReport.DayCounts(day: day, counts: zip(s.columns, stages).map { ($0.title, $1, count[$0.key] ?? 0) }))
                }
            }
        }
        return report(options: options, columns: zip(s.columns, stages).map { ($0.title, $1) }, finished: finished,
                      inProgress: inProgress, cards: cards, remaining: remaining, cfd: cfd, first: s.first, last: s.last)
    }
}
