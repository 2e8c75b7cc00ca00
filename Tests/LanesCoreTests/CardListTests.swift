import DragKit
@testable import LanesCore
import SeededRandom
import Testing

private func cards(_ range: Range<Int>) -> [Card] { range.map { Card(id: CardID(UInt64($0)), title: "c\($0)") } }

@Suite struct CardListTests {
    /// Random inserts, removals, edits, appends and range replacements, on a list and on an
    /// array side by side (with copies taken on the way, as undo does): the two always agree,
    /// element by element and through every collection operation the app uses, and no copy
    /// ever sees a later change.
    @Test(arguments: [1, 2, 3, 4, 5, 6]) func behavesLikeAnArray(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        let start = rng.int(0...3000)
        var list = CardList(cards(0..<start))
        var array = cards(0..<start)
        var next = start
        var snapshots: [(CardList, [Card])] = []
        for step in 0..<3000 {
            func fresh() -> Card {
                defer { next += 1 }
                return Card(id: CardID(UInt64(next)), title: "c\(next)")
            }
            switch rng.int(0...9) {
            case 0, 1:
                let i = rng.int(0...array.count)
                let c = fresh()
                list.insert(c, at: i)
                array.insert(c, at: i)
            case 2 where !array.isEmpty, 3 where !array.isEmpty:
                let i = rng.int(0...array.count - 1)
                #expect(list.remove(at: i) == array.remove(at: i))
            case 4 where !array.isEmpty:
                let i = rng.int(0...array.count - 1)
                list[i].title += "!"
                array[i].title += "!"
            case 5:
                let c = fresh()
                list.append(c)
                array.append(c)
            case 6 where !array.isEmpty:
                let a = rng.int(0...array.count), b = rng.int(a...min(array.count, a + rng.int(0...1500)))
                let new = (0..<rng.int(0...1200)).map { _ in fresh() }
                list.replaceSubrange(a..<b, with: new)
                array.replaceSubrange(a..<b, with: new)
            case 7 where !array.isEmpty:
                // A drop: take a card out, put it back elsewhere.
                let i = rng.int(0...array.count - 1)
                let c = array.remove(at: i)
                list.remove(at: i)
                let j = rng.int(0...array.count)
                array.insert(c, at: j)
                list.insert(c, at: j)
            case 8:
                snapshots.append((list, array))
            default:
                // A run of removals in one place, the way a chunk empties and joins a neighbour.
                let i = rng.int(0...max(0, array.count - 1))
                for _ in 0..<rng.int(0...300) where i < array.count {
                    array.remove(at: i)
                    list.remove(at: i)
                }
            }
            if step % 97 == 0 || step == 2999 {
                let same = Array(list) == array
                #expect(same, "seed \(seed) step \(step)")
                #expect(list.count == array.count && list.isEmpty == array.isEmpty)
                let ids = list.map(\.id) == array.map(\.id)
                #expect(ids)
                #expect(list.first == array.first && list.last == array.last)
                let rechunked = list == CardList(array)
                #expect(rechunked, "equal to the same cards chunked afresh")
                #expect(list.hashValue == CardList(array).hashValue)
                if !array.isEmpty {
                    let probe = array[rng.int(0...array.count - 1)].id
                    #expect(list.firstIndex { $0.id == probe } == array.firstIndex { $0.id == probe })
                    #expect(list.lastIndex { $0.id == probe } == array.lastIndex { $0.id == probe })
                    let i = rng.int(0...array.count - 1)
                    #expect(list[i] == array[i])
                }
            }
        }
        for (copy, expected) in snapshots {
            let untouched = Array(copy) == expected
            #expect(untouched, "a copy taken earlier is untouched")
        }
    }

    /// A change in a long list copies one chunk: the rest stays shared with the copy taken
    /// before (which is what keeps a drop at 100,000 cards as cheap as at 1,000).
    /// `picking` on lists of uneven chunks (built by inserts, so chunk ends fall anywhere):
    /// rising indices (a lane's), repeated and falling ones, and none, each give the cards at
    /// those positions in that order, in chunks no longer than a built list's.
    @Test(arguments: [21, 22, 23]) func pickingGivesTheCardsAtTheIndicesInOrder(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var list = CardList(cards(0..<rng.int(0...2500)))
        var array = list.array
        for k in 0..<rng.int(0...1500) {
            let i = rng.int(0...array.count)
            let c = Card(id: CardID(UInt64(10_000 + k)), title: "n\(k)")
            list.insert(c, at: i)
            array.insert(c, at: i)
        }
        let n = array.count
        let rising = (0..<n).filter { _ in rng.int(0...3) == 0 }
        let any = (0..<rng.int(0...700)).map { _ in rng.int(0...max(0, n - 1)) }.filter { $0 < n }
        for wanted in [rising, Array(rising.reversed()), any, [], Array(0..<n)] {
            let picked = list.picking(wanted)
            #expect(picked.map(\.id) == wanted.map { array[$0].id })
            #expect(picked.count == wanted.count)
            #expect(picked.storageChunks.allSatisfy { $0.count <= CardList.fillChunk && !$0.isEmpty })
        }
    }

    @Test func aChangeCopiesOneChunk() {
        let before = CardList(cards(0..<30_000))
        var after = before
        after.insert(Card(id: CardID(99_999), title: "new"), at: 15_000)
        after.remove(at: 29_000)
        // (Booleans first: a failed expectation would print 30,000 cards.)
        let head = after.sharesStorage(with: before, in: 0..<14_000)
        let middle = after.sharesStorage(with: before, in: 14_000..<16_000)
        #expect(head && !middle)
        #expect(before.count == 30_000 && before[15_000].id == CardID(15_000))
        var edited = before
        edited[10].title = "changed"
        let rest = edited.sharesStorage(with: before, in: 1_000..<30_000)
        let changed = edited.sharesStorage(with: before, in: 0..<1)
        #expect(rest && !changed)
        #expect(before[10].title == "c10")
    }

    /// `changedSpan` is the window between the longest common prefix and suffix, the same as
    /// comparing card by card, whether or not the two lists share chunks.
    @Test(arguments: [11, 12, 13]) func changedSpanIsTheWindowBetweenCommonEnds(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        func reference(_ old: [Card], _ new: [Card]) -> (old: Range<Int>, new: Range<Int>)? {
            if old == new { return nil }
            var p = 0
            while p < old.count, p < new.count, old[p] == new[p] { p += 1 }
            var q = 0
            while q < old.count - p, q < new.count - p, old[old.count - 1 - q] == new[new.count - 1 - q] { q += 1 }
            return (p..<(old.count - q), p..<(new.count - q))
        }
        for _ in 0..<200 {
            let n = rng.int(0...5000)
            let old = CardList(cards(0..<n))
            var new = old
            for _ in 0..<rng.int(0...3) {
                switch rng.int(0...2) {
                case 0:
                    new.insert(
                        Card(id: CardID(UInt64(90_000 + rng.int(0...999))), title: "x"), at: rng.int(0...new.count))
                case 1 where !new.isEmpty: new.remove(at: rng.int(0...new.count - 1))
                case 2 where !new.isEmpty: new[rng.int(0...new.count - 1)].title = "edited"
                default: break
                }
            }
            let expected = reference(Array(old), Array(new))
            let got = new.changedSpan(from: old)
            #expect(got?.old == expected?.old && got?.new == expected?.new)
            // The same cards, chunked afresh (nothing shared): the same answer.
            let unshared = CardList(Array(new))
            let again = unshared.changedSpan(from: old)
            #expect(again?.old == expected?.old && again?.new == expected?.new)
        }
    }

    @Test func columnsOfEveryShapeCompareByCards() {
        let a = Column(title: "A", cards: cards(0..<2500))
        var b = a
        b.cards.insert(Card(id: CardID(1), title: "c1"), at: 2)
        b.cards.remove(at: 2)
        let equal = a == b
        #expect(equal, "the same cards, one chunk rebuilt")
        b.cards[2499].title = "other"
        let unequal = a != b
        #expect(unequal)
        #expect(CardList() == CardList([]) && CardList().first == nil && CardList().last == nil)
    }
}
