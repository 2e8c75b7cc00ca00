#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A store that can say who made the change its last `refresh` (or the others' part of its last
/// `commit`) took in: the open screen's status names them instead of "elsewhere".
public protocol WriterNaming: AnyObject {
    /// Words that follow "1 card" on the status line ("moved by agent claude-code", "changed by
    /// alice"); nil when the storage cannot say (then the screen says "changed elsewhere").
    var lastChangeWriter: String? { get }
}

/// Who wrote a board file, in a small file beside it (`.NAME.lanes-writer`), for a screen that has
/// the board open: the Markdown itself has no place for an author (DECISIONS 41.6).
///
/// The note names the board file's exact state its writer left (`FileFingerprint`: device, inode,
/// size, mtime to the nanosecond, content hash), and it is put in place before that state is
/// (`SafeFile.writeAtomically`'s `beforeReplacing`), so a reader that sees the new board sees its
/// note. A later save by anyone else leaves a board the note does not match, so a stale note, a
/// copied one or a foreign one names nobody. It is replaced whole each time (never grows), holds
/// one of five verbs and a name cut to 64 characters, and is read no further than 1 KiB.
public struct WriterNote: Hashable, Sendable {
    /// What the writer did: one of `verbs`.
    public var verb: String
    /// Who: "agent NAME" for an MCP client.
    public var writer: String

    public static let verbs: Set<String> = ["added", "moved", "edited", "deleted", "changed"]
    static let header = "lanes writer note 1"
    static let maxName = 64

    public init(verb: String, writer: String) {
        self.verb = Self.verbs.contains(verb) ? verb : "changed"
        self.writer = Self.clean(writer)
    }

    /// "moved by agent claude-code".
    public var words: String { "\(verb) by \(writer)" }

    /// The note's path beside the board file `target` (links resolved).
    static func path(beside target: String) -> String { POSIX.sidecar(of: target, suffix: ".lanes-writer") }

    /// One line of at most `maxName` characters, no control characters.
    static func clean(_ name: String) -> String {
        let kept = name.unicodeScalars.filter {
            $0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value)
        }
        var text = Substring(String(String.UnicodeScalarView(kept)))
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text.prefix(maxName))
    }

    func bytes(for board: FileFingerprint) -> [UInt8] {
        let key =
            "\(board.device) \(board.inode) \(board.size) \(board.modificationSeconds) \(board.modificationNanoseconds) \(board.contentHash)"
        return Array("\(Self.header)\n\(key)\n\(verb)\n\(writer)\n".utf8)
    }

    /// Puts the note for the board state `board` beside `target` (a temp file renamed over the
    /// last note; not synced: a note lost to a crash only leaves the screen saying "elsewhere").
    /// Fails silently where the folder takes no file: the board was written, the note is a courtesy.
    func put(beside target: String, for board: FileFingerprint) {
        let final = Self.path(beside: target)
        let temp = final + "-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return }
        let bytes = bytes(for: board)
        let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        if n != bytes.count || rename(temp, final) != 0 { unlink(temp) }
    }

    /// The note beside `target` if it names exactly the board state `board`; nil for no note, a
    /// malformed one, or one about another state (stale, copied, foreign).
    static func find(beside target: String, for board: FileFingerprint) -> WriterNote? {
        let fd = open(path(beside: target), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard case .success(let st) = POSIX.status(fd: fd), POSIX.isRegular(st), st.st_size <= 1024 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return nil }
        let lines = String(decoding: buffer[..<n], as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 4, lines[0] == header, verbs.contains(String(lines[2])) else { return nil }
        let expected = WriterNote(verb: String(lines[2]), writer: String(lines[3]))
        guard !expected.writer.isEmpty, expected.bytes(for: board) == Array(buffer[..<n]) else { return nil }
        return expected
    }
}
