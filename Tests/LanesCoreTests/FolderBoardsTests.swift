import Foundation
@testable import LanesCore
import Testing

/// `lanes DIR` decides which files are boards from at most `FolderBoards.prefixBytes` of each.
@Suite struct FolderBoardsTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "lanes-folder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir + "/sub", withIntermediateDirectories: true)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }

    static func big(_ head: String, cards: Int = 400) -> String {
        head + (0..<cards).map { "- card \($0) with a title long enough\n" }.joined()
    }

    @Test func smallFilesAreDecidedWholeAndLargeOnesByTheirFirstLine() throws {
        try write("a-small.md", "## To do\n\n- a0\n")
        try write("b-readme.md", "# Notes\n\nJust prose.\n")
        try write("c-empty.md", "\n\n")
        let bigBoard = Self.big("\n## Backlog\n\n")
        try write("d-big.md", bigBoard)
        try write("e-big-prose.md", "Some prose first\n" + Self.big("## Later\n\n"))
        // Starts as a board, goes wrong past the prefix: only opening it can tell.
        let brokenLate = Self.big("## Backlog\n\n") + "stray text\n"
        try write("f-big-broken-late.md", brokenLate)
        try write("g-notes.txt", "not Markdown\n")
        try write(".h.lanes", "rules\n")
        #expect(bigBoard.utf8.count > FolderBoards.prefixBytes && brokenLate.utf8.count > FolderBoards.prefixBytes)

        let (found, skipped) = try FolderBoards.candidates(in: dir)
        #expect(found.map { ($0 as NSString).lastPathComponent } == ["a-small.md", "d-big.md", "f-big-broken-late.md"])
        #expect(
            skipped == [
                "b-readme.md (line 1: expected \"## \" column heading; found \"# Notes\")",
                "c-empty.md (no columns)",
                "e-big-prose.md (line 1: expected \"## \" column heading; found \"Some prose first\")",
                "g-notes.txt (not a Markdown file)",
            ])

        // The late one is refused when it is opened, in words, and left as it was.
        let late = dir + "/f-big-broken-late.md"
        #expect(throws: (any Error).self) { try FileBoardStore.open(late, starter: nil) }
        do { _ = try FileBoardStore.open(late, starter: nil) } catch {
            let no = FolderBoards.notABoard(late, error)
            #expect(no.description.hasPrefix("f-big-broken-late.md is not a board (line 403: "), "\(no)")
            #expect(no.description.hasSuffix("; it is left as it is"))
        }
        #expect(try String(contentsOfFile: late, encoding: .utf8) == brokenLate)
        let (board, _) = try FileBoardStore.load(dir + "/d-big.md")
        #expect(throws: Never.self) { try FolderBoards.confirm(board, path: dir + "/d-big.md") }
        #expect(throws: FolderBoards.NotABoard.self) {
            try FolderBoards.confirm(Board(columns: []), path: dir + "/x.md")
        }
    }
}
