import Foundation
import Testing
import DragKit
@testable import LanesCore

/// `BoardPreview`: the first cards of each column and every column's count, read without the
/// whole parse, must be exactly what the whole parse gives (cards with their identities).
@Suite("BoardPreview: a board's first cards before the whole parse")
struct BoardPreviewTests {
    /// Checks `preview` against the whole parse of `bytes`: same columns, counts, and each column's
    /// first `k` cards (identities included).
    func expectPrefix(
        _ preview: BoardPreview, of bytes: [UInt8], k: Int, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let whole = try BoardFormat.parse(bytes, file: what)
        #expect(preview.dialect == whole.info.dialect, "\(what)", sourceLocation: sourceLocation)
        #expect(
            preview.cardCounts == whole.board.columns.map(\.cards.count), "\(what) k=\(k)",
            sourceLocation: sourceLocation)
        #expect(preview.board.columns.count == whole.board.columns.count, "\(what)", sourceLocation: sourceLocation)
        for (p, w) in zip(preview.board.columns, whole.board.columns) {
            #expect(
                p.title == w.title && p.wipLimit == w.wipLimit && p.extraLines == w.extraLines,
                "\(what): column \(w.title)",
                sourceLocation: sourceLocation)
            #expect(
                Array(p.cards) == Array(w.cards.prefix(k)), "\(what) k=\(k): column \(w.title)",
                sourceLocation: sourceLocation)
        }
    }

    @Test func committedFixturesOfBothDialectsPreviewAsTheWholeParseBegins() throws {
        for (name, dialect) in [("taskell-release-plan.md", BoardDialect.taskell), ("obsidian-garden.md", .obsidian)] {
            let bytes = try Fixtures.bytes(name)
            for k in [1, 2, 3, 400] {
                let preview = try #require(BoardPreview.read(bytes, file: name, firstCards: k), "\(name) k=\(k)")
                #expect(preview.dialect == dialect)
                try expectPrefix(preview, of: bytes, k: k, name)
            }
        }
    }

    @Test func everyOtherFixtureEitherPreviewsExactlyOrIsLeftToTheWholeParse() throws {
        var files: [(String, [UInt8])] = []
        for name in ["obsidian-damaged-settings-crlf.md", "obsidian-lists-markdown-ends.md", "obsidian-wild-shapes.md"]
        {
            files.append((name, try Fixtures.bytes(name)))
        }
        if SharedFixtures.available {
            for name in ["obsidian-format-super-kanban-demo.md", "taskell-roadmap.md"] {
                files.append((name, try SharedFixtures.bytes(name)))
            }
        }
        for (name, bytes) in files {
            for k in [1, 2, 5] {
                if let preview = BoardPreview.read(bytes, file: name, firstCards: k) {
                    try expectPrefix(preview, of: bytes, k: k, name)
                }
            }
        }
    }

    @Test func theWildCorpusPreviewsExactlyWhereItPreviewsAtAllInBothDialects() throws {
        var corpus = WildCorpus(seed: 0xB0A2D)
        var previewed: [BoardDialect: Int] = [:]
        var declined = 0
        for n in 0..<400 {
            let bytes = corpus.file()
            guard let whole = try? BoardFormat.parse(bytes, file: "wild-\(n).md") else { continue }
            let k = 1 + n % 3
            if let preview = BoardPreview.read(bytes, file: "wild-\(n).md", firstCards: k) {
                try expectPrefix(preview, of: bytes, k: k, "wild-\(n).md")
                previewed[whole.info.dialect, default: 0] += 1
            } else {
                declined += 1
            }
        }
        // Both dialects are read so, and the odd shapes are left to the whole parse.
        #expect(previewed[.taskell, default: 0] >= 20)
        #expect(previewed[.obsidian, default: 0] >= 5)
        #expect(declined >= 20)
    }

    @Test func taskellShapes() throws {
        let lf = """
            ## Empty

            ## Todo (2)

            - one
                @ 2026-12-01
                > first line
                > second line
                * [x] done part
                * [ ] open part
            - two
            - three
            ## Last
            - only

            """
        for text in [lf, lf.replacingOccurrences(of: "\n", with: "\r\n")] {
            for bom in [false, true] {
                let bytes = (bom ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
                for k in 1...4 {
                    let preview = try #require(BoardPreview.read(bytes, file: "t.md", firstCards: k))
                    #expect(preview.cardCounts == [0, 3, 1])
                    #expect(preview.board.columns[1].wipLimit == 2)
                    try expectPrefix(preview, of: bytes, k: k, "t.md")
                }
            }
        }
        // No heading first: the parser's error to report, not a preview's.
        #expect(BoardPreview.read(Array("- card\n## A\n".utf8), file: "t.md", firstCards: 1) == nil)
        #expect(BoardPreview.read(Array("\n".utf8), file: "t.md", firstCards: 1) == nil)
    }

    @Test func obsidianShapes() throws {
        let head = "---\n\nkanban-plugin: board\n\n---\n\n"
        let good =
            head + """
                ## Doing

                - [ ] a @{2026-01-02}
                \tmore of a
                  and two spaces
                - [x] b

                - [ ] c
                # Top level lane

                ## Done

                **Complete**
                - [x] d



                %% kanban:settings
                ```
                {"kanban-plugin":"board"}
                ```
                %%
                """
        for k in 1...3 {
            let bytes = Array(good.utf8)
            let preview = try #require(BoardPreview.read(bytes, file: "o.md", firstCards: k))
            #expect(preview.cardCounts == [3, 0, 1])
            try expectPrefix(preview, of: bytes, k: k, "o.md")
        }
        let archived = head + "## A\n\n- [ ] a\n- [ ] b\n\n***\n\n## Archive\n\n- [x] old\n"
        let preview = try #require(BoardPreview.read(Array(archived.utf8), file: "o.md", firstCards: 1))
        #expect(preview.cardCounts == [2])
        try expectPrefix(preview, of: Array(archived.utf8), k: 1, "o.md")

        // Shapes whose cards only Markdown's rules tell: left to the whole parse.
        for odd in [
            "## A\n\n* [ ] another bullet\n",
            "## A\n\n- [ ] a\nparagraph under the card\n",
            "## A\n\n```\n- [ ] in a fence\n```\n",
            "## A\n\n- [ ] a\n\n---\n\n- [ ] b\n",
            "## A\n- [ ] a\n\n***\n\n## Not the archive\n",
            "## A\n- [ ] a\n\n%% kanban:settings\n## Archive\n",
            "- [ ] before any lane\n## A\n",
            "## A\n\n- [✓] a checked card in another character\n",
        ] {
            #expect(BoardPreview.read(Array((head + odd).utf8), file: "o.md", firstCards: 1) == nil, "\(odd)")
        }
        // Frontmatter never closed: the whole parse's error.
        #expect(BoardPreview.read(Array("---\nkanban-plugin: board\n## A\n".utf8), file: "o.md", firstCards: 1) == nil)
    }

    @Test func aFileBrokenAfterThePreviewStillFailsWholeWithItsLine() throws {
        var text = "## A\n\n"
        for i in 1...50 { text += "- card \(i)\n" }
        text += "stray line\n"
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("board.md").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let reading = try #require(try FileBoardStore.Reading.start(path))
        let preview = try #require(reading.preview(firstCards: 10))
        #expect(preview.board.columns[0].cards.map(\.title) == (1...10).map { "card \($0)" })
        #expect(preview.cardCounts == [50])
        do {
            _ = try reading.finish()
            Issue.record("the whole parse took a malformed file")
        } catch let error as ParseError {
            #expect(error.file == path && error.line == 53)
        }
        // Nothing was written.
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(text.utf8))
        #expect(try FileBoardStore.Reading.start(dir.appendingPathComponent("missing.md").path) == nil)
    }

    @Test func theStoreFinishedFromAReadingIsTheOneOpenGives() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-preview-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("board.md").path
        try Data(try Fixtures.bytes("taskell-release-plan.md")).write(to: URL(fileURLWithPath: path))
        try Data("accept Done from Review\n".utf8).write(
            to: URL(fileURLWithPath: SettingsSidecar.path(forBoard: path)))
        let reading = try #require(try FileBoardStore.Reading.start(path))
        let preview = try #require(reading.preview(firstCards: 1))
        let (store, board) = try reading.finish()
        let opened = try FileBoardStore.open(path, starter: nil)
        #expect(board == opened.board)
        #expect(preview.board.acceptRules == board.acceptRules && !board.acceptRules.isDisposable)
        // The store knows the bytes it parsed: a change is saved as any other.
        var ours = board
        ours.columns[0].cards[0].title = "Changed"
        let outcome = try store.commit(base: board, ours: ours)
        #expect(outcome.board.columns[0].cards[0].title == "Changed")
        #expect(try FileBoardStore.load(path).board.columns[0].cards[0].title == "Changed")
    }
}
