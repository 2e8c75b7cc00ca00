import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The help screen as a value: exact scroll positions for exact keys and mouse events.
@Suite struct HelpModeTests {
    let keymap = Keymap()
    let size = Size(width: 80, height: 24)
    var last: Int { HelpView.maxScroll(keymap: keymap, size: size) }
    var page: Int { HelpView.visibleRows(height: 24) - 1 }

    func after(_ keys: [(Key, Modifiers)], from start: Int = 0) -> (HelpMode, [ViewOutcome]) {
        var help = HelpMode(scroll: start)
        let outcomes = keys.map { help.handle($0.0, $0.1, keymap: keymap, size: size) }
        return (help, outcomes)
    }

    @Test func theListIsLongerThanAScreenAt80x24() {
        #expect(last > page, "the tests below scroll a list that needs it")
    }

    @Test func movementKeysScrollWithinTheList() {
        #expect(after([(.down, [])]) == (HelpMode(scroll: 1), [.stay]))
        #expect(
            after([(.char("j"), []), (.char("j"), []), (.char("k"), [])]) == (
                HelpMode(scroll: 1), [.stay, .stay, .stay]
            ))
        #expect(after([(.up, [])]) == (HelpMode(scroll: 0), [.stay]), "no scrolling above the top")
        #expect(after([(.pageDown, [])]).0 == HelpMode(scroll: min(page, last)))
        #expect(after([(.char("]"), [])]).0 == HelpMode(scroll: min(page, last)), "the keymap's page key")
        #expect(after([(.end, [])]).0 == HelpMode(scroll: last))
        #expect(after([(.char("G"), []), (.down, [])]).0 == HelpMode(scroll: last), "no scrolling past the end")
        #expect(after([(.home, [])], from: 5).0 == HelpMode(scroll: 0))
        #expect(after([(.pageUp, [])], from: 2).0 == HelpMode(scroll: 0))
    }

    @Test func closingKeysCloseAndOthersDoNothing() {
        for key in [Key.escape, .enter, .char("q"), .char("?")] {
            #expect(after([(key, [])], from: 3) == (HelpMode(scroll: 3), [.close]), "\(key)")
        }
        for key in [Key.char("a"), .char("x"), .char("Z"), .tab] {
            #expect(after([(key, [])], from: 3) == (HelpMode(scroll: 3), [.stay]), "\(key)")
        }
    }

    @Test func aRebindingIsFollowed() throws {
        var k = Keymap()
        try k.apply(line: "bind n down", number: 1, file: "config")
        var help = HelpMode()
        #expect(help.handle(.char("n"), [], keymap: k, size: size) == .stay)
        #expect(help == HelpMode(scroll: 1))
    }

    @Test func theWheelScrollsAndAClickCloses() {
        var help = HelpMode(scroll: 2)
        #expect(help.handle(MouseEvent(.wheelDown, .none, x: 5, y: 5), keymap: keymap, size: size) == .stay)
        #expect(help == HelpMode(scroll: 3))
        #expect(help.handle(MouseEvent(.wheelUp, .none, x: 5, y: 5), keymap: keymap, size: size) == .stay)
        #expect(help == HelpMode(scroll: 2))
        #expect(help.handle(MouseEvent(.release, .left, x: 5, y: 5), keymap: keymap, size: size) == .stay)
        #expect(help.handle(MouseEvent(.press, .left, x: 5, y: 5), keymap: keymap, size: size) == .close)
        #expect(help == HelpMode(scroll: 2))
    }
}
