import Foundation
import LanesCore
import SeededRandom

/// `lanes metrics` on a long history: a repository of 10,000 commits of a 1,000-card board (one
/// move, edit, addition or deletion a commit, in two mixes: `Mix`), built with `git fast-import`.
/// Measures the first run (no cache: the whole history read, parsed and matched), how many
/// versions it matched across the whole board, and the next runs (from the cache).
enum FlowBench {
    static let firstTargetMs = 2_000.0
    static let nextTargetMs = 200.0

    /// The board's text: five columns of card lines (a tenth of the cards with a description).
    static func text(_ columns: [[String]], titles: [String]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(64 * 1_100)
        for (c, cards) in columns.enumerated() {
            if c > 0 { out += [0x0A] }
            out += Array("## \(titles[c])\n\n".utf8)
            for line in cards { out += Array(line.utf8) }
        }
        return out
    }

    /// The history's mix of changes, one a commit.
    enum Mix: String, CaseIterable {
        /// Mostly moves: 1 in 20 commits edits a title (appending " (edited)"), 1 in 20 deletes a
        /// card and adds one to the first column.
        case standard
        /// Rich in title edits: 35 % edit a title in place (a word added or dropped, one word or
        /// two words changed), 10 % replace a card by a new one at its place, 5 % delete one and
        /// add one to the first column, 50 % moves.
        case edits
    }

    /// The mixes `--flow-mix` names: one, or both; nil for another name.
    static func mixes(_ name: String) -> [Mix]? {
        name == "both" ? Mix.allCases : Mix(rawValue: name).map { [$0] }
    }

    /// A card's first line with its title edited (`kind` 0: " (edited)" added or dropped, 1: its
    /// verb changed, 2: its verb and its noun changed); its other lines are kept.
    static func edit(_ card: String, kind: Int, pick: Int) -> String {
        let end = card.firstIndex(of: "\n")!
        var words = card[..<end].split(separator: " ").map(String.init)
        let verbs = ["fix", "add", "write", "check", "ship", "test", "plan", "drop"]
        let nouns = ["login", "export", "parser", "docs", "cache", "search", "backup", "menu"]
        switch kind {
        case 0:
            if words.last == "(edited)" { words.removeLast() } else { words.append("(edited)") }
        default:
            words[3] = verbs.filter { $0 != words[3] }[pick % (verbs.count - 1)]
            if kind == 2 { words[5] = nouns.filter { $0 != words[5] }[pick / 7 % (nouns.count - 1)] }
        }
        return words.joined(separator: " ") + card[end...]
    }

    /// Writes the fast-import stream for `commits` commits to `path`; returns the last commit's time.
    static func stream(commits: Int, cards: Int, mix: Mix = .standard, to path: String) -> Int {
        var rng = SplitMix64(seed: 28)
        let titles = ["Backlog", "Ready", "Doing", "Review", "Done"]
        var columns: [[String]] = Array(repeating: [], count: titles.count)
        var next = 0
        func card() -> String {
            defer { next += 1 }
            let line =
                "- Card \(next): \(["fix", "add", "write", "check", "ship"][next % 5]) the \(["login", "export", "parser", "docs", "cache"][next / 5 % 5]) #t\(next % 9)\n"
            return next % 10 == 0 ? line + "    > Notes for card \(next)\n" : line
        }
        for k in 0..<cards { columns[k % titles.count].append(card()) }
        let out = FileHandle(forWritingAtPath: path)!
        var time = 1_700_000_000
        var buffer = Data()
        for k in 0..<commits {
            if k > 0 {
                let op = Int(rng.next() % 20)
                let from = Int(rng.next() % UInt64(titles.count))
                if !columns[from].isEmpty {
                    let i = Int(rng.next() % UInt64(columns[from].count))
                    func move() {
                        let moved = columns[from].remove(at: i)
                        let to = min(titles.count - 1, from + 1 + Int(rng.next() % 2))
                        let target = to == from ? (from + 1) % titles.count : to
                        columns[target].insert(moved, at: Int(rng.next() % UInt64(columns[target].count + 1)))
                    }
                    switch mix {
                    case .standard:
                        if op == 0 {
                            columns[from].remove(at: i)
                            columns[0].append(card())
                        } else if op == 1 {
                            columns[from][i] = columns[from][i].replacingOccurrences(
                                of: "\n", with: " (edited)\n", options: [],
                                range: columns[from][i]
                                    .startIndex..<columns[from][i].index(after: columns[from][i].firstIndex(of: "\n")!))
                        } else {
                            move()
                        }
                    case .edits:
                        switch op {
                        case 0..<7: columns[from][i] = edit(columns[from][i], kind: op % 3, pick: Int(rng.next() % 56))
                        case 7..<9: columns[from][i] = card()
                        case 9:
                            columns[from].remove(at: i)
                            columns[0].append(card())
                        default: move()
                        }
                    }
                }
            }
            time += 600 + Int(rng.next() % 3_000)
            let body = text(columns, titles: titles)
            buffer.append(
                Data(
                    "commit refs/heads/main\ncommitter Bench <bench@example.org> \(time) +0000\ndata 1\nm\nM 100644 inline board.md\ndata \(body.count)\n"
                        .utf8))
            buffer.append(Data(body))
            buffer.append(Data("\n".utf8))
            if buffer.count > 1 << 22 {
                out.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        out.write(buffer)
        out.closeFile()
        return time
    }

    static func shell(_ command: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", command]
        try? p.run()
        p.waitUntilExit()
    }

    static func ms(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// CPU seconds of this process and of its finished children (git), user and system.
    static func cpu() -> (own: Double, children: Double) {
        func seconds(_ who: Int32) -> Double {
            var u = rusage()
            getrusage(who, &u)
            return Double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + Double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6
        }
        return (seconds(Int32(RUSAGE_SELF.rawValue)), seconds(Int32(RUSAGE_CHILDREN.rawValue)))
    }

    /// `check`: also reads every version whole (parsed and matched, no splice) and compares the events.
    static func run(commits: Int = 10_000, cards: Int = 1_000, check: Bool = false, mixes: [Mix] = Mix.allCases)
        -> [String]
    {
        mixes.flatMap { run(commits: commits, cards: cards, check: check, mix: $0) }
    }

    static func run(commits: Int, cards: Int, check: Bool, mix: Mix) -> [String] {
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let streamPath = dir + "/stream"
        _ = FileManager.default.createFile(atPath: streamPath, contents: nil)
        let setup = ms { _ = stream(commits: commits, cards: cards, mix: mix, to: streamPath) }
        let repo = dir + "/repo"
        let build = ms {
            shell(
                "git init -q -b main '\(repo)' && cd '\(repo)' && git fast-import --quiet < '\(streamPath)' && git checkout -q main"
            )
        }
        var lines = [
            "flow metrics: \(commits) commits of a \(cards)-card board, \(mix) history (stream \(Int(setup)) ms, git fast-import \(Int(build)) ms)"
        ]
        let board = repo + "/board.md"
        let now = FlowTime(Date().timeIntervalSince1970)
        func once() throws -> FlowReport {
            let (history, setting) = try FlowBoard.readFile(board)
            return FlowBoard.report(history, setting: setting, now: now)
        }
        do {
            var report: FlowReport?
            let before = cpu()
            let first = try ms { report = try once() }
            let after = cpu()
            // The first run's history, read again for its count of whole-board matches.
            let counted = try GitHistory.read(board: board, useCache: false)
            if check {
                let spliced = try GitHistory.read(board: board, useCache: false)
                var whole: FlowHistory?
                let wholeMs = try ms { whole = try GitHistory.read(board: board, useCache: false, splice: false) }
                let same = whole!.events == spliced.events && whole!.lastKeys == spliced.lastKeys
                lines.append(
                    "  every version read whole instead (\(Int(wholeMs)) ms): \(whole!.events.count) events, \(same ? "identical to the spliced read" : "DIFFERENT from the spliced read")"
                )
            }
            let next = try (0..<5).map { _ in try ms { _ = try once() } }.sorted()[2]
            let r = report!
            lines.append(
                "  first run (no cache): \(Int(first)) ms (target ≤ \(Int(firstTargetMs)))\(first <= firstTargetMs ? "" : "  MISSED")"
                    + "; CPU: lanes \(Int((after.own - before.own) * 1000)) ms, git \(Int((after.children - before.children) * 1000)) ms"
                    + "; \(counted.wholeMatches) of \(counted.versions) versions matched across the whole board")
            lines.append(
                "  next run (cache, no new commit), median of 5: \(Int(next)) ms (target ≤ \(Int(nextTargetMs)))\(next <= nextTargetMs ? "" : "  MISSED")"
            )
            lines.append(
                "  (\(r.percentiles.count) finished cards, p85 \(r.percentiles.p85.map { String(Double($0) / 86_400) } ?? "-") days, \(r.cfd.count) days of flow)"
            )
            // Ten more commits (cards added to the last column): the next run reads only those.
            shell(
                "cd '\(repo)' && for i in 1 2 3 4 5 6 7 8 9 10; do printf -- '- Late card %s\\n' $i >> board.md; git -c user.name=b -c user.email=b@x commit -qam late$i; done"
            )
            let incremental = try ms { _ = try once() }
            lines.append("  next run after 10 new commits: \(Int(incremental)) ms")
        } catch {
            lines.append("  failed: \(error)")
        }
        return lines
    }
}
