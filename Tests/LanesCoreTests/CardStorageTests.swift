import DragKit
@testable import LanesCore
import Testing

@Suite struct CardStorageTests {
    /// The compact layout is what makes a million cards fit (issue #16): 48 bytes a card in an array.
    @Test func aCardTakes48Bytes() {
        #expect(MemoryLayout<Card>.stride == 48)
    }

    @Test func fieldsReadBackAsWritten() {
        var c = Card(id: ItemID(1), title: "t")
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
        #expect(c == Card(id: ItemID(1), title: "t", done: true))
        c.done = false
        #expect(c == Card(id: ItemID(1), title: "t"))
    }

    /// However a card was built, equal fields make equal cards with equal hashes.
    @Test func equalityFollowsTheFieldsNotTheHistory() {
        var a = Card(id: ItemID(2), title: "t")
        a.appendDescriptionLine("x")
        a.appendDescriptionLine("y")
        a.appendDescriptionLine("z")
        var b = Card(id: ItemID(2), title: "t", due: "d", descriptionLines: ["x"])
        b.descriptionLines = ["x", "y", "z"]
        b.due = nil
        #expect(a == b)
        #expect(a.hashValue == b.hashValue)
        var c = Card(id: ItemID(2), title: "t", descriptionLines: ["x", "y"])
        c.appendDescriptionLine("z")
        #expect(c == a)
        var d = Card(id: ItemID(2), title: "t", done: true)
        d.appendDescriptionLine("only")
        #expect(d == Card(id: ItemID(2), title: "t", descriptionLines: ["only"], done: true))
        #expect(d != Card(id: ItemID(2), title: "t", descriptionLines: ["only"]))
        #expect(Card(id: ItemID(2), title: "t", descriptionLines: [""]) != Card(id: ItemID(2), title: "t"))
    }
}
