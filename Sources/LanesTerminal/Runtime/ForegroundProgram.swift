#if canImport(Glibc)
    import Glibc
#endif

/// A program that owns the terminal while it runs (the editor of `E`), run as system(3) runs one.
///
/// The command goes to `/bin/sh -c`. Meanwhile Lanes ignores SIGINT and SIGQUIT, so Ctrl-C and
/// Ctrl-\ typed in the program are the program's; the child starts with those signals (and
/// SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE, which Lanes ignores or handles) at their defaults and no
/// signal blocked. A child that stops on its own (SIGSTOP, or a stop the kernel did not extend to
/// Lanes) is not waited on forever: with a shell to return to, Lanes stops with it and continues it
/// when continued; without one (Lanes leads its own session, as under `tmux new lanes`) nobody could
/// continue it, so Lanes continues it at once.
enum ForegroundProgram {
    enum Outcome: Equatable, Sendable {
        case exited(Int32)
        case killed(signal: Int32)
        /// `posix_spawn` itself failed (no /bin/sh, no memory): the reason.
        case notStarted(String)
    }

    /// Runs `command` with `/bin/sh -c` and waits until it ends.
    static func run(_ command: String) -> Outcome {
        TerminalSignals.ignoringInterrupts { spawnAndWait(command) }
    }

    private static func spawnAndWait(_ command: String) -> Outcome {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGINT, SIGQUIT, SIGTSTP, SIGTTIN, SIGTTOU, SIGPIPE, SIGCHLD] { sigaddset(&defaults, sig) }
        var noneBlocked = sigset_t()
        sigemptyset(&noneBlocked)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &noneBlocked)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        let args = ["/bin/sh", "-c", command]
        var cargs = args.map { strdup($0) } + [nil]
        defer { for p in cargs where p != nil { free(p) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, "/bin/sh", nil, &attributes, &cargs, environ)
        guard spawned == 0 else { return .notStarted(String(cString: strerror(spawned))) }
        while true {
            var status: Int32 = 0
            let r = waitpid(pid, &status, WUNTRACED)
            if r < 0 {
                if errno == EINTR { continue }
                return .notStarted("waiting for it failed: \(String(cString: strerror(errno)))")
            }
            if status & 0xff == 0x7f {
                resumeStopped(pid)
                continue
            }
            if status & 0x7f == 0 { return .exited((status >> 8) & 0xff) }
            return .killed(signal: status & 0x7f)
        }
    }

    /// The child reported stopped. When its whole process group stopped (Ctrl-Z in a shell's job)
    /// and the shell has continued it, it runs again already; else stop with it, or continue it.
    private static func resumeStopped(_ pid: pid_t) {
        guard TerminalSignals.isStopped(pid) else { return }
        if TerminalSignals.hasJobControl() {
            TerminalSignals.stopProcess()
        }
        kill(pid, SIGCONT)
    }

    /// Whether the program `command` starts with is nowhere to be found: its first word, when it is
    /// a plain word (no quoting, no expansion, no assignment), is neither an executable path nor
    /// a program in a `PATH` folder, nor a shell builtin. Asked before the screen is handed over, so
    /// the shell's "not found" never lands on the terminal's own screen (where it stays, seen again
    /// after Ctrl-Z), and the status line says it instead. False when unsure: the shell decides.
    static func isMissing(_ command: String, path: String?) -> Bool {
        guard let first = command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init),
            first.unicodeScalars.allSatisfy({ c in
                c.isASCII && c.value > 32 && !"'\"`$\\=;&|<>()*?[]{}~#!".unicodeScalars.contains(c)
            })
        else { return false }
        let builtins: Set<String> = [
            "exec", "command", "builtin", "eval", "cd", "echo", "printf", "test", "[", ":", "true", "false", "type",
            ".", "set", "export", "read", "trap", "wait", "times", "umask", "ulimit", "alias", "unalias", "kill",
        ]
        if builtins.contains(first) { return false }
        if first.contains("/") { return access(first, X_OK) != 0 }
        for folder in (path ?? "/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (folder.isEmpty ? "." : String(folder)) + "/" + first
            var info = stat()
            if stat(candidate, &info) == 0, info.st_mode & S_IFMT != S_IFDIR, access(candidate, X_OK) == 0 {
                return false
            }
        }
        return true
    }

    /// What to say when the editor did not end well; nil when it exited with status 0.
    static func complaint(_ outcome: Outcome, editor: String) -> String? {
        let name = "“\(editor)”"
        switch outcome {
        case .exited(0):
            return nil
        case .exited(127):
            return "The editor \(name) was not found; set $VISUAL or $EDITOR. The card is as it was"
        case .exited(126):
            return "The editor \(name) could not be run (not executable); the card is as it was"
        case .exited(let code):
            return "The editor \(name) failed (exit status \(code)); the card is as it was"
        case .killed(let signal):
            return "The editor \(name) was ended by \(signalName(signal)); the card is as it was"
        case .notStarted(let reason):
            return "The editor \(name) could not be started: \(reason); the card is as it was"
        }
    }

    static func signalName(_ signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL",
            SIGSEGV: "SIGSEGV", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGUSR1: "SIGUSR1", SIGUSR2: "SIGUSR2",
        ]
        return names[signal] ?? "signal \(signal)"
    }
}
