import DragKit
import Foundation
@testable import LanesCore
import SeededRandom
import Testing
@testable import LanesPostgres

/// Flow metrics of a PostgreSQL board against an oracle: two roles make a seeded script of
/// changes through the store, the server records them in `lanes.history`; the administrator sets
/// each change's recorded time to the script's (as `GIT_COMMITTER_DATE` does for git), and
/// `lanes metrics postgresql://…` must give what the test computes from the script alone.
@Suite("Flow: metrics from a PostgreSQL board's history against an oracle", .serialized)
struct FlowPostgresOracleTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    /// The board after a step, as the script holds it: column titles, and each card's column and title by script id.
    struct Version {
        var time: Int64
        var columns: [String]
        var placement: [Int: Int]
        var titles: [Int: String]
    }

    static let words = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron"]

    /// Runs the script against the server; returns the versions and the board's URL for alice.
    func runScript(seed: UInt64) throws -> (versions: [Version], url: String) {
        var rng = SplitMix64(seed: seed)
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        let name = TestServer.boardName("flow")
        var nextID = 1
        var titleOf: [Int: String] = [:]
        func newTitle() -> (Int, String) {
            defer { nextID += 1 }
            let t = "Task \(nextID) \(Self.words[nextID % Self.words.count])"
            titleOf[nextID] = t
            return (nextID, t)
        }
        var text = "## Backlog\n\n"
        for _ in 0..<5 { text += "- \(newTitle().1)\n" }
        text += "\n## Doing\n\n- \(newTitle().1)\n\n## Review\n\n## Done\n\n"
        let (board0, info) = try BoardFormat.parse(text, file: "start.md")
        let url = server.url("alice", board: name)
        let alice = try PostgresBoardStore.create(url: url, board: board0, info: info)
        try alice.grant(role: "bob")
        let bob = try PostgresBoardStore.open(url: server.url("bob", board: name))
        let admin = try server.connect("lanes_admin")
        defer { admin.close() }
        let boardID = String(alice.boardID)
        var seen: Int64 = 0
        var time = FlowDate.parse("2026-09-01T08:00:00Z")!
        var versions: [Version] = []
        /// Gives the rows written since the last call the script's time, and records the version.
        func stamp(_ board: Board) throws {
            let r = try admin.query(
                "UPDATE lanes.history SET at = to_timestamp($1) WHERE board_id = $2 AND id > $3 RETURNING id",
                [String(time), boardID, String(seen)])
            #expect(r.count > 0, "a change recorded no history")
            for i in 0..<r.count { seen = max(seen, r.int(i, 0) ?? seen) }
            var placement: [Int: Int] = [:], titles: [Int: String] = [:]
            for (c, column) in board.columns.enumerated() {
                for card in column.cards {
                    let id = try #require(
                        titleOf.first { $0.value == card.title }?.key, "card “\(card.title)” is not the script's")
                    placement[id] = c
                    titles[id] = card.title
                }
            }
            versions.append(
                Version(time: time, columns: board.columns.map(\.title), placement: placement, titles: titles))
        }
        try stamp(try alice.load())
        for k in 1..<60 {
            time += Int64(600 + int(90_000))
            let store = int(2) == 0 ? alice : bob
            let base = try store.load()
            var ours = base
            func cards() -> [(c: Int, p: Int)] {
                ours.columns.indices.flatMap { c in ours.columns[c].cards.indices.map { (c, $0) } }
            }
            switch k {
            case 20:
                // Back from done: the first done card returns to Doing (else a card is added).
                if !ours.columns[3].cards.isEmpty {
                    let card = ours.columns[3].cards.remove(at: 0)
                    ours.columns[1].cards.append(card)
                } else {
                    ours.columns[0].cards.append(Card(id: CardID.fresh(), title: newTitle().1))
                }
            case 30:
                ours.columns[2].title = "Checking"
            case 59:
                // Work in progress at the end: a card from Backlog (or a new one) goes to Doing.
                if !ours.columns[0].cards.isEmpty {
                    let card = ours.columns[0].cards.remove(at: 0)
                    ours.columns[1].cards.append(card)
                } else {
                    ours.columns[1].cards.append(Card(id: CardID.fresh(), title: newTitle().1))
                }
            default:
                var touched = Set<String>()
                for _ in 0..<(1 + int(3)) {
                    let op = int(10)
                    let all = cards().filter { !touched.contains(ours.columns[$0.c].cards[$0.p].title) }
                    if op < 2 || all.isEmpty {
                        let (_, title) = newTitle()
                        let c = int(4) == 0 ? int(4) : 0
                        ours.columns[c].cards.insert(
                            Card(id: CardID.fresh(), title: title), at: int(ours.columns[c].cards.count + 1))
                        touched.insert(title)
                    } else if op < 8 {
                        let (c, p) = all[int(all.count)]
                        let card = ours.columns[c].cards.remove(at: p)
                        var to = int(4)
                        if to == c { to = (c + 1) % 4 }
                        ours.columns[to].cards.insert(card, at: int(ours.columns[to].cards.count + 1))
                        touched.insert(card.title)
                    } else if op < 9 {
                        let (c, p) = all[int(all.count)]
                        touched.insert(ours.columns[c].cards.remove(at: p).title)
                    } else {
                        // A rename: the title gains a word (the same card on the server: its id stays).
                        let (c, p) = all[int(all.count)]
                        let old = ours.columns[c].cards[p].title
                        let id = titleOf.first { $0.value == old }!.key
                        let renamed = old + " renamed"
                        titleOf[id] = renamed
                        ours.columns[c].cards[p].title = renamed
                        touched.insert(renamed)
                    }
                }
            }
            let outcome = try store.commit(base: base, ours: ours)
            #expect(outcome.conflicts.isEmpty, "step \(k): \(outcome.conflicts)")
            try stamp(try store.load())
        }
        bob.disconnect()
        alice.disconnect()
        return (versions, url)
    }

    /// The metrics from the script alone (default columns: the first not started, the last done).
    struct Oracle {
        var cycle: [(title: String, started: Int64, finished: Int64)] = []
        var daily: [(day: Int, done: Int)] = []
        var cfd: [(day: Int, counts: [(String, Int)])] = []
        var aging: [(title: String, column: String, age: Int64)] = []
        var remaining = 0

        init(_ versions: [Version], now: Int64) {
            func stage(_ c: Int, _ n: Int) -> Int { c == 0 ? 0 : c == n - 1 ? 2 : 1 }
            var started: [Int: Int64] = [:], lastDone: [Int: Int64] = [:], stageNow: [Int: Int] = [:]
            var finishedGone: Set<Int> = [], titles: [Int: String] = [:], prev: [Int: Int] = [:]
            for v in versions {
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
            var finished: [(Int, String, Int64, Int64)] = []
            for (id, s) in stageNow where s == 2 { finished.append((id, titles[id]!, started[id]!, lastDone[id]!)) }
            for id in finishedGone { finished.append((id, titles[id]!, started[id]!, lastDone[id]!)) }
            var doneOn: [Int: Int] = [:]
            for f in finished { doneOn[FlowDate.day(of: f.3), default: 0] += 1 }
            cycle = finished.sorted { ($0.3, $0.0) < ($1.3, $1.0) }.map { ($0.1, $0.2, $0.3) }
            let firstDay = FlowDate.day(of: versions[0].time), nowDay = FlowDate.day(of: now)
            for d in firstDay...nowDay {
                daily.append((d, doneOn[d] ?? 0))
                let v = versions.last { $0.time < Int64(d + 1) * 86_400 }!
                var counts = v.columns.map { ($0, 0) }
                for (_, c) in v.placement { counts[c].1 += 1 }
                cfd.append((d, counts))
            }
            let last = versions.last!
            for (id, c) in last.placement where stage(c, last.columns.count) == 1 {
                aging.append((titles[id]!, last.columns[c], now - started[id]!))
            }
            remaining = last.placement.values.filter { stage($0, last.columns.count) != 2 }.count
        }
    }

    /// The lanes executable next to the test bundle (built with the tests).
    static func lanesBinary() throws -> String {
        let candidates = [".build/debug/lanes", ".build/release/lanes"].map { TestServer.repo + "/" + $0 }
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TestServerError(message: "the lanes executable is not built (swift build): looked in \(candidates)")
        }
        return path
    }

    @Test(
        "two roles' seeded changes: lanes metrics postgresql://… as JSON matches the oracle",
        arguments: [1, 2] as [UInt64])
    func oracle(seed: UInt64) throws {
        let (versions, url) = try runScript(seed: seed)
        let now = versions.last!.time + 2 * 86_400 + 3_600
        let oracle = Oracle(versions, now: now)
        #expect(
            !oracle.cycle.isEmpty && !oracle.aging.isEmpty, "the script finishes some cards and leaves some in progress"
        )

        // The reader itself.
        let (history, setting) = try PostgresFlowHistory.read(url: url)
        let report = FlowMetrics.compute(history, options: FlowOptions(columns: setting, now: now, seed: seed))
        #expect(
            report.cycle.map { "\($0.title) \($0.started) \($0.finished)" }
                == oracle.cycle.map { "\($0.title) \($0.started) \($0.finished)" })
        #expect(report.daily.map { "\($0.day):\($0.done)" } == oracle.daily.map { "\($0.day):\($0.done)" })
        #expect(
            report.cfd.map { d in "\(d.day) " + d.counts.map { "\($0.title)=\($0.cards)" }.joined(separator: ",") }
                == oracle.cfd.map { d in "\(d.day) " + d.counts.map { "\($0.0)=\($0.1)" }.joined(separator: ",") })
        #expect(
            report.aging.map { "\($0.title)|\($0.column)|\($0.seconds)" }.sorted()
                == oracle.aging.map { "\($0.title)|\($0.column)|\($0.age)" }.sorted())
        #expect(report.forecast.cards == oracle.remaining)

        // The command, as JSON.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Self.lanesBinary())
        p.arguments = ["metrics", url, "--format", "json", "--now", FlowDate.iso(now), "--seed", String(seed)]
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errText = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 0, "lanes metrics: \(errText)")
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let cycle = try #require(json["cycle_time_days"] as? [String: Any])
        #expect(cycle["count"] as? Int == oracle.cycle.count)
        let cards = try #require(cycle["cards"] as? [[String: Any]])
        #expect(
            cards.map {
                "\($0["title"] as? String ?? "?") \($0["started"] as? String ?? "?") \($0["finished"] as? String ?? "?")"
            }
                == oracle.cycle.map { "\($0.title) \(FlowDate.iso($0.started)) \(FlowDate.iso($0.finished))" })
        let sorted = oracle.cycle.map { $0.finished - $0.started }.sorted()
        for p in [50, 85, 95] {
            let nearest = sorted[Int((Double(p) / 100 * Double(sorted.count)).rounded(.up)) - 1]
            #expect((cycle["p\(p)"] as? NSNumber)?.doubleValue == Double(nearest) / 86_400)
        }
        let daily = try #require((json["throughput"] as? [String: Any])?["daily"] as? [[String: Any]])
        #expect(
            daily.map { "\($0["date"] as? String ?? "?"):\($0["done"] as? Int ?? -1)" }
                == oracle.daily.map { "\(FlowDate.date($0.day)):\($0.done)" })
        let cfd = try #require(json["cfd"] as? [[String: Any]])
        #expect(
            cfd.map { d in
                let counts = d["counts"] as? [String: Int] ?? [:]
                return "\(d["date"] as? String ?? "?") "
                    + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
            }
                == oracle.cfd.map { d in
                    "\(FlowDate.date(d.day)) "
                        + d.counts.sorted { $0.0 < $1.0 }.map { "\($0.0)=\($0.1)" }.joined(separator: ",")
                })
        let aging = try #require(json["aging"] as? [[String: Any]])
        #expect(
            aging.map { "\($0["title"] as? String ?? "?")|\($0["column"] as? String ?? "?")" }.sorted()
                == oracle.aging.map { "\($0.title)|\($0.column)" }.sorted())
        #expect(json["board"] as? String != nil)
    }

    @Test(
        "a board with columns and no card change has no history yet, said in words with what gives one; one card added gives one"
    )
    func noCardHistoryYet() throws {
        let name = TestServer.boardName("flow-empty")
        let (board, info) = try BoardFormat.parse("## A\n\n## B\n", file: "empty.md")
        let store = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board, info: info)
        defer { store.disconnect() }
        // Creating the board recorded its columns; no card is in the record.
        let error = #expect(throws: NoHistory.self) {
            try PostgresFlowHistory.read(url: server.url("alice", board: name))
        }
        #expect(error?.message.contains("board “\(name)” has no history yet") == true)
        #expect(error?.message.contains("no card added, moved or deleted") == true)
        #expect(error?.message.contains("Add cards and move them through the columns") == true)

        let loaded = try store.load()
        var ours = loaded
        ours.columns[0].cards.append(Card(id: CardID.fresh(), title: "first"))
        _ = try store.commit(base: loaded, ours: ours)
        let (history, _) = try PostgresFlowHistory.read(url: server.url("alice", board: name))
        let report = FlowMetrics.compute(
            history, options: FlowOptions(now: FlowTime(Date().timeIntervalSince1970) + 60))
        #expect(report.cycle.isEmpty && report.aging.isEmpty)
        #expect(report.cards.count == 1 && report.columns.map(\.title) == ["A", "B"])
        #expect(report.forecast.unavailable != nil)
    }
}
