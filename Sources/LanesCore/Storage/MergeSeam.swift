import DragKit

/// The one place storage and undo call the three-way board merge.
///
/// Temporary stand-in until `BoardMerge` lands: it takes whichever side alone changed, and
/// when both changed keeps ours and reports that theirs was not merged.
enum MergeSeam {
    struct Outcome {
        var board: Board
        var conflicts: [BoardConflict]
        var incomingChanges: Int
        /// Theirs' card identity → the identity in `board` (content matching only).
        var theirsIdentity: [ItemID: ItemID]
    }

    /// Merges; `theirsSharesIdentity` false means theirs was freshly parsed (ids mean nothing).
    static func merge(base: Board, ours: Board, theirs: Board, theirsSharesIdentity: Bool) -> Outcome {
        if base == ours { return Outcome(board: theirs, conflicts: [], incomingChanges: theirs == base ? 0 : 1, theirsIdentity: [:]) }
        if base == theirs { return Outcome(board: ours, conflicts: [], incomingChanges: 0, theirsIdentity: [:]) }
        return Outcome(board: ours, conflicts: [BoardConflict(kind: .editedTwice, message: "changes made elsewhere were not merged")],
                       incomingChanges: 0, theirsIdentity: [:])
    }
}

extension BoardFileInfo {
    /// The same layout with per-card entries moved to the cards' new identities.
    func remappingCards(_ map: [ItemID: ItemID]) -> BoardFileInfo {
        guard !map.isEmpty else { return self }
        var info = self
        info.blankLinesBeforeCard = Dictionary(blankLinesBeforeCard.map { (map[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        info.cardMarkers = Dictionary(cardMarkers.map { (map[$0.key] ?? $0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        return info
    }
}
