import Glibc
import Synchronization

/// Signal plumbing for the curses terminal: a self-pipe for the signals the app reacts to,
/// and crash handlers that put the terminal back before the process dies.
///
/// Everything a handler touches is set up before the handler is installed and lives
/// for the rest of the process: handlers only do atomic stores, `write`, `tcsetattr`,
/// `sigaction` and `raise`, which are async-signal-safe.
enum TerminalSignals {
    /// Signals reported through the self-pipe.
    static let eventSignals: [Int32] = [SIGWINCH, SIGHUP, SIGTERM, SIGINT, SIGTSTP, SIGCONT]
    /// Crashes: each restores the terminal, then the process dies of the same signal with its
    /// default action. They replace any handler (Swift's backtracer kept the process running
    /// after a `kill -SEGV`), but not SIG_IGN.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT, SIGSYS]
    /// The other signals whose default action ends the process: handled like crashes, but only
    /// where the disposition is still the default, so one the parent ignored (nohup) or a library
    /// handles keeps that.
    static let lethalSignals: [Int32] =
        [
            SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ,
            SIGSTKFLT, SIGPWR, SIGIO,
        ]
        + Array(Int32(34)...Int32(64))  // SIGRTMIN...SIGRTMAX as the kernel numbers them (glibc keeps 32 and 33)
    /// Ignored while the terminal is ours: a closed pipe is an error from `write`, not a silent death.
    static let ignoredSignals: [Int32] = [SIGPIPE]

    /// The read end of the self-pipe: readable whenever a signal has arrived.
    static var wakeFD: Int32 { wakeReadFD }

    /// Sets up handlers. `ttyFD` and `termios` are what a crash restores; `restoreSequence`
    /// is written to `ttyFD` first (modes off, normal screen, cursor on).
    static func install(ttyFD: Int32, termios saved: termios?, restoreSequence: [UInt8]) {
        prepareOnce()
        let state = crashState
        state.pointee.fd = ttyFD
        state.pointee.hasTermios = saved != nil
        if let saved { state.pointee.termios = saved }
        let count = min(restoreSequence.count, crashSequenceCapacity)
        for i in 0..<count { state.pointee.sequence[i] = restoreSequence[i] }
        state.pointee.sequenceCount = count
        drain()
        pendingBits.store(0, ordering: .sequentiallyConsistent)

        for sig in eventSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = onEventSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(sig, &action, previousActions + Int(sig))
        }
        for sig in crashSignals + lethalSignals {
            let previous = previousActions + Int(sig)
            sigaction(sig, nil, previous)
            // 0 is SIG_DFL, 1 SIG_IGN.
            let handler = unsafeBitCast(previous.pointee.__sigaction_handler.sa_handler, to: Int.self)
            guard handler != 1, handler == 0 || crashSignals.contains(sig) else { continue }
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = onCrashSignal
            sigfillset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO | SA_ONSTACK | Int32(bitPattern: UInt32(SA_RESETHAND))
            sigaction(sig, &action, nil)
        }
        for sig in ignoredSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = unsafeBitCast(1, to: (@convention(c) (Int32) -> Void).self)
            sigemptyset(&action.sa_mask)
            sigaction(sig, &action, previousActions + Int(sig))
        }
        armed.store(true, ordering: .sequentiallyConsistent)
    }

    /// Puts back the handlers that were there before `install`.
    static func uninstall() {
        armed.store(false, ordering: .sequentiallyConsistent)
        for sig in eventSignals + crashSignals + lethalSignals + ignoredSignals {
            sigaction(sig, previousActions + Int(sig), nil)
        }
        drain()
        pendingBits.store(0, ordering: .sequentiallyConsistent)
    }

    /// Whether a crash or `exit` should restore the terminal (off while the shell or an editor has it).
    static func setArmed(_ on: Bool) {
        armed.store(on, ordering: .sequentiallyConsistent)
    }

    /// Empties the self-pipe and returns the signals that arrived since the last call.
    static func takePending() -> Set<Int32> {
        drain()
        let bits = pendingBits.exchange(0, ordering: .sequentiallyConsistent)
        var result: Set<Int32> = []
        for sig in Int32(1)..<64 where bits & (UInt64(1) << UInt64(sig)) != 0 { result.insert(sig) }
        return result
    }

    /// Forgets one signal that arrived (e.g. the SIGCONT after our own stop).
    static func discard(_ signal: Int32) {
        pendingBits.bitwiseAnd(~(UInt64(1) << UInt64(signal)), ordering: .sequentiallyConsistent)
    }

    /// Stops the process group as a shell's Ctrl-Z would and returns once it is continued.
    ///
    /// The whole group stops, so a parent in it (`sh -c`, `make run`) stops too and the
    /// interactive shell sees its job stopped and prints its prompt.
    static func stopProcess() {
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = nil  // SIG_DFL
        sigemptyset(&defaultAction.sa_mask)
        var ours = sigaction()
        sigaction(SIGTSTP, &defaultAction, &ours)
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTSTP)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        kill(0, SIGTSTP)
        sigaction(SIGTSTP, &ours, nil)
    }

    /// Whether a shell can stop and continue us: the process group is not orphaned.
    ///
    /// A group is orphaned when no member's parent is in another group of the same session
    /// (`tmux new lanes`, `xterm -e lanes`: Lanes leads its own session). The kernel discards
    /// SIGTSTP sent to an orphaned group, and nobody would send SIGCONT after a SIGSTOP.
    static func hasJobControl() -> Bool {
        let group = getpgrp(), session = getsid(0)
        var pid = getpid()
        for _ in 0..<64 {
            guard let parent = ProcStat(pid: pid), parent.ppid > 0, let up = ProcStat(pid: parent.ppid) else {
                return false
            }
            if up.session != session { return false }
            if up.pgrp != group { return true }
            pid = parent.ppid
        }
        return false
    }

    /// Runs `body` with the default disposition of SIGTSTP, so a child that stops its
    /// process group (an editor on Ctrl-Z) stops us with it.
    static func withDefaultStop(_ body: () -> Void) {
        var defaultAction = sigaction()
        defaultAction.__sigaction_handler.sa_handler = nil
        sigemptyset(&defaultAction.sa_mask)
        var ours = sigaction()
        sigaction(SIGTSTP, &defaultAction, &ours)
        body()
        sigaction(SIGTSTP, &ours, nil)
    }

    /// Runs `body` as system(3) runs a command: SIGINT and SIGQUIT ignored, so Ctrl-C and Ctrl-\
    /// typed at the program that owns the terminal (the editor) end neither Lanes nor the board;
    /// what was there before (Lanes' own handlers) is put back afterwards.
    static func ignoringInterrupts<T>(_ body: () -> T) -> T {
        var ignore = sigaction()
        ignore.__sigaction_handler.sa_handler = unsafeBitCast(1, to: (@convention(c) (Int32) -> Void).self)  // SIG_IGN
        sigemptyset(&ignore.sa_mask)
        var oldInt = sigaction(), oldQuit = sigaction()
        sigaction(SIGINT, &ignore, &oldInt)
        sigaction(SIGQUIT, &ignore, &oldQuit)
        defer {
            sigaction(SIGINT, &oldInt, nil)
            sigaction(SIGQUIT, &oldQuit, nil)
        }
        return body()
    }

    /// Whether process `pid` is stopped now (state T in /proc/PID/stat).
    static func isStopped(_ pid: pid_t) -> Bool {
        ProcStat(pid: pid)?.state == "T"
    }

    // MARK: - State shared with handlers

    private static let crashSequenceCapacity = 256

    private struct CrashState {
        var fd: Int32 = -1
        var hasTermios = false
        var termios = Glibc.termios()
        var sequence: UnsafeMutablePointer<UInt8>
        var sequenceCount = 0
    }

    nonisolated(unsafe) private static var prepared = false
    nonisolated(unsafe) private static var wakeReadFD: Int32 = -1
    nonisolated(unsafe) private static var crashState: UnsafeMutablePointer<CrashState> = {
        let p = UnsafeMutablePointer<CrashState>.allocate(capacity: 1)
        p.initialize(to: CrashState(sequence: .allocate(capacity: crashSequenceCapacity)))
        return p
    }()
    nonisolated(unsafe) private static var previousActions: UnsafeMutablePointer<sigaction> = {
        let p = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
        p.initialize(repeating: sigaction(), count: 65)
        return p
    }()

    /// Creates the pipe, the alternate signal stack and the `atexit` hook once per process,
    /// and touches every lazily initialised global before a handler can need it.
    private static func prepareOnce() {
        _ = crashState
        _ = previousActions
        _ = pendingBits.load(ordering: .relaxed)
        _ = armed.load(ordering: .relaxed)
        guard !prepared else { return }
        prepared = true
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) == 0 {
            for fd in fds {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
            wakeReadFD = fds[0]
            wakeWriteFD = fds[1]
        }
        // A stack overflow can only be handled on an alternate stack.
        var current = stack_t()
        if sigaltstack(nil, &current) == 0, current.ss_flags & Int32(SS_DISABLE) != 0 {
            let size = 64 * 1024
            var stack = stack_t()
            stack.ss_sp = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: 16)
            stack.ss_size = size
            stack.ss_flags = 0
            sigaltstack(&stack, nil)
        }
        atexit(restoreAtExit)
    }

    private static func drain() {
        guard wakeReadFD >= 0 else { return }
        var buf = [UInt8](repeating: 0, count: 64)
        while read(wakeReadFD, &buf, buf.count) > 0 {}
    }

    fileprivate static func emergencyRestore() {
        guard armed.exchange(false, ordering: .sequentiallyConsistent) else { return }
        let state = crashState
        let fd = state.pointee.fd
        guard fd >= 0 else { return }
        var offset = 0
        let count = state.pointee.sequenceCount
        while offset < count {
            let n = write(fd, state.pointee.sequence + offset, count - offset)
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { break }
        }
        if state.pointee.hasTermios {
            _ = tcsetattr(fd, TCSANOW, &state.pointee.termios)
        }
    }

    /// Dies of `signal` with its default action (a core dump where that is the default).
    ///
    /// The previous handler is not called: Swift's backtracer returned from a signal sent with
    /// `kill` and left the process running. SA_RESETHAND has already put back SIG_DFL; a fault
    /// raised by the kernel re-executes the faulting instruction on return and dies there.
    fileprivate static func die(_ signal: Int32, reexecutes: Bool) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = nil  // SIG_DFL
        sigemptyset(&action.sa_mask)
        sigaction(signal, &action, nil)
        if reexecutes { return }
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, signal)
        raise(signal)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        // Not reached unless the signal's default action is to ignore it.
        _exit(128 + signal)
    }
}

/// The fields of /proc/PID/stat that job control needs.
private struct ProcStat {
    var ppid: pid_t
    var pgrp: pid_t
    var session: pid_t
    /// R, S, D, T (stopped), t (traced), Z...
    var state: Character

    init?(pid: pid_t) {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 1024)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The command name is in parentheses and may hold spaces: fields follow the last ')'.
        guard let close = line.lastIndex(of: ")") else { return nil }
        let fields = line[line.index(after: close)...].split(separator: " ")
        guard fields.count > 4, let state = fields[0].first, let ppid = pid_t(fields[1]), let pgrp = pid_t(fields[2]),
            let session = pid_t(fields[3])
        else { return nil }
        self.state = state
        self.ppid = ppid
        self.pgrp = pgrp
        self.session = session
    }
}

private let pendingBits = Atomic<UInt64>(0)
private let armed = Atomic<Bool>(false)
nonisolated(unsafe) private var wakeWriteFD: Int32 = -1

private func onEventSignal(_ signal: Int32) {
    let savedErrno = errno
    pendingBits.bitwiseOr(UInt64(1) << UInt64(signal), ordering: .sequentiallyConsistent)
    var byte = UInt8(truncatingIfNeeded: signal)
    _ = write(wakeWriteFD, &byte, 1)
    errno = savedErrno
}

private func onCrashSignal(
    _ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?
) {
    TerminalSignals.emergencyRestore()
    let sentByKernel = info.map { $0.pointee.si_code > 0 } ?? false
    let isFault = signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE
    TerminalSignals.die(signal, reexecutes: sentByKernel && isFault)
}

private func restoreAtExit() {
    TerminalSignals.emergencyRestore()
}
