import DragKit
import SeededRandom
import Testing
@testable import LanesCore

@Suite("The fast lane tag scan places every title as Swimlanes does")
struct LaneTagFinderTests {
    /// Pieces that meet at every tag boundary: ASCII and Unicode blanks, letters (one of which,
    /// the Kelvin sign, lowercases to ASCII), a combining mark, a prepended mark, a joiner, `\r\n`.
    static let pieces = [
        "#", "#", "#", " ", " ", "\t", "\r\n", "\u{A0}", "\u{2003}", "team0", "Team1", "TEAM2", "a/b", "x-y",
        "_", "é", "e\u{301}", "\u{301}", "\u{600}", "\u{200D}", "K", "\u{212A}", "kelvin", "Ω", "ω", "1",
        "word", ".", ",", "#team0", " #team1", "##", "/", "-", "🙂", "日本",
        "frontend-web", "FRONTEND-API", "frontend", "backend_services", "Backend_Service", "ops", "OPS_",
    ]
    static let laneSets: [[String]] = [
        ["team0", "Team1", "team2"], ["a/b", "x-y", "é", "\u{212A}"], ["ω", "word", "team1", "_"],
        // Longer than eight bytes, alike in their first eight; `_` beside letters.
        ["frontend-web", "frontend-api", "backend_services", "ops", "ops_"],
    ]

    static func title(_ random: inout SplitMix64, pieces n: Int) -> String {
        (0..<n).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }

    /// `place` over `cards`: each card's lane (`lanes.count`: "No lane"), the lanes' counts, and
    /// the cards carrying other lanes' tags.
    static func place(_ cards: CardList, in lanes: Swimlanes) -> (
        lanes: [Int], counts: [Int], several: [(index: Int, alsoIn: [Int])]
    ) {
        var laneOf = [Int32](repeating: -7, count: cards.count)
        var counts = [Int](repeating: 0, count: lanes.count + 1)
        let several = laneOf.withUnsafeMutableBufferPointer { laneOf in
            counts.withUnsafeMutableBufferPointer { counts in
                LaneTagFinder(lanes).place(cards, lanes: laneOf, counts: counts)
            }
        }
        return (laneOf.map(Int.init), counts, several)
    }

    @Test(arguments: 0..<4)
    func eachTitleIsPlacedAsSwimlanesPlacesIt(set: Int) throws {
        let lanes = try Swimlanes(Self.laneSets[set])
        var random = SplitMix64(seed: UInt64(100 + set))
        let titles = (0..<4000).map { _ in Self.title(&random, pieces: Int(random.next() % 9)) }
        let placed = Self.place(
            CardList(titles.enumerated().map { Card(id: CardID(UInt64($0 + 1)), title: $1) }), in: lanes)
        let alsoIn = Dictionary(uniqueKeysWithValues: placed.several.map { ($0.index, $0.alsoIn) })
        for (k, title) in titles.enumerated() {
            let slow = lanes.placement(ofTitle: title)
            #expect(
                placed.lanes[k] == (slow.lane ?? lanes.count) && (alsoIn[k] ?? []) == slow.alsoIn,
                "\(title.debugDescription)")
        }
    }

    /// `place` over whole columns of several chunks, titles of every length (so that a `#` or a
    /// tag falls at each offset from a title's end, where the scan reads eight bytes at a time):
    /// every card's lane, the lanes' counts and the cards carrying other lanes as `Swimlanes` gives them.
    @Test(arguments: 0..<4)
    func aWholeColumnIsPlacedAsSwimlanesPlacesIt(set: Int) throws {
        let lanes = try Swimlanes(Self.laneSets[set])
        var random = SplitMix64(seed: UInt64(300 + set))
        for size in [0, 1, 9, 1300] {
            let cards = CardList(
                (0..<size).map { i in
                    let pad = String(repeating: "x", count: Int(random.next() % 17))
                    let title =
                        i % 3 == 0
                        ? Self.title(&random, pieces: Int(random.next() % 7)) + pad
                        : pad + Self.title(&random, pieces: Int(random.next() % 7))
                    return Card(id: CardID(UInt64(i + 1)), title: title)
                })
            let (laneOf, counts, several) = Self.place(cards, in: lanes)
            let expected = cards.map { lanes.placement(ofTitle: $0.title) }
            #expect(laneOf == expected.map { $0.lane ?? lanes.count })
            #expect(counts == (0...lanes.count).map { l in expected.filter { ($0.lane ?? lanes.count) == l }.count })
            #expect(several.map(\.index) == expected.indices.filter { !expected[$0].alsoIn.isEmpty })
            #expect(several.map(\.alsoIn) == expected.filter { !$0.alsoIn.isEmpty }.map(\.alsoIn))
        }
    }

    /// `Swimlanes.isTag` reads ASCII as bytes: on random ASCII and Unicode words it answers as
    /// the definition does (the one tag `Card.tags` finds after a `#` is the word itself).
    @Test func isTagAnswersAsTheDefinition() {
        var random = SplitMix64(seed: 7)
        let bytes = Array("aZ09_-/#. \t,:é🙂Kk".map(String.init))
        for _ in 0..<20_000 {
            let word = (0..<Int(random.next() % 6)).map { _ in bytes[Int(random.next() % UInt64(bytes.count))] }
                .joined()
            #expect(
                Swimlanes.isTag(word) == (!word.isEmpty && Card.tags(in: "#" + word) == [word]),
                "\(word.debugDescription)")
        }
    }
}
