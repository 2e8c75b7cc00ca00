import Synchronization

/// Bytes of many card titles in one allocation: what a reader of a board fills and its cards point into.
///
/// Written only while a reader fills it, before any card that points into it leaves the reader;
/// read-only from then on, which is what makes sharing it between threads safe.
final class TextSlab: @unchecked Sendable {
    /// The bytes; written only by the `TitleSlabs` that made the slab, each byte once, before
    /// any title that covers it is handed out.
    let bytes: UnsafeMutablePointer<UInt8>
    let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        bytes = .allocate(capacity: max(1, capacity))
    }

    deinit { bytes.deallocate() }

    /// The slab that every empty title points at (no allocation for "").
    static let empty = TextSlab(capacity: 0)
}

/// A card's title as UTF-8 bytes in a `TextSlab`: 16 bytes in the card, like a `String`, without
/// a heap string of its own for each title (a 20-byte title cost a 64-byte allocation).
///
/// Equality and hashing are `String`'s (canonical equivalence); equal bytes answer without building
/// strings, and so do two different ASCII titles.
struct CardTitle: Hashable, Sendable {
    private let slab: TextSlab
    private let start: UInt32
    private let count: UInt32

    /// A title made one at a time (an edit, a card made by a command or a store): its bytes go to
    /// the process's shared slabs, under a lock (readers of a whole board fill their own).
    init(_ text: String) {
        self = loneTitles.withLock { $0.title(text) }
    }

    fileprivate init(slab: TextSlab, start: UInt32, count: UInt32) {
        self.slab = slab
        self.start = start
        self.count = count
    }

    var isEmpty: Bool { count == 0 }

    /// Whether both titles' bytes are in the same allocation (what the tests check of a read).
    func sharesSlab(with other: CardTitle) -> Bool { slab === other.slab }

    /// Reads the title's bytes in place.
    func withUTF8<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try withExtendedLifetime(slab) {
            try body(UnsafeBufferPointer(start: $0.bytes + Int(start), count: Int(count)))
        }
    }

    /// The title's bytes, valid while this title (or a card holding it) is alive: for loops over
    /// cards the caller keeps alive, which would otherwise retain and release the slab per title.
    var unsafeUTF8: UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: slab.bytes + Int(start), count: Int(count))
    }

    /// The title as a `String` (one allocation when it is longer than 15 bytes).
    var string: String {
        withUTF8 { String(decoding: $0, as: UTF8.self) }
    }

    static func == (a: CardTitle, b: CardTitle) -> Bool {
        if a.slab === b.slab && a.start == b.start && a.count == b.count { return true }
        let (same, ascii) = a.withUTF8 { x in
            b.withUTF8 { y -> (Bool, Bool) in
                if x.count == y.count && x.elementsEqual(y) {
                    return (true, true)
                }
                return (false, isASCII(x) && isASCII(y))
            }
        }
        if same { return true }
        if ascii { return false }
        return a.string == b.string
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(string)
    }
}

@inline(__always) private func isASCII(_ p: UnsafeBufferPointer<UInt8>) -> Bool {
    for b in p where b >= 0x80 { return false }
    return true
}

/// Copies the titles a reader finds into shared slabs of `slabSize` bytes.
///
/// A card kept alive keeps its whole slab: small slabs bound what a few surviving cards of an
/// old read can hold (4 KB each at most), and a title longer than a quarter slab gets its own.
struct TitleSlabs {
    static let slabSize = 4096
    private var slab: TextSlab?
    private var used = 0
    private var capacity = 0

    init() {}

    /// A title holding these bytes (valid UTF-8).
    mutating func title(_ bytes: UnsafeBufferPointer<UInt8>) -> CardTitle {
        let n = bytes.count
        if n == 0 { return CardTitle(slab: .empty, start: 0, count: 0) }
        if n > Self.slabSize / 4 {
            let own = TextSlab(capacity: n)
            own.bytes.initialize(from: bytes.baseAddress!, count: n)
            return CardTitle(slab: own, start: 0, count: UInt32(n))
        }
        if slab == nil || used + n > capacity {
            let fresh = TextSlab(capacity: Self.slabSize)
            slab = fresh
            used = 0
            capacity = fresh.capacity
        }
        let at = used
        (slab!.bytes + at).initialize(from: bytes.baseAddress!, count: n)
        used += n
        return CardTitle(slab: slab!, start: UInt32(at), count: UInt32(n))
    }

    /// A title holding this text.
    mutating func title(_ text: String) -> CardTitle {
        var text = text
        return text.withUTF8 { title($0) }
    }
}

/// Where titles made one at a time are kept (see `CardTitle.init(_:)`).
private let loneTitles = Mutex(TitleSlabs())
