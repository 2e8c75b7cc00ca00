import Foundation
@testable import LanesCore
import SeededRandom
import Testing

/// Who finished each card, from a git history's authors: real repositories, commits by a person
/// and an agent (named by `--agent`'s patterns), the cache's version, random interleavings.
@Suite("Flow: cards finished by agents and by people, from git's authors")
struct FlowAuthorTests {
    static let alice = (name: "Alice", email: "alice@example.org")
    static let claude = (name: "claude", email: "bot@agents.example")
    static let aliceID = "Alice <alice@example.org>"
    static let claudeID = "claude <bot@agents.example>"

    /// A board of the cards in `columns` (To do, Doing, Done), in order.
    static func board(_ columns: [[String]]) -> String {
        zip(["To do", "Doing", "Done"], columns).map { title, cards in
            "## \(title)\n\n" + cards.map { "- \($0)\n" }.joined() + "\n"
        }.joined()
    }

    /// Alice and claude take cards A–F through the board; a card finished, reopened and finished
    /// again is claude's (the last finish); F reaches Done uncommitted (no author). claude's first
    /// commit is under an older email, which the repository's .mailmap maps to the current one.
    func history() throws -> (FlowRepo, String, FlowTime) {
        let repo = try FlowRepo()
        try repo.write(".mailmap", "claude <bot@agents.example> <old-bot@example.org>\n")
        let t0: FlowTime = 1_780_000_000, h: FlowTime = 3_600
        var t = t0
        var columns: [[String]] = [["A", "B", "C", "D", "E", "F"], [], []]
        func step(_ who: (name: String, email: String), _ card: String, to column: Int) throws {
            for c in columns.indices { columns[c].removeAll { $0 == card } }
            columns[column].append(card)
            t += h
            repo.author = who
            try repo.commit("board.md", Self.board(columns), at: t)
        }
        repo.author = Self.alice
        try repo.commit("board.md", Self.board(columns), at: t)
        try step(Self.alice, "A", to: 1)
        try step((Self.claude.name, "old-bot@example.org"), "B", to: 1)
        try step(Self.claude, "A", to: 2)  // claude finishes A
        try step(Self.alice, "B", to: 2)  // alice finishes B…
        try step(Self.claude, "C", to: 2)  // claude finishes C, straight from To do
        try step(Self.alice, "E", to: 2)  // alice finishes E
        try step(Self.alice, "B", to: 1)  // …B is reopened…
        try step(Self.claude, "B", to: 2)  // …and finished again, by claude
        try step(Self.alice, "D", to: 2)
        try step(Self.claude, "D", to: 1)  // D taken back out of Done: not finished
        // F to Done, not committed, half an hour later (the file's modification time).
        columns[0].removeAll { $0 == "F" }
        columns[2].append("F")
        try repo.write("board.md", Self.board(columns))
        try FileManager.default.setAttributes(
            [.modificationDate: Date(timeIntervalSince1970: TimeInterval(t + 1_800))],
            ofItemAtPath: repo.path + "/board.md")
        return (repo, repo.path + "/board.md", t + 1_800)
    }

    @Test(
        "each finished card is its last finisher's; agents by name or email pattern; an uncommitted finish has no author"
    )
    func twoAuthors() throws {
        let (repo, file, last) = try history()
        _ = repo
        let h = try GitHistory.read(board: file, useCache: false)
        let now = last + 86_400
        // Every committed change names its author (.mailmap applied); the uncommitted one nobody.
        var authors = Set<String?>()
        for case .card(_, _, _, _, let by) in h.events { authors.insert(by) }
        #expect(authors == [Self.aliceID, Self.claudeID, nil])

        for patterns in [["claude"], ["*@agents.example"], ["claude <bot@agents.example>"], ["cl*de"]] {
            let r = FlowMetrics.compute(h, options: FlowOptions(now: now, agents: FlowAgents(patterns: patterns)))
            let by = Dictionary(uniqueKeysWithValues: r.cycle.map { ($0.title, $0.by) })
            #expect(
                by == ["A": Self.claudeID, "B": Self.claudeID, "C": Self.claudeID, "E": Self.aliceID, "F": nil],
                "\(patterns)")
            let f = r.finishedBy
            #expect(f.agentsNamed)
            #expect(f.agents.count == 3 && f.people.count == 1 && f.unattributed == 1, "\(patterns)")
            #expect(f.authors.map(\.author) == [Self.claudeID, Self.aliceID])
            #expect(f.authors.map(\.agent) == [true, false])
            #expect(f.authors.map(\.cycle.count) == [3, 1])
            // Cycle times: A 2 h (in Doing at t0+1h, Done at +3h), B 6 h (+2h to +8h), C 0 (To do to Done).
            #expect(f.agents.p50 == 2 * 3_600 && f.agents.p85 == 6 * 3_600 && f.agents.p95 == 6 * 3_600)
            #expect(f.people.p50 == 0)
        }
        // Nobody named: every author a person, and the output says so.
        let plain = FlowMetrics.compute(h, options: FlowOptions(now: now)).finishedBy
        #expect(!plain.agentsNamed && plain.agents.count == 0 && plain.people.count == 4 && plain.unattributed == 1)
        #expect(plain.authors.map(\.agent) == [false, false])
        // A pattern that names nobody here: named, and no agent.
        let nobody = FlowMetrics.compute(h, options: FlowOptions(now: now, agents: FlowAgents(patterns: ["bob"])))
        #expect(nobody.finishedBy.agentsNamed && nobody.finishedBy.agents.count == 0)
    }

    @Test("the text and JSON say the split; each author on request")
    func output() throws {
        let (repo, file, last) = try history()
        _ = repo
        let h = try GitHistory.read(board: file, useCache: false)
        let r = FlowMetrics.compute(
            h, options: FlowOptions(now: last + 86_400, agents: FlowAgents(patterns: ["claude"])))
        let input = FlowOutput.Input(board: "board.md", history: h, report: r)
        let text = FlowOutput.text(input, chart: nil, byAuthor: true)
        #expect(text.contains("Finished by agents: 3 (p50 0.1 d) · people: 1 (p50 0 d) · no author: 1\n"))
        #expect(
            text.contains(
                "\n  claude <bot@agents.example> (agent): 3 (p50 0.1 d)\n  Alice <alice@example.org>: 1 (p50 0 d)\n"))
        #expect(!FlowOutput.text(input, chart: nil).contains("  Alice <alice@example.org>"))
        let doc = try #require(
            try JSONSerialization.jsonObject(with: Data(FlowOutput.json(input).utf8)) as? [String: Any])
        let by = try #require(doc["finished_by"] as? [String: Any])
        #expect(by["agents_named"] as? Bool == true && by["unattributed"] as? Int == 1)
        let agents = try #require(by["agents"] as? [String: Any]), people = try #require(by["people"] as? [String: Any])
        #expect(
            agents["count"] as? Int == 3 && agents["p50"] as? Double == 2.0 / 24 && agents["p95"] as? Double == 0.25)
        #expect(people["count"] as? Int == 1 && people["p50"] as? Double == 0)
        let authors = try #require(by["authors"] as? [[String: Any]])
        #expect(authors.map { $0["author"] as? String } == [Self.claudeID, Self.aliceID])
        #expect(authors.map { $0["agent"] as? Bool } == [true, false])
        #expect(authors.map { $0["count"] as? Int } == [3, 1])
        let cards = try #require((doc["cycle_time_days"] as? [String: Any])?["cards"] as? [[String: Any]])
        #expect(cards.map { $0["title"] as? String } == ["A", "C", "E", "B", "F"])
        #expect(
            cards.map { $0["finished_by"] as? String } == [
                Self.claudeID, Self.claudeID, Self.aliceID, Self.claudeID, nil,
            ])
        let unnamed = FlowMetrics.compute(h, options: FlowOptions(now: last + 86_400))
        let plain = FlowOutput.text(.init(board: "board.md", history: h, report: unnamed), chart: nil)
        #expect(
            plain.contains(
                "Finished by people: 4 (p50 0 d) · agents: none named (--agent PATTERN names them) · no author: 1\n"))
    }

    @Test("an author's control characters never reach the terminal")
    func hostileAuthor() throws {
        let repo = try FlowRepo()
        repo.author = (name: "evil\u{1B}]0;pwned\u{07}", email: "e@x")
        try repo.commit("board.md", Self.board([["A"], [], []]), at: 1_780_000_000)
        try repo.commit("board.md", Self.board([[], [], ["A"]]), at: 1_780_003_600)
        let h = try GitHistory.read(board: repo.path + "/board.md", useCache: false)
        let r = FlowMetrics.compute(h, options: FlowOptions(now: 1_780_100_000))
        #expect(r.finishedBy.authors.count == 1)
        let text = FlowOutput.text(.init(board: "board.md", history: h, report: r), chart: nil, byAuthor: true)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    @Test("the cache keeps the authors; a version-1 cache (no authors) is rebuilt, never misread")
    func cacheVersion() throws {
        let (repo, file, _) = try history()
        let fresh = try GitHistory.read(board: file, useCache: false)
        let first = try GitHistory.read(board: file)
        let second = try GitHistory.read(board: file)
        #expect(first.events == fresh.events && second.events == fresh.events)
        let place = try GitHistory.locate(file)
        let path = GitHistory.cacheFile(place)
        #expect(path.hasSuffix(".v2"))
        let cached = try #require(FlowCache.load(path))
        #expect(cached.events.contains { if case .card(_, _, _, _, Self.claudeID?) = $0 { true } else { false } })
        // What a Lanes of cache version 1 wrote: the same lines, no author on the card events.
        let v2 = try String(contentsOfFile: path, encoding: .utf8)
        var v1Lines: [String] = []
        var body = v2.split(separator: "\n", omittingEmptySubsequences: false)
        let bytesAt = try #require(body.firstIndex { $0.hasPrefix("bytes\t") })
        for line in body[..<bytesAt] {
            if line == "lanes-flow-cache 2" {
                v1Lines.append("lanes-flow-cache 1")
            } else if line.hasPrefix("K\t") {
                var f = line.split(separator: "\t", maxSplits: 5, omittingEmptySubsequences: false)
                f.remove(at: 4)
                v1Lines.append(f.joined(separator: "\t"))
            } else {
                v1Lines.append(String(line))
            }
        }
        body.removeFirst(bytesAt)
        let v1 = v1Lines.joined(separator: "\n") + "\n" + body.joined(separator: "\n")
        #expect(v1.contains("\nK\t") && !v1.contains("Alice <"))
        let oldPath = String(path.dropLast(3)) + ".v1"
        // At the old name (where it was) and at the new one (a copy): neither is read as the history.
        try v1.write(toFile: oldPath, atomically: true, encoding: .utf8)
        try v1.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(FlowCache.load(path) == nil)
        try repo.commit("board.md", try String(contentsOfFile: file, encoding: .utf8), at: 1_780_100_000)
        let rebuilt = try GitHistory.read(board: file)
        #expect(rebuilt.events == (try GitHistory.read(board: file, useCache: false)).events)
        let now = rebuilt.events.last!.time + 60
        let split = FlowMetrics.compute(
            rebuilt, options: FlowOptions(now: now, agents: FlowAgents(patterns: ["claude"]))
        ).finishedBy
        // F is committed now, by the test's last author (claude).
        #expect(split.agents.count == 4 && split.people.count == 1 && split.unattributed == 0)
        #expect(try String(contentsOfFile: path, encoding: .utf8).hasPrefix("lanes-flow-cache 2\n"))
    }

    @Test("two authors committing moves in random order: the split is what each did", arguments: Array(UInt64(1)...6))
    func interleaved(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let repo = try FlowRepo()
        let people = [Self.alice, Self.claude]
        let ids = [Self.aliceID, Self.claudeID]
        let cards = (1...8).map { "Card \($0) of seed \(seed)" }
        var column = [Int](repeating: 0, count: cards.count)
        var finisher: [String?] = Array(repeating: nil, count: cards.count)
        func text() -> String {
            Self.board((0..<3).map { c in cards.indices.filter { column[$0] == c }.map { cards[$0] } })
        }
        var t: FlowTime = 1_780_000_000
        repo.author = Self.alice
        try repo.commit("board.md", text(), at: t)
        for _ in 0..<40 {
            let who = int(2), card = int(cards.count)
            var to = int(3)
            if to == column[card] { to = (to + 1) % 3 }
            if to == 2 { finisher[card] = ids[who] }
            column[card] = to
            t += FlowTime(1 + int(7_200))
            repo.author = people[who]
            try repo.commit("board.md", text(), at: t)
        }
        // The cards in Done now, by who last moved them there.
        var want: [String: Int] = [:]
        for i in cards.indices where column[i] == 2 { want[finisher[i]!, default: 0] += 1 }
        for useCache in [false, true, true] {
            let h = try GitHistory.read(board: repo.path + "/board.md", useCache: useCache)
            let r = FlowMetrics.compute(
                h, options: FlowOptions(now: t + 60, agents: FlowAgents(patterns: ["*@agents.example"])))
            let f = r.finishedBy
            #expect(f.agents.count == want[Self.claudeID, default: 0], "seed \(seed)")
            #expect(f.people.count == want[Self.aliceID, default: 0], "seed \(seed)")
            #expect(f.unattributed == 0)
            var got: [String: Int] = [:]
            for a in f.authors { got[a.author] = a.cycle.count }
            #expect(got == want, "seed \(seed)")
        }
    }

    @Test("an agent pattern matches the whole author, its name or its email, as a shell pattern")
    func patterns() {
        let a = FlowAgents(patterns: ["claude*", "*@bots.example"])
        #expect(a.named)
        #expect(a.isAgent("claude-code <x@y>"))
        #expect(a.isAgent("Some Bot <ci@bots.example>"))
        #expect(!a.isAgent("Alice <alice@example.org>"))
        #expect(a.isAgent("Alice <claude@example.org>"))  // the email matches "claude*"
        #expect(!a.isAgent("Alice <alice@claude.org>"))  // a pattern matches a part whole, not inside it
        #expect(FlowAgents(patterns: ["A? <*>"]).isAgent("Al <a@b>"))
        #expect(FlowAgents(names: ["bob"]).isAgent("bob") && !FlowAgents(names: ["bob"]).isAgent("bobby"))
        #expect(!FlowAgents().named && !FlowAgents().isAgent("anyone"))
        #expect(FlowAgents(named: true).named)
    }
}
