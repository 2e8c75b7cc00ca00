import DragKit

/// The text of each chunk of cards as a file store last wrote it, so the next save writes
/// again only the chunks that changed.
///
/// A drop changes one chunk or two; a save of 100,000 cards then formats about a thousand
/// cards instead of all of them, which keeps the writer thread's CPU time (and what it takes
/// from the terminal on a small machine) close to that of a small board. The cost is the text
/// itself, about the file's size, kept between saves.
///
/// A chunk is known by the address of its storage. Each entry holds its chunk, so that storage
/// is neither freed nor reused nor changed in place while the entry lives (a shared array is
/// copied before any change). Entries not used by a save are dropped after it, and all of them
/// when anything the text depends on besides the cards changes (`Context`).
final class CardTextCache {
    struct Context: Equatable {
        var dialect: BoardDialect
        var lineEnding: LineEnding
        var blankLinesBetweenCards: Int
        var blankLinesBeforeCard: [CardID: Int]
        var cardMarkers: [CardID: CardMarker]

        init(_ info: BoardFileInfo) {
            dialect = info.dialect
            lineEnding = info.lineEnding
            blankLinesBetweenCards = info.layout.blankLinesBetweenCards
            blankLinesBeforeCard = info.blankLinesBeforeCard
            cardMarkers = info.cardMarkers
        }
    }

    private struct Entry {
        let chunk: [Card]
        let text: String
    }

    private var context: Context?
    private var entries: [UnsafeRawPointer: Entry] = [:]
    private var next: [UnsafeRawPointer: Entry] = [:]
    /// Chunks formatted anew / taken from the cache by the last save (for tests and the benchmark).
    private(set) var formatted = 0, reused = 0

    init() {}

    /// Starts a save: forgets everything when the context changed.
    func begin(_ info: BoardFileInfo) {
        let now = Context(info)
        if context != now {
            entries = [:]
            context = now
        }
        next = [:]
        formatted = 0
        reused = 0
    }

    /// The chunk's text: the cached one, or `make()`'s, kept for the next save.
    func text(of chunk: [Card], make: () -> String) -> String {
        let key = chunk.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        guard let key else { return make() }
        if let entry = entries[key] ?? next[key], entry.chunk.count == chunk.count {
            reused += 1
            next[key] = entry
            return entry.text
        }
        formatted += 1
        let text = make()
        next[key] = Entry(chunk: chunk, text: text)
        return text
    }

    /// Ends a save: only the chunks it used stay.
    func end() {
        entries = next
        next = [:]
    }
}
