import Foundation

/// The boards of a folder (`lanes DIR`), decided from at most `prefixBytes` of each file before the
/// first frame: a file that small is parsed whole there (a README, notes: skipped with the
/// parser's words, as before); a larger one whose first line is no column heading (nor Obsidian
/// frontmatter) fails there as it would whole. Every other Markdown file is a candidate,
/// confirmed when it is opened — the first before the first frame, the others in the background.
/// One that turns out not to be a board is refused in words (`NotABoard`) and never written.
public enum FolderBoards {
    /// A file of a folder that is no board.
    public struct NotABoard: Error, CustomStringConvertible, Sendable {
        public var name: String
        public var why: String
        public var description: String { "\(name) is not a board (\(why)); it is left as it is" }
    }

    /// How much of each file is read before the first frame.
    public static let prefixBytes = 4096

    /// The folder's Markdown files that may be boards (`.md`, `.markdown`; see the type), and its
    /// other files with why each is not one. Hidden files (a board's `.NAME.lanes` rules) and subfolders are neither.
    public static func candidates(in dir: String) throws -> (candidates: [String], skipped: [String]) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: dir).sorted() } catch {
            throw CommandError(.notFound, "cannot read the folder \(dir): \(error.localizedDescription)")
        }
        var found: [String] = []
        var skipped: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = (dir as NSString).appendingPathComponent(name)
            var isDir: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: path, isDirectory: &isDir)
            if isDir.boolValue { continue }
            let lower = name.lowercased()
            guard lower.hasSuffix(".md") || lower.hasSuffix(".markdown") else {
                skipped.append("\(name) (not a Markdown file)")
                continue
            }
            if let no = sniff(path) { skipped.append(no.asSkipped) } else { found.append(path) }
        }
        return (found, skipped)
    }

    /// Why `path` is no board, when its first `prefixBytes` tell; nil: it may be one (or cannot be
    /// read now: opening it says why).
    static func sniff(_ path: String) -> NotABoard? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: prefixBytes + 1)
        var n = 0
        while n < buf.count {
            let r = buf.withUnsafeMutableBytes { read(fd, $0.baseAddress! + n, $0.count - n) }
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { break }
            n += r
        }
        let name = (path as NSString).lastPathComponent
        if n <= prefixBytes {
            // The whole file: decided as it was when every file was read.
            do {
                let board = try BoardFormat.parse(Array(buf[0..<n]), file: path).board
                return board.columns.isEmpty ? NotABoard(name: name, why: "no columns") : nil
            } catch {
                return notABoard(path, error)
            }
        }
        // The first line that is not blank decides whether a board can start here.
        var start = 0
        if n >= 3 && buf[0] == 0xEF && buf[1] == 0xBB && buf[2] == 0xBF { start = 3 }
        var i = start
        while i < n {
            var end = i
            while end < n && buf[end] != 0x0A { end += 1 }
            guard end < n else { return nil }  // a line longer than the prefix: opening decides
            let line = buf[i..<end]
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { i = end + 1; continue }
            if line.starts(with: Array("## ".utf8)) || line.starts(with: Array("---".utf8)) { return nil }
            do {
                _ = try BoardFormat.parse(Array(buf[0...end]), file: path)
                return nil
            } catch {
                return notABoard(path, error)
            }
        }
        return nil
    }

    /// `board`, read from the folder's file `path`, is a board: else `NotABoard`.
    public static func confirm(_ board: Board, path: String) throws {
        if board.columns.isEmpty { throw NotABoard(name: (path as NSString).lastPathComponent, why: "no columns") }
    }

    /// Why a candidate that could not be opened is no board, as its tab and the skipped list say it
    /// (a parse error names its line; a file gone or unreadable says so).
    public static func notABoard(_ path: String, _ error: any Error) -> NotABoard {
        let name = (path as NSString).lastPathComponent
        switch error {
        case let e as NotABoard: return e
        case let e as ParseError: return NotABoard(name: name, why: "line \(e.line): \(e.message)")
        default: return NotABoard(name: name, why: "\(error)")
        }
    }
}

extension FolderBoards.NotABoard {
    /// As the list of skipped files says it: the file's name and why.
    public var asSkipped: String { "\(name) (\(why))" }
}
