import Testing
@testable import LanesTerminal

@Suite struct TerminalCheckTests {
    private func check(
        input: Bool = true, output: Bool = true, term: String? = "xterm-256color",
        terminfo: [String: Bool] = ["xterm-256color": true, "dumb": false]
    ) -> TerminalProblem? {
        TerminalCheck.problem(
            inputIsTerminal: input, outputIsTerminal: output, term: term,
            cursorAddressing: { terminfo[$0] })
    }

    @Test func aTerminalThatPlacesTheCursorPasses() {
        #expect(check() == nil)
    }

    @Test func eachProblemIsNamedInTheOrderItIsMet() {
        #expect(check(input: false) == .notATerminal(input: true, output: false))
        #expect(check(output: false) == .notATerminal(input: false, output: true))
        #expect(check(input: false, output: false, term: "dumb") == .notATerminal(input: true, output: true))
        #expect(check(term: nil) == .noTermVariable)
        #expect(check(term: "") == .noTermVariable)
        #expect(check(term: "vt-nowhere") == .unknownTerminal("vt-nowhere"))
        #expect(check(term: "dumb") == .cannotAddressCursor("dumb"))
    }

    @Test func messagesSayWhatAndPointToShow() {
        #expect(
            TerminalProblem.notATerminal(input: false, output: true).description == """
                the board opens in a terminal, and standard output is not one; nothing was opened or created. \
                `lanes show FILE` prints a board as text (`lanes --help` lists every command).
                """)
        #expect(
            TerminalProblem.notATerminal(input: true, output: true).description.contains(
                "standard input and output are not one"))
        #expect(
            TerminalProblem.cannotAddressCursor("dumb").description.hasPrefix(
                #"the terminal type "dumb" (TERM) cannot move the cursor (terminfo has no cup)"#))
        #expect(TerminalProblem.unknownTerminal("vt-nowhere").description.contains("ncurses-term"))
        for problem in [TerminalProblem.noTermVariable, .unknownTerminal("x"), .cannotAddressCursor("dumb")] {
            #expect(
                problem.description.hasSuffix(
                    "`lanes show FILE` prints a board as text (`lanes --help` lists every command)."))
        }
    }
}

// In the serialized curses suite: asking terminfo swaps curses' current terminal.
extension CursesTerminalTests {
    @Test func terminfoSaysWhichTerminalsCanPlaceTheCursor() {
        #expect(CursesTerminal.canAddressCursor(term: "xterm-256color") == true)
        #expect(CursesTerminal.canAddressCursor(term: "vt100") == true)
        #expect(CursesTerminal.canAddressCursor(term: "dumb") == false)
        #expect(CursesTerminal.canAddressCursor(term: "no-such-terminal-type") == nil)
    }
}
