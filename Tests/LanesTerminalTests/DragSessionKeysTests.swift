import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// A keyboard drag's keys as values: what each action is while a card is lifted.
@Suite struct DragSessionKeysTests {
    @Test func movementKeysAndTheirQuickMoveTwinsMoveTheLiftedCard() {
        let k = Keymap()
        #expect(DragSession.liftedCommand(.up, keymap: k) == .move(dx: 0, dy: -1))
        #expect(DragSession.liftedCommand(.moveUp, keymap: k) == .move(dx: 0, dy: -1))
        #expect(DragSession.liftedCommand(.down, keymap: k) == .move(dx: 0, dy: 1))
        #expect(DragSession.liftedCommand(.moveDown, keymap: k) == .move(dx: 0, dy: 1))
        #expect(DragSession.liftedCommand(.left, keymap: k) == .move(dx: -1, dy: 0))
        #expect(DragSession.liftedCommand(.moveLeft, keymap: k) == .move(dx: -1, dy: 0))
        #expect(DragSession.liftedCommand(.right, keymap: k) == .move(dx: 1, dy: 0))
        #expect(DragSession.liftedCommand(.moveRight, keymap: k) == .move(dx: 1, dy: 0))
        #expect(DragSession.liftedCommand(.first, keymap: k) == .moveTo(index: 0))
        #expect(DragSession.liftedCommand(.last, keymap: k) == .moveTo(index: Int.max))
    }

    @Test func liftOrDropDropsEscCancelsQuitCancelsThenQuits() {
        let k = Keymap()
        #expect(DragSession.liftedCommand(.lift, keymap: k) == .drop)
        #expect(DragSession.liftedCommand(.drop, keymap: k) == .drop)
        #expect(DragSession.liftedCommand(.cancel, keymap: k) == .cancel)
        #expect(DragSession.liftedCommand(.quit, keymap: k) == .cancelAndQuit)
    }

    @Test func everyOtherActionWaitsForTheDropAndSaysWhichKeysEndIt() throws {
        let waiting: [Action] = Action.allCases.filter {
            ![
                .up, .moveUp, .down, .moveDown, .left, .moveLeft, .right, .moveRight, .first, .last, .lift, .drop,
                .cancel, .quit,
            ].contains($0)
        }
        #expect(waiting.contains(.deleteCard) && waiting.contains(.undo) && waiting.contains(.editTitle))
        for action in waiting {
            #expect(
                DragSession.liftedCommand(action, keymap: Keymap())
                    == .refuse("Drop the card first (space or enter), or esc to cancel"), "\(action)")
        }
        var k = Keymap()
        try k.apply(line: "unbind enter", number: 1, file: "config")
        try k.apply(line: "unbind esc", number: 2, file: "config")
        #expect(DragSession.liftedCommand(.undo, keymap: k) == .refuse("Drop the card first (space)"))
    }
}
