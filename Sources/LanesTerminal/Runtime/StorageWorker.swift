import Foundation
import LanesCore
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Runs a board's storage on a thread of its own, so saving and watching never hold up input or frames.
///
/// The app loop hands it commits (one at a time: the next waits for the report of the last,
/// which is how saves coalesce) and reads its reports when `reportDescriptor` turns readable.
/// Between requests the thread watches the storage for changes made elsewhere: it wakes on
/// the storage's `changeDescriptor` (inotify, a database socket) or every `pollInterval`
/// seconds and calls `refresh`, which reads nothing while nothing changed.
/// The storage is handed over at `init` and from then on touched only by that thread; a store that
/// reads beside its commits (`RefreshesBesideCommits`: PostgreSQL) commits on a second thread, so
/// others' changes reach the app while its own commit waits for the server. Its boards reach the
/// app in the order the store numbered them: a board older than one already reported is not
/// reported, and a commit's report carries the newest board reported when that is newer than its own.
public final class StorageWorker: Sendable {
    public enum Report: Sendable {
        /// The commit with this token is stored; the outcome is the new shared board; `cpu`: the
        /// seconds of CPU time it took on the worker's thread.
        case committed(token: Int, CommitOutcome, cpu: Double)
        /// The commit with this token was not stored; `offline` when the store was unreachable.
        case commitFailed(token: Int, message: String, offline: Bool)
        /// Someone else changed the board; cards keep the identities of the last board reported.
        /// `writer`: who, when the storage can say (`WriterNaming`).
        case changed(Board, writer: String?)
        /// Looking for changes failed (a file that no longer parses, a server that went away).
        case refreshFailed(message: String, offline: Bool)
        /// The board can no longer be read here (deleted, renamed, access revoked): nothing more
        /// is read or stored; commits from now on fail with the same words.
        case gone(message: String)
    }

    private struct State {
        var pendingCommit: (token: Int, base: Board, ours: Board)?
        var reports: [Report] = []
        var nextToken = 1
        var stopping = false
        var lastRefreshFailed = false
        /// Set once the storage said the board is gone (`BoardGone`).
        var gone: String?
        /// Beside commits: the number and board of the newest board reported.
        var newest: (handedOut: UInt64, board: Board)?
        /// Threads still running.
        var running = 0
    }

    private let storage: Mutex<any BoardStore>
    /// The same store when it reads beside its commits: its own lock orders the two threads.
    private nonisolated(unsafe) let beside: (any RefreshesBesideCommits)?
    /// Wakes the committing thread (beside commits only).
    private let toCommitter: (read: Int32, write: Int32)
    /// Whether the threads run at idle priority (a screen's; lanes-bench's 200 screens share the host).
    private let idle: Bool
    private let state = Mutex(State())
    private let toWorker: (read: Int32, write: Int32)
    private let toApp: (read: Int32, write: Int32)
    private let pollInterval: Double
    private let done = Mutex<Bool>(false)
    private let changeDescriptor: Int32?

    /// Readable when reports are waiting (for the app's poll loop).
    public var reportDescriptor: Int32 { toApp.read }

    /// `idle`: the threads take only CPU time nothing else wants (a screen's storage must not slow its input).
    public init(storage: sending any BoardStore, pollInterval: Double = 1.0, idle: Bool = true) {
        changeDescriptor = storage.changeDescriptor
        nonisolated(unsafe) let store = storage
        beside = store as? any RefreshesBesideCommits
        self.storage = Mutex(store)
        self.pollInterval = pollInterval
        self.idle = idle
        toWorker = StorageWorker.pipe()
        toApp = StorageWorker.pipe()
        toCommitter = StorageWorker.pipe()
    }

    deinit {
        for fd in [toWorker.read, toWorker.write, toApp.read, toApp.write, toCommitter.read, toCommitter.write] {
            close(fd)
        }
    }

    public func start() {
        state.withLock { $0.running = beside == nil ? 1 : 2 }
        let thread = Thread { [self] in run() }
        thread.name = "lanes-storage"
        thread.start()
        if beside != nil {
            let committer = Thread { [self] in commitLoop() }
            committer.name = "lanes-commit"
            committer.start()
        }
    }

    /// Asks for `ours` (derived from `base`) to be stored; the report carries the returned token.
    @discardableResult
    public func commit(base: Board, ours: Board) -> Int {
        let token = state.withLock { s in
            defer { s.nextToken += 1 }
            s.pendingCommit = (s.nextToken, base, ours)
            return s.nextToken
        }
        StorageWorker.poke(beside == nil ? toWorker.write : toCommitter.write)
        return token
    }

    /// The reports so far, oldest first.
    public func takeReports() -> [Report] {
        StorageWorker.drain(toApp.read)
        return state.withLock { s in
            defer { s.reports = [] }
            return s.reports
        }
    }

    /// Waits up to `timeout` seconds for at least one report.
    public func waitForReports(timeout: Double) -> [Report] {
        let deadline = monotonicNow() + timeout
        while true {
            let reports = takeReports()
            if !reports.isEmpty { return reports }
            let left = deadline - monotonicNow()
            if left <= 0 { return [] }
            var fd = pollfd(fd: toApp.read, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, Int32(min(left * 1000, 1000).rounded(.up)))
        }
    }

    /// Ends the thread once a pending commit is done; returns when it has ended (or after `timeout`).
    public func stop(timeout: Double = 10) {
        state.withLock { $0.stopping = true }
        StorageWorker.poke(toWorker.write)
        StorageWorker.poke(toCommitter.write)
        let deadline = monotonicNow() + timeout
        while !done.withLock({ $0 }) && monotonicNow() < deadline { usleep(1000) }
    }

    // MARK: The thread

    /// The thread ends: the worker is done when every thread of it has.
    private func ended() {
        let last = state.withLock { s in
            s.running -= 1
            return s.running == 0
        }
        if last { done.withLock { $0 = true } }
    }

    private func lowerPriority() {
        #if os(Linux)
            guard idle else { return }
            // The writer takes only CPU time nothing else wants (SCHED_IDLE, per thread on Linux), so a
            // key pressed during a big save, and the terminal drawing the answer, come first. Where
            // that policy is refused, nice 10 (also per thread).
            var param = sched_param(sched_priority: 0)
            let schedIdle: Int32 = 5  // SCHED_IDLE in <sched.h>, behind _GNU_SOURCE, so not imported
            if pthread_setschedparam(pthread_self(), schedIdle, &param) != 0 {
                _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            }
        #endif
    }

    /// Beside commits: the second thread, which only commits.
    private func commitLoop() {
        defer { ended() }
        lowerPriority()
        while true {
            var fd = pollfd(fd: toCommitter.read, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 1000)
            StorageWorker.drain(toCommitter.read)
            let (job, stopping) = state.withLock { s in
                defer { s.pendingCommit = nil }
                return (s.pendingCommit, s.stopping)
            }
            if let job { report(commitReport(job)) }
            if stopping { return }
        }
    }

    private func run() {
        defer { ended() }
        lowerPriority()
        var nextRefresh = monotonicNow() + pollInterval
        while true {
            var fds = [pollfd(fd: toWorker.read, events: Int16(POLLIN), revents: 0)]
            if let changeDescriptor { fds.append(pollfd(fd: changeDescriptor, events: Int16(POLLIN), revents: 0)) }
            let left = max(0, nextRefresh - monotonicNow())
            _ = poll(&fds, nfds_t(fds.count), Int32((left * 1000).rounded(.up)))
            StorageWorker.drain(toWorker.read)
            let committing = beside == nil  // beside commits, the committing thread takes them
            let (job, stopping) = state.withLock { s -> ((token: Int, base: Board, ours: Board)?, Bool) in
                guard committing else { return (nil, s.stopping) }
                defer { s.pendingCommit = nil }
                return (s.pendingCommit, s.stopping)
            }
            if let job {
                report(commitReport(job))
            }
            if stopping { return }
            let changed = fds.count > 1 && fds[1].revents != 0
            if changed || monotonicNow() >= nextRefresh {
                nextRefresh = monotonicNow() + pollInterval
                refresh()
            }
        }
    }

    private func commitReport(_ job: (token: Int, base: Board, ours: Board)) -> Report {
        if let gone = state.withLock({ $0.gone }) {
            return .commitFailed(token: job.token, message: gone, offline: false)
        }
        do {
            let start = Self.threadCPUTime()
            let outcome =
                if let beside {
                    try beside.commit(base: job.base, ours: job.ours)
                } else {
                    try storage.withLock { try $0.commit(base: job.base, ours: job.ours) }
                }
            return .committed(token: job.token, outcome, cpu: Self.threadCPUTime() - start)
        } catch let error as StorageUnavailable {
            return .commitFailed(token: job.token, message: error.description, offline: true)
        } catch let error as BoardGone {
            goneNow(error)
            return .commitFailed(token: job.token, message: error.message, offline: false)
        } catch {
            return .commitFailed(token: job.token, message: "\(error)", offline: false)
        }
    }

    private func refresh() {
        if state.withLock({ $0.gone }) != nil { return }
        do {
            if let beside {
                if let (board, n) = try beside.refreshNumbered() {
                    report(.changed(board, writer: (beside as? WriterNaming)?.lastChangeWriter), handedOut: n)
                }
            } else {
                let changed = try storage.withLock { s in
                    try s.refresh().map { ($0, (s as? WriterNaming)?.lastChangeWriter) }
                }
                if let (board, writer) = changed { report(.changed(board, writer: writer)) }
            }
            state.withLock { $0.lastRefreshFailed = false }
        } catch let error as BoardGone {
            goneNow(error)
        } catch {
            // Said once per failure streak, not every second.
            let first = state.withLock { s in
                defer { s.lastRefreshFailed = true }
                return !s.lastRefreshFailed
            }
            if first {
                report(.refreshFailed(message: "\(error)", offline: error is StorageUnavailable))
            }
        }
    }

    /// From now on nothing is read or stored; said once.
    private func goneNow(_ error: BoardGone) {
        let first = state.withLock { s in
            defer { s.gone = error.message }
            return s.gone == nil
        }
        if first { report(.gone(message: error.message)) }
    }

    /// Queues a report; beside commits, in the order of the boards' numbers (the number of a
    /// `.changed` report is `handedOut`, of a commit's its outcome's).
    private func report(_ report: Report, handedOut: UInt64? = nil) {
        let queued = state.withLock { s in
            var report = report
            switch report {
            case .changed(let board, _):
                if let n = handedOut {
                    guard n > s.newest?.handedOut ?? 0 else { return false }  // something newer was reported
                    s.newest = (n, board)
                }
            case .committed(let token, var outcome, let cpu):
                if let n = outcome.handedOut {
                    if let newest = s.newest, newest.handedOut > n {
                        // Read after this commit's board and reported first: it holds this commit too.
                        outcome.board = newest.board
                        outcome.handedOut = newest.handedOut
                        report = .committed(token: token, outcome, cpu: cpu)
                    } else {
                        s.newest = (n, outcome.board)
                    }
                }
            default: break
            }
            s.reports.append(report)
            return true
        }
        if queued { StorageWorker.poke(toApp.write) }
    }

    private static func threadCPUTime() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    // MARK: Pipes

    private static func pipe() -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else {
            fatalError("pipe: \(String(decoding: Array(String(cString: strerror(errno)).utf8), as: UTF8.self))")
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
        return (fds[0], fds[1])
    }

    private static func poke(_ fd: Int32) {
        var byte: UInt8 = 1
        _ = write(fd, &byte, 1)  // a full pipe already wakes the reader
    }

    private static func drain(_ fd: Int32) {
        var buffer = [UInt8](repeating: 0, count: 256)
        while read(fd, &buffer, buffer.count) > 0 {}
    }
}
