import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The filter as a value: what it matches, its words, and where up and down land.
@Suite struct FilterModeTests {
    /// Cards 0…5; the even ones say "bug".
    static let cards: [Card] = (0..<6).map { (k: Int) -> Card in
        Card(id: CardID(UInt64(k + 1)), title: k % 2 == 0 ? "bug \(k)" : "feature \(k)")
    }

    @Test func settingItCountsTheMatchesAndNamesTheKeys() {
        var f = FilterMode()
        let board = Board(columns: [
            Column(title: "A", cards: Self.cards), Column(title: "B", cards: [Card(id: CardID(50), title: "a bug")]),
        ])
        #expect(
            f.set("bug", on: board, keymap: Keymap())
                == "Filter “bug”: 4 matching (others dimmed; j/k jump between matches; esc clears)")
        #expect(f == FilterMode(query: "bug"))
        #expect(f.set("", on: board, keymap: Keymap()) == "Filter cleared")
        #expect(f == FilterMode())
        var unbound = Keymap()
        try? unbound.apply(line: "unbind esc", number: 1, file: "config")
        #expect(
            f.set("x", on: board, keymap: unbound) == "Filter “x”: 0 matching (others dimmed; j/k jump between matches)"
        )
    }

    @Test func clearSaysSoOnlyWhenOn() {
        var f = FilterMode()
        #expect(f.clear() == nil)
        f.query = "x"
        #expect(f.clear() == "Filter cleared")
        #expect(!f.isOn)
    }

    @Test func withoutAFilterTheSelectionMovesByRowsWithinTheColumn() {
        let f = FilterMode()
        #expect(f.landing(in: Self.cards, from: 2, delta: 1, absolute: nil) == 3)
        #expect(f.landing(in: Self.cards, from: 0, delta: -1, absolute: nil) == 0)
        #expect(f.landing(in: Self.cards, from: 5, delta: 1, absolute: nil) == 5)
        #expect(f.landing(in: Self.cards, from: 2, delta: 0, absolute: Int.max) == 5)
        #expect(f.landing(in: Self.cards, from: 2, delta: 0, absolute: 0) == 0)
    }

    @Test func withAFilterItJumpsToTheNearestMatchThatWay() {
        let f = FilterMode(query: "bug")
        #expect(f.landing(in: Self.cards, from: 0, delta: 1, absolute: nil) == 2)
        #expect(f.landing(in: Self.cards, from: 4, delta: -1, absolute: nil) == 2)
        #expect(f.landing(in: Self.cards, from: 4, delta: 1, absolute: nil) == 4, "no match below: it stays")
        #expect(
            f.landing(in: Self.cards, from: 3, delta: 0, absolute: Int.max) == 5, "the last card, past no later match")
        #expect(f.landing(in: Self.cards, from: 3, delta: 0, absolute: 0) == 0, "the first match from the top")
        let late = FilterMode(query: "feature 5")
        #expect(late.landing(in: Self.cards, from: 0, delta: 0, absolute: 0) == 5)
        #expect(late.landing(in: Self.cards, from: 0, delta: 1, absolute: nil) == 5)
        #expect(late.landing(in: Self.cards, from: 5, delta: -1, absolute: nil) == 5, "no match above: it stays")
    }

    @Test func tagsMatchAsTagsAndWordsAnywhere() {
        let card = Card(
            id: CardID(1), title: "Fix login #urgent", descriptionLines: ["the Session expires"],
            subtasks: [Subtask("write test")])
        #expect(FilterMode(query: "#urgent").matches(card))
        #expect(!FilterMode(query: "#urg").matches(card))
        #expect(FilterMode(query: "session TEST").matches(card))
        #expect(!FilterMode(query: "session deploy").matches(card))
        #expect(FilterMode().matches(card))
    }
}
