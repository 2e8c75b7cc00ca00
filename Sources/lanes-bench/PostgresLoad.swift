// lanes-bench --pg-load: many clients moving cards on one PostgreSQL board at once.
//
//   lanes-bench --pg-load [--pg-clients 20] [--pg-seconds 60] [--pg-moves 20000] [--pg-cards 10000]
//
// Needs LANES_PG_DIR and LANES_PG_PORT (scripts/pg-test-cluster with …); loopback only.
import DragKit
import Foundation
import LanesCore
import TestSupport
import LanesPostgres
import SeededRandom
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// What the clients measured, gathered under a lock.
final class LoadFigures: Sendable {
    struct Data {
        var moveMs: [Double] = []
        var conflicts = 0
        var errors: [String] = []
        /// Commit start time (monotonic ns) by the board version the commit made.
        var sentAt: [Int64: UInt64] = [:]
        var notifyMs: [Double] = []
    }
    let data = Mutex(Data())
}

func runPostgresLoad() {
    let env = ProcessInfo.processInfo.environment
    guard let dir = env["LANES_PG_DIR"], let port = env["LANES_PG_PORT"] else {
        FileHandle.standardError.write(
            Data("lanes-bench --pg-load: no server (run it through scripts/pg-test-cluster with)\n".utf8))
        exit(2)
    }
    let clients = opts.pgClients, seconds = opts.pgSeconds, maxMoves = opts.pgMoves, cardCount = opts.pgCards
    let name = "load-\(getpid())"
    @Sendable func url(_ role: String) -> String {
        "postgresql://\(role)@/lanes?host=\(dir)&port=\(port)&board=\(name)"
    }

    do {
        // The schema by the administrator, the board by alice; bob shares it.
        try PostgresBoardStore.setUpSchema(url: url("lanes_admin"))
        let board = BoardGenerator.board(cards: cardCount).withoutLimits
        let (_, copyMs) = try timed {
            try PostgresBoardStore.create(url: url("alice"), board: board, info: BoardFileInfo(dialect: .taskell))
        }
        let owner = try PostgresBoardStore.open(url: url("alice"))
        try owner.grant(role: "bob")
        say(
            "PostgreSQL load: \(cardCount) cards copied in \(fmt(copyMs)) ms; \(clients) clients, \(Int(seconds)) s or \(maxMoves) moves"
        )

        // Launch: open + load of the whole board, as the app starts.
        var loadMs: [Double] = []
        for _ in 0..<7 {
            let (_, t) = try timed { try PostgresBoardStore.open(url: url("bob")).load() }
            loadMs.append(t)
        }

        let figures = LoadFigures()
        let stop = Atomic<Bool>(false)
        let movesDone = Atomic<Int>(0)
        // A listener that only watches: notification latency from a commit's start to its arrival here.
        let listener = Thread {
            do {
                let store = try PostgresBoardStore.open(url: url("bob"))
                _ = try store.load()
                while !stop.load(ordering: .relaxed) {
                    guard let fd = store.changeDescriptor else { continue }
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    guard poll(&p, 1, 100) > 0 else { continue }
                    let arrived = nanos()
                    let before = store.version
                    guard try store.refresh() != nil else { continue }
                    figures.data.withLock { d in
                        for v in (before + 1)...store.version {
                            if let t = d.sentAt[v], arrived > t { d.notifyMs.append(ms(arrived - t)) }
                        }
                    }
                }
            } catch {
                figures.data.withLock { $0.errors.append("listener: \(error)") }
            }
        }
        listener.start()

        let group = DispatchGroup()
        let start = nanos()
        let deadline = start + UInt64(seconds * 1e9)
        for c in 0..<clients {
            group.enter()
            Thread {
                defer { group.leave() }
                do {
                    let store = try PostgresBoardStore.open(url: url(c % 2 == 0 ? "alice" : "bob"))
                    var base = try store.load()
                    var rng = SplitMix64(seed: UInt64(c) &+ 7)
                    while nanos() < deadline && movesDone.load(ordering: .relaxed) < maxMoves {
                        if let fresh = try store.refresh() { base = fresh }
                        guard let ours = base.randomMove(&rng) else { continue }
                        let before = store.version
                        let t0 = nanos()
                        let out = try store.commit(base: base, ours: ours)
                        let t1 = nanos()
                        let v = store.version
                        figures.data.withLock { d in
                            d.moveMs.append(ms(t1 - t0))
                            d.conflicts += out.conflicts.count
                            if v > before && d.sentAt[v] == nil { d.sentAt[v] = t0 }
                        }
                        base = out.board
                        movesDone.add(1, ordering: .relaxed)
                    }
                } catch {
                    figures.data.withLock { $0.errors.append("client \(c): \(error)") }
                }
            }.start()
        }
        group.wait()
        let elapsed = Double(nanos() - start) / 1e9
        stop.store(true, ordering: .relaxed)
        usleep(300_000)

        // Convergence: every client's view after a refresh equals a fresh load; every card once.
        let truth = try PostgresBoardStore.open(url: url("alice")).load()
        var converged = true
        for c in 0..<4 {
            let s = try PostgresBoardStore.open(url: url(c % 2 == 0 ? "alice" : "bob"))
            var b = try s.load()
            // A store that followed by notifications only must reach the same board.
            if let fresh = try s.refresh() { b = fresh }
            converged = converged && b == truth
        }
        let ids = truth.allIDs
        let once = ids.count == cardCount && Set(ids).count == cardCount
        let d = figures.data.withLock { $0 }
        let moves = d.moveMs.count
        say(
            "  moves: \(moves) in \(fmt(elapsed)) s = \(fmt(Double(moves) / elapsed)) moves/s; refused (conflicts): \(d.conflicts)"
        )
        say(
            "  move round trip (commit) p50 \(fmt(d.moveMs.percentile(50))) ms, p99 \(fmt(d.moveMs.percentile(99))) ms, max \(fmt(d.moveMs.max()))"
        )
        say(
            "  notification latency (commit start → listener) p50 \(fmt(d.notifyMs.percentile(50))) ms, p99 \(fmt(d.notifyMs.percentile(99))) ms (\(d.notifyMs.count) seen)"
        )
        say("  launch: open + load of \(cardCount) cards median \(fmt(loadMs.median)) ms, max \(fmt(loadMs.max()))")
        say(
            "  every card exactly once: \(once ? "yes" : "NO"); clients converge on one order: \(converged ? "yes" : "NO")"
        )
        if !d.errors.isEmpty { say("  errors: " + d.errors.prefix(5).joined(separator: "; ")) }
        say(
            "  target load ≤150 ms: \(loadMs.median <= 150 ? "MET" : "MISSED"); with \(clients) clients on one board the moves queue for its lock (no target: the ≤10 ms round trip is one client's, below)"
        )
        // A move round trip with the board to itself: one client, no contention.
        let solo = try PostgresBoardStore.open(url: url("alice"))
        var base = try solo.load()
        var soloMs: [Double] = [], soloCPUms: [Double] = []
        var rng = SplitMix64(seed: 99)
        for _ in 0..<300 {
            let ours = base.randomMove(&rng)!
            let cpu0 = threadCPUms()
            let (out, t) = try timed { try solo.commit(base: base, ours: ours) }
            soloCPUms.append(threadCPUms() - cpu0)
            soloMs.append(t)
            base = out.board
        }
        say(
            "  move round trip, one client alone: p50 \(fmt(soloMs.percentile(50))) ms, p99 \(fmt(soloMs.percentile(99))) ms: \(soloMs.percentile(99) <= 10 ? "MET" : "MISSED") (≤10 ms)"
        )
        // What the app's save pacing sees (it holds back saves that took more than 2 ms of CPU).
        say(
            "  the client's CPU time per commit: p50 \(fmt(soloCPUms.percentile(50))) ms, p99 \(fmt(soloCPUms.percentile(99))) ms"
        )
        if !once || !converged || !d.errors.isEmpty { exit(1) }
    } catch {
        FileHandle.standardError.write(Data("lanes-bench --pg-load: \(error)\n".utf8))
        exit(1)
    }
}

/// CPU time of the calling thread, in milliseconds (`ThreadCPU`, which the tests share).
func threadCPUms() -> Double { ThreadCPU.now() * 1000 }
