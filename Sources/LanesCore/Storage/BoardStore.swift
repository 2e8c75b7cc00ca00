import DragKit

/// Where a board lives: a Markdown file, or a PostgreSQL database. The app and the CLI see only this.
///
/// A storage object is used from one thread at a time (the app's background writer, or a CLI
/// command; a `RefreshesBesideCommits` store from two); it is not `Sendable`. Boards cross
/// threads as values.
///
/// The contract is snapshot-based and never loses a writer's work: `commit` gets the board the
/// caller started from (`base`, the last board this storage handed out) and the caller's board
/// (`ours`, descended from `base` with the same card identities). Whatever changed in the store
/// since `base` is merged with `ours`; the result is stored and returned, and becomes the next base.
public protocol BoardStore: AnyObject {
    /// What to call the board in messages: a path, or a URL without any password.
    var displayName: String { get }
    /// Reads the board as it is stored now; it becomes the base of the next `commit`.
    func load() throws -> Board
    /// Stores `ours` (derived from `base`), merged with whatever others stored since `base`.
    func commit(base: Board, ours: Board) throws -> CommitOutcome
    /// The stored board if it changed since the last `load`, `commit` or `refresh`; nil otherwise.
    /// Cheap when nothing changed (a stat, an inotify read, a notification check): no content is read.
    func refresh() throws -> Board?
    /// A descriptor that turns readable when the board may have changed elsewhere (inotify, a
    /// database socket), for the app's poll loop; nil when the caller should call `refresh` on a timer.
    var changeDescriptor: Int32? { get }
}

/// A store whose `refresh` may run on a second thread while its `commit` runs on the first: it
/// reads on a connection of its own, so a screen sees others' changes while its commit waits.
///
/// Every board either hands out is numbered from one count (`CommitOutcome.handedOut`): the one
/// with the larger number is the newer. A refresh and a commit that end together may reach their
/// caller in the other order; the caller keeps the newer board.
public protocol RefreshesBesideCommits: BoardStore {
    /// `refresh`, with the board's number; safe to call while `commit` runs on another thread
    /// (never beside `load`, another `refresh` or anything else).
    func refreshNumbered() throws -> (board: Board, handedOut: UInt64)?
}

/// What a commit did.
public struct CommitOutcome: Sendable {
    /// The board as now stored; the base for the next commit. Cards of `ours` keep their identities.
    public var board: Board
    /// Collisions between our changes and others', each resolved by the fixed rule (nothing lost).
    public var conflicts: [BoardConflict]
    /// How many cards others added, removed, moved or edited since `base` (for "2 cards changed elsewhere").
    public var incomingChanges: Int
    /// Who made those changes, when the storage can say (`WriterNaming.lastChangeWriter`'s words).
    public var incomingWriter: String?
    /// Where `board` stands among the boards the store handed out (`RefreshesBesideCommits`); nil
    /// for a store that reads and commits on one thread.
    public var handedOut: UInt64?

    public init(
        board: Board, conflicts: [BoardConflict] = [], incomingChanges: Int = 0, incomingWriter: String? = nil,
        handedOut: UInt64? = nil
    ) {
        self.board = board
        self.conflicts = conflicts
        self.incomingChanges = incomingChanges
        self.incomingWriter = incomingWriter
        self.handedOut = handedOut
    }
}

/// A collision between two writers, resolved by a fixed rule that loses no text, reported to the user.
public struct BoardConflict: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The same card edited two ways (both texts kept).
        case editedTwice
        /// The same card moved to two places (one place wins, by the documented rule).
        case movedTwice
        /// Edited on one side, deleted on the other (the edit wins: the card stays).
        case editedAndDeleted
        /// A column renamed two ways, or a WIP limit or accept rule set two ways.
        case columnChangedTwice
        /// A column deleted on one side while the other side added or changed cards in it (the cards stay).
        case columnDeletedWithChanges
        /// A version check refused a change (a shared store): the other writer's change stands.
        case refused
    }

    public var kind: Kind
    /// The card in the resulting board that the collision is about, if it is about a card.
    public var card: CardID?
    /// Words for the status line, e.g. `“Fix login” was edited here and elsewhere: both titles kept`.
    public var message: String

    public init(kind: Kind, card: CardID? = nil, message: String) {
        self.kind = kind
        self.card = card
        self.message = message
    }

    public var description: String { message }
}

/// The store cannot be reached right now (a database server restarting, the network down).
/// Nothing was changed; the caller keeps its board and tries the same commit again later.
public struct StorageUnavailable: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(reason: String) { self.reason = reason }
    public var description: String { "offline: \(reason)" }
}
