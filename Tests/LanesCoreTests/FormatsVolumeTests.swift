import Testing
import DragKit
@testable import LanesCore

/// Large boards round-trip exactly. Speed is measured by `make bench`, not here.
@Suite("Formats: volume", .serialized)
struct FormatsVolumeTests {
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

    @Test func aHundredThousandCardsRoundTrip() throws {
        let bytes = Array(Self.bigTaskell(cards: 100_000).utf8)
        #expect(bytes.count > 5_000_000)
        let (board, info) = try BoardFormat.parse(bytes, file: "big.md")
        #expect(board.cardCount == 100_000)
        #expect(Array(BoardFormat.serialize(board, info: info).utf8) == bytes)
    }

    @Test func tenThousandCardsSerialiseExactly() throws {
        let text = Self.bigTaskell(cards: 10_000)
        let (board, info) = try BoardFormat.parse(text, file: "big.md")
        #expect(BoardFormat.serialize(board, info: info) == text)
    }

    @Test func aHundredThousandObsidianCardsRoundTrip() throws {
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
        let (board, info) = try BoardFormat.parse(bytes, file: "big.md")
        #expect(board.cardCount == 100_000)
        #expect(BoardFormat.serialize(board, info: info) == text)
    }
}
