import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// Why the board cannot be shown in this process's terminal, found before any file is touched.
public enum TerminalProblem: Equatable, Sendable, CustomStringConvertible {
    /// Standard input or output (the flag says which) is a file, pipe or /dev/null.
    case notATerminal(input: Bool, output: Bool)
    case noTermVariable
    /// terminfo has no entry for the terminal type.
    case unknownTerminal(String)
    /// The entry has no cursor addressing (`cup`): `dumb`, `emacs`'s shell, a hardcopy terminal.
    case cannotAddressCursor(String)

    public var description: String {
        let show = "`lanes show FILE` prints a board as text (`lanes --help` lists every command)."
        switch self {
        case .notATerminal(let input, let output):
            let which =
                input && output
                ? "standard input and output are not one"
                : input ? "standard input is not one" : "standard output is not one"
            return "the board opens in a terminal, and \(which); nothing was opened or created. \(show)"
        case .noTermVariable:
            return
                "TERM is not set, so Lanes cannot tell how to draw on this terminal; set it (for example TERM=xterm-256color). \(show)"
        case .unknownTerminal(let term):
            return
                "terminfo has no entry for the terminal type \"\(term)\" (TERM); install it (Debian: ncurses-term) or set TERM to a known type such as xterm-256color. \(show)"
        case .cannotAddressCursor(let term):
            return
                "the terminal type \"\(term)\" (TERM) cannot move the cursor (terminfo has no cup), and the board needs that; run Lanes in a terminal emulator such as xterm. \(show)"
        }
    }
}

public enum TerminalCheck {
    /// The first reason the board cannot run, from the facts given; nil when it can.
    /// `cursorAddressing` answers for a terminal type as `CursesTerminal.canAddressCursor` does.
    public static func problem(
        inputIsTerminal: Bool, outputIsTerminal: Bool, term: String?,
        cursorAddressing: (String) -> Bool?
    ) -> TerminalProblem? {
        guard inputIsTerminal && outputIsTerminal else {
            return .notATerminal(input: !inputIsTerminal, output: !outputIsTerminal)
        }
        guard let term, !term.isEmpty else { return .noTermVariable }
        switch cursorAddressing(term) {
        case nil: return .unknownTerminal(term)
        case false?: return .cannotAddressCursor(term)
        case true?: return nil
        }
    }

    /// The same for this process: descriptors 0 and 1, `$TERM` and terminfo. Call it before curses starts.
    public static func problemHere() -> TerminalProblem? {
        problem(
            inputIsTerminal: isatty(0) != 0, outputIsTerminal: isatty(1) != 0,
            term: ProcessInfo.processInfo.environment["TERM"],
            cursorAddressing: { CursesTerminal.canAddressCursor(term: $0) })
    }
}
