import Foundation
import Testing
import DragKit
@testable import LanesCore
@testable import LanesTerminal

/// The card as the editor sees it, and back: what the editor left alone comes back as it was.
@Suite("Card text for $EDITOR")
struct CardTextTests {
    static let board = """
        ---
        kanban-plugin: board
        ---

        ## Doing

        - [x] Minimal Demo @{2026-01-02}
        \t#blog
        \t<!-- task-id: 7f3a -->
        \t- [ ] a tab-indented sub-task

            an indented note after a blank line
        - [ ] plain

        """

    func cards() throws -> [Card] {
        Array(try BoardFormat.parse(Self.board, file: "b.md").board.columns[0].cards)
    }

    @Test func unchangedTextGivesTheSameCardWithItsDoneMarkAndEveryLine() throws {
        for card in try cards() {
            let text = CardText.render(card)
            let back = try CardText.parse(text, original: card)
            #expect(back == card)
        }
        let done = try cards()[0]
        #expect(CardText.render(done).hasPrefix("- [x] Minimal Demo\n    @ 2026-01-02\n\t#blog\n"))
    }

    @Test func aChangedTitleKeepsTheExtraLinesAndTheDoneMark() throws {
        let card = try cards()[0]
        let text = CardText.render(card).replacingOccurrences(of: "Minimal Demo", with: "Full Demo")
        let back = try CardText.parse(text, original: card)
        #expect(back.title == "Full Demo" && back.done && back.due == "2026-01-02")
        #expect(back.extraLines == card.extraLines)
        // Written back, only the title line differs.
        var (board, info) = try BoardFormat.parse(Self.board, file: "b.md")
        board.columns[0].cards[0] = back
        let after = BoardFormat.serialize(board, info: info)
        let a = after.split(separator: "\n", omittingEmptySubsequences: false)
        let b = Self.board.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(a.count == b.count)
        #expect(zip(a, b).filter { $0 != $1 }.map { String($0.0) } == ["- [x] Full Demo @{2026-01-02}"])
    }

    @Test func extraLinesEditedInTheEditorAreTaken() throws {
        let card = try cards()[1]
        let back = try CardText.parse("- [ ] plain\n    > a description\n\t#tag on its own line\n", original: card)
        #expect(back.descriptionLines == ["a description"])
        #expect(back.extraLines == ["\t#tag on its own line"])
        let unchecked = try CardText.parse("- [ ] Minimal Demo\n", original: try cards()[0])
        #expect(!unchecked.done && unchecked.extraLines.isEmpty)
    }

    @Test func aTaskellCardRefusesLinesItCannotKeep() throws {
        let card = Card(id: CardID(1), title: "t")
        #expect(CardText.render(card, storesDoneMark: false) == "- t\n")
        #expect(throws: ParseError.self) {
            try CardText.parse("- t\nsome stray line\n", original: card, storesDoneMark: false)
        }
        let back = try CardText.parse("- [x] t\n", original: card, storesDoneMark: false)
        #expect(back.title == "[x] t")
    }

    @Test func cardViewShowsExtraLinesAndTheBoardMarksThem() throws {
        let card = try cards()[0]
        let lines = CardDetailView.content(card: card, column: "Doing", storesDoneMark: true, width: 70).map(\.text)
        #expect(!lines.contains("No description"))
        #expect(lines.contains("    #blog"))
        #expect(lines.contains("    <!-- task-id: 7f3a -->"))
        #expect(lines.contains("    an indented note after a blank line"))
        #expect(CardFace.badges(of: card)?.contains("≡") == true)
        #expect(CardFace.badges(of: try cards()[1]) == nil)
    }
}

@Suite("Card text: every fixture card")
struct CardTextFixtureTests {
    /// Every card of every Markdown fixture (ours and `../shared/fixtures` when present) comes back
    /// from its editor text unchanged: `E` with no change changes nothing.
    @Test func everyFixtureCardSurvivesTheEditorUnchanged() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var dirs = [root.appendingPathComponent("Tests/Fixtures")]
        let shared = root.appendingPathComponent("../shared/fixtures").standardizedFileURL
        if FileManager.default.fileExists(atPath: shared.path) { dirs.append(shared) }
        var cards = 0
        for dir in dirs {
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path)
            where name.hasSuffix(".md") && name != "README.md" {
                let data = try #require(FileManager.default.contents(atPath: dir.appendingPathComponent(name).path))
                let (board, info) = try BoardFormat.parse(Array(data), file: name)
                let done = info.dialect != .taskell
                for card in board.columns.flatMap(\.cards) {
                    #expect(
                        try CardText.parse(
                            CardText.render(card, storesDoneMark: done), original: card, storesDoneMark: done) == card,
                        "\(name): \(card.title)")
                    cards += 1
                }
            }
        }
        #expect(cards > 20)
    }

    @Test func everyGeneratedCardSurvivesTheEditorUnchanged() throws {
        var corpus = WildCorpus(seed: 0xCA7D)
        for _ in 0..<500 {
            let (board, info) = try BoardFormat.parse(corpus.file(), file: "g.md")
            let done = info.dialect != .taskell
            for card in board.columns.flatMap(\.cards) {
                #expect(
                    try CardText.parse(
                        CardText.render(card, storesDoneMark: done), original: card, storesDoneMark: done) == card)
            }
        }
    }
}
