import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The runner showing a board from its first cards (`BoardPreview`) while `RestOfBoard` reads it
/// whole: input is held and said in words, nothing is saved, then the held keys act on the whole
/// board; a file found malformed ends the session untouched.
@Suite(.serialized) struct RestOfBoardTests {
    let dir: String
    let path: String
    let text: String

    init() throws {
        dir = NSTemporaryDirectory() + "lanes-rest-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        path = dir + "/board.md"
        text =
            "## A\n\n" + (0..<30).map { "- a\($0)\n" }.joined() + "\n## B\n\n" + (0..<20).map { "- b\($0)\n" }.joined()
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// The preview's app and host, and a rest that waits for `gate` before reading the file whole.
    func starting(gate: DispatchSemaphore, finish: @escaping @Sendable (FileBoardStore.Reading) throws -> HostedBoard)
        throws -> (HostedBoard, RestOfBoard)
    {
        let reading = try #require(try FileBoardStore.Reading.start(path))
        let preview = try #require(reading.preview(firstCards: 2))
        var app = BoardApp(
            board: preview.board, title: "Lanes · board.md",
            status: RestOfBoard.readingWords(name: "board.md", cards: preview.totalCards))
        app.fileCardCounts = preview.cardCounts
        let shown = HostedBoard(
            app: app, tabName: "board.md", storage: nil, boardName: path, copyInfo: BoardFileInfo(dialect: .taskell))
        let rest = RestOfBoard(name: "board.md") {
            gate.wait()
            return try finish(reading)
        }
        return (shown, rest)
    }

    @Test func keysWhileTheRestIsReadAreHeldSaidAndThenDoneOnTheWholeBoard() throws {
        let gate = DispatchSemaphore(value: 0)
        let (shown, rest) = try starting(gate: gate) { reading in
            let (store, board) = try reading.finish()
            return HostedBoard(
                app: BoardApp(board: board, title: "Lanes · board.md"), tabName: "board.md", storage: store,
                boardName: self.path, copyInfo: store.info)
        }
        // J moves a0 down one; L then moves it to B. Typed while the rest is read.
        let device = ScriptedTerminal(script: [[.bytes(Array("JL".utf8))], [], [], [.bytes(Array("q".utf8))]])
        var whileHeld: (file: String, status: String, board: Int)?
        let runner = AppRunner(boards: [shown], device: device, environment: ["HOME": dir])
        runner.restOfFirstBoard = rest
        device.onWait = { n in
            guard n == 1 else { return }
            // The keys arrived; the whole board is not in yet: nothing acted, nothing saved.
            whileHeld = (
                (try? String(contentsOfFile: self.path, encoding: .utf8)) ?? "", runner.app.status,
                runner.app.board.columns[0].cards.count
            )
            gate.signal()
        }
        try runner.run()
        let first = try #require(device.frames.first).text.split(separator: "\n").map(String.init)
        #expect(
            first[1].hasPrefix("A 30") && first[1].contains("B 20"), "the headers count the file's cards: \(first[1])")
        #expect(first.last?.contains("Reading all 50 cards of board.md") == true)
        let held = try #require(whileHeld)
        #expect(held.file == text)
        #expect(
            held.status.hasPrefix("Still reading board.md: what you type is kept and acts once the whole board is in"))
        #expect(held.board == 2, "the preview's two cards, untouched")
        let saved = try String(contentsOfFile: path, encoding: .utf8)
        #expect(saved.filter { $0 == "\n" }.count == text.filter { $0 == "\n" }.count, "every card once")
        #expect(Set(saved.split(separator: "\n")) == Set(text.split(separator: "\n")))
        #expect(runner.app.board.columns.map(\.cards.count) == [29, 21])
        #expect(runner.app.fileCardCounts == nil)
        #expect(runner.loadFailure == nil)
        // J put a0 second in A, then L moved it to B: done on the whole board, in order.
        #expect(runner.app.board.columns[0].cards.map(\.title) == (1..<30).map { "a\($0)" })
        #expect(runner.app.board.columns[1].cards.map(\.title).contains("a0"))
    }

    @Test func aFileFoundMalformedWhenReadWholeEndsTheSessionUntouched() throws {
        let broken = text + "stray\n"
        try broken.write(toFile: path, atomically: true, encoding: .utf8)
        // Open from the start (a semaphore made with a count must end with it: signalled instead).
        let gate = DispatchSemaphore(value: 0)
        gate.signal()
        let (shown, rest) = try starting(gate: gate) { reading in
            let (store, board) = try reading.finish()
            return HostedBoard(
                app: BoardApp(board: board, title: "t"), tabName: "board.md", storage: store, boardName: self.path,
                copyInfo: store.info)
        }
        let device = ScriptedTerminal(script: [[.bytes(Array("L".utf8))], [], [], [], [.bytes(Array("q".utf8))]])
        let runner = AppRunner(boards: [shown], device: device, environment: ["HOME": dir])
        runner.restOfFirstBoard = rest
        try runner.run()
        let failure = try #require(runner.loadFailure as? ParseError)
        #expect(failure.file == path && failure.line == 56)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == broken)
        #expect(device.stopped)
    }
}
