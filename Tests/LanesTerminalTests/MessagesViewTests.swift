import DragKit
import Foundation
import Testing
@testable import LanesTerminal

/// The recent-messages log and view (`^`, like vim's `:messages`): every message kept whole, with its time.
struct MessagesViewTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test func theLogKeepsTheLastMessagesAndCountsRepeats() {
        var log = MessageLog(capacity: 3)
        log.record("one", at: 10)
        log.record("two", at: 20)
        log.record("two", at: 25)
        log.record("", at: 26)
        #expect(log.entries.map(\.text) == ["one", "two"])
        #expect(log.entries.map(\.count) == [1, 2])
        #expect(log.entries.map(\.time) == [10, 25])
        log.record("three", at: 30)
        log.record("four", at: 40)
        #expect(log.entries.map(\.text) == ["two", "three", "four"])
    }

    @Test func aHugeMessageIsKeptUpToTheLimitAndSaysWhatItLeftOut() {
        var log = MessageLog(longest: 10)
        log.record(String(repeating: "x", count: 25), at: 0)
        #expect(log.entries[0].text == String(repeating: "x", count: 10) + " … (15 more characters not kept)")
    }

    @Test func eachMessageIsShownWholeUnderItsTime() {
        var log = MessageLog()
        let long = (1...60).map { "word\($0)" }.joined(separator: " ")
        log.record("Saved", at: 3600 * 13 + 62)  // 13:01:02 UTC
        log.record(long, at: 3600 * 13 + 63)
        log.record(long, at: 3600 * 13 + 64)
        let rows = MessagesView.lines(log, width: 40, zone: utc)
        #expect(rows[0] == "13:01:02 Saved")
        #expect(rows[1].hasPrefix("13:01:04 word1 "))
        #expect(rows.allSatisfy { TextWidth.width(of: $0) <= 40 })
        #expect(rows.dropFirst(2).allSatisfy { $0.hasPrefix(String(repeating: " ", count: 9)) })
        // Every word, in order, and the repeat count; nothing cut.
        let text = rows.dropFirst().map { $0.dropFirst(9) }.joined(separator: " ")
        #expect(text == long + " (×2)")
        #expect(!rows.joined().contains("…"))
    }

    @Test func controlCharactersInAMessageNeverReachTheTerminal() {
        var log = MessageLog()
        log.record("bad \u{1b}[2Jtitle", at: 0)
        #expect(!MessagesView.lines(log, width: 60, zone: utc).joined().contains("\u{1b}"))
    }

    @Test func anEmptyLogSaysSo() {
        #expect(MessagesView.lines(MessageLog(), width: 60) == ["No messages yet in this session."])
    }

    @Test func theViewScrollsToItsLastRowAndDrawsInsideItsBox() {
        var log = MessageLog()
        for i in 0..<40 { log.record("message \(i)", at: Double(i)) }
        let size = Size(width: 60, height: 12)
        let maxScroll = MessagesView.maxScroll(log, size: size, zone: utc)
        #expect(maxScroll == 40 - MessagesView.visibleRows(height: 12))
        var buf = CellBuffer(width: 60, height: 12)
        MessagesView.draw(log, scroll: maxScroll, keymap: Keymap(), zone: utc, into: &buf)
        let text = buf.text
        #expect(text.contains("message 39"))
        #expect(!text.contains("message 30 "))
        #expect(text.contains("Messages"))
        #expect(text.contains("↑ more"))
    }

    // MARK: The status line names the view when it cuts a message

    @Test func aMessageLongerThanTheScreenNamesTheKeyThatShowsItWhole() {
        let message = Array(repeating: "word", count: 200).joined(separator: " ")
        let rows = BoardView.statusLines(message, width: 30, height: 10, messagesKey: "^")
        #expect(rows.count == 9)
        #expect(rows.last?.hasSuffix("… ^ shows it whole") == true)
        #expect(rows.allSatisfy { TextWidth.width(of: $0) <= 30 })
        // A message that fits says nothing of it.
        let fits = BoardView.statusLines("Saved", width: 30, height: 10, messagesKey: "^")
        #expect(fits == [" Saved"])
    }

    // MARK: In the app

    @Test func theAppKeepsWhatTheStatusSaidAndTheKeyShowsIt() {
        var d = AppDriver(board: sampleBoard(), width: 60, height: 14)
        d.key(.char("u"))  // "Nothing to undo"
        d.key(.char("u"))
        let long = (1...150).map { "part\($0)" }.joined(separator: " ")
        d.app.setStatus(long)
        // The status shows at most the screen; the view shows it whole.
        #expect(d.screen().contains("^ shows it whole"))
        d.key(.char("^"))
        let texts = d.app.messages.entries.map(\.text)
        #expect(texts == ["ready", "Nothing to undo", long])
        #expect(d.app.messages.entries[1].count == 2)
        let screen = d.screen()
        #expect(screen.contains("Messages"))
        #expect(screen.contains("part150"))  // the end of the long message is on screen
        // Scrolled back to the top, the first message shows.
        d.key(.home)
        #expect(d.screen().contains("ready"))
        d.key(.escape)
        #expect(!d.screen().contains("Messages ·"))
        d.key(.char("^"))
        d.key(.char("q"))
        #expect(!d.screen().contains("Messages ·"))
        #expect(d.app.messages.entries.count == 3, "opening and closing the view records nothing")
    }

    @Test func whatADragSaysOnTheWayIsNotKeptButItsEndIs() {
        var d = AppDriver(board: sampleBoard(), width: 80, height: 16)
        let before = d.app.messages.entries.count
        guard let from = d.app.layout.columns.first?.frameOfItem(at: 0),
            let to = d.app.layout.columns.dropFirst().first?.frameOfItem(at: 0)
        else { Issue.record("no layout"); return }
        var points: [(Int, Int)] = [(from.minX + 2, from.minY + 1)]
        for x in stride(from: from.minX + 3, through: to.minX + 2, by: 1) { points.append((x, from.minY + 1)) }
        d.drag(points)
        let kept = d.app.messages.entries.dropFirst(before).map(\.text)
        #expect(kept.count <= 1, "motions of the drag were kept: \(kept)")
        #expect(titles(d.app.board)[1].contains("a0"))
    }
}
