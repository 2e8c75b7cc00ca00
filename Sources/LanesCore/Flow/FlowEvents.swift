import DragKit

/// A moment in a board's history: whole seconds since 1970-01-01 00:00:00 UTC.
public typealias FlowTime = Int64

/// A column as the board had it at some moment; `key` follows it through renames and moves.
public struct FlowColumn: Hashable, Sendable {
    public var key: Int
    public var title: String

    public init(key: Int, title: String) {
        self.key = key
        self.title = title
    }
}

/// One change in a board's history, as every history source (git, PostgreSQL) reports it.
///
/// Sources report where things are, never what that means: whether a column is "in progress"
/// or "done" is the metrics' business (`FlowColumns`), so a changed `lanes flow` setting needs
/// no new history. Events are in time order; at one time, a `columns` event comes first.
public enum FlowEvent: Hashable, Sendable {
    /// From `time` on, the board's columns are these, left to right.
    case columns(time: FlowTime, [FlowColumn])
    /// From `time` on, card `card` is titled `title` and sits in the column keyed `column`
    /// (it appeared there, moved there, or was edited in place); nil: the card left the board.
    /// `by`: who made the change, as the source names its writers (a git commit's author
    /// `Name <email>`, a server role); nil where the source cannot say (uncommitted changes, cards
    /// on the board before the server's record began).
    case card(time: FlowTime, card: Int, title: String, column: Int?, by: String? = nil)

    public var time: FlowTime {
        switch self {
        case .columns(let t, _), .card(let t, _, _, _, _): t
        }
    }
}

/// A version of the board a source could not read: skipped, and named in the output.
public struct SkippedVersion: Hashable, Sendable {
    /// The commit (full hash) or server revision.
    public var name: String
    public var time: FlowTime
    public var reason: String

    public init(name: String, time: FlowTime, reason: String) {
        self.name = name
        self.time = time
        self.reason = reason
    }
}

/// A board's history as one stream of events, with what the source has to say about it.
public struct FlowHistory: Sendable {
    public var events: [FlowEvent]
    /// Where the history came from, e.g. `git: boards/team.md in /src/project`.
    public var source: String
    /// How many versions were read (commits, or server changes), skipped ones included.
    public var versions: Int
    public var skipped: [SkippedVersion]
    /// Things the reader must know: a shallow clone, a rename followed, uncommitted changes counted.
    public var notes: [String]
    /// The last version read and the card key of each of its cards, column by column; lets the
    /// app find a card of the board on screen in the history (`cardKeys(matching:)`).
    public var lastBoard: Board
    public var lastKeys: [Int]
    /// The authors the source itself marks as agents (PostgreSQL: members of role `lanes_agents`);
    /// nil: it marks none (git's authors are named by the user, `FlowAgents.patterns`).
    public var agents: FlowAgents?
    /// The history folded, when the source keeps it so (PostgreSQL); `FlowMetrics.compute` reads it
    /// instead of `events` for a "now" at or after its last event.
    public var summary: FlowSummary?
    /// Versions of this read matched to the one before across the whole board (the rest were
    /// matched by their changed cards alone); a figure for the benchmark.
    public var wholeMatches = 0

    public init(
        events: [FlowEvent] = [], source: String, versions: Int = 0, skipped: [SkippedVersion] = [],
        notes: [String] = [], lastBoard: Board = Board(), lastKeys: [Int] = []
    ) {
        self.events = events
        self.source = source
        self.versions = versions
        self.skipped = skipped
        self.notes = notes
        self.lastBoard = lastBoard
        self.lastKeys = lastKeys
    }

    /// The history's card key of each card of `board` (matched to the last version read by the
    /// merge's identity rules); a card the history has not seen has none.
    public func cardKeys(matching board: Board) -> [CardID: Int] {
        let base = FlatBoard(lastBoard), side = FlatBoard(board)
        let m = BoardMatcher.match(base: base, side: side, by: .content)
        var keys: [CardID: Int] = [:]
        for (s, b) in m.cardToBase.enumerated() {
            if let b, b < lastKeys.count { keys[side.cards[s].id] = lastKeys[b] }
        }
        return keys
    }
}

/// Where a board's history cannot be had: said in words, with what would give one.
public struct NoHistory: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// Turns consecutive versions of a board into events, matching cards and columns version to
/// version with the merge's identity rules (`BoardMatcher`, by content: a card moved, edited or
/// renamed is the same card).
struct VersionChain {
    private(set) var events: [FlowEvent] = []
    /// The last version; its flat form is built when a whole match needs it (`add`), not after a splice.
    private var lastValue: Board?
    private var lastFlat: FlatBoard?
    private(set) var lastKeys: [Int] = []
    private(set) var lastColumns: [FlowColumn] = []
    private(set) var lastTime: FlowTime = .min
    private var nextCard = 1
    private var nextColumn = 1
    /// How many cards of the last version are counted under each of `twinKeys`; built when a
    /// spliced version first needs it, dropped by a whole match.
    private var titleCounts: [UInt64: Int]?
    /// Versions dated before the one before them (clock skew, rebases): their time was raised to it.
    private(set) var earlierDated = 0
    /// Versions matched to the one before across the whole board (`add(_:at:)` after a first version).
    private(set) var wholeMatches = 0
    /// Cards paired by place (an edited title) from the changed cards alone (`pairSlots`).
    private(set) var localSlotPairs = 0
    /// Spliced versions matched whole because a changed card has a twin.
    private(set) var twins = 0
    /// Who made the versions added from now on (the card events carry it); nil: nobody known.
    var author: String?

    init() {}

    /// Continues a chain from a cached state.
    init(last: Board, keys: [Int], columns: [FlowColumn], time: FlowTime, nextCard: Int, nextColumn: Int) {
        lastValue = last
        lastKeys = keys
        lastColumns = columns
        lastTime = time
        self.nextCard = nextCard
        self.nextColumn = nextColumn
    }

    var lastBoard: Board { lastValue ?? Board() }
    var counters: (card: Int, column: Int) { (nextCard, nextColumn) }

    /// Drops the events gathered so far (a caller that has stored them).
    mutating func takeEvents() -> [FlowEvent] {
        defer { events = [] }
        return events
    }

    /// The next version, at `time`; nil when the board is absent (deleted) in that version.
    mutating func add(_ board: Board?, at rawTime: FlowTime) {
        var time = rawTime
        if time < lastTime {
            earlierDated += 1
            time = lastTime
        }
        lastTime = time
        let side = FlatBoard(board ?? Board())
        let match: SideMatch?
        let last = lastFlat ?? lastValue.map(FlatBoard.init)
        if let base = last {
            wholeMatches += 1
            match = BoardMatcher.match(base: base, side: side, by: .content)
        } else {
            match = nil
        }
        // Columns.
        var columns: [FlowColumn] = []
        columns.reserveCapacity(side.board.columns.count)
        for (j, c) in side.board.columns.enumerated() {
            if let b = match?.columnToBase[j], b < lastColumns.count {
                columns.append(FlowColumn(key: lastColumns[b].key, title: c.title))
            } else {
                columns.append(FlowColumn(key: nextColumn, title: c.title))
                nextColumn += 1
            }
        }
        if columns != lastColumns { events.append(.columns(time: time, columns)) }
        // Cards: gone first, then where each one is now.
        var keys: [Int] = []
        keys.reserveCapacity(side.cards.count)
        if let match, let base = last {
            for (b, s) in match.baseToCard.enumerated() where s == nil {
                _ = base
                events.append(
                    .card(time: time, card: lastKeys[b], title: base.cards[b].title, column: nil, by: author))
            }
        }
        for s in side.cards.indices {
            let card = side.cards[s], column = columns[side.column[s]].key
            if let b = match?.cardToBase[s], let base = last {
                let key = lastKeys[b]
                keys.append(key)
                if lastColumns[base.column[b]].key != column || !sameBytes(base.cards[b].title, card.title) {
                    events.append(.card(time: time, card: key, title: card.title, column: column, by: author))
                }
            } else {
                keys.append(nextCard)
                events.append(.card(time: time, card: nextCard, title: card.title, column: column, by: author))
                nextCard += 1
            }
        }
        lastValue = side.board
        lastFlat = side
        titleCounts = nil
        lastKeys = keys
        lastColumns = columns
    }

    /// The next version when only some cards changed (`VersionSplice`): the flat cards `removed`
    /// of the last version became the flat cards `added` of `board`; every other card is the
    /// same card, in the same column, in the same order, and the columns are the same. The cards
    /// are paired as the merge's matcher pairs the whole boards, looking only at the changed
    /// cards and the unchanged cards next to them (`pairSlots`).
    mutating func add(_ board: Board, removed: [Int], added: [Int], at rawTime: FlowTime) {
        guard let base = lastValue, base.columns.count == board.columns.count, base.columns.count == lastColumns.count
        else {
            add(board, at: rawTime)
            return
        }
        // The columns' titles are unchanged lines, so the columns event stands.
        func starts(_ b: Board) -> [Int] { b.columns.reduce(into: [0]) { $0.append($0.last! + $1.cards.count) } }
        let baseStarts = starts(base), sideStarts = starts(board)
        // The changed cards alone, each in its column, as two small boards.
        func subBoard(_ from: Board, _ flats: [Int], _ starts: [Int]) -> (Board, [Int]) {
            var columns = from.columns.map { Column(id: $0.id, title: $0.title, cards: CardList()) }
            var at: [Int] = []
            for f in flats {
                let c = VersionChain.column(of: f, in: starts)
                columns[c].cards.append(from.columns[c].cards[f - starts[c]])
                at.append(c)
            }
            return (Board(columns: columns), at)
        }
        let (baseSub, baseColumn) = subBoard(base, removed, baseStarts)
        let (sideSub, sideColumn) = subBoard(board, added, sideStarts)
        let b = FlatBoard(baseSub), s = FlatBoard(sideSub)
        // Twins (cards whose titles, or titles but for tags, are equal) are told apart by their
        // positions in the whole boards, which the small boards do not hold: a changed card with
        // a twin in either version goes to the whole match.
        var counts = titleCounts ?? VersionChain.countTitles(base)
        var twin = false
        for card in b.cards { for k in VersionChain.twinKeys(card) where counts[k, default: 0] > 1 { twin = true } }
        for card in b.cards { for k in VersionChain.twinKeys(card) { counts[k, default: 0] -= 1 } }
        for card in s.cards { for k in VersionChain.twinKeys(card) { counts[k, default: 0] += 1 } }
        for card in s.cards { for k in VersionChain.twinKeys(card) where counts[k]! > 1 { twin = true } }
        if twin {
            twins += 1
            add(board, at: rawTime)
            return
        }
        titleCounts = counts
        // Pairs by equal content, title, or title but for its tags are what the whole match makes
        // of them: the other cards are the same on both sides, each paired with itself. A pair by
        // place depends on the neighbours, which the small boards lack: those are undone here
        // and decided against the whole boards by `pairSlots`.
        var match = BoardMatcher.match(base: b, side: s, by: .content)
        for (i, to) in match.baseToCard.enumerated() {
            if let to, !sameBytes(b.cards[i].title, s.cards[to].title),
                !sameUntagged(b.cards[i].title, s.cards[to].title)
            {
                match.baseToCard[i] = nil
                match.cardToBase[to] = nil
            }
        }
        localSlotPairs += VersionChain.pairSlots(
            &match, base: b, side: s, removed: removed, added: added,
            sideColumn: sideColumn, baseStarts: baseStarts, sideStarts: sideStarts)
        var time = rawTime
        if time < lastTime {
            earlierDated += 1
            time = lastTime
        }
        lastTime = time
        // Sub-board flat order is column by column; `removed`/`added` are in flat order, so the same.
        for (i, to) in match.baseToCard.enumerated() where to == nil {
            events.append(
                .card(time: time, card: lastKeys[removed[i]], title: b.cards[i].title, column: nil, by: author))
        }
        var keys: [Int] = []
        keys.reserveCapacity(board.cardCount)
        var oldNext = 0, removedNext = 0, addedNext = 0
        let total = sideStarts.last!
        for flat in 0..<total {
            if addedNext < added.count && added[addedNext] == flat {
                let card = s.cards[addedNext], col = lastColumns[sideColumn[addedNext]].key
                if let bi = match.cardToBase[addedNext] {
                    let key = lastKeys[removed[bi]]
                    keys.append(key)
                    if lastColumns[baseColumn[bi]].key != col || !sameBytes(b.cards[bi].title, card.title) {
                        events.append(.card(time: time, card: key, title: card.title, column: col, by: author))
                    }
                } else {
                    keys.append(nextCard)
                    events.append(.card(time: time, card: nextCard, title: card.title, column: col, by: author))
                    nextCard += 1
                }
                addedNext += 1
                continue
            }
            while removedNext < removed.count && removed[removedNext] == oldNext {
                removedNext += 1
                oldNext += 1
            }
            keys.append(lastKeys[oldNext])
            oldNext += 1
        }
        lastValue = board
        lastFlat = nil
        lastKeys = keys
    }

    /// The keys a card's title is counted under: its title, and its title but for its tags.
    static func twinKeys(_ card: Card) -> [UInt64] {
        [titleHash(card), untaggedTitleHash(card) ^ 0x9E37_79B9_7F4A_7C15]
    }

    /// How many cards of `board` are counted under each of `twinKeys`.
    static func countTitles(_ board: Board) -> [UInt64: Int] {
        var counts: [UInt64: Int] = [:]
        counts.reserveCapacity(board.cardCount * 2)
        for column in board.columns {
            for card in column.cards { for k in twinKeys(card) { counts[k, default: 0] += 1 } }
        }
        return counts
    }

    /// The column of a flat card index, given each column's first flat index.
    static func column(of flat: Int, in starts: [Int]) -> Int {
        var lo = 0, hi = starts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if starts[mid] <= flat { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// Step 3 of `BoardMatcher.match` (its `pairSlots`) over the whole boards, computed from the
    /// changed cards alone: `base`/`side` hold the `removed`/`added` cards (by flat index of the
    /// whole boards), `match` pairs them by everything but place, and every other card is paired
    /// with itself. Each added card left unpaired, in order, takes the removed card in its slot
    /// (after the counterpart of the card before it, else before that of the card after it, else
    /// at its own index) when the titles are similar, exactly as the whole match would; the
    /// neighbours it looks at are whole-board cards, changed or not. FlowSpliceTests hold the
    /// two together. Returns how many cards it paired.
    static func pairSlots(
        _ match: inout SideMatch, base: FlatBoard, side: FlatBoard, removed: [Int], added: [Int],
        sideColumn: [Int], baseStarts: [Int], sideStarts: [Int]
    ) -> Int {
        guard match.cardToBase.contains(where: { $0 == nil }), match.baseToCard.contains(where: { $0 == nil }) else {
            return 0
        }
        var paired = 0
        var removedAt: [Int: Int] = [:], addedAt: [Int: Int] = [:]
        for (i, f) in removed.enumerated() { removedAt[f] = i }
        for (i, f) in added.enumerated() { addedAt[f] = i }
        // The whole match's base counterpart of side card `f` (an unchanged card is its own).
        func counterpart(_ f: Int) -> Int? {
            if let a = addedAt[f] { return match.cardToBase[a].map { removed[$0] } }
            var k = f, lo = 0, hi = added.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if added[mid] < f { lo = mid + 1 } else { hi = mid }
            }
            k -= lo
            for r in removed {
                if r <= k { k += 1 } else { break }
            }
            return k
        }
        func unpaired(_ f: Int) -> Bool { removedAt[f].map { match.baseToCard[$0] == nil } ?? false }
        for a in added.indices where match.cardToBase[a] == nil {
            let f = added[a], j = sideColumn[a]
            let p = f - sideStarts[j], count = sideStarts[j + 1] - sideStarts[j]
            let baseStart = baseStarts[j], baseCount = baseStarts[j + 1] - baseStart
            var bp: Int?
            if p == 0 {
                bp = 0
            } else if let prev = counterpart(f - 1), prev >= baseStart, prev < baseStart + baseCount {
                bp = prev - baseStart + 1
            }
            var exact = false
            if let q = bp, q < baseCount {
                let next = p + 1 < count ? counterpart(f + 1) : nil
                exact = (p + 1 == count && q + 1 == baseCount) || next == baseStart + q + 1
            }
            if bp == nil || bp! >= baseCount || !unpaired(baseStart + bp!) {
                if p + 1 < count, let next = counterpart(f + 1), next > baseStart, next < baseStart + baseCount {
                    bp = next - baseStart - 1
                } else {
                    bp = p
                }
                exact = false
            }
            guard let q = bp, q >= 0, q < baseCount, unpaired(baseStart + q), let r = removedAt[baseStart + q] else {
                continue
            }
            if BoardMatcher.similar(base.cards[r], side.cards[a], exactSlot: exact) {
                match.pair(r, a)
                paired += 1
            }
        }
        return paired
    }
}
