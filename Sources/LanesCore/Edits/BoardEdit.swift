import DragKit

/// One change a person can make to a board, as a value: what the terminal and every `lanes`
/// command build, and what `Board.applying(_:force:)` (the one door) applies.
///
/// Cards and columns are named by identity, never by index or title, so an edit built from
/// what was on screen still means the same card or column after others changed the board.
/// The last group is what undo and redo apply: the inverse of a step the door returned,
/// which changes only what is still as the step left it (so it never reverts another writer).
public enum BoardEdit: Hashable, Sendable {
    // Cards
    /// A new card (its identity made by the caller) in a column; `fallbackColumn` is where that
    /// column stood when the edit began, for the column that took its place if it vanished.
    case addCard(Card, column: ColumnID, at: CardSlot, fallbackColumn: Int)
    case setTitle(CardID, String, seen: SeenCard?)
    /// An empty or nil date clears it; a date must read as one (`DueDate`).
    case setDue(CardID, String?, seen: SeenCard?)
    /// The title's `#tags` replaced by these (without `#`).
    case setTags(CardID, [String], seen: SeenCard?)
    case setDone(CardID, Bool)
    /// Ticks the first open sub-task, or unticks all when every one is done.
    case tickSubtask(CardID)
    case setSubtaskDone(CardID, index: Int, done: Bool)
    /// Every field at once (`$EDITOR`); the identity names the card.
    case replaceCard(Card, seen: SeenCard?)
    /// Cards (in this order, from anywhere) to a column, together.
    case moveCards([CardID], to: ColumnID, at: CardSlot)
    /// Cards to a column and a swimlane together (a drop in a lane × column cell): each card's
    /// lane tag becomes `lane` (nil: "No lane", lane tags removed), by the board's `Swimlanes`.
    case moveCardsToLane([CardID], to: ColumnID, at: CardSlot, lane: String?)
    /// `seen`: the cards as the person saw them; one changed elsewhere since is kept (an edit beats a delete).
    case deleteCards([CardID], seen: [Card]?)
    /// Cards arriving from another board (the target's half of a move between boards) into a column
    /// at a 1-based `position` (nil: the end). `from` is the title of the column each left on its
    /// board, which this column's accept rule must name; `board` names this board in the words.
    case receiveCards([Card], to: ColumnID, position: Int?, from: [String], board: String)
    /// Cards leaving for the board named `toBoard` (the source's half of a move between boards).
    case sendCards([CardID], toBoard: String)

    // Columns
    case addColumn(Column, at: ColumnSlot)
    case renameColumn(ColumnID, String)
    /// To a final index (counted after its removal).
    case moveColumn(ColumnID, to: Int)
    /// `seen`: the cards the person agreed to delete with it; another card there refuses the edit.
    case deleteColumn(ColumnID, seen: [CardID]?)
    /// nil: no limit.
    case setWIPLimit(ColumnID, Int?)
    /// The columns it accepts cards from; empty: from every column.
    case setAcceptRule(ColumnID, from: [ColumnID])

    // Settings of the whole board (kept beside a file board, with a PostgreSQL board)
    /// The swimlanes, one per tag; nil: none (the board shows as columns).
    case setSwimlanes(Swimlanes?)
    /// Where the flow metrics' stages begin, by column title (nil: Lanes' default for that end).
    case setFlow(FlowColumns)

    // What undo and redo apply (built by the door, rebased on the board as it is then)
    /// Fields of a card still as `from` become as `to`; others were changed elsewhere and stay.
    case revertCard(CardID, from: CardFields, to: CardFields)
    /// Cards put back where they were (each only if no card has its identity).
    case restoreCards([PlacedCard])
    /// Cards put back where they were, each only if it is still in `expectedIn` (where the step left it).
    case placeCards([PlacedCard], expectedIn: [ColumnID])
    /// Cards removed, each only if it is still as given (else another writer edited it: kept).
    case removeCards([Card])
    /// A column's title, limit and rule still as `from` become as `to`.
    case revertColumn(ColumnID, from: ColumnFields, to: ColumnFields)
    /// A deleted column back at its index with its cards (those no other card has the identity of), its rule and its place in others' rules.
    case restoreColumn(Column, at: Int, rule: [String]?, mentions: [RuleMention])
    /// A column removed only while it is empty (the undo of adding it).
    case removeEmptyColumn(ColumnID)
    /// Several edits as one step (an undone group).
    case group([BoardEdit])
}

/// Where a card goes in a column: at an end, or next to a card (by identity; at `orIndex`
/// when that card is no longer in the column).
public enum CardSlot: Hashable, Sendable {
    case top
    case end
    case before(CardID, orIndex: Int)
    case after(CardID, orIndex: Int)
    case index(Int)
}

/// Where a new column goes: after a column (by identity; at `orIndex` when it is gone), or at an index.
public enum ColumnSlot: Hashable, Sendable {
    case index(Int)
    case after(ColumnID, orIndex: Int)
}

/// A card as a prompt or the editor saw it when it opened, and where: what brings it back
/// with the person's change when another writer deleted it meanwhile.
public struct SeenCard: Hashable, Sendable {
    public var card: Card
    public var column: ColumnID
    public var columnIndex: Int
    public var position: Int

    public init(card: Card, column: ColumnID, columnIndex: Int, position: Int) {
        self.card = card
        self.column = column
        self.columnIndex = columnIndex
        self.position = position
    }
}

/// A card with its place: column (identity, and index as a fallback) and position.
public struct PlacedCard: Hashable, Sendable {
    public var card: Card
    public var column: ColumnID
    public var columnIndex: Int
    /// The card it stood before (nil: last), and its index as a fallback.
    public var before: CardID?
    public var position: Int
}

/// Every field of a card but its identity.
public struct CardFields: Hashable, Sendable {
    public var title: String
    public var due: String?
    public var descriptionLines: [String]
    public var subtasks: [Subtask]
    public var done: Bool
    public var extraLines: [String]

    public init(_ card: Card) {
        title = card.title
        due = card.due
        descriptionLines = card.descriptionLines
        subtasks = card.subtasks
        done = card.done
        extraLines = card.extraLines
    }
}

/// What a column has besides its cards: title, WIP limit, accept rule (source titles; nil: none).
public struct ColumnFields: Hashable, Sendable {
    public var title: String
    public var wipLimit: Int?
    public var rule: [String]?
}

/// A rule of another column that named a deleted column: its sources before the deletion.
public struct RuleMention: Hashable, Sendable {
    public var column: ColumnID
    public var sources: [String]
}

/// The door's answer to an edit it applied.
public struct EditOutcome: Sendable {
    /// The board after the edit.
    public var board: Board
    /// The edit that reverses this one on a later board (nil: nothing changed).
    public var inverse: BoardEdit?
    /// What happened, in the words the person sees (terminal status line; the commands print their own summary).
    public var words: String
    /// The card or column the edit is about, where it is now (for the selection).
    public var focus: Focus?

    public enum Focus: Hashable, Sendable {
        case card(CardID)
        case column(ColumnID)
    }

    public var changed: Bool { inverse != nil }
}

/// An edit the door refused, with the words the person sees. Nothing was changed.
public struct EditRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        case missingCard, missingColumn, full, acceptRule, text, name, number, changedElsewhere
        /// The board's format cannot store the change (a taskell file has no done mark).
        case format
    }

    public var reason: Reason
    public var words: String

    public init(_ reason: Reason, _ words: String) {
        self.reason = reason
        self.words = words
    }

    public var description: String { words }

    /// Whether applying the edit forced (`Board.applying(_:force: true)`) would get past this
    /// refusal: a WIP limit or an accept rule. Each asker words what forcing is for its user.
    public var forceLifts: Bool { reason == .full || reason == .acceptRule }
}
