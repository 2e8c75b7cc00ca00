import SeededRandom
import Testing
@testable import LanesCore

/// #40: on mutated Obsidian files (the wild corpus with one line removed, doubled, blanked or
/// indented), a move must never change which lines read as cards: the saved file reads back as
/// the board, or the save is refused in words and the file is as it was.
@Suite struct ObsidianMoveReadBackTests {
    /// A wild Obsidian file with one line mutated.
    static func mutated(_ corpus: inout WildCorpus, _ rng: inout SplitMix64) -> String {
        var lines = String(decoding: corpus.obsidian(), as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        if lines.count > 6 {
            let i = Int.random(in: 5..<lines.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: lines.remove(at: i)
            case 1: lines.insert(lines[i], at: i)
            case 2: lines.insert("", at: i)
            case 3: lines[i] = "  " + lines[i]
            case 4: lines[i] = String(lines[i].drop { $0 == " " })
            default: lines.insert("    indented text", at: i)
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test func aMoveSavesWhatReadsBackOrIsRefusedWithTheFileAsItWas() throws {
        var corpus = WildCorpus(seed: 0x40_0B5)
        var rng = SplitMix64(seed: 0x40)
        let folder = ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("board.md")
        var (moves, refused) = (0, 0)
        for _ in 0..<400 {
            let text = Self.mutated(&corpus, &rng)
            guard let (board, _) = try? BoardFormat.parse(text, file: "m.md"), board.columns.count >= 2 else {
                continue
            }
            for from in board.columns.indices where !board.columns[from].cards.isEmpty {
                let to = (from + 1) % board.columns.count
                try SafeFile.writeAtomically(Array(text.utf8), to: path, expecting: nil)
                let store = FileBoardStore.unread(path)
                store.quietPeriod = 0
                let base = try store.load()
                var moved = base
                let card = moved.columns[from].cards[0]
                moved.columns[from].cards.remove(at: 0)
                moved.columns[to].cards.append(card)
                moves += 1
                do {
                    _ = try store.commit(base: base, ours: moved)
                    let back = try FileBoardStore.load(path).board
                    #expect(
                        back.columns.map { $0.cards.map(\.title) } == moved.columns.map { $0.cards.map(\.title) },
                        "the saved file reads back as the board\n\(text)")
                } catch let StorageError.writeFailed(_, reason) {
                    refused += 1
                    #expect(reason.contains("would"), "\(reason)")
                    let unchanged = contents(of: path) == Array(text.utf8)
                    #expect(unchanged, "a refused save leaves the file as it was")
                }
            }
        }
        print("ObsidianMoveReadBackTests: \(moves) moves, \(refused) refused in words")
        #expect(moves > 300 && refused > 0)
    }
}
