import DragKit
import Synchronization

extension ItemID {
    /// A card identity no other card in this process has, and very likely no other process either.
    ///
    /// Parsers number a file's cards 1, 2, 3…; identities made here start at a random point in
    /// [2^41, 2^62) and count up, so they never meet a parsed number, never repeat within a
    /// process (a merge result, a background save and the app can all mint them), and two
    /// clients of one shared board (PostgreSQL) pick the same one with odds of about n·m/2^62.
    public static func fresh() -> ItemID {
        ItemID(freshIdentities.withLock { next in
            defer { next += 1 }
            return next
        })
    }
}

private let freshIdentities = Mutex<UInt64>(UInt64.random(in: (1 << 41)..<(1 << 62)))
