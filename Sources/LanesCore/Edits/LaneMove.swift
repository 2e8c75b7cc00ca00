import DragKit

extension EditDoor {
    /// `.moveCardsToLane`: the move with every rule of `moveCards` (a WIP limit counts the whole
    /// column, across lanes), then each card's lane tag rewritten (`Swimlanes.card(_:movedTo:)`).
    /// The inverse puts the cards back and each title back while it is still as this left it.
    mutating func moveToLane(_ ids: [CardID], to: ColumnID, slot: CardSlot, lane: String?) throws(EditRefusal)
        -> EditOutcome
    {
        guard let lanes = board.acceptRules.swimlanes else {
            throw refuse(.changedElsewhere, "the board has no swimlanes now (removed elsewhere)")
        }
        var target: Int?
        if let lane {
            guard let l = lanes.lane(ofTag: lane) else {
                throw refuse(.changedElsewhere, "#\(lane) is no longer a lane (the lanes were changed elsewhere)")
            }
            target = l
        }
        let inPlace = ids.allSatisfy { id in board.indexPath(for: id).map { board.columns[$0.section].id == to } ?? true
        }
        let moved = try move(ids, to: to, slot: slot)
        board = moved.board
        var inverses: [BoardEdit] = moved.inverse.map { [$0] } ?? []
        var retagged = 0
        var firstTitle = ""
        for id in ids {
            guard let p = board.indexPath(for: id) else { continue }
            let before = board[p]
            let after = lanes.card(before, movedTo: target)
            guard after.title != before.title else { continue }
            board[p] = after
            if retagged == 0 { firstTitle = before.title }
            inverses.append(.revertCard(id, from: CardFields(after), to: CardFields(before)))
            retagged += 1
        }
        let laneName = target.map { "lane #" + lanes.tags[$0] } ?? "No lane"
        var words = moved.words
        // Inside one column a lane move says the lane; across columns the column, then the lane.
        if retagged > 0 {
            words =
                moved.inverse == nil || inPlace
                ? (retagged == 1
                    ? "Moved \(q(firstTitle)) to \(laneName)"
                    : "Moved \(retagged) cards to \(laneName)")
                : words + ", \(laneName)"
        }
        return EditOutcome(
            board: board, inverse: inverses.isEmpty ? nil : .group(inverses), words: words, focus: moved.focus)
    }
}
