import Foundation
import LanesCore
#if canImport(Glibc)
    import Glibc
#endif

/// Writes command output to stdout through the terminal sanitiser (`TerminalSafe.escape`).
func emit(_ text: String) {
    FileHandle.standardOutput.write(Data(TerminalSafe.escape(text).utf8))
}

/// Writes a file's contents (an export) to stdout: byte for byte into a pipe or file,
/// sanitised when stdout is a terminal.
func outputDocument(_ text: String) {
    let shown = isatty(STDOUT_FILENO) != 0 ? TerminalSafe.escape(text) : text
    FileHandle.standardOutput.write(Data(shown.utf8))
}

/// Writes one message line to stderr through the terminal sanitiser. Names in it are in straight
/// double quotes, like everything the commands say (the door's curly ones too).
func errorLine(_ message: String) {
    FileHandle.standardError.write(Data((TerminalSafe.escape(BoardCommands.straightQuotes(message)) + "\n").utf8))
}

/// Writes what a command did to stdout (not a board's contents: those are `emit`ted as they are),
/// with names in straight double quotes like every other message of the commands.
func say(_ text: String) {
    emit(BoardCommands.straightQuotes(text))
}

/// Where the first invalid UTF-8 sequence is: 1-based line and byte within that line.
func firstInvalidUTF8(_ bytes: [UInt8]) -> (line: Int, byte: Int)? {
    var decoder = Unicode.UTF8.ForwardParser()
    var iterator = bytes.makeIterator()
    var offset = 0
    while true {
        switch decoder.parseScalar(from: &iterator) {
        case .valid(let encoded):
            offset += encoded.count
        case .emptyInput:
            return nil
        case .error:
            let before = bytes[..<offset]
            let line = before.filter { $0 == 0x0A }.count + 1
            let lineStart = (before.lastIndex(of: 0x0A) ?? -1) + 1
            return (line, offset - lineStart + 1)
        }
    }
}
