/// `Swimlanes.placement(ofTitle:)`, fast: a title's bytes are searched for `#`, and only what
/// stands around each one is read; where that is not ASCII (a Unicode blank before the `#`, a
/// letter or a combining mark after it) the title is placed by `Swimlanes` itself. Both give
/// the same answer (`LaneTagFinderTests` checks it on every shape of tag boundary).
public struct LaneTagFinder: Sendable {
    /// `Scanner.lane(of:alsoIn:)`: the title carries no lane tag.
    static let noLane = -1
    /// `Scanner.lane(of:alsoIn:)`: a byte next to a `#` or a tag is not ASCII (`Swimlanes` decides).
    static let unread = -2

    let swimlanes: Swimlanes
    /// The ASCII lane tags lowercased, one after the other.
    let pool: [UInt8]
    /// Per ASCII lane tag: where it starts in `pool`, its length, its lane, and its first eight
    /// bytes folded (`fold`), which are the whole tag when it is that short.
    let entries: [Entry]
    /// An open-addressed table of `entries` by `slot` (a power of two long, at most half full;
    /// -1: empty).
    let slots: [Int32]
    /// Lowercased lane tag → lane, for the tags that are not ASCII (nil when there are none).
    let otherTags: [String: Int]?
    /// Per byte: the byte folded (`fold`) when tags are made of it, 0 when they are not.
    let tagBytes: [UInt8]
    /// `tagBytes`' contents, made once.
    static let tagByteTable: [UInt8] = (0..<256).map { b in isTagByte(UInt8(b)) ? UInt8(b) | 0x20 : 0 }

    public init(_ swimlanes: Swimlanes) {
        self.swimlanes = swimlanes
        var pool: [UInt8] = []
        var entries: [Entry] = []
        var other: [String: Int] = [:]
        for (k, t) in swimlanes.tags.enumerated() {
            // A tag that is not ASCII may lowercase to ASCII (the Kelvin sign).
            let lower = Swimlanes.lowercased(t)
            if lower.utf8.allSatisfy({ $0 < 0x80 }) {
                entries.append(
                    Entry(
                        start: Int32(pool.count), count: Int32(lower.utf8.count), lane: Int32(k),
                        word: LaneTagFinder.word(of: Array(lower.utf8))))
                pool.append(contentsOf: lower.utf8)
            } else if other[lower] == nil {
                other[lower] = k
            }
        }
        var size = 8
        while size < entries.count * 2 { size *= 2 }
        var slots = [Int32](repeating: -1, count: size)
        for (k, e) in entries.enumerated() {
            var at = LaneTagFinder.slot(word: e.word, count: Int(e.count), mask: size - 1)
            while slots[at] >= 0 { at = (at + 1) & (size - 1) }
            slots[at] = Int32(k)
        }
        self.pool = pool
        self.entries = entries
        self.slots = slots
        otherTags = other.isEmpty ? nil : other
        tagBytes = LaneTagFinder.tagByteTable
    }

    /// Every card of `cards` placed, in order: `lanes[i]` is card `i`'s lane (`swimlanes.count`
    /// for "No lane"), `counts[l]` goes up by one for each card in lane `l`; the cards that carry
    /// other lanes' tags too come back with those lanes, in lane order.
    ///
    /// One loop over the cards as they are stored, the titles' bytes read where they are kept:
    /// no closure, string or retain per card (this is most of what opening in swimlanes adds).
    public func place(
        _ cards: CardList, lanes: UnsafeMutableBufferPointer<Int32>,
        counts: UnsafeMutableBufferPointer<Int>
    ) -> [(index: Int, alsoIn: [Int])] {
        precondition(lanes.count >= cards.count && counts.count > swimlanes.count)
        let none = swimlanes.count
        var several: [(index: Int, alsoIn: [Int])] = []
        var more: [Int] = []
        var i = 0
        withScanner { scanner in
            for chunk in cards.storageChunks {
                chunk.withUnsafeBufferPointer { chunk in
                    for k in 0..<chunk.count {
                        var lane = scanner.lane(of: chunk[k].titleText.unsafeUTF8, alsoIn: &more)
                        if lane == LaneTagFinder.unread {
                            let p = swimlanes.placement(ofTitle: chunk[k].title)
                            lane = p.lane ?? LaneTagFinder.noLane
                            more = p.alsoIn
                        }
                        let l = lane < 0 ? none : lane
                        lanes[i] = Int32(truncatingIfNeeded: l)
                        counts[l] &+= 1
                        if !more.isEmpty {
                            several.append((i, more))
                            more = []
                        }
                        i &+= 1
                    }
                }
            }
        }
        return several
    }

    /// The finder's tables as pointers, for a loop over many titles.
    func withScanner<R>(_ body: (Scanner) -> R) -> R {
        pool.withUnsafeBufferPointer { pool in
            entries.withUnsafeBufferPointer { entries in
                slots.withUnsafeBufferPointer { slots in
                    tagBytes.withUnsafeBufferPointer { tagBytes in
                        body(
                            Scanner(
                                pool: pool, entries: entries, slots: slots, tagBytes: tagBytes, otherTags: otherTags))
                    }
                }
            }
        }
    }

    /// The finder's tables, valid inside `withScanner`.
    struct Scanner {
        let pool: UnsafeBufferPointer<UInt8>
        let entries: UnsafeBufferPointer<Entry>
        let slots: UnsafeBufferPointer<Int32>
        let tagBytes: UnsafeBufferPointer<UInt8>
        let otherTags: [String: Int]?

        /// The lane of a title's bytes (`noLane`, or `unread` when a byte around a `#` is not
        /// ASCII: then `Card.tags`, which reads characters, decides); the other lanes it carries
        /// are put in `alsoIn` (empty on entry), in lane order.
        @inline(__always)
        func lane(of bytes: UnsafeBufferPointer<UInt8>, alsoIn more: inout [Int]) -> Int {
            guard let base = bytes.baseAddress else { return LaneTagFinder.noLane }
            var first = LaneTagFinder.noLane
            let n = bytes.count
            var i = 0
            while i < n {
                let at = LaneTagFinder.nextHash(base, from: i, count: n)  // the next `#`
                guard at < n else { break }
                i = at &+ 1
                // A tag starts after a blank that is a character of its own (or at the start):
                // a mark before the blank may join it (a prepended one), so that byte must be ASCII too.
                if at > 0 {
                    let before = base[at &- 1]
                    if before >= 0x80 { return LaneTagFinder.unread }
                    guard LaneTagFinder.isBlank(before) else { continue }
                    if at > 1, base[at &- 2] >= 0x80 { return LaneTagFinder.unread }
                }
                // The tag's first eight bytes folded as it is read: what finds it in the table.
                var j = at &+ 1
                var word: UInt64 = 0
                var shift: UInt64 = 0
                while j < n {
                    let folded = tagBytes[Int(base[j])]
                    if folded == 0 { break }
                    if shift < 64 { word |= UInt64(folded) &<< shift; shift &+= 8 }
                    j &+= 1
                }
                // A Unicode letter would go on with the tag; a combining mark would join the `#` or a letter.
                if j < n, base[j] >= 0x80 { return LaneTagFinder.unread }
                i = j
                guard j > at &+ 1 else { continue }
                let lane = self.lane(
                    ofTag: UnsafeBufferPointer(start: base + (at &+ 1), count: j &- at &- 1), word: word)
                guard lane >= 0 else { continue }
                if first < 0 {
                    first = lane
                } else if lane != first && !more.contains(lane) {
                    if lane < first { more.append(first); first = lane } else { more.append(lane) }
                }
            }
            if more.count > 1 { more.sort() }
            return first
        }

        /// The lane of a tag whose first eight bytes folded are `word`, compared ignoring case
        /// (`noLane`: not a lane's).
        @inline(__always)
        func lane(ofTag tag: UnsafeBufferPointer<UInt8>, word: UInt64) -> Int {
            let mask = slots.count - 1
            var at = LaneTagFinder.slot(word: word, count: tag.count, mask: mask)
            while slots[at] >= 0 {
                let e = entries[Int(slots[at])]
                if Int(e.count) == tag.count, e.word == word,
                    tag.count <= 8
                        || LaneTagFinder.equalIgnoringCase(
                            tag, UnsafeBufferPointer(rebasing: pool[Int(e.start)..<Int(e.start + e.count)]))
                {
                    return Int(e.lane)
                }
                at = (at + 1) & mask
            }
            guard let otherTags else { return LaneTagFinder.noLane }
            return otherTags[String(decoding: tag, as: UTF8.self).lowercased()] ?? LaneTagFinder.noLane
        }
    }

    /// An ASCII lane tag in the table.
    struct Entry {
        var start: Int32
        var count: Int32
        var lane: Int32
        var word: UInt64
    }

    /// A tag byte with case folded: `| 0x20` maps each ASCII letter to its lowercase and every
    /// other tag byte (digits, `-`, `/`, and `_` to 0x7F) to a byte no other tag byte maps to,
    /// so two tags of at most eight bytes are equal ignoring case exactly when their words are.
    @inline(__always) static func fold(_ b: UInt8) -> UInt64 { UInt64(b | 0x20) }

    /// The first eight bytes of a tag, folded, the first in the lowest byte.
    static func word(of tag: [UInt8]) -> UInt64 {
        var w: UInt64 = 0
        for (k, b) in tag.prefix(8).enumerated() { w |= fold(b) << (8 * UInt64(k)) }
        return w
    }

    /// A tag's place in the table: its word and length mixed by one multiplication (Fibonacci
    /// hashing), the high bits taken.
    @inline(__always) static func slot(word: UInt64, count: Int, mask: Int) -> Int {
        Int(truncatingIfNeeded: ((word ^ UInt64(truncatingIfNeeded: count) &<< 59) &* 0x9E37_79B9_7F4A_7C15) >> 32)
            & mask
    }

    /// Whether an ASCII tag is `lower` (lowercase bytes), ignoring case.
    @inline(__always) static func equalIgnoringCase(
        _ tag: UnsafeBufferPointer<UInt8>, _ lower: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard tag.count == lower.count else { return false }
        for k in 0..<tag.count where (tag[k] >= 0x41 && tag[k] <= 0x5A ? tag[k] | 0x20 : tag[k]) != lower[k] {
            return false
        }
        return true
    }

    /// Where the next `#` is in `base[start..<n]` (`n`: none), a block of bytes at a time: a title
    /// is short, and a call to `memchr` for each cost more than the search (13 % of placing).
    @inline(__always) static func nextHash(_ base: UnsafePointer<UInt8>, from start: Int, count n: Int) -> Int {
        let raw = UnsafeRawPointer(base)
        var i = start
        // Sixteen bytes at a time while a whole block is left (whether it holds a `#` at all),
        // then eight (where), then one.
        let hashes = SIMD16<UInt8>(repeating: 0x23)
        while i &+ 16 <= n {
            if any(raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self) .== hashes) { break }
            i &+= 16
        }
        while i &+ 8 <= n {
            // A byte of `x` is zero where the word has `#`; the lowest flagged byte is always a true one.
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) ^ 0x2323_2323_2323_2323
            let found = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
            if found != 0 { return i &+ (found.trailingZeroBitCount &>> 3) }
            i &+= 8
        }
        while i < n {
            if base[i] == 0x23 { return i }
            i &+= 1
        }
        return n
    }

    /// Letters, digits, `_`, `-` and `/`: what a tag is made of (`Card.tags`), in ASCII.
    @inline(__always) static func isTagByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39) || b == 0x5F || b == 0x2D
            || b == 0x2F
    }

    /// Unicode's white space in ASCII: tab, line feed, vertical tab, form feed, return, space.
    @inline(__always) static func isBlank(_ b: UInt8) -> Bool { (b >= 0x09 && b <= 0x0D) || b == 0x20 }
}
