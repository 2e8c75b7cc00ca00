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
    static let cmark = ["/usr/bin/cmark", "/usr/local/bin/cmark"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// cmark's reading as the plugin makes lanes of it (`astToUnhydratedBoard`): for each heading but
    /// the archive's, the number of items of the first list after it (`getNextOfType(... 'list')`,
    /// which stops at another heading or a paragraph starting `%% kanban:settings`).
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
                if top && line.hasPrefix("  </list>") {
                    inList = false
                } else if line.hasPrefix("    <item") {
                    result[result.count - 1] += 1
                }
                continue
            }
            guard top else { continue }
            let next = k + 1 < xmlLines.count ? xmlLines[k + 1] : ""
            if line.hasPrefix("  <heading") {
                // Every heading is a lane but the archive's (`isArchiveLane`: "Archive" right after a thematic break).
                if previousTop.hasPrefix("  <thematic_break") && next.hasSuffix(">Archive</text>") {
                    awaitingList = false
                } else {
                    result.append(0)
                    awaitingList = true
                }
            } else if line.hasPrefix("  <paragraph") && next.contains(">%% kanban:settings") {
                awaitingList = false  // getNextOfType stops at the settings paragraph
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
        var files = 0
        while files < 400 {
            let bytes = corpus.file()
            guard bytes.first != 0xEF, !bytes.contains(13) else { continue }  // LF, no BOM: what cmark is fed
            files += 1
            let text = String(decoding: bytes, as: UTF8.self)
            let (board, info) = try BoardFormat.parse(bytes, file: "f.md")
            // Every generated file: Lanes shows the lanes and cards Markdown and the plugin read.
            let markdown = try Self.lanes(text, frontmatterLines: info.frontmatter.count)
            #expect(markdown == board.columns.map(\.cards.count), "cmark \(markdown)\n--- file\n\(text)")
            guard !board.columns.isEmpty else { continue }
            var edited = board
            let s = Int.random(in: 0..<board.columns.count, using: &rng)
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: _ = try BoardCommands.add(&edited, column: "\(s + 1)", title: "Added", top: false, force: true)
            case 1: _ = try BoardCommands.add(&edited, column: "\(s + 1)", title: "Added", top: true, force: true)
            default:
                guard let id = board.columns.flatMap({ $0.cards.map(\.id) }).randomElement(using: &rng) else {
                    continue
                }
                let count = board.columns[s].cards.count - (board.indexPath(for: id)!.section == s ? 1 : 0)
                edited = moving(board, card: id, toColumn: s, index: Int.random(in: 0...count, using: &rng))
            }
            let after = BoardFormat.serialize(edited, info: info.following(board, to: edited))
            let markdownAfter = try Self.lanes(after, frontmatterLines: info.frontmatter.count)
            // Lanes reads what it wrote as Markdown does; and that is the board it believes it wrote,
            // but for a lane whose last shown card left while lines after its list remain: Markdown
            // (and Lanes, reading the file again) then takes their first list as the lane's
            // (docs/FORMATS.md, known limits).
            let reread = try BoardFormat.parse(after, file: "after.md").board.columns.map(\.cards.count)
            #expect(markdownAfter == reread, "cmark \(markdownAfter)\n--- before\n\(text)\n--- after\n\(after)")
            let keys = ColumnKey.keys(of: edited.columns)
            var expected = edited.columns.map(\.cards.count)
            for (j, column) in edited.columns.enumerated()
            where column.cards.isEmpty && info.columnSpacing[keys[j]]?.afterList != nil {
                expected[j] = reread[j]
            }
            #expect(reread == expected, "cmark \(markdownAfter)\n--- before\n\(text)\n--- after\n\(after)")
        }
    }

    @Test(.enabled(if: cmark != nil, "cmark is not installed"))
    func everyObsidianFixtureReadsTheSame() throws {
        var checked = 0
        for (name, bytes) in try AllBoardFixtures.files() {
            let (board, info) = try BoardFormat.parse(bytes, file: name)
            guard info.dialect == .obsidian else { continue }
            var text = String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
            if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
            #expect(
                try Self.lanes(text, frontmatterLines: info.frontmatter.count) == board.columns.map(\.cards.count),
                "\(name)")
            checked += 1
        }
        #expect(checked >= 4)
    }

    @Test(.enabled(if: cmark != nil, "cmark is not installed"))
    func aNewBoardInEachDialectReadsTheSame() throws {
        let board = Board(columns: [
            Column(
                title: "To do",
                cards: [
                    Card(id: CardID(1), title: "a", descriptionLines: ["d1", "d2"], subtasks: [Subtask("s")]),
                    Card(id: CardID(2), title: "b", due: "2025-01-01"),
                ]),
            Column(title: "Done", cards: [Card(id: CardID(3), title: "c", done: true)]),
            Column(title: "Empty"),
        ])
        for dialect in [BoardDialect.obsidian, .taskell] {
            let text = BoardFormat.serialize(board, as: dialect)
            let (_, info) = try BoardFormat.parse(text, file: "new.md")
            #expect(try Self.lanes(text, frontmatterLines: info.frontmatter.count) == [2, 1, 0], "\(dialect)\n\(text)")
        }
    }
}
