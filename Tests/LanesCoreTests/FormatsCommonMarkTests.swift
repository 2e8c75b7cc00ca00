import Foundation
import Testing
import DragKit
import SeededRandom
@testable import LanesCore

/// What Lanes writes, read by the CommonMark reference parser (`cmark --to xml`, Debian's cmark,
/// installed by scripts/ensure-deps): its headings, the first list under each and that list's
/// items are the lanes and cards Lanes believes it wrote, as Obsidian Kanban reads them.
@Suite("Formats: CommonMark agrees with Lanes")
struct FormatsCommonMarkTests {
    static let cmark = ["/usr/bin/cmark", "/usr/local/bin/cmark"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// cmark's reading: for each lane heading, the number of items of the first list after it
    /// (as the plugin's `getNextOfType(... 'list')`), up to the archive or the settings block.
    static func lanes(_ text: String, frontmatterLines: Int) throws -> [Int] {
        // cmark knows no YAML front matter (the plugin strips it): blank those lines.
        var lines = text.components(separatedBy: "\n")
        for k in 0..<min(frontmatterLines, lines.count) { lines[k] = "" }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(cmark))
        process.arguments = ["--to", "xml"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data(lines.joined(separator: "\n").utf8))
        try input.fileHandleForWriting.close()
        let xml = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var result: [Int] = []
        var awaitingList = false
        var inList = false
        var previousTop = ""
        let xmlLines = xml.components(separatedBy: "\n")
        for (k, line) in xmlLines.enumerated() {
            let top = line.hasPrefix("  <") && !line.hasPrefix("   ")
            if inList {
                if top && line.hasPrefix("  </list>") { inList = false } else if line.hasPrefix("    <item") { result[result.count - 1] += 1 }
                continue
            }
            guard top else { continue }
            let next = k + 1 < xmlLines.count ? xmlLines[k + 1] : ""
            if line.hasPrefix("  <heading") {
                if previousTop.hasPrefix("  <thematic_break") && next.contains(">Archive</text>") { break }
                result.append(0)
                awaitingList = true
            } else if line.hasPrefix("  <paragraph") && next.contains(">%% kanban:settings") {
                break
            } else if line.hasPrefix("  <list") && awaitingList {
                inList = true
                awaitingList = false
            }
            if !line.hasPrefix("  </") { previousTop = line }
        }
        return result
    }

    @Test(.enabled(if: cmark != nil, "cmark is not installed (scripts/ensure-deps test installs it)"))
    func editsKeepCommonMarkAndLanesAgreeing() throws {
        var corpus = WildCorpus(seed: 0xC3A4)
        var rng = SplitMix64(seed: 0xC3A5)
        var agreed = 0, files = 0
        while files < 400 {
            let bytes = corpus.file()
            guard bytes.first != 0xEF, !bytes.contains(13) else { continue }   // LF, no BOM: what cmark is fed
            files += 1
            let text = String(decoding: bytes, as: UTF8.self)
            let (board, info) = try BoardFormat.parse(bytes, file: "f.md")
            // Only files where Markdown and Lanes agree to begin with (an unindented HTML comment
            // under a card, for one, ends the list for Markdown and the plugin, not for Lanes).
            guard try Self.lanes(text, frontmatterLines: info.frontmatter.count) == board.columns.map(\.cards.count) else { continue }
            agreed += 1
            // Not a board with a card whose own lines hold an unindented block (an HTML comment):
            // Markdown ends the list there, so a card added or moved after it is not in the list
            // (docs/FORMATS.md, known limits).
            let breaksList = board.columns.contains { $0.cards.contains { c in
                c.extraLines.contains { !$0.isEmpty && !$0.hasPrefix(" ") && !$0.hasPrefix("\t") } } }
            guard !board.columns.isEmpty, !breaksList else { continue }
            var edited = board
            let s = Int.random(in: 0..<board.columns.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: _ = try BoardCommands.add(&edited, column: "\(s + 1)", title: "Added", top: false, force: true)
            case 1: _ = try BoardCommands.add(&edited, column: "\(s + 1)", title: "Added", top: true, force: true)
            default:
                // Not a card whose own lines hold an unindented block (an HTML comment): Markdown ends
                // the list there, wherever the card stands (docs/FORMATS.md, known limits).
                let all = board.columns.flatMap { $0.cards.filter { c in
                    !c.extraLines.contains { !$0.isEmpty && !$0.hasPrefix(" ") && !$0.hasPrefix("\t") } }.map(\.id) }
                guard let id = all.randomElement(using: &rng) else { continue }
                let count = board.columns[s].cards.count - (board.indexPath(for: id)!.section == s ? 1 : 0)
                edited = moving(board, card: id, toColumn: s, index: Int.random(in: 0...count, using: &rng))
            }
            let after = BoardFormat.serialize(edited, info: info.following(board, to: edited))
            #expect(try Self.lanes(after, frontmatterLines: info.frontmatter.count) == edited.columns.map(\.cards.count),
                    "\n--- before\n\(text)\n--- after\n\(after)")
        }
        #expect(agreed > 150, "only \(agreed) of \(files) files agreed before any edit")
    }

    @Test(.enabled(if: cmark != nil, "cmark is not installed"))
    func aNewBoardInEachDialectReadsTheSame() throws {
        let board = Board(columns: [
            Column(title: "To do", cards: [Card(id: ItemID(1), title: "a", descriptionLines: ["d1", "d2"], subtasks: [Subtask("s")]),
                                           Card(id: ItemID(2), title: "b", due: "2025-01-01")]),
            Column(title: "Done", cards: [Card(id: ItemID(3), title: "c", done: true)]),
            Column(title: "Empty"),
        ])
        for dialect in [BoardDialect.obsidian, .taskell] {
            let text = BoardFormat.serialize(board, as: dialect)
            let (_, info) = try BoardFormat.parse(text, file: "new.md")
            #expect(try Self.lanes(text, frontmatterLines: info.frontmatter.count) == [2, 1, 0], "\(dialect)\n\(text)")
        }
    }
}
