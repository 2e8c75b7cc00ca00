import DragKit
import Synchronization

extension CardID {
    /// A card identity no other card in this process has, and very likely no other process either.
    ///
    /// Parsers number a file's cards 1, 2, 3…; identities made here start at a random point in
    /// [2^41, 2^62) and count up, so they never meet a parsed number, never repeat within a
    /// process (a merge result, a background save and the app can all mint them), and two
    /// clients of one shared board (PostgreSQL) pick the same one with odds of about n·m/2^62.
    public static func fresh() -> CardID {
        CardID(
            freshIdentities.withLock { next in
                defer { next += 1 }
                return next
            })
    }
}

private let freshIdentities = Mutex<UInt64>(UInt64.random(in: (1 << 41)..<(1 << 62)))

/// A column's identity: given when a board is read or a column is made, kept across saves and
/// merges (the file store folds what it reads into the identities it knew), never written to a file.
///
/// Drawn from the same counter as fresh card identities, so the drag engine, which names a
/// column by an `ItemID` while its header is dragged, never confuses one with a card.
public struct ColumnID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    /// An identity no other column or card in this process has.
    public static func fresh() -> ColumnID { ColumnID(CardID.fresh().rawValue) }

    /// The identity the drag engine uses for this column.
    public var item: ItemID { ItemID(rawValue) }

    public var description: String { "column#\(rawValue)" }
}
