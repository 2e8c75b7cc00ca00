import DragKit

/// Cards of this board on their way to another board: while a move between boards runs (and
/// until the board read back no longer has them), an edit that names one is refused in words.
///
/// Such an edit, saved after the move took the card away, would meet "deleted there" in the
/// merge, where an edit beats a delete: the card would come back here while its copy stays on
/// the other board, a double. Edits of other cards are not held by this; the runner holds the
/// board's saves during the move instead. Cards are named by identity, found again by content
/// (then, while the move runs, by title in the same column) when a board read back gives them
/// new identities.
public struct CardsInTransit: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var id: CardID
        public var card: Card
        public var column: String
        /// The board it goes to, in the words.
        public var toBoard: String
        /// The move has finished: the card is only waiting to be read back gone.
        public var arrived: Bool
    }

    public private(set) var entries: [Entry] = []

    public init() {}

    public var isEmpty: Bool { entries.isEmpty }
    public var ids: Set<CardID> { Set(entries.map(\.id)) }

    /// Holds the cards `ids` of `board` (they go to `toBoard`).
    public mutating func hold(_ ids: [CardID], of board: Board, toBoard: String) {
        for id in ids {
            guard let p = board.indexPath(for: id), !entries.contains(where: { $0.id == id }) else { continue }
            entries.append(
                Entry(id: id, card: board[p], column: board.columns[p.section].title, toBoard: toBoard, arrived: false))
        }
    }

    /// The move of `ids` is over: those it took stay held until the board no longer has them; the rest go free.
    public mutating func moveFinished(_ ids: [CardID], took: Set<CardID>) {
        for k in entries.indices.reversed() where ids.contains(entries[k].id) {
            if took.contains(entries[k].id) { entries[k].arrived = true } else { entries.remove(at: k) }
        }
    }

    public mutating func release(_ ids: [CardID]) { entries.removeAll { ids.contains($0.id) } }

    /// The words refusing `edit` on `board`, when it names a card in transit; nil otherwise.
    public func refusal(of edit: BoardEdit, on board: Board) -> EditRefusal? {
        guard !entries.isEmpty else { return nil }
        let held = ids
        guard let id = edit.namedCards(on: board).first(where: held.contains),
            let e = entries.first(where: { $0.id == id })
        else { return nil }
        let title = TerminalSafe.escape(e.card.title, keepLayout: false)
        return EditRefusal(
            .changedElsewhere,
            e.arrived
                ? "“\(title)” has moved to \(e.toBoard); it leaves this board as soon as the board is read back"
                : "“\(title)” is moving to \(e.toBoard); edit it there once the move is done")
    }

    /// The same cards found again in `board` (a board read back, whose identities may be new):
    /// by identity and content, else by content, else (move still running) by title in the same
    /// column; a card not found has left the board and is no longer held.
    public mutating func refind(in board: Board) {
        var kept: [Entry] = []
        var taken = Set<CardID>()
        for var e in entries {
            var found: ItemPath?
            if let p = board.indexPath(for: e.id), sameContent(board[p], e.card) { found = p }
            if found == nil { found = first(in: board, taken: taken) { c, _ in sameContent(c, e.card) } }
            if found == nil, !e.arrived {
                found = first(in: board, taken: taken) { c, column in
                    column == e.column && sameBytes(c.title, e.card.title)
                }
            }
            guard let p = found else { continue }
            e.id = board[p].id
            e.card = board[p]
            e.column = board.columns[p.section].title
            taken.insert(e.id)
            kept.append(e)
        }
        entries = kept
    }

    private func first(in board: Board, taken: Set<CardID>, where match: (Card, String) -> Bool) -> ItemPath? {
        for (s, column) in board.columns.enumerated() {
            for (i, c) in column.cards.enumerated() where !taken.contains(c.id) && match(c, column.title) {
                return ItemPath(section: s, item: i)
            }
        }
        return nil
    }
}

extension BoardEdit {
    /// The cards this edit changes, moves or removes on `board` (a column deleted: the cards in it).
    /// Cards only named as a place (`CardSlot.before`) are not among them.
    public func namedCards(on board: Board) -> [CardID] {
        switch self {
        case .addCard, .receiveCards, .addColumn, .renameColumn, .moveColumn, .setWIPLimit, .setAcceptRule,
            .revertColumn, .removeEmptyColumn, .setSwimlanes, .setFlow:
            return []
        case .setTitle(let id, _, _), .setDue(let id, _, _), .setTags(let id, _, _), .setDone(let id, _),
            .tickSubtask(let id), .setSubtaskDone(let id, _, _), .revertCard(let id, _, _):
            return [id]
        case .replaceCard(let card, _):
            return [card.id]
        case .moveCards(let ids, _, _), .moveCardsToLane(let ids, _, _, _), .deleteCards(let ids, _),
            .sendCards(let ids, _):
            return ids
        case .restoreCards(let placed), .placeCards(let placed, _):
            return placed.map(\.card.id)
        case .removeCards(let cards):
            return cards.map(\.id)
        case .restoreColumn(let column, _, _, _):
            return column.cards.map(\.id)
        case .deleteColumn(let id, let seen):
            let inside = board.index(of: id).map { board.columns[$0].cards.map(\.id) } ?? []
            return inside + (seen ?? [])
        case .group(let edits):
            return edits.flatMap { $0.namedCards(on: board) }
        }
    }
}
