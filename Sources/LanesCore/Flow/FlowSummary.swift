/// A board's history folded per card, per (card, column) and per (day, column), as a server keeps
/// it (PostgreSQL's `lanes.flow_*` tables): enough for every metric, without every change.
///
/// It holds where cards went, not what columns mean; `FlowMetrics.compute` applies the columns'
/// meanings when it reads it, and gives what replaying the history's events gives. The columns
/// may change over time: each set of columns is an *epoch* (`epochs`), a move is kept with the
/// epoch it happened in, and a card's column when each epoch began (`Card.presence`), so each
/// set's meanings apply as the replay applies them. It stands for a "now" at or after its last
/// event (a reader falls back to the events otherwise).
public struct FlowSummary: Sendable {
    /// A card's moves of one kind (epoch, column left, column entered).
    public struct Move: Sendable {
        public var epoch: Int
        /// nil: it appeared.
        public var from: Int?
        public var to: Int
        public var first: FlowTime
        public var last: FlowTime
        /// The record's row of the last one (its order among moves and sets of columns at one time).
        public var lastRow: Int64
        public var lastBy: String?

        public init(
            epoch: Int, from: Int?, to: Int, first: FlowTime, last: FlowTime, lastRow: Int64 = 0,
            lastBy: String? = nil
        ) {
            self.epoch = epoch
            self.from = from
            self.to = to
            self.first = first
            self.last = last
            self.lastRow = lastRow
            self.lastBy = lastBy
        }
    }

    /// A card's current life (a card deleted and added again starts a new one).
    public struct Card: Sendable {
        public var key: Int
        /// The title of its last event.
        public var title: String
        /// The column it is in (or, when gone, the one it left).
        public var column: Int
        public var gone: Bool
        public var appeared: FlowTime
        /// The epoch it appeared in, and that of its last event (its deletion, when gone).
        public var appearedEpoch: Int
        public var epoch: Int
        /// When it entered `column`.
        public var entered: FlowTime
        /// Per column it entered: the seconds of its closed stays, and an order of first entry.
        public var stints: [(column: Int, order: Int64, seconds: Int64)]
        /// Per (epoch, column left, column entered; nil: it appeared): the first and last time, and
        /// the last one's place in the record and author (who finished it, when it entered done).
        public var moves: [Move]
        /// For each epoch after `appearedEpoch` in which it had an event: its column when the epoch began.
        /// (In an epoch without one, it was where its next such entry, or else `column`, says.)
        public var presence: [(epoch: Int, column: Int)]

        public init(
            key: Int, title: String, column: Int, gone: Bool, appeared: FlowTime, appearedEpoch: Int = 1,
            epoch: Int = 1,
            entered: FlowTime, stints: [(column: Int, order: Int64, seconds: Int64)] = [],
            moves: [Move] = [],
            presence: [(epoch: Int, column: Int)] = []
        ) {
            self.key = key
            self.title = title
            self.column = column
            self.gone = gone
            self.appeared = appeared
            self.appearedEpoch = appearedEpoch
            self.epoch = epoch
            self.entered = entered
            self.stints = stints
            self.moves = moves
            self.presence = presence
        }
    }

    /// The sets of columns, oldest first: epoch `e` (from 1) is `epochs[e - 1]`, from its moment
    /// on. A set equal to the one before is allowed (it changes nothing).
    public var epochs: [(at: FlowTime, columns: [FlowColumn])]
    /// The record's last row of each epoch (orders a new set of columns among moves at one time;
    /// empty: moves come after).
    public var epochRows: [Int64] = []
    public var cards: [Card]
    /// Per UTC day and column: how the column's card count changed that day.
    public var days: [(day: Int, column: Int, delta: Int)]
    /// The history's first and last events.
    public var first: FlowTime
    public var last: FlowTime

    /// The board's columns now, left to right (keys as the cards' columns name them).
    public var columns: [FlowColumn] { epochs.last?.columns ?? [] }

    public init(
        epochs: [(at: FlowTime, columns: [FlowColumn])], cards: [Card],
        days: [(day: Int, column: Int, delta: Int)], first: FlowTime, last: FlowTime
    ) {
        self.epochs = epochs
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
        // Per epoch (index 0: before the first), each column's meaning as the replay holds it (a
        // column gone from a set keeps the meaning it last had), which columns the set changed,
        // and each column's latest title.
        var stageAt: [[Int: FlowStage]] = [[:]]
        var changed: [Set<Int>] = [[]]
        var titleOf: [Int: String] = [:]
        var epochStages: [[FlowStage]] = [[]]
        for e in s.epochs {
            let st = FlowMetrics.stages(
                of: e.columns, setting: options.columns, startedKey: startedKey, doneKey: doneKey)
            var now = stageAt.last!
            var moved = Set<Int>()
            for (c, x) in zip(e.columns, st) {
                if now[c.key] != x { moved.insert(c.key) }
                now[c.key] = x
                titleOf[c.key] = c.title
            }
            stageAt.append(now)
            changed.append(moved)
            epochStages.append(st)
        }
        let last = s.epochs.count
        func stage(_ epoch: Int, _ column: Int?) -> FlowStage {
            guard let column, epoch >= 0, epoch < stageAt.count else { return .notStarted }
            return stageAt[epoch][column] ?? .notStarted
        }
        var finished: [FlowReport.FinishedCard] = []
        var inProgress: [(card: Int, title: String, column: String, started: FlowTime)] = []
        var cards: [Int: FlowReport.CardFlow] = [:]
        var remaining = 0
        for card in s.cards {
            // Started: the first time it entered a column in progress or done; finished: the last
            // time it entered done from a column not done (or appeared there), by a move or by a
            // new set of columns giving its column a new meaning.
            // Who finished it: the author of that last entry, in the record's order at one time (a new
            // set of columns has none).
            var started: FlowTime?, lastDone: FlowTime?
            var finish: (row: Int64, by: String?) = (.min, nil)
            func noteFinish(_ t: FlowTime, row: Int64, by: String?) {
                if let d = lastDone, (d, finish.row) >= (t, row) { return }
                lastDone = t
                finish = (row, by)
            }
            for m in card.moves {
                let to = stage(m.epoch, m.to)
                let from = stage(m.epoch, m.from)
                if to != .notStarted { started = min(started ?? m.first, m.first) }
                if to == .done && from != .done { noteFinish(m.last, row: m.lastRow, by: m.lastBy) }
            }
            let lastSeen = card.gone ? card.epoch : last
            if card.appearedEpoch < lastSeen {
                let presence = card.presence.sorted { $0.epoch < $1.epoch }
                var p = 0
                for e in (card.appearedEpoch + 1)...lastSeen {
                    while p < presence.count && presence[p].epoch < e { p += 1 }
                    let column = p < presence.count ? presence[p].column : card.column
                    guard changed[e].contains(column) else { continue }
                    let was = stage(e - 1, column), now = stage(e, column)
                    let t = s.epochs[e - 1].at
                    if now != .notStarted { started = min(started ?? t, t) }
                    if now == .done && was != .done {
                        noteFinish(t, row: e - 1 < s.epochRows.count ? s.epochRows[e - 1] : .min, by: nil)
                    }
                }
            }
            let stage = stage(lastSeen, card.column)
            if stage == .done, let st = started, let f = lastDone {
                finished.append(.init(card: card.key, title: card.title, started: st, finished: f, by: finish.by))
            }
            guard !card.gone else { continue }
            if stage == .inProgress {
                inProgress.append((card.key, card.title, titleOf[card.column] ?? "", started ?? card.appeared))
            }
            if stage != .done { remaining += 1 }
            let timeIn = card.stints.sorted { $0.order < $1.order }.map { st in
                FlowReport.ColumnTime(
                    column: titleOf[st.column] ?? "",
                    seconds: st.seconds + (st.column == card.column ? now - card.entered : 0))
            }
            cards[card.key] = .init(
                appeared: card.appeared, started: started, finished: stage == .done ? lastDone : nil, timeIn: timeIn)
        }
        // Cumulative flow: each column's count at the end of each day, from the day changes, under
        // the set of columns of the day's end.
        var cfd: [FlowReport.DayCounts] = []
        let firstDay = FlowDate.day(of: s.first), nowDay = FlowDate.day(of: now)
        let sinceDay = options.since.map(FlowDate.day)
        var count: [Int: Int] = [:]
        var byDay = s.days.sorted { $0.day < $1.day }[...]
        var epoch = 0
        if firstDay <= nowDay {
            for day in firstDay...nowDay {
                while let d = byDay.first, d.day <= day {
                    count[d.column, default: 0] += d.delta
                    byDay = byDay.dropFirst()
                }
                while epoch < last && FlowDate.day(of: s.epochs[epoch].at) <= day { epoch += 1 }
                if sinceDay.map({ day >= $0 }) ?? true {
                    let columns = epoch > 0 ? s.epochs[epoch - 1].columns : []
                    cfd.append(
                        FlowReport.DayCounts(
                            day: day,
                            counts: zip(columns, epochStages[epoch]).map { ($0.title, $1, count[$0.key] ?? 0) }))
                }
            }
        }
        return report(
            options: options, columns: zip(s.columns, epochStages[last]).map { ($0.title, $1) }, finished: finished,
            inProgress: inProgress, cards: cards, remaining: remaining, cfd: cfd, first: s.first, last: s.last)
    }
}
