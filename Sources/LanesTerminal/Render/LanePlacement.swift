import DragKit
import LanesCore
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One column's cards sorted into lanes: what the lane view draws and drags them by.
///
/// A pure function of (the column's cards, the lanes); `LanePlacementCache` keeps it between
/// layouts, so a frame, a scroll or a view switch does not read 10,000 titles again. A cell's
/// cards as a list (`cards(inLane:)`) are made the first time the screen asks for them, then kept.
public struct ColumnLanes: Sendable {
    /// The cards and lanes it was computed from.
    public let cards: CardList
    public let swimlanes: Swimlanes
    /// Per lane (then "No lane", index `swimlanes.count`): the indices in the column of its
    /// cards, in column order.
    public let indices: [[Int]]
    /// Cards carrying another lane's tag besides the one they are shown in.
    public let alsoIn: [ItemID: [Int]]
    private let lists: Lists

    /// The cells' card lists made so far (shared by copies: a pure function of the rest).
    final class Lists: Sendable {
        let made: Mutex<[CardList?]>
        init(count: Int) { made = Mutex(Array(repeating: nil, count: count)) }
    }

    public init(cards: CardList, swimlanes: Swimlanes) {
        self.init(cards: cards, swimlanes: swimlanes, finder: LaneTagFinder(swimlanes))
    }

    init(cards: CardList, swimlanes: Swimlanes, finder: LaneTagFinder) {
        self.cards = cards
        self.swimlanes = swimlanes
        var indices = [[Int]](repeating: [], count: swimlanes.count + 1)
        var alsoIn: [ItemID: [Int]] = [:]
        var i = 0
        // Chunk by chunk, each card lent to the closure rather than copied (`for in` would
        // retain and release every card's strings: a fifth of the time on 10,000 cards).
        _ = cards.firstIndex { card in
            let (lane, others) = finder.placement(of: card)
            indices[lane ?? swimlanes.count].append(i)
            if !others.isEmpty { alsoIn[card.id] = others }
            i += 1
            return false
        }
        self.indices = indices
        self.alsoIn = alsoIn
        lists = Lists(count: swimlanes.count + 1)
    }

    /// The cards of lane `lane` in this column, in column order (a column all in one lane
    /// shares the column's own list).
    public func cards(inLane lane: Int) -> CardList {
        lists.made.withLock { made in
            if let l = made[lane] { return l }
            let wanted = indices[lane]
            let l = wanted.count == cards.count ? cards : CardList(wanted.lazy.map { cards[$0] })
            made[lane] = l
            return l
        }
    }
}

/// `Swimlanes.placement(ofTitle:)`, fast: a title's bytes are searched for `#`, and only what
/// stands around each one is read; where that is not ASCII (a Unicode blank before the `#`, a
/// letter or a combining mark after it) the title is placed by `Swimlanes` itself. Both give
/// the same answer (`LanePlacementTests` checks it on every shape of tag boundary).
public struct LaneTagFinder: Sendable {
    let swimlanes: Swimlanes
    /// The lane tags lowercased, as bytes, in lane order, when ASCII.
    let asciiTags: [(bytes: [UInt8], lane: Int)]
    /// An open-addressed table of `asciiTags` by `hash` (a power of two long, at most half full;
    /// -1: empty): a title's tag is looked up without hashing it a second time.
    let slots: [Int]
    /// Lowercased lane tag → lane, for the tags that are not ASCII (nil when there are none).
    let otherTags: [String: Int]?

    public init(_ swimlanes: Swimlanes) {
        self.swimlanes = swimlanes
        var ascii: [(bytes: [UInt8], lane: Int)] = []
        var other: [String: Int] = [:]
        for (k, t) in swimlanes.tags.enumerated() {
            let lower = t.lowercased()
            if lower.utf8.allSatisfy({ $0 < 0x80 }) { ascii.append((Array(lower.utf8), k)) }
            else if other[lower] == nil { other[lower] = k }
        }
        asciiTags = ascii
        var size = 8
        while size < ascii.count * 2 { size *= 2 }
        var slots = [Int](repeating: -1, count: size)
        for (k, t) in ascii.enumerated() {
            var at = Int(truncatingIfNeeded: t.bytes.withUnsafeBufferPointer { LaneTagFinder.hash($0) }) & (size - 1)
            while slots[at] >= 0 { at = (at + 1) & (size - 1) }
            slots[at] = k
        }
        self.slots = slots
        otherTags = other.isEmpty ? nil : other
    }

    /// The card's lane (nil: "No lane") and the other lanes whose tags it carries, in lane order;
    /// its title's bytes are read where they are kept (no `String` is built unless a byte around
    /// a `#` is not ASCII).
    public func placement(of card: Card) -> (lane: Int?, alsoIn: [Int]) {
        if let found = card.withTitleUTF8({ scan($0) }) { return found }
        let p = swimlanes.placement(ofTitle: card.title)
        return (p.lane, p.alsoIn)
    }

    /// The placement read from the bytes around each `#`; nil when one of them is not ASCII
    /// (then `Card.tags`, which reads characters, decides).
    func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> (lane: Int?, alsoIn: [Int])? {
        var first: Int?
        var more: [Int] = []
        let n = bytes.count
        var i = 0
        guard let base = bytes.baseAddress else { return (nil, []) }
        while i < n {
            guard let hit = memchr(base + i, 0x23, n - i) else { break }  // the next `#`
            let at = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
            i = at + 1
            // A tag starts after a blank that is a character of its own (or at the start):
            // a mark before the blank may join it (a prepended one), so that byte must be ASCII too.
            if at > 0 {
                let before = bytes[at - 1]
                if before >= 0x80 { return nil }
                guard LaneTagFinder.isBlank(before) else { continue }
                if at > 1, bytes[at - 2] >= 0x80 { return nil }
            }
            var j = at + 1
            while j < n, LaneTagFinder.isTagByte(bytes[j]) { j += 1 }
            // A Unicode letter would go on with the tag; a combining mark would join the `#` or a letter.
            if j < n, bytes[j] >= 0x80 { return nil }
            i = j
            guard j > at + 1 else { continue }
            guard let lane = lane(ofTag: UnsafeBufferPointer(rebasing: bytes[(at + 1)..<j])) else { continue }
            if let f = first {
                if lane != f && !more.contains(lane) {
                    if lane < f { more.append(f); first = lane } else { more.append(lane) }
                }
            } else {
                first = lane
            }
        }
        if more.count > 1 { more.sort() }
        return (first, more)
    }

    /// The lane of an ASCII tag, compared ignoring case.
    func lane(ofTag tag: UnsafeBufferPointer<UInt8>) -> Int? {
        let mask = slots.count - 1
        var at = Int(truncatingIfNeeded: LaneTagFinder.hash(tag)) & mask
        while slots[at] >= 0 {
            let k = slots[at]
            let found = asciiTags.withUnsafeBufferPointer { tags in
                tags[k].bytes.withUnsafeBufferPointer { LaneTagFinder.equalIgnoringCase(tag, $0) }
            }
            if found { return asciiTags[k].lane }
            at = (at + 1) & mask
        }
        guard let otherTags else { return nil }
        return otherTags[String(decoding: tag, as: UTF8.self).lowercased()]
    }

    /// FNV-1a of the bytes, ASCII letters lowercased.
    @inline(__always) static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b >= 0x41 && b <= 0x5A ? b | 0x20 : b)) &* 0x100_0000_01b3 }
        return h
    }

    /// Whether an ASCII tag is `lower` (lowercase bytes), ignoring case.
    @inline(__always) static func equalIgnoringCase(_ tag: UnsafeBufferPointer<UInt8>, _ lower: UnsafeBufferPointer<UInt8>) -> Bool {
        guard tag.count == lower.count else { return false }
        for k in 0..<tag.count where (tag[k] >= 0x41 && tag[k] <= 0x5A ? tag[k] | 0x20 : tag[k]) != lower[k] { return false }
        return true
    }

    /// Letters, digits, `_`, `-` and `/`: what a tag is made of (`Card.tags`), in ASCII.
    @inline(__always) static func isTagByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D || b == 0x2F
    }

    /// Unicode's white space in ASCII: tab, line feed, vertical tab, form feed, return, space.
    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { (b >= 0x09 && b <= 0x0D) || b == 0x20 }
}

/// Remembers each column's `ColumnLanes` between layouts: a column is sorted into lanes again
/// only when its cards or the lanes change (a drop re-sorts the two columns it touched).
/// Comparing an unchanged column's cards is cheap: they share storage.
public final class LanePlacementCache {
    private var entries: [ColumnID: ColumnLanes] = [:]

    public init() {}

    /// Every column of `board` sorted into `swimlanes`, in column order.
    public func lanes(of board: Board, _ swimlanes: Swimlanes) -> [ColumnLanes] {
        var finder: LaneTagFinder?
        let placed = board.columns.map { column -> ColumnLanes in
            if let e = entries[column.id], e.swimlanes == swimlanes, e.cards == column.cards { return e }
            let f = finder ?? LaneTagFinder(swimlanes)
            finder = f
            let e = ColumnLanes(cards: column.cards, swimlanes: swimlanes, finder: f)
            entries[column.id] = e
            return e
        }
        if entries.count > board.columns.count {
            let ids = Set(board.columns.map(\.id))
            entries = entries.filter { ids.contains($0.key) }
        }
        return placed
    }

    public func removeAll() { entries.removeAll() }
}
