import DragKit

/// The door's two halves of a move between boards (`CrossBoardMove` applies one to each board):
/// the target's rules — position, WIP limit, accept rule — are checked here like every rule.
extension EditDoor {
    /// Cards from another board into column `to` at 1-based `position` (nil: the end).
    ///
    /// The accept rule names columns of this board; a card from another board is taken when the rule
    /// names the title of the column it left there (case ignored), the way `lanes move --to-board`
    /// has always read it. The words name the board, since two boards are in play.
    mutating func receive(
        _ cards: [Card], into to: ColumnID, position: Int?, from: [String],
        board name: String
    ) throws(EditRefusal) -> Outcome {
        let t = try column(to)
        guard !cards.isEmpty else { throw refuse(.missingCard, "name a card to move") }
        let column = board.columns[t]
        let count = column.cards.count
        if let position, !(1...count + 1).contains(position) {
            throw refuse(
                .number, "position \(position) is outside column \"\(column.title)\" of \(name); use 1 to \(count + 1)")
        }
        if !force, let limit = column.wipLimit, count + cards.count > limit {
            throw refuse(.full, "column \"\(column.title)\" of \(name) is full (WIP limit \(limit))")
        }
        if !force, let allowed = board.acceptRules.sources(for: column.title) {
            let names = Set(allowed.map { $0.lowercased() })
            for source in from where !names.contains(source.lowercased()) {
                throw refuse(
                    .acceptRule,
                    "column \"\(column.title)\" of \(name) accepts cards only from \(Board.listed(allowed.map { "\"\($0)\"" })), not from \"\(source)\""
                )
            }
        }
        var fitting: [Card] = []
        for card in cards { fitting.append(try fitted(card)) }
        var placed: [Card] = []
        var at = (position ?? count + 1) - 1
        for var card in fitting {
            if board.indexPath(for: card.id) != nil { card.id = CardID.fresh() }
            insert(card, in: t, at: at)
            placed.append(card)
            at += 1
        }
        let words =
            placed.count == 1
            ? "\(q(placed[0].title)) arrived in \(q(column.title))"
            : "\(placed.count) cards arrived in \(q(column.title))"
        return Outcome(board: board, inverse: .removeCards(placed), words: words, focus: .card(placed[0].id))
    }

    /// Cards leaving for another board: taken out wherever they are (those already gone are skipped).
    mutating func send(_ ids: [CardID], toBoard name: String) throws(EditRefusal) -> Outcome {
        let moving = Set(ids)
        let paths = ids.compactMap { board.indexPath(for: $0) }
        guard !paths.isEmpty else { throw refuse(.missingCard, "the card is gone (deleted elsewhere)") }
        let removed = paths.map { board.placed($0, excluding: moving) }
        for p in paths.sorted(by: { ($0.section, $0.item) > ($1.section, $1.item) }) { board.deleteItem(at: p) }
        let words =
            removed.count == 1
            ? "Moved \(q(removed[0].card.title)) to \(name)" : "Moved \(removed.count) cards to \(name)"
        return Outcome(board: board, inverse: .restoreCards(removed), words: words, focus: nil)
    }
}
