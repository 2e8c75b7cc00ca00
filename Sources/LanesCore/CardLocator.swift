import DragKit
import Synchronization

/// Finds a card's position by identity without scanning the board: remembered positions, checked on use.
///
/// One locator is shared by every copy of a `Board` (undo snapshots included) and is never
/// part of its value. A remembered position is only a hint, believed after checking that
/// the card there has the identity asked for, so sharing it between different versions of a
/// board can slow a lookup but never make it wrong. A card that shifted a little (cards
/// inserted or removed before it) is found within `radius` places of its hint and its hint
/// is corrected; one that is farther away or was never seen makes the locator learn the
/// whole board again, in one pass. A board whose `stamp` that pass saw answers "absent"
/// without another pass, as long as no hint has been written since (a hint corrected for
/// another version, or a card the board placed, ends that certainty).
///
/// Parsers number cards 1, 2, 3…, so hints for small identities live in an array indexed
/// by identity (8 bytes a card); minted identities (`CardID.fresh()`, from 2^41) in a dictionary.
final class CardLocator: Sendable {
    /// How far from its hint a card is looked for before the whole board is learned again.
    static let radius = 24
    static let previousLimit = 4096

    private struct State: ~Copyable {
        /// Packed hints (`section << 32 | item`) by identity; `unknown` where none.
        var dense: [UInt64] = []
        var sparse: [CardID: UInt64] = [:]
        /// The hint a card had before a move or a correction replaced it: where it is in the
        /// version before (an undo goes back to it). As many as cards moved, at most `previousLimit`.
        var previous: [CardID: UInt64] = [:]
        /// The board stamp of the last full pass.
        var learnedStamp: UInt64?
        var passes = 0
    }

    private static let unknown = UInt64.max
    private let state = Mutex(State())

    init() {}

    private static func pack(_ s: Int, _ i: Int) -> UInt64 { UInt64(s) << 32 | UInt64(i) }

    /// The card's position in `columns`, or nil when no card there has that identity.
    func locate(_ id: CardID, in columns: [Column], stamp: UInt64) -> ItemPath? {
        state.withLock { st in
            let primary = Self.hint(id, in: st)
            var found = primary.flatMap { Self.search(id, near: $0, in: columns) }
            if found == nil, let before = st.previous[id] { found = Self.search(id, near: before, in: columns) }
            if let found {
                if found != primary {
                    Self.remember(id, found, in: &st)
                    // A hint for a place elsewhere (another version's, after a move) is kept as the
                    // card's previous place, so undo and redo find the card at either without a pass.
                    if let primary, !Self.near(primary, found) { Self.keepPrevious(id, primary, in: &st) }
                    // Corrected for another version (an undo snapshot): the learned one's hints are no longer exact.
                    if st.learnedStamp != stamp { st.learnedStamp = nil }
                }
                return ItemPath(section: Int(found >> 32), item: Int(found & 0xFFFF_FFFF))
            }
            guard st.learnedStamp != stamp else { return nil }
            Self.learn(columns, into: &st)
            st.learnedStamp = stamp
            guard let hint = Self.hint(id, in: st) else { return nil }
            return ItemPath(section: Int(hint >> 32), item: Int(hint & 0xFFFF_FFFF))
        }
    }

    /// How many full passes over a board this locator has made (for tests).
    var passes: Int { state.withLock { $0.passes } }

    /// Records where a card was just put (the board's own moves and inserts).
    func note(_ id: CardID, at path: ItemPath) {
        state.withLock { st in
            if let old = Self.hint(id, in: st) { Self.keepPrevious(id, old, in: &st) }
            Self.remember(id, Self.pack(path.section, path.item), in: &st)
            st.learnedStamp = nil
        }
    }

    private static func near(_ a: UInt64, _ b: UInt64) -> Bool {
        a >> 32 == b >> 32 && abs(Int(a & 0xFFFF_FFFF) - Int(b & 0xFFFF_FFFF)) <= radius
    }

    private static func keepPrevious(_ id: CardID, _ place: UInt64, in st: inout State) {
        if st.previous.count >= previousLimit && st.previous[id] == nil { st.previous.removeAll(keepingCapacity: true) }
        st.previous[id] = place
    }

    private static func hint(_ id: CardID, in st: borrowing State) -> UInt64? {
        let raw = id.rawValue
        if raw < UInt64(st.dense.count) {
            let h = st.dense[Int(raw)]
            return h == unknown ? nil : h
        }
        return st.sparse[id]
    }

    private static func remember(_ id: CardID, _ packed: UInt64, in st: inout State) {
        let raw = id.rawValue
        if raw < UInt64(st.dense.count) {
            st.dense[Int(raw)] = packed
        } else {
            st.sparse[id] = packed
        }
    }

    /// The hint itself, or the nearest place within `radius` in the hint's column holding the card.
    private static func search(_ id: CardID, near hint: UInt64, in columns: [Column]) -> UInt64? {
        let s = Int(hint >> 32), i = Int(hint & 0xFFFF_FFFF)
        guard s < columns.count else { return nil }
        let cards = columns[s].cards
        if i < cards.count, cards[i].id == id { return hint }
        for d in 1...radius {
            if i - d >= 0, i - d < cards.count, cards[i - d].id == id { return pack(s, i - d) }
            if i + d < cards.count, cards[i + d].id == id { return pack(s, i + d) }
        }
        return nil
    }

    /// One pass over the board: every card's position, the old hints dropped.
    private static func learn(_ columns: [Column], into st: inout State) {
        st.passes += 1
        var total = 0
        var largestDense: UInt64 = 0
        for c in columns { total += c.cards.count }
        // Identities up to a few times the card count are kept in the array; the rest (minted ones) in the dictionary.
        let denseLimit = UInt64(4 * total + 1024)
        for c in columns {
            for card in c.cards where card.id.rawValue < denseLimit {
                largestDense = max(largestDense, card.id.rawValue)
            }
        }
        st.dense = Array(repeating: unknown, count: total == 0 ? 0 : Int(largestDense) + 1)
        st.sparse = [:]
        for (s, c) in columns.enumerated() {
            for (i, card) in c.cards.enumerated() {
                let raw = card.id.rawValue
                if raw < UInt64(st.dense.count) {
                    st.dense[Int(raw)] = pack(s, i)
                } else {
                    st.sparse[card.id] = pack(s, i)
                }
            }
        }
    }
}

/// A number no other board version in this process carries: a `Board` takes a new one on every change.
enum BoardStamp {
    private static let counter = Atomic<UInt64>(1)
    static func next() -> UInt64 { counter.wrappingAdd(1, ordering: .relaxed).oldValue }
}
