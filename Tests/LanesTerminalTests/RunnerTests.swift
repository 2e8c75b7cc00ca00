import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// A terminal that plays back scripted input and keeps every frame it was shown.
final class ScriptedTerminal: TerminalDevice {
    var script: [[TerminalInput]]
    var frames: [CellBuffer] = []
    var started = false
    var stopped = false
    var onWait: ((Int) -> Void)?
    /// Checked when the script has run out: while it holds, the terminal idles instead of ending.
    var idleWhile: (() -> Bool)?
    private var idleAfterScript = 0
    private var waits = 0
    let size: Size

    init(size: Size = Size(width: 80, height: 16), script: [[TerminalInput]]) {
        self.size = size
        self.script = script
    }

    func start() throws { started = true }
    func stop() { stopped = true }
    func present(_ buffer: CellBuffer) { frames.append(buffer) }
    func invalidate() {}
    func suspend(while body: () -> Void) { body() }

    /// The next scripted inputs; an empty step is idle time: it waits (up to 3 s) for `wakingOn`
    /// to turn readable, as a real terminal's wait would while the storage worker reports.
    func wait(timeout: Double?, wakingOn: Int32?) -> [TerminalInput] {
        onWait?(waits)
        waits += 1
        // Past the script, idle while `idleWhile` holds (a `q` that waits for a move under way),
        // up to 200 more waits (the hang guard); then the end of the script is a SIGTERM.
        if script.isEmpty, idleAfterScript < 200, idleWhile?() == true {
            idleAfterScript += 1
            script.append([])
        }
        guard !script.isEmpty else { return [.terminate(signal: 15)] }
        let step = script.removeFirst()
        if step.isEmpty, let fd = wakingOn {
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&p, 1, 3000)
        }
        return step
    }
}

func sgrReport(_ b: Int, _ x: Int, _ y: Int, release: Bool = false) -> [UInt8] {
    Array("\u{1b}[<\(b);\(x + 1);\(y + 1)\(release ? "m" : "M")".utf8)
}

@Suite(.serialized) struct RunnerTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "lanes-runner-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func open(_ text: String) throws -> (FileBoardStore, Board, String) {
        let path = dir + "/board.md"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (store, board, _) = try FileBoardStore.open(path, starter: nil)
        return (store, board, path)
    }

    @Test func aMouseDragInOneReadIsSavedAtOnce() throws {
        let (store, board, path) = try open("## A\n\n- a0\n- a1\n\n## B\n\n- b0\n")
        // Press on a0, drag into B (x 40–78) below b0, release: all in one read.
        let bytes =
            sgrReport(0, 3, 4) + sgrReport(32, 20, 5) + sgrReport(32, 45, 5) + sgrReport(0, 45, 5, release: true)
        let device = ScriptedTerminal(script: [[.bytes(bytes)], [.bytes(Array("q".utf8))]])
        let runner = AppRunner(
            app: BoardApp(board: board, title: "t"), device: device, storage: store,
            environment: ["HOME": dir], clock: { 10 })
        try runner.run()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- a1\n\n## B\n\n- b0\n- a0\n")
        #expect(device.started && device.stopped)
        #expect(device.frames.count >= 2)
    }

    @Test func terminateSavesAndStops() throws {
        let (store, board, path) = try open("## A\n\n- a0\n- a1\n")
        let device = ScriptedTerminal(script: [[.bytes(Array("J".utf8)), .terminate(signal: 1)]])
        try AppRunner(
            app: BoardApp(board: board, title: "t"), device: device, storage: store,
            environment: ["HOME": dir], clock: { 10 }
        ).run()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- a1\n- a0\n")
        #expect(device.stopped)
    }

    @Test func anExternalChangeIsTakenInWhileIdle() throws {
        let (store, board, path) = try open("## A\n\n- a0\n")
        let device = ScriptedTerminal(script: [[], [], [], [.bytes(Array("q".utf8))]])
        device.onWait = { n in
            if n == 0 { try? "## A\n\n- changed elsewhere\n".write(toFile: path, atomically: true, encoding: .utf8) }
        }
        let runner = AppRunner(
            app: BoardApp(board: board, title: "t"), device: device, storage: store,
            environment: ["HOME": dir])
        try runner.run()
        #expect(runner.app.board.columns[0].cards.map(\.title) == ["changed elsewhere"])
        #expect(runner.app.status == "1 card changed elsewhere")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- changed elsewhere\n")
        #expect(!runner.app.document.history.canUndo, "another's change is no undo step of ours")
    }

    @Test func anOutsideEditDuringALocalChangeKeepsBoth() throws {
        let (store, board, path) = try open("## A\n\n- a0\n- a1\n")
        let device = ScriptedTerminal(script: [[.bytes(Array("J".utf8))], [], [.bytes(Array("q".utf8))]])
        // The other program adds a card between our last look and our save.
        device.onWait = { n in
            if n == 0 { try? "## A\n\n- a0\n- a1\n- theirs\n".write(toFile: path, atomically: true, encoding: .utf8) }
        }
        let runner = AppRunner(
            app: BoardApp(board: board, title: "t"), device: device, storage: store,
            environment: ["HOME": dir])
        try runner.run()
        // Both changes kept: a0 below a1, and the other program's card still last.
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- a1\n- a0\n- theirs\n")
        #expect(runner.app.board.columns[0].cards.map(\.title) == ["a1", "a0", "theirs"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["board.md"])
    }

    @Test func quittingAfterAFailedSaveAsksAndDiscardingIsAChoice() throws {
        let (store, board, path) = try open("## A\n\n- a0\n- a1\n")
        chmod(path, 0o444)
        let device = ScriptedTerminal(script: [
            [.bytes(Array("J".utf8))], [], [.bytes(Array("q".utf8))], [.bytes(Array("d".utf8))],
        ])
        let runner = AppRunner(
            app: BoardApp(board: board, title: "t"), device: device, storage: store,
            environment: ["HOME": dir])
        try runner.run()
        // The question is longer than 80 cells: it wraps onto the rows above the last (read joined).
        #expect(
            device.frames.contains { frame in
                frame.text.split(separator: "\n").suffix(6).map { $0.trimmingCharacters(in: .whitespaces) }.joined(
                    separator: " "
                )
                .contains("NOT SAVED — r retry · s save a copy · d quit, discard · esc stay — ")
            })
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- a0\n- a1\n")
    }

    @Test func aSignalWithUnsavedWorkLeavesARecoveryCopy() throws {
        let (store, board, path) = try open("## A\n\n- a0\n- a1\n")
        chmod(path, 0o444)
        let device = ScriptedTerminal(script: [[.bytes(Array("J".utf8))], [], [.terminate(signal: SIGTERM)]])
        let runner = AppRunner(
            app: BoardApp(board: board, title: "t"), device: device, storage: store, boardName: path,
            environment: ["HOME": dir])
        try runner.run()
        let copy = try #require(runner.recoveryCopy)
        #expect(copy.hasPrefix(dir + "/.local/state/lanes/recovery/"))
        #expect(try String(contentsOfFile: copy, encoding: .utf8) == "## A\n\n- a1\n- a0\n")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- a0\n- a1\n")
        #expect(RecoveryCopies(environment: ["HOME": dir]).takeCopies(for: path) == [copy])
        #expect(RecoveryCopies(environment: ["HOME": dir]).takeCopies(for: path) == [], "said once")
    }
}
