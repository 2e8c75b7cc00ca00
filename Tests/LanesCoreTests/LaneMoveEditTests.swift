import DragKit
import Foundation
import SeededRandom
import Testing
@testable import LanesCore

/// To do: "Fix login #frontend", "Write docs"; Doing (WIP 2): "API #backend"; lanes frontend, backend.
private func board() throws -> Board {
    var b = try BoardFormat.parse(
        "## To do\n\n- Fix login #frontend\n- Write docs\n\n## Doing\n\n- API #backend\n", file: "b.md"
    ).board
    b.acceptRules.swimlanes = try Swimlanes(["frontend", "backend"])
    b.columns[1].wipLimit = 2
    return b
}

private func titles(_ b: Board) -> [[String]] { b.columns.map { $0.cards.map(\.title) } }

@Suite("BoardEdit.moveCardsToLane: a drop in a lane × column cell, through the door")
struct LaneMoveEditTests {
    @Test func moveAcrossLaneAndColumnIsOneStepAndUndoIsItsInverse() throws {
        let b = try board()
        let id = b.columns[0].cards[0].id
        let out = try b.applying(.moveCardsToLane([id], to: b.columns[1].id, at: .end, lane: "backend"))
        #expect(titles(out.board) == [["Write docs"], ["API #backend", "Fix login #backend"]])
        #expect(out.words == "Moved “Fix login #frontend” to “Doing”, lane #backend")
        let back = try out.board.applying(out.inverse!, force: true)
        #expect(back.board == b)
    }

    @Test func sameColumnOtherLaneOnlyRetags_andNoLaneRemovesTags() throws {
        let b = try board()
        let id = b.columns[0].cards[0].id
        let out = try b.applying(.moveCardsToLane([id], to: b.columns[0].id, at: .index(0), lane: nil))
        #expect(titles(out.board) == [["Fix login", "Write docs"], ["API #backend"]])
        #expect(out.words == "Moved “Fix login #frontend” to No lane")
        let docs = b.columns[0].cards[1].id
        let out2 = try b.applying(.moveCardsToLane([docs], to: b.columns[0].id, at: .end, lane: "frontend"))
        #expect(titles(out2.board) == [["Fix login #frontend", "Write docs #frontend"], ["API #backend"]])
        #expect(try out2.board.applying(out2.inverse!, force: true).board == b)
    }

    @Test func multiSelectEveryCardTakesTheLane_WIPCountsTheWholeColumn() throws {
        let b = try board()
        let ids = b.columns[0].cards.map(\.id)
        // Doing holds 1 of 2: two more cards break the limit whatever lane they go to.
        #expect(throws: EditRefusal(.full, "column \"Doing\" is full (WIP limit 2)")) {
            try b.applying(.moveCardsToLane(ids, to: b.columns[1].id, at: .end, lane: "frontend"))
        }
        let out = try b.applying(.moveCardsToLane(ids, to: b.columns[0].id, at: .end, lane: "backend"))
        #expect(titles(out.board) == [["Fix login #backend", "Write docs #backend"], ["API #backend"]])
        #expect(out.words == "Moved 2 cards to lane #backend")
    }

    @Test func undoNeverRevertsAnotherWritersTitle() throws {
        let b = try board()
        let id = b.columns[0].cards[0].id
        let out = try b.applying(.moveCardsToLane([id], to: b.columns[1].id, at: .end, lane: "backend"))
        // Another writer retitles the moved card; undo puts it back in its column but keeps their title.
        var other = out.board
        other.columns[1].cards[1].title = "Fix login properly #backend"
        let back = try other.applying(out.inverse!, force: true).board
        #expect(titles(back) == [["Fix login properly #backend", "Write docs"], ["API #backend"]])
    }

    @Test func lanesGoneOrChangedElsewhereRefuseInWords() throws {
        var b = try board()
        let id = b.columns[0].cards[0].id
        #expect(throws: EditRefusal(.changedElsewhere, "#ops is no longer a lane (the lanes were changed elsewhere)")) {
            try b.applying(.moveCardsToLane([id], to: b.columns[0].id, at: .end, lane: "ops"))
        }
        b.acceptRules.swimlanes = nil
        #expect(throws: EditRefusal(.changedElsewhere, "the board has no swimlanes now (removed elsewhere)")) {
            try b.applying(.moveCardsToLane([id], to: b.columns[0].id, at: .end, lane: "frontend"))
        }
    }
}

@Suite("Lane moves through the door with another writer on a real file")
struct LaneMovePropertyTests {
    /// Seeded: writer 0 moves cards across lanes and columns (one `moveCardsToLane` each, some
    /// undone through their inverse), writer 1 adds cards and rewrites a card's plain words, each
    /// from its own stale copy, committed to one board file in random order. After every commit
    /// the file holds every card exactly once (by its text without lane tags), and the other
    /// writer's cards and words are never reverted.
    @Test func propertyLaneMovesInterleavedWithAnotherWriter() throws {
        let text =
            "## To do\n\n- Fix login #frontend\n- Write docs\n- API #backend\n\n## Doing\n\n- Ship it #backend #frontend\n\n## Done\n\n- Old #frontend\n"
        let teams = try Swimlanes(["frontend", "backend"])
        func solid(_ title: String) -> String {
            title.split(separator: " ").filter { !$0.hasPrefix("#") }.joined(separator: " ")
        }
        for seed in UInt64(0)..<25 {
            var rng = SplitMix64(seed: seed)
            let folder = ScratchFolder()
            defer { folder.remove() }
            let path = folder.file("b.md")
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
            try Data((teams.line + "\n").utf8).write(to: URL(fileURLWithPath: folder.file(".b.md.lanes")))
            let stores = [FileBoardStore.unread(path), FileBoardStore.unread(path)]
            var bases = try stores.map { try $0.load() }
            #expect(bases[0].acceptRules.swimlanes == teams)
            var expected = Set(bases[0].columns.flatMap { $0.cards.map { solid($0.title) } })
            var undo: [BoardEdit] = []
            for step in 0..<16 {
                let w = Int.random(in: 0..<2, using: &rng)
                var ours = bases[w]
                if w == 0 {
                    if !undo.isEmpty, Int.random(in: 0..<4, using: &rng) == 0 {
                        ours = (try? ours.applying(undo.removeLast(), force: true).board) ?? ours
                    } else {
                        let cards = ours.columns.flatMap { $0.cards.map(\.id) }
                        let id = cards[Int.random(in: 0..<cards.count, using: &rng)]
                        let to = ours.columns[Int.random(in: 0..<ours.columns.count, using: &rng)]
                        let lane = Int.random(in: -1..<teams.count, using: &rng)
                        let slot: CardSlot = [.top, .end, .index(1)][Int.random(in: 0..<3, using: &rng)]
                        if let out = try? ours.applying(
                            .moveCardsToLane(
                                [id], to: to.id, at: slot,
                                lane: lane < 0 ? nil : teams.tags[lane]))
                        {
                            ours = out.board
                            if let inverse = out.inverse { undo.append(inverse) }
                        }
                    }
                } else if Int.random(in: 0..<2, using: &rng) == 0 {
                    let title = "New \(seed)-\(step)" + (Bool.random(using: &rng) ? " #backend" : "")
                    ours.columns[Int.random(in: 0..<ours.columns.count, using: &rng)].cards.append(
                        Card(id: .fresh(), title: title))
                    expected.insert(solid(title))
                } else {
                    let s = Int.random(in: 0..<ours.columns.count, using: &rng)
                    guard !ours.columns[s].cards.isEmpty else { continue }
                    let i = Int.random(in: 0..<ours.columns[s].cards.count, using: &rng)
                    let old = solid(ours.columns[s].cards[i].title)
                    ours.columns[s].cards[i].title += " v\(step)"
                    expected.remove(old)
                    expected.insert(old + " v\(step)")
                }
                let outcome = try stores[w].commit(base: bases[w], ours: ours)
                bases[w] = outcome.board
                let disk = try FileBoardStore.load(path).board
                let now = disk.columns.flatMap { $0.cards.map { solid($0.title) } }
                let context = "seed \(seed) step \(step) writer \(w): \(now.sorted())"
                #expect(now.count == Set(now).count, "a card came out twice: \(context)")
                #expect(Set(now) == expected, "lost or reverted: \(context) expected \(expected.sorted())")
                #expect(disk.acceptRules.swimlanes == teams, "\(context)")
            }
        }
    }
}
