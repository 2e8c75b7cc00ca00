/// A column's cards, kept in chunks so that changing one card copies one chunk, not the column.
///
/// Board versions share storage (undo steps, the last stored board, a save in flight), so the
/// first change after a copy pays for what it copies: with one array a drop in a 25,000-card
/// column copied 1.2 MB and retained every card (1.4–3 ms, and 2.4 MB kept per undo step).
/// Here it copies one chunk of at most `maxChunk` cards plus the small chunk tables.
/// Chunks that two versions still share compare equal without looking at their cards, which
/// is what lets a board comparison or a diff skip the untouched parts of a big column.
///
/// Positions are plain `Int` offsets; reaching one takes a binary search over the chunk ends
/// (nothing at all while the column is a single chunk, as every column under 1,024 cards is).
public struct CardList: Sendable {
    /// How many cards a chunk holds when a list is built in one go.
    static let fillChunk = 512
    /// A chunk growing past this splits in two.
    static let maxChunk = 1024

    private var chunks: [[Card]]
    /// `ends[k]`: how many cards `chunks[0...k]` hold.
    private var ends: [Int]

    public init() {
        chunks = []
        ends = []
    }

    public init<S: Sequence>(_ cards: S) where S.Element == Card {
        chunks = []
        ends = []
        var chunk: [Card] = []
        chunk.reserveCapacity(Self.fillChunk)
        for card in cards {
            chunk.append(card)
            if chunk.count == Self.fillChunk {
                appendChunk(chunk)
                chunk = []
                chunk.reserveCapacity(Self.fillChunk)
            }
        }
        if !chunk.isEmpty { appendChunk(chunk) }
    }

    /// The cards at `indices`, in that order, as a list of their own (one lane's cards in a
    /// column): filled a chunk at a time, each chunk's room taken at once, each card found by
    /// its chunk directly while the indices rise (they do for a lane).
    public func picking(_ indices: [Int]) -> CardList {
        var picked = CardList()
        var chunk: [Card] = []
        chunk.reserveCapacity(Swift.min(indices.count, Self.fillChunk))
        var k = 0  // the chunk holding the last index taken
        for i in indices {
            if k >= chunks.count || i >= ends[k] || i < start(of: k) { k = locate(i).chunk }
            chunk.append(chunks[k][i - start(of: k)])
            if chunk.count == Self.fillChunk {
                picked.appendChunk(chunk)
                chunk = []
                chunk.reserveCapacity(Swift.min(indices.count - picked.count, Self.fillChunk))
            }
        }
        if !chunk.isEmpty { picked.appendChunk(chunk) }
        return picked
    }

    private mutating func appendChunk(_ chunk: [Card]) {
        chunks.append(chunk)
        ends.append((ends.last ?? 0) + chunk.count)
    }

    /// The chunk holding position `i` (`0 <= i < count`) and the offset in it.
    @inline(__always)
    private func locate(_ i: Int) -> (chunk: Int, offset: Int) {
        if chunks.count == 1 { return (0, i) }
        var low = 0, high = ends.count - 1
        while low < high {
            let mid = (low + high) / 2
            if ends[mid] > i { high = mid } else { low = mid + 1 }
        }
        return (low, i - start(of: low))
    }

    private mutating func shiftEnds(from k: Int, by delta: Int) {
        for j in k..<ends.count { ends[j] += delta }
    }

    /// The chunks themselves, in order (for code that caches by chunk, see `CardTextCache`).
    var storageChunks: [[Card]] { chunks }

    /// The cards as one array (copies them).
    public var array: [Card] {
        if chunks.count == 1 { return chunks[0] }
        var all: [Card] = []
        all.reserveCapacity(count)
        for chunk in chunks { all.append(contentsOf: chunk) }
        return all
    }

    /// Whether both lists hold the very same storage for positions `range` (no card compared).
    /// False says nothing: the cards may still be equal.
    public func sharesStorage(with other: CardList, in range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return true }
        guard range.upperBound <= count, range.upperBound <= other.count else { return false }
        let first = locate(range.lowerBound).chunk, last = locate(range.upperBound - 1).chunk
        guard last < other.chunks.count, start(of: first) == other.start(of: first) else { return false }
        for k in first...last where ends[k] != other.ends[k] || !Self.same(chunks[k], other.chunks[k]) { return false }
        return true
    }

    private func start(of k: Int) -> Int { k == 0 ? 0 : ends[k - 1] }

    private static func same(_ a: [Card], _ b: [Card]) -> Bool {
        a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress && x.count == y.count }
        }
    }

    /// Where the lists differ: the window between their longest common prefix and suffix, as
    /// ranges in each (`nil` when equal). Chunks the two share at either end are skipped unread.
    public func changedSpan(from old: CardList) -> (old: Range<Int>, new: Range<Int>)? {
        let n = count, m = old.count, limit = Swift.min(n, m)
        var prefix = 0, k = 0
        while k < chunks.count, k < old.chunks.count, Self.same(chunks[k], old.chunks[k]) {
            prefix += chunks[k].count
            k += 1
        }
        prefix = Swift.min(prefix, limit)
        while prefix < limit && self[prefix] == old[prefix] { prefix += 1 }
        if prefix == limit && n == m { return nil }
        var suffix = 0, j = 0
        while j < chunks.count - k, j < old.chunks.count - k,
            Self.same(chunks[chunks.count - 1 - j], old.chunks[old.chunks.count - 1 - j])
        {
            suffix += chunks[chunks.count - 1 - j].count
            j += 1
        }
        suffix = Swift.min(suffix, limit - prefix)
        while suffix < limit - prefix && self[n - 1 - suffix] == old[m - 1 - suffix] { suffix += 1 }
        return (prefix..<(m - suffix), prefix..<(n - suffix))
    }
}

extension CardList: RandomAccessCollection, MutableCollection {
    public typealias Index = Int
    public typealias Indices = Range<Int>

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.last ?? 0 }
    public var count: Int { ends.last ?? 0 }
    public var isEmpty: Bool { ends.isEmpty }
    public var indices: Range<Int> { 0..<count }
    @inline(__always) public func index(after i: Int) -> Int { i + 1 }
    @inline(__always) public func index(before i: Int) -> Int { i - 1 }

    public subscript(i: Int) -> Card {
        get {
            precondition(i >= 0 && i < count, "CardList index out of range")
            let (k, o) = locate(i)
            return chunks[k][o]
        }
        _modify {
            precondition(i >= 0 && i < count, "CardList index out of range")
            let (k, o) = locate(i)
            yield &chunks[k][o]
        }
    }

    public var first: Card? { chunks.first?.first }
    public var last: Card? { chunks.last?.last }

    public struct Iterator: IteratorProtocol {
        fileprivate let chunks: [[Card]]
        fileprivate var k = 0, o = 0

        public mutating func next() -> Card? {
            while k < chunks.count {
                if o < chunks[k].count {
                    defer { o += 1 }
                    return chunks[k][o]
                }
                k += 1
                o = 0
            }
            return nil
        }
    }

    public func makeIterator() -> Iterator { Iterator(chunks: chunks) }

    public var underestimatedCount: Int { count }

    /// Chunk by chunk (the collection default would search for every position).
    public func map<T, E>(_ transform: (Card) throws(E) -> T) throws(E) -> [T] {
        var out: [T] = []
        out.reserveCapacity(count)
        for chunk in chunks { for card in chunk { out.append(try transform(card)) } }
        return out
    }

    /// The positions of the cards whose title passes `test`, in order; each title is read where
    /// it is stored (no card is copied to read it).
    public func offsets(whereTitle test: (String) -> Bool) -> [Int] {
        var found: [Int] = []
        var base = 0
        for chunk in chunks {
            for o in chunk.indices where test(chunk[o].title) { found.append(base + o) }
            base += chunk.count
        }
        return found
    }

    public func firstIndex(where found: (Card) throws -> Bool) rethrows -> Int? {
        var base = 0
        for chunk in chunks {
            if let o = try chunk.firstIndex(where: found) { return base + o }
            base += chunk.count
        }
        return nil
    }

    public func lastIndex(where found: (Card) throws -> Bool) rethrows -> Int? {
        for k in chunks.indices.reversed() {
            if let o = try chunks[k].lastIndex(where: found) { return start(of: k) + o }
        }
        return nil
    }

    public func withContiguousStorageIfAvailable<R>(_ body: (UnsafeBufferPointer<Card>) throws -> R) rethrows -> R? {
        if chunks.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        guard chunks.count == 1 else { return nil }
        return try chunks[0].withUnsafeBufferPointer(body)
    }
}

extension CardList: RangeReplaceableCollection {
    /// Fills the last chunk to `fillChunk` (a parser appends every card), leaving room for inserts.
    public mutating func append(_ card: Card) {
        if let k = chunks.indices.last, chunks[k].count < Self.fillChunk {
            chunks[k].append(card)
            ends[k] += 1
        } else if chunks.isEmpty {
            appendChunk([card])
        } else {
            // A list past its first full chunk is being built: the next chunk's whole room at once
            // (growing by doubling copied each chunk's cards nine times over).
            var chunk: [Card] = []
            chunk.reserveCapacity(Self.fillChunk)
            chunk.append(card)
            appendChunk(chunk)
        }
    }

    public mutating func insert(_ card: Card, at i: Int) {
        precondition(i >= 0 && i <= count, "CardList index out of range")
        if i == count { return append(card) }
        let (k, o) = locate(i)
        chunks[k].insert(card, at: o)
        shiftEnds(from: k, by: 1)
        if chunks[k].count > Self.maxChunk { split(k) }
    }

    @discardableResult
    public mutating func remove(at i: Int) -> Card {
        precondition(i >= 0 && i < count, "CardList index out of range")
        let (k, o) = locate(i)
        let card = chunks[k].remove(at: o)
        shiftEnds(from: k, by: -1)
        if chunks[k].isEmpty {
            chunks.remove(at: k)
            ends.remove(at: k)
        } else if chunks[k].count < Self.maxChunk / 8 {
            joinSmall(k)
        }
        return card
    }

    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        chunks = []
        ends = []
    }

    /// Changes inside one chunk stay there (an insertion at a chunk's end counts as inside it);
    /// anything wider rebuilds the list.
    public mutating func replaceSubrange<C: Collection>(_ range: Range<Int>, with new: C) where C.Element == Card {
        precondition(range.lowerBound >= 0 && range.upperBound <= count, "CardList range out of range")
        if range.isEmpty && new.isEmpty { return }
        if !chunks.isEmpty {
            let k = range.lowerBound == count ? chunks.count - 1 : locate(range.lowerBound).chunk
            let base = start(of: k)
            if range.upperBound <= ends[k] {
                chunks[k].replaceSubrange((range.lowerBound - base)..<(range.upperBound - base), with: new)
                shiftEnds(from: k, by: new.count - range.count)
                if chunks[k].isEmpty {
                    chunks.remove(at: k)
                    ends.remove(at: k)
                } else if chunks[k].count > Self.maxChunk {
                    rechunk(k)
                }
                return
            }
        }
        var all = array
        all.replaceSubrange(range, with: new)
        self = CardList(all)
    }

    /// Cuts an overgrown chunk into chunks of `fillChunk`.
    private mutating func rechunk(_ k: Int) {
        let whole = chunks[k]
        let base = start(of: k)
        var pieces: [[Card]] = [], pieceEnds: [Int] = []
        var from = 0
        while from < whole.count {
            let to = Swift.min(from + Self.fillChunk, whole.count)
            pieces.append(Array(whole[from..<to]))
            pieceEnds.append(base + to)
            from = to
        }
        chunks.replaceSubrange(k...k, with: pieces)
        ends.replaceSubrange(k...k, with: pieceEnds)
    }

    private mutating func split(_ k: Int) {
        let half = chunks[k].count / 2
        let tail = Array(chunks[k][half...])
        chunks[k].removeSubrange(half...)
        chunks.insert(tail, at: k + 1)
        ends.insert(ends[k], at: k + 1)
        ends[k] -= tail.count
    }

    /// Joins a chunk that shrank a lot with a neighbour, when the two fit in one.
    private mutating func joinSmall(_ k: Int) {
        if k + 1 < chunks.count, chunks[k].count + chunks[k + 1].count <= Self.maxChunk {
            chunks[k].append(contentsOf: chunks[k + 1])
            chunks.remove(at: k + 1)
            ends.remove(at: k)
        } else if k > 0, chunks[k - 1].count + chunks[k].count <= Self.maxChunk {
            chunks[k - 1].append(contentsOf: chunks[k])
            chunks.remove(at: k)
            ends.remove(at: k - 1)
        }
    }
}

extension CardList: ExpressibleByArrayLiteral {
    public init(arrayLiteral cards: Card...) { self.init(cards) }
}

extension CardList: Hashable {
    /// Equal cards in the same order, however they are chunked; shared chunks are not read.
    public static func == (a: CardList, b: CardList) -> Bool {
        guard a.count == b.count else { return false }
        if a.ends == b.ends {
            for k in a.chunks.indices where !same(a.chunks[k], b.chunks[k]) && a.chunks[k] != b.chunks[k] {
                return false
            }
            return true
        }
        return a.changedSpan(from: b) == nil
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for chunk in chunks { for card in chunk { hasher.combine(card) } }
    }
}

extension CardList: CustomStringConvertible {
    public var description: String { array.description }
}
