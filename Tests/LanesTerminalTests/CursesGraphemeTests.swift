import Testing
@testable import LanesTerminal

/// Part of the serialized `CursesTerminalTests` suite: one curses terminal at a time.
extension CursesTerminalTests {
    /// ZWJ sequences, flags and skin tones reach the terminal whole, each code point in order.
    @Test func multiCodePointGraphemesAreWrittenWhole() throws {
        let pty = try PseudoTerminal()
        let terminal = CursesTerminal(inputFD: pty.slave, outputFD: pty.slave, term: "xterm-256color")
        try terminal.start()
        defer { terminal.stop() }
        _ = pty.drain()
        var buffer = CellBuffer(width: 40, height: 10)
        buffer.write("a\u{1F469}\u{200D}\u{1F4BB}b", x: 0, y: 1)
        buffer.write("c\u{1F1EF}\u{1F1F5}d", x: 0, y: 2)
        buffer.write("e\u{1F44D}\u{1F3FD}f", x: 0, y: 3)
        terminal.present(buffer)
        let out = pty.drain()
        #expect(out.contains("a\u{1F469}\u{200D}\u{1F4BB}b"))
        #expect(out.contains("c\u{1F1EF}\u{1F1F5}d"))
        #expect(out.contains("e\u{1F44D}\u{1F3FD}f"))
    }
}
