import Foundation
import SeededRandom
import Testing
@testable import LanesCore

/// Flow metrics against an oracle: real git repositories built from a seeded random script of
/// moves at known times, every metric computed again here from the script alone.
@Suite("Flow: metrics from git history against an oracle", .serialized)
struct FlowOracleTests {
    struct ScriptCard: Hashable {
        var id: Int
        var title: String
        var note: String?
    }

    /// The board as the script holds it, in either dialect.
    struct ScriptBoard {
        var columns: [String]
        var cards: [[ScriptCard]]
        var obsidian = false

        func text(broken: Bool = false) -> String {
            var out = ""
            if obsidian { out += broken ? "---\n\nkanban: basic\n\n---\n\n" : "---\n\nkanban-plugin: basic\n\n---\n\n" }
            for (c, title) in columns.enumerated() {
                out += "## \(title)\n\n"
                for card in cards[c] {
                    if obsidian {
                        out += "- [ ] \(card.title)\n"
                        if let n = card.note { out += "\t\(n)\n" }
                    } else {
                        out += "- \(card.title)\n"
                        if let n = card.note { out += "    > \(n)\n" }
                    }
                }
                out += "\n"
            }
            if broken && !obsidian { out = "Hello\n" + out }
            return out
        }

        var placement: [Int: Int] {
            var p: [Int: Int] = [:]
            for (c, list) in cards.enumerated() { for card in list { p[card.id] = c } }
            return p
        }

        var titles: [Int: String] {
            var t: [Int: String] = [:]
            for list in cards { for card in list { t[card.id] = card.title } }
            return t
        }
    }

    /// What the oracle knows: the board after each version that counts, at the time it counts.
    struct Version {
        var time: Int64
        var columns: [String]
        var placement: [Int: Int]
        var titles: [Int: String]
    }

    static let words = [
        "amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron", "iris", "juniper", "kestrel", "lotus",
    ]

    /// Builds the repository from a seeded script; returns the versions and the skipped commit.
    static func buildHistory(seed: UInt64, repo: FlowRepo) throws -> (
        versions: [Version], skipped: String, file: String
    ) {
        var rng = SplitMix64(seed: seed)
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var board = ScriptBoard(columns: ["Backlog", "Doing", "Review", "Done"], cards: [[], [], [], []])
        var nextID = 1
        func newCard() -> ScriptCard {
            defer { nextID += 1 }
            return ScriptCard(id: nextID, title: "Task \(nextID) \(words[nextID % words.count])\(nextID)")
        }
        for _ in 0..<6 { board.cards[0].append(newCard()) }
        board.cards[1].append(newCard())
        var time = FlowDate.parse("2026-09-01T08:00:00Z")!
        var file = "board.md"
        var versions: [Version] = []
        func record(_ t: Int64) {
            versions.append(Version(time: t, columns: board.columns, placement: board.placement, titles: board.titles))
        }
        try repo.commit(file, board.text(), at: time, message: "start")
        record(time)
        var skipped = ""

        /// `renames`: false where versions are combined (a merge brings three commits at once, and a
        /// card renamed among other changes is, by the merge's rules, a new card).
        func randomOps(renames: Bool = true) {
            let all = board.cards.enumerated().flatMap { c, list in list.map { (c, $0.id) } }
            if int(10) == 0, renames, let pick = all.randomElement(using: &rng) {
                // A rename alone: the title gains a word.
                let i = board.cards[pick.0].firstIndex { $0.id == pick.1 }!
                board.cards[pick.0][i].title += " renamed"
                return
            }
            var touched = Set<Int>()
            for _ in 0..<(1 + int(3)) {
                let op = int(10)
                let cards = board.cards.enumerated().flatMap { c, list in list.map { (c, $0.id) } }.filter {
                    !touched.contains($0.1)
                }
                if op < 2 || cards.isEmpty {
                    let card = newCard()
                    touched.insert(card.id)
                    let c = int(4) == 0 ? int(4) : 0
                    board.cards[c].insert(card, at: int(board.cards[c].count + 1))
                } else if op < 8 {
                    let (c, id) = cards[int(cards.count)]
                    let i = board.cards[c].firstIndex { $0.id == id }!
                    let card = board.cards[c].remove(at: i)
                    var to = int(4)
                    if to == c { to = (c + 1) % 4 }
                    board.cards[to].insert(card, at: int(board.cards[to].count + 1))
                    touched.insert(id)
                } else if op < 9 {
                    let (c, id) = cards[int(cards.count)]
                    board.cards[c].removeAll { $0.id == id }
                    touched.insert(id)
                } else {
                    let (c, id) = cards[int(cards.count)]
                    let i = board.cards[c].firstIndex { $0.id == id }!
                    board.cards[c][i].note = "note \(int(1000))"
                    touched.insert(id)
                }
            }
        }

        for k in 1..<70 {
            time += Int64(600 + int(100_000))
            switch k {
            case 12:
                board.obsidian = true
            case 20:
                // A card goes back from done.
                if let card = board.cards[3].first {
                    board.cards[3].removeFirst()
                    board.cards[1].append(card)
                } else {
                    randomOps()
                }
            case 30:
                board.columns[2] = "Checking"
            case 40:
                try repo.git("mv", file, "team.md")
                file = "team.md"
            case 50:
                skipped = try repo.commit(file, board.text(broken: true), at: time, message: "broken")
                continue
            case 60:
                // A branch with three commits, merged into main later; main changes another file meanwhile.
                try repo.git("checkout", "-q", "-b", "side")
                var branchTime = time
                for _ in 0..<3 {
                    randomOps(renames: false)
                    branchTime += Int64(600 + int(20_000))
                    try repo.commit(file, board.text(), at: branchTime, message: "side")
                }
                try repo.git("checkout", "-q", "main")
                try repo.commit("notes.txt", "notes \(k)\n", at: branchTime + 100, message: "other file")
                time = branchTime + 5_000
                try repo.git("merge", "-q", "--no-ff", "-m", "merge side", "side", at: time)
                record(time)
                continue
            default:
                randomOps()
            }
            try repo.commit(file, board.text(), at: time)
            record(time)
        }
        return (versions, skipped, file)
    }

    /// The metrics computed from the script alone (default columns: first not started, last done).
    struct Oracle {
        var cycle: [(title: String, started: Int64, finished: Int64)] = []
        var daily: [(day: Int, done: Int)] = []
        var cfd: [(day: Int, counts: [(String, Int)])] = []
        var aging: [(title: String, column: String, age: Int64)] = []
        var samples: [Int] = []
        var firstSampleDay = 0
        var remaining = 0

        init(_ versions: [Version], now: Int64, since: Int64? = nil) {
            func stage(_ c: Int, _ n: Int) -> Int { c == 0 ? 0 : c == n - 1 ? 2 : 1 }
            var started: [Int: Int64] = [:], lastDone: [Int: Int64] = [:], stageNow: [Int: Int] = [:]
            var finishedGone: Set<Int> = []
            var prev: [Int: Int] = [:]
            var titles: [Int: String] = [:]
            let live = versions.filter { $0.time <= now }
            for v in live {
                for (id, c) in v.placement {
                    let s = stage(c, v.columns.count)
                    if prev[id] == nil || stageNow[id] != s {
                        if s >= 1 && started[id] == nil { started[id] = v.time }
                        if s == 2 && stageNow[id] != 2 { lastDone[id] = v.time }
                        stageNow[id] = s
                    }
                    finishedGone.remove(id)
                    titles[id] = v.titles[id]
                }
                for id in prev.keys where v.placement[id] == nil {
                    if stageNow[id] == 2 { finishedGone.insert(id) }
                    stageNow[id] = nil
                }
                prev = v.placement
            }
            let last = live.last!
            var finished: [(Int, String, Int64, Int64)] = []
            for (id, s) in stageNow where s == 2 { finished.append((id, titles[id]!, started[id]!, lastDone[id]!)) }
            for id in finishedGone { finished.append((id, titles[id]!, started[id]!, lastDone[id]!)) }
            var doneOn: [Int: Int] = [:]
            for f in finished { doneOn[FlowDate.day(of: f.3), default: 0] += 1 }
            cycle = finished.filter { since == nil || $0.3 >= since! }.sorted { ($0.3, $0.0) < ($1.3, $1.0) }.map {
                ($0.1, $0.2, $0.3)
            }
            let firstDay = FlowDate.day(of: live[0].time), nowDay = FlowDate.day(of: now)
            let startDay = since.map { max(firstDay, FlowDate.day(of: $0)) } ?? firstDay
            for d in startDay...nowDay {
                daily.append((d, doneOn[d] ?? 0))
                let end = Int64(d + 1) * 86_400
                let v = live.last { $0.time < end }!
                var counts = v.columns.map { ($0, 0) }
                for (_, c) in v.placement { counts[c].1 += 1 }
                cfd.append((d, counts))
            }
            for (id, c) in last.placement where stage(c, last.columns.count) == 1 {
                aging.append((titles[id]!, last.columns[c], now - started[id]!))
            }
            firstSampleDay = max(firstDay, nowDay - 30)
            samples = (firstSampleDay..<nowDay).map { doneOn[$0] ?? 0 }
            remaining = last.placement.values.filter { stage($0, last.columns.count) != 2 }.count
        }
    }

    static func nearest(_ sorted: [Int64], _ p: Int) -> Int64 {
        sorted[Int((Double(p) / 100 * Double(sorted.count)).rounded(.up)) - 1]
    }

    func check(seed: UInt64) throws {
        let repo = try FlowRepo()
        let (versions, skipped, file) = try Self.buildHistory(seed: seed, repo: repo)
        let history = try GitHistory.read(board: repo.path + "/" + file, useCache: false)
        #expect(history.skipped.map(\.name) == [skipped])
        #expect(history.notes.contains { $0.contains("rename of board.md to team.md") })
        let now = versions.last!.time + 2 * 86_400 + 3_600
        for since in [nil, versions[35].time] as [Int64?] {
            let report = FlowMetrics.compute(history, options: FlowOptions(since: since, now: now, seed: seed))
            let oracle = Oracle(versions, now: now, since: since)
            #expect(
                report.cycle.map { "\($0.title) \($0.started) \($0.finished)" }
                    == oracle.cycle.map { "\($0.title) \($0.started) \($0.finished)" }, "seed \(seed)")
            let sorted = oracle.cycle.map { $0.finished - $0.started }.sorted()
            if !sorted.isEmpty {
                #expect(report.percentiles.p50 == Self.nearest(sorted, 50))
                #expect(report.percentiles.p85 == Self.nearest(sorted, 85))
                #expect(report.percentiles.p95 == Self.nearest(sorted, 95))
            }
            #expect(report.daily.map { "\($0.day):\($0.done)" } == oracle.daily.map { "\($0.day):\($0.done)" })
            var weeks: [(String, Int)] = []
            for (d, n) in oracle.daily {
                let w = FlowDate.week(d)
                if weeks.last?.0 == w { weeks[weeks.count - 1].1 += n } else { weeks.append((w, n)) }
            }
            #expect(report.weekly.map { "\($0.week):\($0.done)" } == weeks.map { "\($0.0):\($0.1)" })
            #expect(
                report.cfd.map { d in "\(d.day) " + d.counts.map { "\($0.title)=\($0.cards)" }.joined(separator: ",") }
                    == oracle.cfd.map { d in "\(d.day) " + d.counts.map { "\($0.0)=\($0.1)" }.joined(separator: ",") })
            #expect(
                report.aging.map { "\($0.title)|\($0.column)|\($0.seconds)" }.sorted()
                    == oracle.aging.map { "\($0.title)|\($0.column)|\($0.age)" }.sorted())
            for a in report.aging {
                var over: Int?
                for p in [50, 85, 95] where !sorted.isEmpty && a.seconds > Self.nearest(sorted, p) { over = p }
                #expect(a.over == over)
            }
            // The forecast, replayed from the oracle's samples with the documented procedure.
            #expect(report.forecast.samples == oracle.samples)
            #expect(report.forecast.firstSampleDay == oracle.firstSampleDay)
            let f = report.forecast
            if oracle.samples.contains(where: { $0 > 0 }) {
                var rng = SplitMix64(seed: seed)
                let days = FlowDate.day(of: now) + 14 - FlowDate.day(of: now)
                let sums = (0..<10_000).map { _ in
                    (0..<days).reduce(0) { acc, _ in
                        acc + oracle.samples[Int(rng.next() % UInt64(oracle.samples.count))]
                    }
                }.sorted()
                for c in [50, 85, 95] {
                    #expect(f.howMany?[c] == sums[Int((Double(100 - c) / 100 * 10_000).rounded(.up)) - 1])
                }
                #expect(f.cards == oracle.remaining)
                if oracle.remaining > 0 {
                    let needed = (0..<10_000).map { _ -> Int in
                        var sum = 0, d = 0
                        while sum < oracle.remaining && d <= 3650 {
                            d += 1; sum += oracle.samples[Int(rng.next() % UInt64(oracle.samples.count))]
                        }
                        return d
                    }.sorted()
                    for c in [50, 85, 95] {
                        let d = needed[Int((Double(c) / 100 * 10_000).rounded(.up)) - 1]
                        #expect(f.when?[c] == (d > 3650 ? nil : FlowDate.day(of: now) + d))
                    }
                }
            } else {
                #expect(f.unavailable != nil)
            }
        }
    }

    @Test(
        "seeded scripts: renames, edits, deletions, back from done, a merge, a dialect switch, a broken commit",
        arguments: [1, 2, 3, 4, 5] as [UInt64])
    func oracle(seed: UInt64) throws {
        try check(seed: seed)
    }

    @Test("the cache gives the same events, and a run after new commits reads only them and agrees with a full read")
    func cache() throws {
        let repo = try FlowRepo()
        let (versions, _, file) = try Self.buildHistory(seed: 9, repo: repo)
        let path = repo.path + "/" + file
        let full = try GitHistory.read(board: path, useCache: false)
        let first = try GitHistory.read(board: path)
        let second = try GitHistory.read(board: path)
        #expect(first.events == full.events)
        #expect(second.events == full.events)
        #expect(second.skipped == full.skipped && second.notes == full.notes && second.versions == full.versions)
        // Two more commits: the cached run reads on from the cache.
        var text = try String(contentsOfFile: path, encoding: .utf8)
        text = text.replacingOccurrences(of: "## Done\n\n", with: "## Done\n\n- [ ] Added after the cache\n")
        try repo.commit(file, text, at: versions.last!.time + 86_400)
        let fresh = try GitHistory.read(board: path, useCache: false)
        let cached = try GitHistory.read(board: path)
        #expect(cached.events == fresh.events)
        #expect(cached.versions == fresh.versions)
        #expect(cached.lastKeys == fresh.lastKeys)
        let cacheDir = try repo.git("rev-parse", "--absolute-git-dir") + "/lanes-cache"
        #expect(try FileManager.default.contentsOfDirectory(atPath: cacheDir).contains { $0.hasPrefix("flow-") })
        // A rewritten history (the cached tip is gone from HEAD's line) is read again in full.
        try repo.git("reset", "-q", "--hard", "HEAD~3")
        let afterReset = try GitHistory.read(board: path)
        #expect(afterReset.events == (try GitHistory.read(board: path, useCache: false)).events)
    }
}
