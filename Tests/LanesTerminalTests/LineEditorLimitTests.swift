import DragKit
import Foundation
@testable import LanesCore
import SeededRandom
import TestSupport
import Testing
@testable import LanesTerminal

@Suite("Line editor: doors and long text")
struct LineEditorLimitTests {
    @Test func pastedBreaksBecomeSpacesAndNULsGoWithWords() {
        var e = LineEditor("x")
        e.insert("a\r\nb\0c\u{2028}d")
        #expect(e.text == "xa bc d")
        #expect(
            e.note
                == "Pasted text: 2 line breaks became spaces and 1 NUL byte was removed (a title or name is one line)")
        e.insert("plain")
        #expect(e.note == nil)
    }

    @Test func aPastePastTheLimitIsRefusedWhole() {
        var e = LineEditor("keep")
        e.insert(String(repeating: "z", count: LineEditor.maxCharacters))
        #expect(e.text == "keep")
        #expect(e.note?.hasPrefix("Paste refused (10000 characters): a prompt holds at most 10000 characters") == true)
        e.insert(String(repeating: "z", count: LineEditor.maxCharacters - 4))
        #expect(e.characters.count == LineEditor.maxCharacters)
        _ = e.handle(.char("y"), [])
        #expect(e.characters.count == LineEditor.maxCharacters)
        #expect(e.note?.hasPrefix("Not typed") == true)
    }

    /// The view measures only near the cursor, and agrees with measuring the whole prefix.
    @Test func visibleKeepsTheCursorInViewLikeAFullMeasure() {
        var rng = SplitMix64(seed: 42)
        let alphabet: [Character] = ["a", "日", "\u{1B}", "👍🏽", "é", " ", "\u{0B}"]
        for _ in 0..<200 {
            let n = Int.random(in: 0...60, using: &rng)
            var e = LineEditor(String((0..<n).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &rng)] }))
            for _ in 0..<Int.random(in: 0...n, using: &rng) { _ = e.handle(.left, []) }
            let width = Int.random(in: 2...20, using: &rng)
            let v = e.visible(width: width)
            #expect(TextWidth.width(of: v.text) <= width)
            #expect(v.cursor < width)
            // The text before the cursor shown is the longest tail that fits with the cursor cell.
            let before = DisplayText.safe(String(e.characters[..<e.cursor]))
            let shownBefore = TextWidth.width(of: before)
            let under = e.cursor < e.characters.count ? LineEditor.cells(e.characters[e.cursor]) : 1
            if shownBefore + under <= width { #expect(v.cursor == shownBefore) }
        }
    }

    @Test func aMegabyteTitleOpensAndEditsWithoutMeasuringItAll() {
        // Judged by how the time grows with the title, not by a time: a view that measured the whole
        // title (quadratic: seconds per key at 16k characters) takes a hundred times as long on a title a
        // hundred times as long; one that measures what it shows takes about as long. Fastest of three.
        // In the thread's own CPU time: a busy machine does not decide.
        func editTime(_ repeats: Int) -> Double {
            (0..<3).map { _ in
                var e = LineEditor(String(repeating: "long title ", count: repeats))
                return ThreadCPU.seconds {
                    for _ in 0..<50 {
                        _ = e.handle(.char("x"), [])
                        _ = e.visible(width: 100)
                        _ = e.handle(.left, [])
                    }
                }
            }.min()!
        }
        let short = editTime(1_000)
        let long = editTime(100_000)
        #expect(long / short < 20, "11,000 characters: \(short), 1.1 million: \(long)")
    }

    @Test func promptsAreADoorPastedCRLFInAColumnRenameStaysOneLine() {
        var d = AppDriver(board: sampleBoard())
        d.key(.char("R"))
        d.key(.char("u"), [.ctrl])
        _ = d.app.handle(.paste("New\r\nname\0"), now: d.now)
        d.key(.enter)
        #expect(d.app.board.columns[0].title == "New name")
        let text = BoardFormat.serialize(d.app.board, as: .taskell)
        #expect((try? BoardFormat.parse(text, file: "b.md")) != nil)
    }

    @Test func anEditorCardWithLineSeparatorsIsMadeStorable() throws {
        var d = AppDriver(board: sampleBoard())
        let id = d.app.board.columns[0].cards[0].id
        let edited = try CardText.parse(
            "## Card\n\n- one\u{2028}two\n    > a\u{2029}b\n", original: d.app.board.columns[0].cards[0],
            storesDoneMark: false)
        d.app.finishExternalEdit(id, edited: edited)
        #expect(d.app.board.columns[0].cards[0].title == "one two")
        #expect(d.app.board.columns[0].cards[0].descriptionLines == ["a", "b"])
        #expect(d.app.status.contains("2 line breaks became spaces"))
    }
}
