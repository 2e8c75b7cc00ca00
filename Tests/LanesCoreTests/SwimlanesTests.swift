import DragKit
import Foundation
import SeededRandom
import Testing
@testable import LanesCore

private func parse(_ text: String) throws -> AcceptRules {
    try AcceptRules.parse(Array(text.utf8), file: ".b.md.lanes")
}

private func parseError(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) -> String? {
    do {
        _ = try parse(text)
        Issue.record("expected a parse error", sourceLocation: sourceLocation)
        return nil
    } catch {
        return "\(error)"
    }
}

private func lanes(_ tags: String...) -> Swimlanes { try! Swimlanes(tags) }

/// To do: "Fix login #frontend", "Write docs"; Done: "Ship it #backend #frontend", "API #Backend".
private let sample =
    "## To do\n\n- Fix login #frontend\n- Write docs\n\n## Done\n\n- Ship it #backend #frontend\n- API #Backend\n"

@Suite("Swimlanes: the sidecar line")
struct SwimlanesFileTests {
    @Test func parsesBesideRulesAndWritesBackEveryLine() throws {
        let text = """
            # Lanes for the team
            accept "Done" from "Review"

            swimlanes "frontend" backend "ops/db"   # by team
            """ + "\n"
        let rules = try parse(text)
        #expect(rules.swimlanes == lanes("frontend", "backend", "ops/db"))
        #expect(rules.rules == [AcceptRule(column: "Done", sources: ["Review"])])
        #expect(rules.serialized() == text.replacingOccurrences(of: "backend \"ops", with: "\"backend\" \"ops"))
        #expect(!rules.isDisposable)
        // A leading # inside quotes is not part of the tag; a bare #word starts a comment.
        #expect(try parse("swimlanes \"#frontend\" #x\n").swimlanes == lanes("frontend"))
    }

    @Test func badLinesSayFileLineAndWhat() {
        #expect(
            parseError("# c\nswimlanes \"front end\"\n")
                == ".b.md.lanes:2: \"front end\" is not a tag: a tag is letters, digits, _, - and / (no spaces, no #)")
        #expect(
            parseError("swimlanes frontend Frontend\n")
                == ".b.md.lanes:1: lane \"Frontend\" is named twice (tags are compared ignoring case)")
        #expect(
            parseError("swimlanes a\n\nswimlanes b\n")
                == ".b.md.lanes:3: a second swimlanes line (the first is on line 1); put all lanes on one line")
        #expect(
            parseError("swimlanes   # none yet\n")
                == ".b.md.lanes:1: swimlanes with no lane: name at least one tag, or remove the line")
        #expect(parseError("swimlanes \"frontend\n") == ".b.md.lanes:1: a quoted name is not closed (a \" is missing)")
        #expect(
            parseError("swimlanes \"\"\n")
                == ".b.md.lanes:1: \"\" is not a tag: a tag is letters, digits, _, - and / (no spaces, no #)")
    }

    @Test func settingKeepsTheLineItsCommentAndEverythingElse() throws {
        var rules = try parse("# mine\nswimlanes a b  # teams\naccept X from Y\n")
        rules.swimlanes = lanes("b", "c")
        #expect(rules.serialized() == "# mine\nswimlanes \"b\" \"c\"  # teams\naccept \"X\" from \"Y\"\n")
        rules.swimlanes = nil
        #expect(rules.serialized() == "# mine\naccept \"X\" from \"Y\"\n")
        rules.swimlanes = lanes("z")
        #expect(rules.serialized() == "# mine\naccept \"X\" from \"Y\"\nswimlanes \"z\"\n")
        var fresh = AcceptRules()
        fresh.swimlanes = lanes("frontend")
        #expect(fresh.serialized() == AcceptRules.header + "\nswimlanes \"frontend\"\n")
        fresh.swimlanes = nil
        #expect(fresh.isDisposable, "only Lanes' header is left: the file can go")
    }

    @Test func validTags() {
        #expect(
            Swimlanes.isTag("frontend") && Swimlanes.isTag("ops/db") && Swimlanes.isTag("a_b-c")
                && Swimlanes.isTag("ünï"))
        #expect(
            !Swimlanes.isTag("") && !Swimlanes.isTag("a b") && !Swimlanes.isTag("#a") && !Swimlanes.isTag("a,b")
                && !Swimlanes.isTag("a#b"))
        #expect(throws: Swimlanes.Problem.empty) { try Swimlanes([]) }
        #expect(throws: Swimlanes.Problem.duplicate("A")) { try Swimlanes(["a", "A"]) }
        #expect(throws: Swimlanes.Problem.notATag("x y")) { try Swimlanes(["x y"]) }
    }
}

@Suite("Swimlanes: placing and moving cards")
struct SwimlanesPlacementTests {
    let teams = lanes("frontend", "backend")

    @Test func aCardIsInTheFirstLaneInLaneOrder() {
        #expect(teams.placement(ofTitle: "x #backend #frontend") == .init(lane: 0, alsoIn: [1]))
        #expect(teams.placement(ofTitle: "x #Backend") == .init(lane: 1, alsoIn: []))
        #expect(teams.placement(ofTitle: "x #backend #BACKEND") == .init(lane: 1, alsoIn: []))
        #expect(teams.placement(ofTitle: "x #frontend-ui a#frontend #bug") == .init(lane: nil, alsoIn: []))
    }

    @Test func cellsGroupCardsByLaneAndColumn() throws {
        let board = try BoardFormat.parse(sample, file: "b.md").board
        #expect(teams.cells(of: board) == [[[0], [0]], [[], [1]], [[1], []]])
    }

    @Test func movingRewritesOnlyLaneTags() {
        let cases: [(String, Int?, String)] = [
            ("Fix login #frontend", 1, "Fix login #backend"),
            ("Fix login #frontend now", 1, "Fix login #backend now"),
            ("Fix login", 1, "Fix login #backend"),
            ("Fix login ", 0, "Fix login #frontend"),
            ("", 0, "#frontend"),
            ("#frontend fix", nil, "fix"),
            ("a #frontend b #backend c", nil, "a b c"),
            ("a #frontend b #backend c", 1, "a #backend b c"),
            ("a #backend #bug #frontend", 1, "a #backend #bug"),
            ("a #frontend, then", nil, "a, then"),
            ("a #FRONTEND #bug", 1, "a #backend #bug"),
            ("a #backend #frontend", 0, "a #backend #frontend"),
            ("plain", nil, "plain"),
            ("#frontend#b x", nil, "##b x"),
            ("a  #frontend#b", nil, "a  ##b"),
            ("a #frontend-ui", 0, "a #frontend-ui #frontend"),
        ]
        for (title, lane, expected) in cases {
            #expect(teams.title(title, movedTo: lane) == expected, "\(title) → \(lane.map(String.init) ?? "No lane")")
        }
    }

    /// Titles from words that stress tag parsing: lane tags in any case, other tags, `#` glued to text.
    private static let words = [
        "fix", "the", "login", "#frontend", "#FrontEnd", "#backend", "#ops/db", "#bug", "#frontend-ui", "a#frontend",
        "#", "##x", "#frontend,", "(#backend)", "é", "#ünï", "#backend#bug", "#frontend#", "—", "#1",
    ]

    private static func randomTitle(_ rng: inout SplitMix64) -> String {
        var title = ""
        for _ in 0..<Int.random(in: 0...8, using: &rng) {
            let sep = ["", " ", " ", " ", "  ", "\t", "\u{00A0}"].randomElement(using: &rng)!
            title += (title.isEmpty && Bool.random(using: &rng) ? "" : sep) + words.randomElement(using: &rng)!
        }
        if Int.random(in: 0..<8, using: &rng) == 0 { title += " " }
        return title
    }

    /// Seeded: 5,000 random cards on random boards, moved to a random lane. Only the card's lane
    /// tags change: the target lane holds it; its other tags, in order, and every character that
    /// is neither a tag nor a blank are as they were; blanks go only with removed tags; its other
    /// fields, its place and every other card are untouched; moving again changes nothing.
    @Test func propertyOtherTagsTextAndPositionAreNeverDisturbed() {
        var rng = SplitMix64(seed: 26)
        let laneSets: [[String]] = [["frontend", "backend"], ["backend"], ["ops/db", "frontend", "bug"], ["x"]]
        for round in 0..<5_000 {
            let lanes = try! Swimlanes(laneSets.randomElement(using: &rng)!)
            var columns: [Column] = []
            var next: UInt64 = 1
            for c in 0..<Int.random(in: 1...3, using: &rng) {
                var cards: [Card] = []
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    cards.append(
                        Card(
                            id: CardID(next), title: Self.randomTitle(&rng),
                            due: Bool.random(using: &rng) ? "2026-11-25" : nil,
                            descriptionLines: ["line #frontend"], subtasks: [Subtask("s #backend")]))
                    next += 1
                }
                columns.append(Column(title: "C\(c)", cards: cards))
            }
            let board = Board(columns: columns)
            let s = Int.random(in: 0..<board.columns.count, using: &rng)
            let path = ItemPath(section: s, item: Int.random(in: 0..<board.columns[s].cards.count, using: &rng))
            let target: Int? =
                Int.random(in: -1..<lanes.count, using: &rng) < 0 ? nil : Int.random(in: 0..<lanes.count, using: &rng)
            var moved = board
            moved[path] = lanes.card(board[path], movedTo: target)
            let before = board[path], after = moved[path]
            let context =
                "round \(round): \(before.title.debugDescription) → \(target.map(String.init) ?? "No lane"): \(after.title.debugDescription)"

            #expect(lanes.placement(of: after).lane == target, "\(context)")
            let isLane = { (t: String) in lanes.lane(ofTag: t) != nil }
            #expect(after.tags.filter { !isLane($0) } == before.tags.filter { !isLane($0) }, "\(context)")
            #expect(Self.solid(after.title) == Self.solid(before.title), "\(context)")
            let removed = Swimlanes.tagTokens(in: before.title).filter { isLane($0.tag) }.count
            let blanks = { (t: String) in t.filter(\.isWhitespace).count }
            #expect(
                blanks(after.title) >= blanks(before.title) - removed
                    && blanks(after.title) <= blanks(before.title) + 1, "\(context)")
            var sameButTitle = after
            sameButTitle.title = before.title
            #expect(sameButTitle == before, "\(context)")
            var others = moved
            others[path] = before
            #expect(others == board, "\(context)")
            #expect(lanes.title(after.title, movedTo: target) == after.title, "\(context): again")
            if target == lanes.placement(of: before).lane { #expect(after.title == before.title, "\(context)") }
        }
    }

    /// The characters that are neither in a `#tag` nor blank, in order.
    static func solid(_ title: String) -> String {
        var out = ""
        var at = title.startIndex
        for token in Swimlanes.tagTokens(in: title) {
            out += title[at..<token.range.lowerBound]
            at = token.range.upperBound
        }
        out += title[at...]
        return out.filter { !$0.isWhitespace && $0 != "#" }
    }
}

@Suite("Swimlanes: commands and storage")
struct SwimlaneQueryTests {
    @Test func showPrintsLaneByLaneWithTheBoardsNumbers() throws {
        let (board, info) = try BoardFormat.parse(sample, file: "b.md")
        let teams = lanes("frontend", "backend")
        #expect(
            SwimlaneQuery.show(board, lanes: teams, info: info) == """
                Lane 1: #frontend (2 cards)
                  To do (1 card)
                    1. Fix login #frontend
                  Done (1 card)
                    3. Ship it #backend #frontend   (also in #backend)

                Lane 2: #backend (1 card)
                  To do (0 cards)
                    (no cards)
                  Done (1 card)
                    4. API #Backend

                No lane (1 card)
                  To do (1 card)
                    2. Write docs
                  Done (0 cards)
                    (no cards)

                """)
        // "No lane" is left out when it has no cards.
        let all = lanes("frontend", "backend", "docs")
        var tagged = board
        tagged.columns[0].cards[1].title = "Write docs #docs"
        #expect(!SwimlaneQuery.show(tagged, lanes: all, info: info).contains("No lane"))
    }

    @Test func listSetAndOptions() throws {
        var board = try BoardFormat.parse(sample, file: "b.md").board
        #expect(
            SwimlaneQuery.list(board)
                == "No swimlanes: the board shows as columns. lanes swimlanes BOARD --tag TAG … sets them.\n")
        #expect(
            try SwimlaneQuery.set(&board, try SwimlaneQuery.lanes(fromOptions: ["#frontend", "backend"]))
                == "Swimlanes: #frontend (2 cards), #backend (1 card); No lane (1 card).")
        #expect(SwimlaneQuery.list(board) == "1\t#frontend\t2 cards\n2\t#backend\t1 card\n\tNo lane\t1 card\n")
        #expect(try SwimlaneQuery.set(&board, nil) == "No swimlanes: the board shows as columns.")
        #expect(board.acceptRules.swimlanes == nil)
        #expect(
            throws: CommandError(.badInput, "--tag: lane \"Backend\" is named twice (tags are compared ignoring case)")
        ) {
            try SwimlaneQuery.lanes(fromOptions: ["backend", "Backend"])
        }
        #expect(
            throws: CommandError(
                .badInput, "--tag: \"front end\" is not a tag: a tag is letters, digits, _, - and / (no spaces, no #)")
        ) {
            try SwimlaneQuery.lanes(fromOptions: ["front end"])
        }
    }

    @Test func settingLanesWritesTheSidecarOnlyAndReadsBack() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("b.md")
        try Data(sample.utf8).write(to: URL(fileURLWithPath: path))
        try Data("# ours\n".utf8).write(to: URL(fileURLWithPath: folder.file(".b.md.lanes")))
        let summary = try BoardCommands.edit(path) { try SwimlaneQuery.set(&$0, lanes("frontend", "backend")) }
        #expect(summary == "Swimlanes: #frontend (2 cards), #backend (1 card); No lane (1 card).")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == sample, "the board file is untouched")
        #expect(
            try String(contentsOfFile: folder.file(".b.md.lanes"), encoding: .utf8)
                == "# ours\nswimlanes \"frontend\" \"backend\"\n")
        #expect(try FileBoardStore.load(path).board.acceptRules.swimlanes == lanes("frontend", "backend"))
        _ = try BoardCommands.edit(path) { try SwimlaneQuery.set(&$0, nil) }
        #expect(try String(contentsOfFile: folder.file(".b.md.lanes"), encoding: .utf8) == "# ours\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == sample)
    }

    /// Seeded: two writers on one board file, each from its own (soon stale) copy, set or remove
    /// lanes and move cards between lanes in random order. The lanes on disk are always the last
    /// ones a writer set (a writer that did not touch them never reverts them), the board file and
    /// sidecar read back as the writer's result, and no card is lost or has its text changed.
    /// (`texts` is sorted solid text: compared as a set, since a double retag may duplicate a card.)
    @Test func propertyInterleavedWritersNeverRevertLanes() throws {
        let choices: [Swimlanes?] = [nil, lanes("frontend"), lanes("backend", "frontend"), lanes("docs", "backend")]
        for seed in UInt64(0)..<30 {
            var rng = SplitMix64(seed: seed)
            let folder = ScratchFolder()
            defer { folder.remove() }
            let path = folder.file("b.md")
            try Data(sample.utf8).write(to: URL(fileURLWithPath: path))
            let stores = [FileBoardStore.unread(path), FileBoardStore.unread(path)]
            var bases = try stores.map { try $0.load() }
            let texts = bases[0].columns.flatMap { $0.cards.map { SwimlanesPlacementTests.solid($0.title) } }.sorted()
            var expected: Swimlanes? = nil
            for step in 0..<14 {
                let w = Int.random(in: 0..<2, using: &rng)
                var ours = bases[w]
                if Int.random(in: 0..<3, using: &rng) == 0 {
                    ours.acceptRules.swimlanes = choices.randomElement(using: &rng)!
                } else {
                    let teams = ours.acceptRules.swimlanes ?? lanes("frontend", "backend")
                    let s = Int.random(in: 0..<ours.columns.count, using: &rng)
                    guard !ours.columns[s].cards.isEmpty else { continue }
                    let p = ItemPath(section: s, item: Int.random(in: 0..<ours.columns[s].cards.count, using: &rng))
                    let target = Int.random(in: -1..<teams.count, using: &rng)
                    ours[p] = teams.card(ours[p], movedTo: target < 0 ? nil : target)
                }
                let outcome = try stores[w].commit(base: bases[w], ours: ours)
                if ours.acceptRules.swimlanes != bases[w].acceptRules.swimlanes {
                    expected = ours.acceptRules.swimlanes
                }
                bases[w] = outcome.board
                let disk = try FileBoardStore.load(path).board
                let context = "seed \(seed) step \(step) writer \(w)"
                #expect(disk.acceptRules.swimlanes == expected, "\(context)")
                #expect(
                    disk.acceptRules.swimlanes == outcome.board.acceptRules.swimlanes
                        && disk.acceptRules.rules == outcome.board.acceptRules.rules, "\(context)")
                #expect(
                    disk.columns.map { $0.cards.map(\.title) } == outcome.board.columns.map { $0.cards.map(\.title) },
                    "\(context)")
                // No card is lost, none comes out twice and no text changes (a card retagged on both sides
                // at once stays one card: the merge matches titles without their tags).
                let now = disk.columns.flatMap { $0.cards.map { SwimlanesPlacementTests.solid($0.title) } }
                #expect(Set(now) == Set(texts) && now.count == texts.count, "\(context)")
            }
        }
    }

    @Test func aMergeKeepsLanesSetElsewhere() throws {
        let base = try BoardFormat.parse(sample, file: "b.md").board
        var theirs = base
        theirs.acceptRules.swimlanes = lanes("frontend")
        var ours = base
        ours.columns[0].cards[1].title = "Write the docs"
        let merged = BoardMerge.merge(base: base, ours: ours, theirs: theirs)
        #expect(merged.board.acceptRules.swimlanes == lanes("frontend"))
        #expect(merged.board.columns[0].cards[1].title == "Write the docs")
        #expect(merged.conflicts.isEmpty)
        var both = ours
        both.acceptRules.swimlanes = lanes("backend")
        let clash = BoardMerge.merge(base: base, ours: both, theirs: theirs)
        #expect(clash.board.acceptRules.swimlanes == lanes("backend"))
        #expect(clash.conflicts.map(\.message) == ["The swimlanes were changed here and elsewhere: this side's kept"])
    }
}

@Suite("Swimlanes: a card retagged two ways by two writers at once")
struct SwimlanesRetagMergeTests {
    private func board(_ text: String) throws -> Board { try BoardFormat.parse(text, file: "b.md").board }

    /// Files carry no identities: the merge matches cards by content, and a short title's words
    /// are mostly its tag. Matching titles without their tags keeps the card one card.
    @Test func aShortCardRetaggedTwoWaysComesOutOnce() throws {
        let base = try board("## To do\n\n- Fix #frontend\n- Docs\n\n## Done\n")
        let pairs: [(String, String)] = [
            ("Fix #backend", "Fix"), ("Fix #backend", "Fix #ops"), ("#backend Fix", "Fix #frontend #ops"),
        ]
        for (ours, theirs) in pairs {
            let o = try board("## To do\n\n- \(ours)\n- Docs\n\n## Done\n")
            let t = try board("## To do\n\n- \(theirs)\n- Docs\n\n## Done\n")
            let merged = BoardMerge.merge(base: base, ours: o, theirs: t).board
            #expect(merged.columns[0].cards.count == 2, "\(ours) / \(theirs): \(merged.columns[0].cards.map(\.title))")
            #expect(merged.columns[0].cards.last?.title == "Docs")
        }
        // Moved to another column by one writer and retagged by the other: still one card.
        let moved = try board("## To do\n\n- Docs\n\n## Done\n\n- Fix #frontend\n")
        let retagged = try board("## To do\n\n- Fix #backend\n- Docs\n\n## Done\n")
        let merged = BoardMerge.merge(base: base, ours: moved, theirs: retagged).board
        let titles: [String] = merged.columns.flatMap { $0.cards.map(\.title) }
        #expect(titles.filter { $0.hasPrefix("Fix") }.count == 1)
    }

    @Test func titlesOfTagsAloneStillCompareByTheirTags() {
        let a = Card(id: CardID(1), title: "#frontend"), b = Card(id: CardID(2), title: "#backend")
        #expect(!BoardMatcher.similar(a, b))
        #expect(BoardMatcher.similar(a, Card(id: CardID(3), title: "#frontend")))
        #expect(
            BoardMatcher.similar(
                Card(id: CardID(4), title: "Fix login #frontend"), Card(id: CardID(5), title: "Fix login #backend #ops")
            ))
        #expect(
            !BoardMatcher.similar(
                Card(id: CardID(6), title: "Fix login #frontend"), Card(id: CardID(7), title: "Write docs #frontend")))
    }
}
