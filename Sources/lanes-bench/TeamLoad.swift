// lanes-bench --pg-team: hundreds of people on team boards (#43), each a screen that also writes.
//
//   lanes-bench --pg-team [--team-clients 200] [--team-boards 1] [--team-seconds 30] [--team-think 2]
//                         [--team-cards 500] [--team-pooler PORT] [--team-failover SECONDS]
//
// Each client is what an open screen is: a PostgresBoardStore handed to a StorageWorker (the app's
// storage thread: it reads others' changes beside its own commits, 43.9), and a thread that takes
// the worker's reports as the app does and every `--team-think` seconds on average (exponential)
// makes one change: a move (two in three) or a title edit, sent once the last one was answered. `--team-pooler PORT`: every
// query through a PgBouncer on 127.0.0.1:PORT (transaction pooling), LISTEN on the server itself
// (`listen=`). `--team-failover SECONDS`: a multi-host URL (the server, then its standby on
// LANES_PG_STANDBY_PORT, target_session_attrs=read-write); after SECONDS the primary is stopped
// (LANES_TEAM_STOP_PRIMARY) and the standby promoted (LANES_TEAM_PROMOTE); a client offline keeps
// its change and looks once a second, as a screen does. Needs LANES_PG_DIR and LANES_PG_PORT
// (scripts/bench-team sets up everything, also the pooler, the standby and max_connections);
// loopback only; it stops by itself after `--team-seconds`.
//
// Reported: commits/s, commit latency p50/p99 (from sending to the worker's answer), change-to-screen
// latency (from a commit's start to each other client of that board having it, by a look or by its
// own commit's read-back: every pair) and its
// stages (the wait for the board row; the row held until COMMIT is answered; from then to an idle
// listener's notification, one per board on a connection of its own; to the screen's wake; the
// wake to the board read), the server's CPU (every process of the cluster, from /proc) and the
// pooler's, every card once, every client converged on the board as stored; with a failover, the
// time from the promotion until each client is back (reconnected, the board read whole from the
// new primary, the change it kept saved).
import CLibPQ
import Foundation
import LanesCore
import LanesPostgres
import LanesTerminal
import SeededRandom
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

final class TeamFigures: Sendable {
    struct Data {
        var commitMs: [Double] = []
        /// Per commit: from its start to the board row locked, and from then to COMMIT answered.
        var rowWaitMs: [Double] = []
        var lockedMs: [Double] = []
        /// (client, board, version, when the screen woke for the look that read it, when it had read it).
        var seen: [(client: Int, board: Int, version: Int64, wake: UInt64, at: UInt64)] = []
        var conflicts = 0
        /// Commits the server refused in words (a board busy past the row wait), tried again by the client.
        var refused = 0
        /// Commits and looks that found no server (the failover), kept and tried again.
        var offline = 0
        var errors: [String] = []
        /// Per board: the monotonic times (ns) each version's commit started and its COMMIT was answered, and its client.
        var committedAt: [Int: [Int64: (start: UInt64, acked: UInt64, client: Int)]] = [:]
        /// Per board: when an idle listener of the board's channel (the probe) had each version's notification.
        var heardAt: [Int: [Int64: UInt64]] = [:]
        /// Failover: per client, seconds from the promotion to back (the board read again, its kept change saved).
        var back: [Double] = []
        /// Failover: each connection made and whole read after the promotion (the store's
        /// `stageHook`), as (stage, began, ended) in ns, and each commit begun after it (began, locked, committed).
        var stages: [(stage: PostgresBoardStore.Stage, began: UInt64, ended: UInt64)] = []
        var commitsAfter: [(began: UInt64, locked: UInt64, committed: UInt64)] = []
        /// When the promotion was asked for (ns; 0 before), for the hooks.
        var promoted: UInt64 = 0
        /// Failover: each commit or look that found no server after the promotion: when (ns), which, its words.
        var offlineAfter: [(at: UInt64, commit: Bool, message: String)] = []
    }
    let data = Mutex(Data())
}

/// The board versions one screen has shown, each with when it first had it (ns) and when the read
/// that brought it began (its wake); written by the store's hooks on the worker's two threads.
final class SeenVersions: Sendable {
    private let first = Mutex<[Int64: (board: Int, wake: UInt64, at: UInt64)]>([:])

    func add(board: Int, versions: ClosedRange<Int64>, wake: UInt64, at: UInt64) {
        first.withLock { m in
            for v in versions where m[v] == nil { m[v] = (board, wake, at) }
        }
    }

    func all(client: Int) -> [(client: Int, board: Int, version: Int64, wake: UInt64, at: UInt64)] {
        first.withLock { m in m.map { (client, $0.value.board, $0.key, $0.value.wake, $0.value.at) } }
    }
}

/// An idle listener of one board's channel (its own libpq connection): when each notification
/// arrives, with no screen's work in the way. The n-th notification after LISTEN is version
/// `from + n` (a board's commits are one at a time, one notification each); it ends with `stop`
/// or when its connection does (a failover).
func probeBoard(
    conninfo: String, board: String, index: Int, figures: TeamFigures, stop: borrowing Atomic<Bool>,
    ready: borrowing Atomic<Int>
) {
    guard let c = PQconnectdb(conninfo), PQstatus(c) == CONNECTION_OK else {
        figures.data.withLock { $0.errors.append("probe of board \(index): cannot connect") }
        ready.add(1, ordering: .relaxed)
        return
    }
    defer { PQfinish(c) }
    func one(_ sql: String) -> String? {
        guard let r = PQexec(c, sql) else { return nil }
        defer { PQclear(r) }
        guard PQresultStatus(r) == PGRES_TUPLES_OK || PQresultStatus(r) == PGRES_COMMAND_OK, PQntuples(r) > 0 else {
            return nil
        }
        return String(cString: PQgetvalue(r, 0, 0))
    }
    let quoted = "'" + board.replacingOccurrences(of: "'", with: "''") + "'"
    guard
        let channel = one(
            "SELECT n.channel FROM lanes.board_names n JOIN lanes.boards b ON b.id = n.board_id WHERE b.name = \(quoted)"
        )
    else {
        figures.data.withLock { $0.errors.append("probe of board \(index): no channel") }
        ready.add(1, ordering: .relaxed)
        return
    }
    PQclear(PQexec(c, "LISTEN \"" + channel.replacingOccurrences(of: "\"", with: "\"\"") + "\""))
    var version = Int64(one("SELECT version FROM lanes.boards WHERE name = \(quoted)") ?? "0") ?? 0
    ready.add(1, ordering: .relaxed)
    var heard: [Int64: UInt64] = [:]
    while !stop.load(ordering: .relaxed) {
        var p = pollfd(fd: PQsocket(c), events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, 200) >= 0 else { continue }
        let at = nanos()
        guard PQconsumeInput(c) == 1, PQstatus(c) == CONNECTION_OK else { break }
        while let n = PQnotifies(c) {
            version += 1
            heard[version] = at
            PQfreemem(n)
        }
    }
    figures.data.withLock { $0.heardAt[index, default: [:]].merge(heard) { a, _ in a } }
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
    // Failover: the standby's port and the two commands the team's tooling would run.
    let failoverAt = opts.teamFailover
    let standbyPort = env["LANES_PG_STANDBY_PORT"]
    let stopPrimary = env["LANES_TEAM_STOP_PRIMARY"], promote = env["LANES_TEAM_PROMOTE"]
    if failoverAt != nil && (standbyPort == nil || stopPrimary == nil || promote == nil) {
        FileHandle.standardError.write(
            Data(
                "lanes-bench --team-failover: needs LANES_PG_STANDBY_PORT, LANES_TEAM_STOP_PRIMARY and LANES_TEAM_PROMOTE (scripts/bench-team --failover sets them)\n"
                    .utf8))
        exit(2)
    }
    let tag = "team-\(getpid())"
    @Sendable func url(_ role: String, _ board: Int, direct: Bool = false) -> String {
        if let standbyPort {
            return
                "postgresql://\(role)@127.0.0.1:\(port),127.0.0.1:\(standbyPort)/lanes?target_session_attrs=read-write&connect_timeout=3&board=\(tag)-\(board)"
        }
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
        let how =
            failoverAt.map {
                "directly to a primary and its synchronous standby (multi-host URL), the primary stopped -m immediate after \(fmt($0)) s and the standby promoted"
            }
            ?? pooler.map { "through PgBouncer :\($0) (transaction pooling, listen=\(port))" } ?? "directly"
        say(
            "PostgreSQL team load: \(clients) clients on \(boards) board(s) of \(cardCount) cards, a change every \(fmt(think)) s each on average, \(Int(seconds)) s, \(how)"
        )
        let figures = TeamFigures()
        let stop = Atomic<Bool>(false)
        let ready = Atomic<Int>(0)
        let group = DispatchGroup()
        final class Views: Sendable { let boards = Mutex<[Int: Board]>([:]) }
        let views = Views(), truths = Views()
        let doneWriting = Atomic<Int>(0), endedEarly = Atomic<Int>(0)
        // Failover: when the promotion was asked for (ns; 0 before).
        let promotedAt = Atomic<UInt64>(0)

        // One idle listener per board, before any client writes.
        let probesReady = Atomic<Int>(0)
        for b in 0..<boards {
            group.enter()
            let t = Thread {
                defer { group.leave() }
                probeBoard(
                    conninfo: "postgresql://alice@127.0.0.1:\(port)/lanes", board: "\(tag)-\(b)", index: b,
                    figures: figures, stop: stop, ready: probesReady)
            }
            t.stackSize = 1 << 20
            t.start()
        }
        while probesReady.load(ordering: .relaxed) < boards { usleep(10_000) }

        for c in 0..<clients {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                let b = c % boards
                do {
                    // A screen: the store, read once and looked at once (LISTEN from now on), handed to a
                    // StorageWorker as the app hands it (its reads beside its commits, 43.9); this thread
                    // is the app, which takes the worker's reports and sends one change at a time.
                    // Opened as a person would open it again: 400 connections made at once on a loaded
                    // host may time out (connect_timeout 3 s with a standby in the URL), then again.
                    var attempt = 0
                    var opened: (store: PostgresBoardStore, board: Board)?
                    while opened == nil {
                        do {
                            let s = try PostgresBoardStore.open(url: url(c % 2 == 0 ? "alice" : "bob", b))
                            let board = try s.load()
                            _ = try s.refresh()
                            opened = (s, board)
                        } catch is StorageUnavailable where attempt < 4 {
                            attempt += 1
                            usleep(1_000_000)
                        }
                    }
                    let store = opened!.store
                    var base = opened!.board
                    let seen = SeenVersions()
                    store.readHook = { before, after, began in
                        let at = nanos()
                        guard before > 0, after > before else { return }
                        seen.add(board: b, versions: (before + 1)...after, wake: began, at: at)
                    }
                    store.stageHook = { stage, began, ended in
                        figures.data.withLock { d in
                            if d.promoted > 0, ended >= d.promoted { d.stages.append((stage, began, ended)) }
                        }
                    }
                    store.commitHook = { began, locked, committed, from, version in
                        let at = nanos()
                        figures.data.withLock { d in
                            if d.promoted > 0, began >= d.promoted { d.commitsAfter.append((began, locked, committed)) }
                            if locked >= began, committed >= locked {
                                d.rowWaitMs.append(ms(locked - began))
                                d.lockedMs.append(ms(committed - locked))
                            }
                            if version > from, d.committedAt[b]?[version] == nil, committed >= began {
                                d.committedAt[b, default: [:]][version] = (began, committed, c)
                            }
                        }
                        // Others' changes this commit read back are on the screen from now on too.
                        if from > 0, version > from {
                            seen.add(board: b, versions: (from + 1)...version, wake: committed, at: at)
                        }
                    }
                    nonisolated(unsafe) let handed = store
                    let worker = StorageWorker(storage: handed, idle: false)
                    worker.start()
                    defer { worker.stop() }
                    ready.add(1, ordering: .relaxed)
                    var rng = SplitMix64(seed: UInt64(c) &* 7919 &+ 1)
                    func nextGap() -> Double {
                        let u = Double(rng.next() % 1_000_000 + 1) / 1_000_001
                        return -log(u) * think
                    }
                    var nextChange = monotonicNow() + nextGap()
                    /// The commit sent and not yet answered: its token, what it sent, when.
                    var inFlight: (token: Int, base: Board, ours: Board, sent: UInt64)?
                    /// A change made while no server took it: kept, and committed again (same base and ours) later.
                    var kept: (base: Board, ours: Board)?
                    /// Offline, a screen tries its kept change again a second later (the Runner's retry).
                    var nextRetry = 0.0
                    /// Failover: the connection was lost; a board was read after the promotion (after a
                    /// reconnect a look reads the whole board as the new primary has it).
                    var lost = false, lookedAfter = false, isBack = false
                    func checkBack() {
                        guard !isBack, lost, lookedAfter, kept == nil, inFlight == nil else { return }
                        let p = promotedAt.load(ordering: .relaxed)
                        isBack = true
                        let s = Double(nanos() - p) / 1e9
                        figures.data.withLock { $0.back.append(s) }
                    }
                    func send(_ from: Board, _ ours: Board) {
                        inFlight = (worker.commit(base: from, ours: ours), from, ours, nanos())
                    }
                    func take(_ reports: [StorageWorker.Report]) {
                        for r in reports {
                            switch r {
                            case .changed(let board, _):
                                base = board
                                if lost, promotedAt.load(ordering: .relaxed) > 0 { lookedAfter = true }
                            case .committed(let token, let outcome, _):
                                guard let sent = inFlight, sent.token == token else { continue }
                                inFlight = nil
                                kept = nil
                                base = outcome.board
                                let t = nanos()
                                figures.data.withLock { d in
                                    d.commitMs.append(ms(t - sent.sent))
                                    d.conflicts += outcome.conflicts.count
                                }
                            case .commitFailed(let token, let message, let offline):
                                guard let sent = inFlight, sent.token == token else { continue }
                                inFlight = nil
                                if offline {
                                    figures.data.withLock { d in
                                        d.offline += 1
                                        if d.promoted > 0 { d.offlineAfter.append((nanos(), true, message)) }
                                    }
                                    lost = true
                                    kept = (sent.base, sent.ours)
                                    nextRetry = monotonicNow() + 1
                                } else if message.contains("kept it busy") {
                                    // Refused in words (the board busy past the row wait): a screen keeps
                                    // its change and tries again; this one makes its next change instead.
                                    figures.data.withLock { $0.refused += 1 }
                                } else {
                                    figures.data.withLock { $0.errors.append("client \(c): \(message)") }
                                }
                            case .refreshFailed(let message, let offline):
                                if offline {
                                    figures.data.withLock { d in
                                        d.offline += 1
                                        if d.promoted > 0 { d.offlineAfter.append((nanos(), false, message)) }
                                    }
                                    lost = true
                                } else {
                                    figures.data.withLock { $0.errors.append("client \(c): \(message)") }
                                }
                            case .gone(let message):
                                figures.data.withLock { $0.errors.append("client \(c): \(message)") }
                            }
                        }
                    }
                    while !stop.load(ordering: .relaxed) {
                        // Until the next change is due, or (a commit on its way, a change kept) a report comes.
                        let due = inFlight == nil ? (kept == nil ? nextChange : nextRetry) : .infinity
                        take(worker.waitForReports(timeout: max(0.001, min(due - monotonicNow(), 0.2))))
                        if inFlight == nil, let k = kept {
                            if monotonicNow() >= nextRetry { send(k.base, k.ours) }
                            continue
                        }
                        checkBack()
                        guard inFlight == nil, monotonicNow() >= nextChange, !stop.load(ordering: .relaxed) else {
                            continue
                        }
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
                        send(base, ours)
                    }
                    // A commit on its way, or a change kept while offline, is saved before this client
                    // stops (a screen keeps trying): 60 s at most.
                    let keptDeadline = monotonicNow() + 60
                    while (inFlight != nil || kept != nil) && monotonicNow() < keptDeadline {
                        take(worker.waitForReports(timeout: 0.2))
                        if inFlight == nil, let k = kept, monotonicNow() >= nextRetry { send(k.base, k.ours) }
                    }
                    figures.data.withLock { $0.seen += seen.all(client: c) }
                    doneWriting.add(1, ordering: .relaxed)
                    // Stopped: take reports until this client holds what the board holds (60 s at most).
                    while truths.boards.withLock({ $0[b] }) == nil { usleep(20_000) }
                    let truth = truths.boards.withLock { $0[b] }!
                    let deadline = monotonicNow() + 60
                    while base != truth && monotonicNow() < deadline { take(worker.waitForReports(timeout: 0.2)) }
                    views.boards.withLock { $0[c] = base }
                    if let k = kept {
                        figures.data.withLock {
                            $0.errors.append(
                                "client \(c): a change kept offline was never saved (\(k.ours.allIDs.count) cards)")
                        }
                    }
                } catch {
                    figures.data.withLock { $0.errors.append("client \(c): \(error)") }
                    endedEarly.add(1, ordering: .relaxed)
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
        let cpu0 = cpuSeconds(server), pcpu0 = cpuSeconds(poolerPIDs), benchCPU0 = cpuSeconds([getpid()])
        // The figures count from here: every client connected.
        figures.data.withLock { d in
            d.commitMs.removeAll()
            d.rowWaitMs.removeAll()
            d.lockedMs.removeAll()
        }
        let start = nanos()
        var failover: (stopped: UInt64, promoted: UInt64, promotedDone: UInt64)?
        if let at = failoverAt, let stopPrimary, let promote {
            usleep(UInt32(max(0, at) * 1_000_000))
            let stopped = nanos()
            _ = shell(stopPrimary)
            usleep(UInt32(opts.teamFailoverGap * 1_000_000))
            let asked = nanos()
            promotedAt.store(asked, ordering: .relaxed)
            figures.data.withLock { $0.promoted = asked }
            if shell(promote) != 0 { figures.data.withLock { $0.errors.append("the promotion failed") } }
            let done = nanos()
            failover = (stopped, asked, done)
            let left = seconds - Double(nanos() - start) / 1e9
            if left > 0 { usleep(UInt32(left * 1_000_000)) }
        } else {
            usleep(UInt32(seconds * 1_000_000))
        }
        let serverNow = clusterPIDs(dataDir: dir + "/data")
        let cpu1 = cpuSeconds(serverNow), pcpu1 = cpuSeconds(poolerPIDs), benchCPU1 = cpuSeconds([getpid()])
        let elapsed = Double(nanos() - start) / 1e9
        let commits = figures.data.withLock { $0.commitMs.count }
        stop.store(true, ordering: .relaxed)
        while doneWriting.load(ordering: .relaxed) + endedEarly.load(ordering: .relaxed) < clients {
            usleep(20_000)
        }
        for b in 0..<boards {
            let truth = try PostgresBoardStore.open(url: url("alice", b, direct: true)).load()
            truths.boards.withLock { $0[b] = truth }
        }
        group.wait()
        let d = figures.data.withLock { $0 }
        // A change's way to each other screen of its board, in stages: from the commit's start to its
        // COMMIT answered; from then to the screen's wake (0 when it was awake already); from the wake
        // to the board read. The failover's minutes are left out (said apart).
        let quiet: (UInt64) -> Bool = { t in
            guard let f = failover else { return true }
            let lastBack = f.promoted + UInt64((d.back.max() ?? 60) * 1e9)
            return t < f.stopped || t > lastBack
        }
        var seenMs: [Double] = [], wakeMs: [Double] = [], readMs: [Double] = [], heardMs: [Double] = []
        seenMs.reserveCapacity(d.seen.count)
        for s in d.seen {
            guard let t = d.committedAt[s.board]?[s.version], t.client != s.client, s.at > t.start, t.start >= start,
                quiet(t.start)
            else {
                continue
            }
            seenMs.append(ms(s.at - t.start))
            wakeMs.append(s.wake > t.acked ? ms(s.wake - t.acked) : 0)
            let from = max(s.wake, t.acked)
            readMs.append(s.at > from ? ms(s.at - from) : 0)
        }
        for (b, versions) in d.committedAt {
            for (v, t) in versions where t.start >= start && quiet(t.start) {
                if let h = d.heardAt[b]?[v], h >= t.acked { heardMs.append(ms(h - t.acked)) }
            }
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
        func p(_ xs: [Double]) -> String { "p50 \(fmt(xs.percentile(50))) ms, p99 \(fmt(xs.percentile(99))) ms" }
        say(
            "  \(commits) commits in \(fmt(elapsed)) s = \(fmt(Double(commits) / elapsed)) commits/s (\(d.conflicts) conflicts said in words); \(d.refused) commits refused as the board stayed busy past the row wait (tried again); \(d.offline) commits or looks with no server (kept, tried again); \(d.errors.count) clients failed"
        )
        say("  commit latency \(p(d.commitMs)), max \(fmt(d.commitMs.max()))")
        say(
            "  change to every other screen of its board (from the commit's start): \(p(seenMs)), max \(fmt(seenMs.max())) (\(seenMs.count) screen × change pairs): \(seenMs.percentile(99) <= 1000 ? "MET" : "MISSED") (≤1 s at p99)"
        )
        say("    its stages: 1. the commit waits for the board row: \(p(d.rowWaitMs))")
        say("                2. the row locked to COMMIT answered: \(p(d.lockedMs))")
        say(
            "                3. COMMIT answered to an idle listener's notification: \(p(heardMs)) (\(heardMs.count) changes)"
        )
        say("                4. COMMIT answered to the screen's wake (0 if awake): \(p(wakeMs))")
        say("                5. the wake to the board read (a look at most every 250 ms, with the rows): \(p(readMs))")
        if let f = failover {
            let back = d.back
            let all = back.count == clients
            say(
                "  failover: primary stopped, promotion asked \(fmt(Double(f.promoted - f.stopped) / 1e9)) s later, done in \(fmt(Double(f.promotedDone - f.promoted) / 1e9)) s"
            )
            say(
                "  every client back (reconnected, the board read again from the new primary, its kept change saved), from the promotion: \(back.count) of \(clients) clients, p50 \(fmt(back.percentile(50))) s, p99 \(fmt(back.percentile(99))) s, max \(fmt(back.max())) s: \(all && (back.max() ?? 99) <= 10 ? "MET" : "MISSED") (≤10 s)"
            )
            converged = converged && all
            // Where the time after the promotion went (43.11): until the last client was back.
            let end = f.promoted + UInt64((back.max() ?? 0) * 1e9)
            func after(_ t: UInt64) -> Double { Double(Int64(t) - Int64(f.promoted)) / 1e9 }
            func line(_ xs: [Double], _ unit: String) -> String {
                xs.isEmpty
                    ? "none"
                    : "\(xs.count), p50 \(fmt(xs.percentile(50)))\(unit), p99 \(fmt(xs.percentile(99)))\(unit), max \(fmt(xs.max()))\(unit)"
            }
            let named: [(PostgresBoardStore.Stage, String)] = [
                (.connectCommits, "commits' connections made"), (.connectReading, "reading connections made"),
                (.wholeReadCommits, "whole reads on the commits' side (under the board row)"),
                (.wholeReadReading, "whole reads on the reading side"),
            ]
            for (stage, name) in named {
                let these = d.stages.filter { $0.stage == stage && $0.ended <= end }
                say(
                    "    \(name): \(line(these.map { after($0.ended) }, " s")) after the promotion; each took \(line(these.map { ms($0.ended - $0.began) }, " ms"))"
                )
            }
            let failed = d.offlineAfter.filter { $0.at <= end }
            var words: [String: Int] = [:]
            for f in failed {
                // The reason libpq gave, without the server's address.
                let reason = f.message.components(separatedBy: "board=").last.map { $0.drop { $0 != ":" } } ?? ""
                words[String(reason.prefix(400)), default: 0] += 1
            }
            say(
                "    commits and looks that found no server after the promotion: \(failed.filter(\.commit).count) and \(failed.filter { !$0.commit }.count), at \(line(failed.map { after($0.at) }, " s")); most said: \(words.sorted { $0.value > $1.value }.prefix(3).map { "\($0.value)× \($0.key)" }.joined(separator: "; "))"
            )
            let queued = d.commitsAfter.filter { $0.began <= end && $0.locked >= $0.began }
            say(
                "    commits begun until then, the wait for the board row: \(line(queued.map { ms($0.locked - $0.began) }, " ms"))"
            )
        } else {
            say(
                "  server CPU \(fmt((cpu1 - cpu0) / elapsed)) cores (of \(ProcessInfo.processInfo.activeProcessorCount); \(serverNow.count) server processes, connections and its own); this process \(fmt((benchCPU1 - benchCPU0) / elapsed)) cores\(poolerPIDs.isEmpty ? "" : "; PgBouncer \(fmt((pcpu1 - pcpu0) / elapsed)) cores")"
            )
        }
        say("  load average \(loadAverage()) (1 min, at the end)")
        say("  every card exactly once: \(once ? "yes" : "NO"); every client converged: \(converged ? "yes" : "NO")")
        if !d.errors.isEmpty {
            // Each kind once (the client's number taken out), with how many clients said it.
            var kinds: [String: Int] = [:]
            for e in d.errors { kinds[String(e.drop { $0 != ":" }.dropFirst(2)), default: 0] += 1 }
            for (kind, n) in kinds.sorted(by: { $0.value > $1.value }).prefix(8) { say("  errors (\(n)): \(kind)") }
        }
        if !once || !converged || !d.errors.isEmpty { exit(1) }
    } catch {
        FileHandle.standardError.write(Data("lanes-bench --pg-team: \(error)\n".utf8))
        exit(1)
    }
}

/// Runs `command` with /bin/sh; its exit status.
func shell(_ command: String) -> Int32 {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/bin/sh")
    p.arguments = ["-c", command]
    do { try p.run() } catch { return 127 }
    p.waitUntilExit()
    return p.terminationStatus
}

func monotonicNow() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

func loadAverage() -> String {
    ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "").split(separator: " ").prefix(1).joined()
}
