import Testing
import DragKit
@testable import LanesCore

/// Timing limits are the brief's release budgets; a debug build gets ten times as long.
@Suite("Formats: performance", .serialized)
struct FormatsPerformanceTests {
    #if DEBUG
    static let slack = 10.0
    #else
    static let slack = 1.0
    #endif

    static func bigTaskell(cards: Int, columns: Int = 10) -> String {
        var text = ""
        text.reserveCapacity(cards * 64)
        let perColumn = cards / columns
        for c in 0..<columns {
            if c > 0 { text += "\n" }
            text += "## Column \(c) (\(perColumn))\n\n"
            for k in 0..<perColumn {
                text += "- Card number \(k) in column \(c) with some words #tag\n"
                if k % 5 == 0 { text += "    @ 2025-01-\(k % 28 + 1)\n" }
                if k % 3 == 0 { text += "    > A description line for card \(k), 説明\n" }
                if k % 4 == 0 { text += "    * [ ] A sub-task\n    * [x] A finished one\n" }
            }
        }
        return text
    }

    static func milliseconds(_ d: Duration) -> Double {
        Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
    }

    @Test func parsesAHundredThousandCardsQuickly() throws {
        let bytes = Array(Self.bigTaskell(cards: 100_000).utf8)
        #expect(bytes.count > 5_000_000)
        var best = Double.infinity
        var result: (board: Board, info: BoardFileInfo)?
        for _ in 0..<3 {
            let clock = ContinuousClock()
            let start = clock.now
            result = try BoardFormat.parse(bytes, file: "big.md")
            best = min(best, Self.milliseconds(clock.now - start))
        }
        let (board, info) = try #require(result)
        #expect(board.cardCount == 100_000)
        #expect(best < 400 * Self.slack, "parse took \(best) ms")
        #expect(Array(BoardFormat.serialize(board, info: info).utf8) == bytes)
    }

    @Test func serialisesTenThousandCardsQuickly() throws {
        let text = Self.bigTaskell(cards: 10_000)
        let (board, info) = try BoardFormat.parse(text, file: "big.md")
        var best = Double.infinity
        var output = ""
        for _ in 0..<5 {
            let clock = ContinuousClock()
            let start = clock.now
            output = BoardFormat.serialize(board, info: info)
            best = min(best, Self.milliseconds(clock.now - start))
        }
        #expect(output == text)
        #expect(best < 30 * Self.slack, "serialise took \(best) ms")
    }

    @Test func parsesAHundredThousandObsidianCardsQuickly() throws {
        var text = "---\n\nkanban-plugin: basic\n\n---\n\n"
        for c in 0..<10 {
            text += "## Lane \(c)\n\n"
            for k in 0..<10_000 {
                text += "- [ ] Card \(k) of lane \(c) #tag @{2025/6/\(k % 28 + 1)}\n\n"
                if k % 7 == 0 { text += "  continuation line\n\n" }
            }
        }
        text += "\n%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\"}\n```\n%%\n"
        let bytes = Array(text.utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let (board, info) = try BoardFormat.parse(bytes, file: "big.md")
        let elapsed = Self.milliseconds(clock.now - start)
        #expect(board.cardCount == 100_000)
        #expect(elapsed < 400 * Self.slack, "parse took \(elapsed) ms")
        #expect(BoardFormat.serialize(board, info: info) == text)
    }
}
