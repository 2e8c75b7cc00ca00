import DragKit
@testable import LanesCore
import Testing

@Suite struct CardStorageTests {
    /// The compact layout is what makes a million cards fit (issue #16): 48 bytes a card in an array.
    @Test func aCardTakes48Bytes() {
        #expect(MemoryLayout<Card>.stride == 48)
    }

    @Test func fieldsReadBackAsWritten() {
        var c = Card(id: CardID(1), title: "t")
        #expect(c.descriptionLines == [] && c.subtasks == [] && c.extraLines == [] && c.due == nil && !c.done)
        #expect(!c.hasDescription)
        c.done = true
        #expect(c.done)
        c.descriptionLines = ["one"]
        #expect(c.descriptionLines == ["one"] && c.hasDescription && c.done)
        c.descriptionLines = ["one", "two", ""]
        #expect(c.descriptionLines == ["one", "two", ""])
        c.due = "2025-01-02"
        c.subtasks = [Subtask("s", done: true)]
        c.extraLines = ["  x"]
        #expect(c.due == "2025-01-02" && c.subtasks == [Subtask("s", done: true)] && c.extraLines == ["  x"])
        #expect(c.descriptionLines == ["one", "two", ""] && c.done)
        c.descriptionLines = []
        c.due = nil
        c.subtasks = []
        c.extraLines = []
        #expect(c == Card(id: CardID(1), title: "t", done: true))
        c.done = false
        #expect(c == Card(id: CardID(1), title: "t"))
    }

    /// However a card was built, equal fields make equal cards with equal hashes.
    @Test func equalityFollowsTheFieldsNotTheHistory() {
        var a = Card(id: CardID(2), title: "t")
        a.descriptionLines.append("x")
        a.descriptionLines.append("y")
        a.descriptionLines.append("z")
        var b = Card(id: CardID(2), title: "t", due: "d", descriptionLines: ["x"])
        b.descriptionLines = ["x", "y", "z"]
        b.due = nil
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        var c = Card(id: CardID(2), title: "t", descriptionLines: ["x", "y"])
        c.descriptionLines.append("z")
        #expect(c == a)
        var d = Card(id: CardID(2), title: "t", done: true)
        d.descriptionLines.append("only")
        #expect(d == Card(id: CardID(2), title: "t", descriptionLines: ["only"], done: true))
        #expect(d != Card(id: CardID(2), title: "t", descriptionLines: ["only"]))
        #expect(Card(id: CardID(2), title: "t", descriptionLines: [""]) != Card(id: CardID(2), title: "t"))
    }
}

/// Titles kept in shared slabs (`CardTitle`, `TitleSlabs`): what a million-card board needs to fit
/// in 150 MiB, without any difference a caller of `Card.title` can see.
@Suite struct CardTitleTests {
    @Test func aTitleReadsBackAsSetWhateverItsLength() {
        for text in [
            "", "a", "fifteen bytes!!", "sixteen bytes!!!", "naïve café #tag", String(repeating: "x", count: 5000),
        ] {
            var c = Card(id: CardID(1), title: "before")
            c.title = text
            #expect(c.title == text)
            #expect(Card(id: CardID(2), title: text).title == text)
        }
    }

    /// Equality stays String's: canonically equivalent titles are equal, with equal hashes.
    @Test func equalityIsCanonicalEquivalenceAsForStrings() {
        let composed = Card(id: CardID(1), title: "caf\u{E9}"), decomposed = Card(id: CardID(1), title: "cafe\u{301}")
        #expect(composed == decomposed)
        #expect(composed.hashValue == decomposed.hashValue)
        let kelvin = Card(id: CardID(1), title: "\u{212A}"), k = Card(id: CardID(1), title: "K")
        #expect(kelvin == k && kelvin.hashValue == k.hashValue)
        #expect(Card(id: CardID(1), title: "abc") != Card(id: CardID(1), title: "abd"))
        #expect(Card(id: CardID(1), title: "abc") != Card(id: CardID(1), title: "ab"))
        #expect(Card(id: CardID(1), title: "") == Card(id: CardID(1), title: ""))
    }

    /// A reader puts its titles many to an allocation; one longer than a quarter slab gets its own;
    /// a title set later gets new bytes and leaves the others as they were.
    @Test func aReadSharesSlabsAmongItsTitles() throws {
        let long = String(repeating: "L", count: TitleSlabs.slabSize / 4 + 1)
        func board(_ marker: String) -> String {
            "## A\n\n" + ["first card", "second card", long, "last"].map { marker + $0 + "\n" }.joined()
        }
        for file in [board("- "), "---\n\nkanban-plugin: basic\n\n---\n\n" + board("- [ ] ")] {
            var (board, _) = try BoardFormat.parse(file, file: "t.md")
            let cards = board.columns[0].cards.array
            #expect(cards.map(\.title) == ["first card", "second card", long, "last"])
            #expect(cards[0].titleText.sharesSlab(with: cards[1].titleText))
            #expect(cards[0].titleText.sharesSlab(with: cards[3].titleText))
            #expect(!cards[0].titleText.sharesSlab(with: cards[2].titleText))
            board[ItemPath(section: 0, item: 1)].title = "second, edited"
            let after = board.columns[0].cards.array
            #expect(after.map(\.title) == ["first card", "second, edited", long, "last"])
            #expect(!after[1].titleText.sharesSlab(with: after[0].titleText))
        }
    }

    /// 4,096 titles made one at a time from 8 threads at once (the process's shared slabs, under a
    /// lock) each read back as made, and the first ones are unchanged after all the others.
    @Test func titlesMadeOnManyThreadsAtOnceStayIntact() async {
        let made = await withTaskGroup(of: [(String, Card)].self) { group in
            for t in 0..<8 {
                group.addTask {
                    (0..<512).map { i in
                        let text = "thread \(t) title \(i) " + String(repeating: "é", count: i % 20)
                        return (text, Card(id: CardID(UInt64(t * 1000 + i)), title: text))
                    }
                }
            }
            var all: [(String, Card)] = []
            for await part in group { all += part }
            return all
        }
        #expect(made.count == 4096)
        #expect(made.allSatisfy { $0.0 == $0.1.title })
    }
}
