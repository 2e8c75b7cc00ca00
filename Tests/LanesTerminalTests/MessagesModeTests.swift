import DragKit
import Testing
@testable import LanesTerminal

/// The recent messages as a value: exact scroll positions for exact keys and mouse events.
@Suite struct MessagesModeTests {
    let keymap = Keymap()
    let size = Size(width: 80, height: 24)
    let log: MessageLog = {
        var log = MessageLog()
        for i in 1...40 { log.record("message \(i)", at: Double(i)) }
        return log
    }()
    var last: Int { MessagesView.maxScroll(log, size: size) }
    var page: Int { MessagesView.visibleRows(height: 24) - 1 }

    func after(_ keys: [(Key, Modifiers)], from start: Int = 0) -> (MessagesMode, [ViewOutcome]) {
        var list = MessagesMode(scroll: start)
        let outcomes = keys.map { list.handle($0.0, $0.1, keymap: keymap, size: size, log: log) }
        return (list, outcomes)
    }

    @Test func itOpensAtTheNewestMessage() {
        #expect(last == 40 - MessagesView.visibleRows(height: 24))
        #expect(last > page, "the tests below scroll a list that needs it")
        #expect(MessagesMode(newestOf: log, size: size) == MessagesMode(scroll: last))
        #expect(MessagesMode(newestOf: MessageLog(), size: size) == MessagesMode(scroll: 0))
    }

    @Test func movementKeysScrollWithinTheList() {
        #expect(after([(.down, [])]) == (MessagesMode(scroll: 1), [.stay]))
        #expect(after([(.up, [])]) == (MessagesMode(scroll: 0), [.stay]), "no scrolling above the top")
        #expect(after([(.pageDown, [])]).0 == MessagesMode(scroll: page))
        #expect(after([(.end, [])]).0 == MessagesMode(scroll: last))
        #expect(after([(.end, []), (.down, [])]).0 == MessagesMode(scroll: last), "no scrolling past the end")
        #expect(after([(.home, [])], from: 5).0 == MessagesMode(scroll: 0))
    }

    @Test func closingKeysAndTheMessagesKeyClose_othersDoNothing() {
        for key in [Key.escape, .enter, .char("q"), .char("?"), .char("^")] {
            #expect(after([(key, [])], from: 3) == (MessagesMode(scroll: 3), [.close]), "\(key)")
        }
        #expect(after([(.char("x"), [])], from: 3) == (MessagesMode(scroll: 3), [.stay]))
    }

    @Test func theWheelScrollsALine_aPressCloses() {
        var list = MessagesMode(scroll: 3)
        #expect(list.handle(MouseEvent(.wheelDown, .none, x: 5, y: 5), keymap: keymap, size: size, log: log) == .stay)
        #expect(list == MessagesMode(scroll: 4))
        #expect(list.handle(MouseEvent(.wheelUp, .none, x: 5, y: 5), keymap: keymap, size: size, log: log) == .stay)
        #expect(list == MessagesMode(scroll: 3))
        #expect(list.handle(MouseEvent(.press, .left, x: 5, y: 5), keymap: keymap, size: size, log: log) == .close)
        #expect(list.handle(MouseEvent(.release, .left, x: 5, y: 5), keymap: keymap, size: size, log: log) == .stay)
    }
}
