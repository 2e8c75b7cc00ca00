import Foundation
@testable import LanesCore
import Testing

@Suite struct StarterBoardTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func embeddedStarterEqualsTheResourceFile() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("Resources/starter.md"), encoding: .utf8)
        #expect(StarterBoard.markdown == file)
    }

    @Test func starterParsesAndRoundTrips() throws {
        let (board, info) = try BoardFormat.parse(StarterBoard.markdown, file: "starter.md")
        #expect(board.columns.map(\.title) == ["To do", "Doing", "Done"])
        #expect(board.cardCount == 7)
        #expect(BoardFormat.serialize(board, info: info) == StarterBoard.markdown)
    }
}
