import DragKit
@testable import LanesCore
import SeededRandom
import Testing

/// The position a plain scan of the board finds: what `indexPath(for:)` must always answer.
private func scan(_ board: Board, _ id: CardID) -> ItemPath? {
    for (s, column) in board.columns.enumerated() {
        if let i = column.cards.firstIndex(where: { $0.id == id }) { return ItemPath(section: s, item: i) }
    }
    return nil
}

@Suite struct CardLocatorTests {
    /// Random changes of every kind a board goes through (the data-source calls, direct edits
    /// of `columns`, undo-style returns to older snapshots, fresh and parsed identities);
    /// after each, every card and some absent identities are looked up and compared with a scan.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8]) func alwaysAgreesWithAScan(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var nextParsed: UInt64 = 1
        func card() -> Card {
            if rng.chance(0.5) {
                defer { nextParsed += 1 }
                return Card(id: CardID(nextParsed), title: "p\(nextParsed)")
            }
            let id = CardID.fresh()
            return Card(id: id, title: "f\(id.rawValue)")
        }
        var board = Board(
            columns: (0..<rng.int(1...5)).map { c in
                Column(title: "c\(c)", cards: (0..<rng.int(0...60)).map { _ in card() })
            })
        var snapshots: [Board] = [board]
        var gone: [CardID] = [CardID(999_999), CardID.fresh()]

        for step in 0..<400 {
            let sections = board.columns.count
            switch rng.int(0...9) {
            case 0, 1:  // move inside a column
                let s = rng.int(0...sections - 1)
                let n = board.columns[s].cards.count
                if n > 0 {
                    board.moveItem(
                        from: ItemPath(section: s, item: rng.int(0...n - 1)),
                        to: ItemPath(section: s, item: rng.int(0...n - 1)))
                }
            case 2, 3:  // move across columns: delete + insert, as a drop does
                let s = rng.int(0...sections - 1), t = rng.int(0...sections - 1)
                let n = board.columns[s].cards.count
                if n > 0 {
                    let from = ItemPath(section: s, item: rng.int(0...n - 1))
                    let c = board[from]
                    board.deleteItem(at: from)
                    board.insertItem(c, at: ItemPath(section: t, item: rng.int(0...board.columns[t].cards.count)))
                }
            case 4:  // a new card
                let t = rng.int(0...sections - 1)
                board.insertItem(card(), at: ItemPath(section: t, item: rng.int(0...board.columns[t].cards.count)))
            case 5:  // a card deleted
                let s = rng.int(0...sections - 1)
                if !board.columns[s].cards.isEmpty {
                    let i = rng.int(0...board.columns[s].cards.count - 1)
                    gone.append(board.columns[s].cards[i].id)
                    board.deleteItem(at: ItemPath(section: s, item: i))
                }
            case 6:  // direct edits of the columns (as merges and app actions make them)
                let s = rng.int(0...sections - 1)
                if rng.chance(0.5) {
                    board.columns[s].cards.shuffle(using: &rng)
                } else {
                    board.columns[s].cards.insert(contentsOf: (0..<rng.int(1...40)).map { _ in card() }, at: 0)
                }
            case 7:  // a column added or removed
                if rng.chance(0.5) || sections == 1 {
                    board.columns.insert(Column(title: "n\(step)", cards: [card()]), at: rng.int(0...sections))
                } else {
                    let s = rng.int(0...sections - 1)
                    gone += board.columns[s].cards.map(\.id)
                    board.columns.remove(at: s)
                }
            case 8:  // undo / redo: back to an older version that shares the locator
                board = snapshots[rng.int(0...snapshots.count - 1)]
            default:  // a card's title edited in place
                let s = rng.int(0...sections - 1)
                if !board.columns[s].cards.isEmpty { board[ItemPath(section: s, item: 0)].title += "!" }
            }
            if rng.chance(0.2) { snapshots.append(board) }
            // Look up some cards (not all: a lookup corrects hints, and unasked cards must drift).
            for column in board.columns {
                for c in column.cards where rng.chance(0.3) {
                    #expect(board.indexPath(for: c.id) == scan(board, c.id), "step \(step), card \(c.id)")
                }
            }
            for id in gone.suffix(5) { #expect(board.indexPath(for: id) == scan(board, id), "step \(step), \(id)") }
        }
        // In the end, every card of every snapshot, through the shared locator.
        for b in snapshots + [board] {
            for c in b.columns.flatMap(\.cards) { #expect(b.indexPath(for: c.id) == scan(b, c.id)) }
        }
    }

    @Test func equalityAndHashingIgnoreTheLocator() {
        let cards = (1...5).map { Card(id: CardID(UInt64($0)), title: "c\($0)") }
        let a = Board(columns: [Column(title: "A", cards: cards)])
        var b = Board(columns: [Column(title: "A", cards: cards)])
        _ = a.indexPath(for: CardID(3))  // only a has learned anything
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        b.moveItem(from: ItemPath(section: 0, item: 0), to: ItemPath(section: 0, item: 4))
        b.moveItem(from: ItemPath(section: 0, item: 4), to: ItemPath(section: 0, item: 0))
        #expect(a == b, "the same cards in the same order are the same board, however they got there")
        #expect(Set([a, b]).count == 1)
    }

    /// A drop near the top of a long column shifts every card below it; they are still found,
    /// each within a few places of where it was remembered (no pass over the board).
    @Test func cardsShiftedByADropAreFoundNearTheirOldPlace() {
        let cards = (1...10_000).map { Card(id: CardID(UInt64($0)), title: "c\($0)") }
        var board = Board(columns: [Column(title: "A", cards: cards), Column(title: "B")])
        #expect(board.indexPath(for: CardID(9_000)) == ItemPath(section: 0, item: 8_999))
        #expect(board.locator.passes == 1)
        let c = board[ItemPath(section: 0, item: 0)]
        board.deleteItem(at: ItemPath(section: 0, item: 0))
        board.insertItem(c, at: ItemPath(section: 1, item: 0))
        #expect(board.indexPath(for: CardID(1)) == ItemPath(section: 1, item: 0))
        #expect(board.indexPath(for: CardID(9_000)) == ItemPath(section: 0, item: 8_998))
        #expect(board.locator.passes == 1, "found from the remembered places, without a pass")
        #expect(board.indexPath(for: CardID(10_001)) == nil)
        #expect(board.indexPath(for: CardID(10_002)) == nil)
        #expect(board.locator.passes == 2, "one pass to learn the changed board, then absent is known")
    }

    /// Undo and redo go back and forth between versions sharing the locator: the moved card is
    /// found at its old and its new place without a pass over the board.
    @Test func undoAndRedoNeedNoPass() {
        let cards = (1...10_000).map { Card(id: CardID(UInt64($0)), title: "c\($0)") }
        let before = Board(columns: [Column(title: "A", cards: cards), Column(title: "B", cards: [])])
        #expect(before.indexPath(for: CardID(5_000)) == ItemPath(section: 0, item: 4_999))
        var after = before
        let c = after[ItemPath(section: 0, item: 4_999)]
        after.deleteItem(at: ItemPath(section: 0, item: 4_999))
        after.insertItem(c, at: ItemPath(section: 1, item: 0))
        let passes = before.locator.passes
        for _ in 0..<3 {
            #expect(after.indexPath(for: CardID(5_000)) == ItemPath(section: 1, item: 0))
            #expect(before.indexPath(for: CardID(5_000)) == ItemPath(section: 0, item: 4_999))
            #expect(after.indexPath(for: CardID(5_001)) == ItemPath(section: 0, item: 4_999))
            #expect(before.indexPath(for: CardID(5_001)) == ItemPath(section: 0, item: 5_000))
        }
        #expect(before.locator.passes == passes)
    }
}
