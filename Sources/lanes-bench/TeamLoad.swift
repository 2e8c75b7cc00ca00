// lanes-bench --pg-team: hundreds of people on team boards (#43), each a screen that also writes.
//
//   lanes-bench --pg-team [--team-clients 200] [--team-boards 1] [--team-seconds 30] [--team-think 2]
//                         [--team-cards 500] [--team-pooler PORT]
//
// Each client is what an open screen is: a PostgresBoardStore that waits on its change descriptor,
// refreshes when told, and every `--team-think` seconds on average (exponential) makes one change:
// a move (two in three) or a title edit, committed through the store. `--team-pooler PORT`: every
// query through a PgBouncer on 127.0.0.1:PORT (transaction pooling), LISTEN on the server itself
// (`listen=`). Needs LANES_PG_DIR and LANES_PG_PORT (scripts/bench-team sets up both, the pooler
// and max_connections); loopback only; it stops by itself after `--team-seconds`.
//
// Reported: commits/s, commit latency p50/p99 (the store's commit call), change-to-screen latency
// (from a commit's return to each other client of that board having read it: every pair), the
// server's CPU (every process of the cluster, from /proc) and the pooler's, every card once, every
// client converged on the board as stored.
import Foundation
import LanesCore
import LanesPostgres
import SeededRandom
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

final class TeamFigures: Sendable {
    struct Data {
        var commitMs: [Double] = []
        /// (board, version, when a screen had read it) for every version every screen read.
        var seen: [(board: Int, version: Int64, at: UInt64)] = []
        var conflicts = 0
        /// Commits the server refused in words (a board busy past the row wait), tried again by the client.
        var refused = 0
        var errors: [String] = []
        /// Per board: the monotonic time (ns) each version's commit started.
        var committedAt: [Int: [Int64: UInt64]] = [:]
    }
    let data = Mutex(Data())
}

/// CPU seconds (user + system) of `pids`, from /proc/PID/stat.
func cpuSeconds(_ pids: [Int32]) -> Double {
    let tick = Double(sysconf(Int32(_SC_CLK_TCK)))
    var total = 0.0
    for pid in pids {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { continue }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the name: state(0) ppid(1) … utime(11) stime(12).
        if fields.count > 12, let u = Double(fields[11]), let s = Double(fields[12]) { total += (u + s) / tick }
    }
    return total
}

/// The cluster's processes: the postmaster (first line of postmaster.pid) and its children.
func clusterPIDs(dataDir: String) -> [Int32] {
    guard let text = try? String(contentsOfFile: dataDir + "/postmaster.pid", encoding: .utf8),
        let first = text.split(separator: "\n").first, let postmaster = Int32(first)
    else { return [] }
    var out: [Int32] = [postmaster]
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    for e in entries {
        guard let pid = Int32(e), let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { continue }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, Int32(fields[1]) == postmaster { out.append(pid) }
    }
    return out
}

func runTeamLoad() {
    let env = ProcessInfo.processInfo.environment
    guard let dir = env["LANES_PG_DIR"], let port = env["LANES_PG_PORT"] else {
        FileHandle.standardError.write(
            Data(
                "lanes-bench --pg-team: no server (scripts/bench-team runs it, or scripts/pg-test-cluster with)\n".utf8)
        )
        exit(2)
    }
    let clients = opts.teamClients, boards = max(1, opts.teamBoards), seconds = opts.teamSeconds
    let think = opts.teamThink, cardCount = opts.teamCards, pooler = opts.teamPooler
    let tag = "team-\(getpid())"
    @Sendable func url(_ role: String, _ board: Int, direct: Bool = false) -> String {
        if let p = pooler, !direct {
            return "postgresql://\(role)@127.0.0.1:\(p)/lanes?listen=\(port)&board=\(tag)-\(board)"
        }
        return "postgresql://\(role)@127.0.0.1:\(port)/lanes?board=\(tag)-\(board)"
    }
    do {
        try PostgresBoardStore.setUpSchema(url: url("lanes_admin", 0, direct: true))
        for b in 0..<boards {
            let board = BoardGenerator.board(cards: cardCount).withoutLimits
            let owner = try PostgresBoardStore.create(
                url: url("alice", b, direct: true), board: board, info: BoardFileInfo(dialect: .taskell))
            try owner.grant(role: "bob")
        }
        say(
            "PostgreSQL team load: \(clients) clients on \(boards) board(s) of \(cardCount) cards, a change every \(fmt(think)) s each on average, \(Int(seconds)) s, \(pooler.map { "through PgBouncer :\($0) (transaction pooling, listen=\(port))" } ?? "directly")"
        )
        let figures = TeamFigures()
        let stop = Atomic<Bool>(false)
        let ready = Atomic<Int>(0)
        let group = DispatchGroup()
        final class Views: Sendable { let boards = Mutex<[Int: Board]>([:]) }
        let views = Views(), truths = Views()
        let doneWriting = Atomic<Int>(0)
        for c in 0..<clients {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                let b = c % boards
                do {
                    let store = try PostgresBoardStore.open(url: url(c % 2 == 0 ? "alice" : "bob", b))
                    var base = try store.load()
                    _ = try store.refresh()  // a screen's first look: LISTEN from now on
                    ready.add(1, ordering: .relaxed)
                    var rng = SplitMix64(seed: UInt64(c) &* 7919 &+ 1)
                    func nextGap() -> Double {
                        let u = Double(rng.next() % 1_000_000 + 1) / 1_000_001
                        return -log(u) * think
                    }
                    var nextChange = monotonicNow() + nextGap()
                    var mine: [(board: Int, version: Int64, at: UInt64)] = []
                    func took(_ board: Board, before: Int64) {
                        let arrived = nanos()
                        let now = store.version
                        guard now > before, before > 0 else { return }
                        for v in (before + 1)...now { mine.append((b, v, arrived)) }
                    }
                    while !stop.load(ordering: .relaxed) {
                        let wait = max(0, min(nextChange - monotonicNow(), 0.2))
                        if let fd = store.changeDescriptor {
                            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                            _ = poll(&p, 1, Int32(wait * 1000))
                        } else {
                            usleep(UInt32(wait * 1_000_000))
                        }
                        let before = store.version
                        if let fresh = try store.refresh() {
                            took(fresh, before: before)
                            base = fresh
                        }
                        guard monotonicNow() >= nextChange, !stop.load(ordering: .relaxed) else { continue }
                        nextChange = monotonicNow() + nextGap()
                        let from = Int(rng.next() % UInt64(base.columns.count))
                        guard !base.columns[from].cards.isEmpty else { continue }
                        let card = base.columns[from].cards[Int(rng.next() % UInt64(base.columns[from].cards.count))]
                        let ours: Board
                        if rng.next() % 3 == 0 {
                            ours = base.with(.setTitle(card.id, "edited by \(c) #\(rng.next() % 1000)", seen: nil))
                        } else {
                            let to = Int(rng.next() % UInt64(base.columns.count))
                            let at = Int(rng.next() % UInt64(base.columns[to].cards.count + 1))
                            ours = base.with(.moveCards([card.id], to: base.columns[to].id, at: .index(at)))
                        }
                        let start = store.version
                        let t0 = nanos()
                        let out: CommitOutcome
                        do {
                            out = try store.commit(base: base, ours: ours)
                        } catch let e as PostgresError where e.sqlState == "57014" || e.sqlState == "55P03" {
                            // Refused in words (the board busy past the row wait): a screen keeps its
                            // change and tries again; this one makes its next change instead.
                            figures.data.withLock { $0.refused += 1 }
                            continue
                        }
                        let t1 = nanos()
                        let v = store.version
                        figures.data.withLock { d in
                            d.commitMs.append(ms(t1 - t0))
                            d.conflicts += out.conflicts.count
                            if v > start, d.committedAt[b]?[v] == nil { d.committedAt[b, default: [:]][v] = t0 }
                        }
                        base = out.board
                    }
                    figures.data.withLock { $0.seen += mine }
                    doneWriting.add(1, ordering: .relaxed)
                    // Stopped: read until this client holds what the board holds (30 s at most).
                    while truths.boards.withLock({ $0[b] }) == nil { usleep(20_000) }
                    let truth = truths.boards.withLock { $0[b] }!
                    let deadline = monotonicNow() + 30
                    while base != truth && monotonicNow() < deadline {
                        if let fd = store.changeDescriptor {
                            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                            _ = poll(&p, 1, 100)
                        }
                        if let fresh = try store.refresh() { base = fresh }
                    }
                    views.boards.withLock { $0[c] = base }
                } catch {
                    figures.data.withLock { $0.errors.append("client \(c): \(error)") }
                }
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        let connectDeadline = monotonicNow() + 120
        while ready.load(ordering: .relaxed) < clients && monotonicNow() < connectDeadline {
            if !figures.data.withLock({ $0.errors.isEmpty }) { break }
            usleep(20_000)
        }
        let server = clusterPIDs(dataDir: dir + "/data")
        let poolerPIDs: [Int32] =
            env["LANES_PGBOUNCER_PID"].flatMap { Int32($0) }.map { [$0] } ?? []
        let cpu0 = cpuSeconds(server), pcpu0 = cpuSeconds(poolerPIDs)
        // The figures count from here: every client connected.
        figures.data.withLock { d in d.commitMs.removeAll() }
        let start = nanos()
        usleep(UInt32(seconds * 1_000_000))
        let serverNow = clusterPIDs(dataDir: dir + "/data")
        let cpu1 = cpuSeconds(serverNow), pcpu1 = cpuSeconds(poolerPIDs)
        let elapsed = Double(nanos() - start) / 1e9
        let commits = figures.data.withLock { $0.commitMs.count }
        stop.store(true, ordering: .relaxed)
        while doneWriting.load(ordering: .relaxed) + figures.data.withLock({ $0.errors.count }) < clients {
            usleep(20_000)
        }
        for b in 0..<boards {
            let truth = try PostgresBoardStore.open(url: url("alice", b, direct: true)).load()
            truths.boards.withLock { $0[b] = truth }
        }
        group.wait()
        let d = figures.data.withLock { $0 }
        // Change to screen: each version a screen read, from the start of the commit that made it.
        var seenMs: [Double] = []
        seenMs.reserveCapacity(d.seen.count)
        for s in d.seen {
            if let t = d.committedAt[s.board]?[s.version], s.at > t, t >= start { seenMs.append(ms(s.at - t)) }
        }

        var once = true, converged = true
        let seen = views.boards.withLock { $0 }
        for b in 0..<boards {
            let truth = truths.boards.withLock { $0[b] }!
            let ids = truth.allIDs
            once = once && ids.count == cardCount && Set(ids).count == cardCount
            for (c, view) in seen where c % boards == b { converged = converged && view == truth }
        }
        converged = converged && seen.count == clients
        say(
            "  \(commits) commits in \(fmt(elapsed)) s = \(fmt(Double(commits) / elapsed)) commits/s (\(d.conflicts) conflicts said in words); \(d.refused) commits refused as the board stayed busy past the row wait (tried again); \(d.errors.count) clients failed"
        )
        say(
            "  commit latency p50 \(fmt(d.commitMs.percentile(50))) ms, p99 \(fmt(d.commitMs.percentile(99))) ms, max \(fmt(d.commitMs.max()))"
        )
        say(
            "  change to every other screen of its board (from the commit's start): p50 \(fmt(seenMs.percentile(50))) ms, p99 \(fmt(seenMs.percentile(99))) ms, max \(fmt(seenMs.max())) (\(seenMs.count) screen × change pairs): \(seenMs.percentile(99) <= 1000 ? "MET" : "MISSED") (≤1 s at p99)"
        )
        say(
            "  server CPU \(fmt((cpu1 - cpu0) / elapsed)) cores (of \(ProcessInfo.processInfo.activeProcessorCount); \(serverNow.count) processes)\(poolerPIDs.isEmpty ? "" : "; PgBouncer \(fmt((pcpu1 - pcpu0) / elapsed)) cores"); load average \(loadAverage())"
        )
        say("  every card exactly once: \(once ? "yes" : "NO"); every client converged: \(converged ? "yes" : "NO")")
        if !d.errors.isEmpty { say("  errors: " + d.errors.prefix(5).joined(separator: "; ")) }
        if !once || !converged || !d.errors.isEmpty { exit(1) }
    } catch {
        FileHandle.standardError.write(Data("lanes-bench --pg-team: \(error)\n".utf8))
        exit(1)
    }
}

func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(1).joined()
}
