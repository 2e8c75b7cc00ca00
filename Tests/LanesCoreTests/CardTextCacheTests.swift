import DragKit
@testable import LanesCore
import SeededRandom
import Testing

/// A board file of `perColumn` cards a column in the dialect, with what the writer must keep
/// per card: odd blank lines before some cards (Obsidian; taskell allows none), done marks and other list markers (Obsidian),
/// descriptions, due dates and sub-tasks.
private func boardText(_ dialect: BoardDialect, perColumn: Int) -> String {
    var out = dialect == .obsidian ? "---\n\nkanban-plugin: basic\n\n---\n\n" : ""
    for c in 0..<3 {
        out += "## Column \(c)\n\n"
        for i in 0..<perColumn {
            if dialect == .obsidian && i > 0 && i % 37 == 0 { out += "\n\n" }
            switch dialect {
            case .taskell:
                out += "- card \(c).\(i)\n"
                if i % 11 == 0 { out += "    @ 2026-01-0\(i % 9 + 1)\n" }
                if i % 5 == 0 { out += "    > note \(i)\n" }
                if i % 13 == 0 { out += "    * [x] step \(i)\n" }
            case .obsidian:
                out += (i % 7 == 0 ? "- [x] " : i % 17 == 0 ? "* [ ] " : "- [ ] ") + "card \(c).\(i)"
                out += i % 11 == 0 ? " @{2026-01-0\(i % 9 + 1)}\n" : "\n"
                if i % 5 == 0 { out += "    note \(i)\n" }
            }
        }
        out += "\n"
    }
    if dialect == .obsidian { out += "\n%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\"}\n```\n%%\n" }
    return out
}

@Suite struct CardTextCacheTests {
    /// Through random changes of every kind, a save with the cache writes exactly the bytes a
    /// save without it writes, in both dialects.
    @Test(arguments: [BoardDialect.taskell, .obsidian]) func writesWhatAFullSaveWrites(dialect: BoardDialect) throws {
        var (board, info) = try BoardFormat.parse(boardText(dialect, perColumn: 2500), file: "cache-test")
        let cache = CardTextCache()
        var rng = SplitMix64(seed: 7)
        #expect(BoardFormat.serialize(board, info: info, cache: cache) == BoardFormat.serialize(board, info: info))
        for step in 0..<60 {
            let s = rng.int(0...2)
            switch rng.int(0...4) {
            case 0 where !board.columns[s].cards.isEmpty:
                let card = board.columns[s].cards.remove(at: rng.int(0...board.columns[s].cards.count - 1))
                let t = rng.int(0...2)
                board.columns[t].cards.insert(card, at: rng.int(0...board.columns[t].cards.count))
            case 1 where !board.columns[s].cards.isEmpty:
                board.columns[s].cards[rng.int(0...board.columns[s].cards.count - 1)].title += " edited \(step)"
            case 2:
                board.columns[s].cards.insert(
                    Card(id: CardID.fresh(), title: "new \(step)", descriptionLines: ["d"]),
                    at: rng.int(0...board.columns[s].cards.count))
            case 3 where !board.columns[s].cards.isEmpty:
                board.columns[s].cards.remove(at: rng.int(0...board.columns[s].cards.count - 1))
            default:
                board.columns[s].cards[0].done.toggle()
            }
            if step == 30 { info.lineEnding = .crlf }
            let cached = BoardFormat.serialize(board, info: info, cache: cache)
            let full = BoardFormat.serialize(board, info: info)
            #expect(cached == full, "step \(step)")
            #expect(
                try BoardFormat.parse(cached, file: "again").board.columns.map(\.cards.count)
                    == board.columns.map(\.cards.count))
        }
    }

    /// After a move in a 25,000-card column, a save formats the chunks the move touched and takes
    /// every other one from the cache; a change of line ending formats everything again.
    @Test func aMoveFormatsOnlyTheChunksItTouched() throws {
        var (board, info) = try BoardFormat.parse(boardText(.taskell, perColumn: 25_000), file: "cache-test")
        let cache = CardTextCache()
        _ = BoardFormat.serialize(board, info: info, cache: cache)
        let chunks = cache.formatted
        #expect(chunks >= 3 * 25_000 / CardList.maxChunk)
        let card = board.columns[0].cards.remove(at: 12_345)
        board.columns[1].cards.insert(card, at: 20_000)
        _ = BoardFormat.serialize(board, info: info, cache: cache)
        #expect(cache.formatted == 2 && cache.reused == chunks - 2)
        info.lineEnding = .crlf
        let text = BoardFormat.serialize(board, info: info, cache: cache)
        #expect(cache.formatted == chunks && cache.reused == 0)
        #expect(text == BoardFormat.serialize(board, info: info))
    }
}
