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
    /// Signals that end the process, after which the terminal must not stay in curses mode.
    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP, SIGQUIT, SIGSYS]

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
        for sig in crashSignals {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = onCrashSignal
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_SIGINFO | SA_ONSTACK
            sigaction(sig, &action, previousActions + Int(sig))
        }
        armed.store(true, ordering: .sequentiallyConsistent)
    }

    /// Puts back the handlers that were there before `install`.
    static func uninstall() {
        armed.store(false, ordering: .sequentiallyConsistent)
        for sig in eventSignals + crashSignals {
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

    /// Stops the process as a shell's Ctrl-Z would and returns once it is continued.
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
        raise(SIGTSTP)
        // An orphaned process group ignores SIGTSTP: then this returns at once, which is fine.
        sigaction(SIGTSTP, &ours, nil)
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

    /// Hands the signal to whoever handled it before us (the Swift backtracer, or the default action).
    fileprivate static func chain(_ signal: Int32, reexecutes: Bool) {
        sigaction(signal, previousActions + Int(signal), nil)
        // A fault re-executes the faulting instruction on return and meets the previous
        // handler with its real details; anything else has to be raised again.
        if !reexecutes { raise(signal) }
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

private func onCrashSignal(_ signal: Int32, _ info: UnsafeMutablePointer<siginfo_t>?, _ context: UnsafeMutableRawPointer?) {
    TerminalSignals.emergencyRestore()
    let sentByKernel = info.map { $0.pointee.si_code > 0 } ?? false
    let isFault = signal == SIGSEGV || signal == SIGBUS || signal == SIGILL || signal == SIGFPE
    TerminalSignals.chain(signal, reexecutes: sentByKernel && isFault)
}

private func restoreAtExit() {
    TerminalSignals.emergencyRestore()
}
