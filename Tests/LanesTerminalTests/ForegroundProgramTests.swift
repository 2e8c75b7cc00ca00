import Foundation
import Glibc
import Testing
@testable import LanesTerminal

/// The editor runs as system(3) runs a command: Lanes ignores SIGINT and SIGQUIT meanwhile, the
/// child gets them at their defaults, and Lanes' own handlers are back afterwards.
@Suite(.serialized) struct ForegroundProgramTests {
    private static func handler(of sig: Int32) -> Int {
        var now = sigaction()
        sigaction(sig, nil, &now)
        return unsafeBitCast(now.__sigaction_handler.sa_handler, to: Int.self)
    }

    @Test func lanesIgnoresInterruptsWhileTheProgramRunsAndPutsItsHandlersBack() {
        let beforeInt = Self.handler(of: SIGINT), beforeQuit = Self.handler(of: SIGQUIT)
        var during: (Int, Int) = (-1, -1)
        TerminalSignals.ignoringInterrupts { during = (Self.handler(of: SIGINT), Self.handler(of: SIGQUIT)) }
        #expect(during == (1, 1))  // SIG_IGN
        #expect(Self.handler(of: SIGINT) == beforeInt)
        #expect(Self.handler(of: SIGQUIT) == beforeQuit)
    }

    @Test func theProgramGetsTheSignalsAtTheirDefaults() throws {
        // Were SIGINT and SIGQUIT passed on ignored, these would not end the child.
        #expect(ForegroundProgram.run("kill -INT $$; exit 0") == .killed(signal: SIGINT))
        #expect(ForegroundProgram.run("kill -QUIT $$; exit 0") == .killed(signal: SIGQUIT))
        // SIGPIPE too (Lanes ignores it).
        #expect(ForegroundProgram.run("kill -PIPE $$; exit 0") == .killed(signal: SIGPIPE))
        #expect(ForegroundProgram.run("exit 4") == .exited(4))
        #expect(ForegroundProgram.run("exec /nonexistent/editor") == .exited(127))
    }

    @Test func complaintsNameTheEditorAndSayTheCardIsKept() {
        #expect(ForegroundProgram.complaint(.exited(0), editor: "vi") == nil)
        #expect(
            ForegroundProgram.complaint(.exited(127), editor: "vj")
                == "The editor “vj” was not found; set $VISUAL or $EDITOR. The card is as it was")
        #expect(
            ForegroundProgram.complaint(.exited(1), editor: "vi")
                == "The editor “vi” failed (exit status 1); the card is as it was")
        #expect(
            ForegroundProgram.complaint(.killed(signal: SIGQUIT), editor: "ed")
                == "The editor “ed” was ended by SIGQUIT; the card is as it was")
    }
}
