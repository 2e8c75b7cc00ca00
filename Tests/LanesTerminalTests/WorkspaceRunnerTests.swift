import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The runner with boards opening in the background (`BoardLoader`): the first frame comes before
/// they are read, and a board that arrives is saved and watched like one open from the start.
@Suite(.serialized) struct WorkspaceRunnerTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "lanes-ws-runner-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    @Test func aLaterBoardArrivesAfterTheFirstFrameAndIsSavedAndWatched() throws {
        let a = dir + "/A.md", b = dir + "/B.md"
        try "## A\n\n- a0\n".write(toFile: a, atomically: true, encoding: .utf8)
        try "## B\n\n- b0\n- b1\n".write(toFile: b, atomically: true, encoding: .utf8)
        let (storeA, boardA, _) = try FileBoardStore.open(a, starter: nil)
        let first = HostedBoard(
            app: BoardApp(board: boardA, title: "Lanes · A.md"), tabName: "A.md", storage: storeA,
            boardName: a, copyInfo: storeA.info)
        let later = BoardLoader.Later(tabName: "B.md") {
            let (store, board, _) = try FileBoardStore.open(b, starter: nil)
            // Another writer right after the read, before the board's worker exists: not lost.
            try "## B\n\n- b0\n- b1\n- b2 from elsewhere\n".write(toFile: b, atomically: true, encoding: .utf8)
            return HostedBoard(
                app: BoardApp(board: board, title: "Lanes · B.md"), tabName: "B.md", storage: store,
                boardName: b, copyInfo: store.info)
        }
        let ctrlN: [UInt8] = [0x0e]
        let device = ScriptedTerminal(script: [
            [], [], [], [], [.bytes(ctrlN + Array("J".utf8))], [], [], [.bytes(Array("q".utf8))],
        ])
        let runner = AppRunner(boards: [first], later: [later], device: device, environment: ["HOME": dir])
        try runner.run()
        let firstFrame = try #require(device.frames.first).text.split(separator: "\n").map(String.init)
        #expect(firstFrame[0].hasPrefix(" A.md (1) │ B.md (…) │"), "the first frame comes before B is read")
        #expect(runner.workspace.tabs[1].isOpen)
        #expect(
            try String(contentsOfFile: b, encoding: .utf8) == "## B\n\n- b1\n- b0\n- b2 from elsewhere\n",
            "J on B was saved, merged with the other writer's card")
        #expect(runner.workspace.boards[1].board.columns[0].cards.map(\.title) == ["b1", "b0", "b2 from elsewhere"])
        #expect(try String(contentsOfFile: a, encoding: .utf8) == "## A\n\n- a0\n")
    }

    @Test func aLaterBoardThatFailsToOpenLeavesTheOthersWorking() throws {
        let a = dir + "/A.md"
        try "## A\n\n- a0\n- a1\n".write(toFile: a, atomically: true, encoding: .utf8)
        let (storeA, boardA, _) = try FileBoardStore.open(a, starter: nil)
        let first = HostedBoard(
            app: BoardApp(board: boardA, title: "Lanes · A.md"), tabName: "A.md", storage: storeA,
            boardName: a, copyInfo: storeA.info)
        let later = BoardLoader.Later(tabName: "gone.md") { throw CommandError(.notFound, "gone.md: no such file") }
        let device = ScriptedTerminal(script: [[], [], [.bytes(Array("J".utf8))], [], [.bytes(Array("q".utf8))]])
        let runner = AppRunner(boards: [first], later: [later], device: device, environment: ["HOME": dir])
        try runner.run()
        #expect(runner.workspace.tabs[1].failed == "gone.md: no such file")
        let last = try #require(device.frames.last).text.split(separator: "\n").map(String.init)
        #expect(last[0].hasPrefix(" A.md (2) │ gone.md (!) │"))
        #expect(try String(contentsOfFile: a, encoding: .utf8) == "## A\n\n- a1\n- a0\n")
    }
}
