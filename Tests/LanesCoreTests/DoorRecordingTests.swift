import DragKit
import Foundation
import Testing

@testable import LanesCore

/// `DoorRecording`: what the commands' door gave while a recording ran, in order, and nothing else;
/// the inverses it holds take back exactly those edits on a board another writer changed since.
@Suite struct DoorRecordingTests {
    private let text = """
        ## To do

        - Fix login
        - Write docs

        ## Doing

        - Review PR

        ## Done

        """

    private func titles(_ b: Board) -> [[String]] { b.columns.map { $0.cards.map(\.title) } }

    @Test func recordsEveryOutcomeOfTheCommandsInOrderAndNothingOutsideIt() throws {
        var board = try BoardFormat.parse(text, file: "b.md").board
        _ = try BoardCommands.move(&board, card: "Review PR", to: "Done")  // not recorded
        let (placed, outcomes) = try DoorRecording.recording {
            var changes = BoardCommands.CardChanges()
            changes.title = "Fix the login"
            changes.due = .some("2026-12-01")
            _ = try BoardCommands.editCard(&board, card: "Fix login", changes)
            return try BoardCommands.move(&board, card: "Write docs", to: "Doing")
        }
        #expect(placed.changed)
        #expect(outcomes.map(\.words).count == 3)
        #expect(outcomes.allSatisfy { $0.inverse != nil })
        #expect(outcomes.last?.board == board)
        _ = try BoardCommands.add(&board, column: "To do", title: "Later")  // after the recording: not recorded
        #expect(DoorRecording.recording { 0 }.outcomes.isEmpty)
    }

    @Test func theRecordedInversesTakeBackOnlyTheRecordedEdits() throws {
        var board = try BoardFormat.parse(text, file: "b.md").board
        let (_, outcomes) = try DoorRecording.recording {
            try BoardCommands.move(&board, card: "Fix login", to: "Done")
        }
        // Another writer, after: a card moved and one added.
        _ = try BoardCommands.move(&board, card: "Review PR", to: "To do", position: 1)
        _ = try BoardCommands.add(&board, column: "Doing", title: "Theirs")
        for inverse in outcomes.reversed().compactMap(\.inverse) {
            try BoardCommands.door(&board, inverse, force: true)
        }
        #expect(titles(board) == [["Review PR", "Fix login", "Write docs"], ["Theirs"], []])
    }

    @Test func aRefusalIsRecordedAsNothing() throws {
        var board = try BoardFormat.parse(text, file: "b.md").board
        _ = try BoardCommands.setLimit(&board, column: "Doing", to: 1)
        let (result, outcomes) = DoorRecording.recording { () -> CommandError? in
            do {
                _ = try BoardCommands.move(&board, card: "Fix login", to: "Doing")
                return nil
            } catch { return error as? CommandError }
        }
        #expect(result?.message.contains("full") == true)
        #expect(outcomes.isEmpty)
    }
}
