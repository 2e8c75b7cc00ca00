import DragKit
import Foundation
import LanesCore
import Testing
@testable import LanesTerminal

/// A terminal that plays back scripted input and keeps every frame it was shown.
final class ScriptedTerminal: TerminalDevice {
    var script: [[TerminalInput]]
    var frames: [CellBuffer] = []
    var started = false
    var stopped = false
    var onWait: ((Int) -> Void)?
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

    func wait(timeout: Double?) -> [TerminalInput] {
        onWait?(waits)
        waits += 1
        return script.isEmpty ? [.terminate(signal: 15)] : script.removeFirst()
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

    func open(_ text: String) throws -> (BoardStore, Board, String) {
        let path = dir + "/board.md"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let (store, board, _) = try BoardStore.open(path, starter: nil)
        return (store, board, path)
    }

    @Test func aMouseDragInOneReadIsSavedAtOnce() throws {
        let (store, board, path) = try open("## A\n\n- a0\n- a1\n\n## B\n\n- b0\n")
        // Press on a0, drag into B (x 40–78) below b0, release: all in one read.
        let bytes = sgrReport(0, 3, 4) + sgrReport(32, 20, 5) + sgrReport(32, 45, 5) + sgrReport(0, 45, 5, release: true)
        let device = ScriptedTerminal(script: [[.bytes(bytes)], [.bytes(Array("q".utf8))]])
        let runner = AppRunner(app: BoardApp(board: board, title: "t"), device: device, store: store, clock: { 10 })
        try runner.run()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- a1\n\n## B\n\n- b0\n- a0\n")
        #expect(device.started && device.stopped)
        #expect(device.frames.count >= 2)
    }

    @Test func terminateSavesAndStops() throws {
        let (store, board, path) = try open("## A\n\n- a0\n- a1\n")
        let device = ScriptedTerminal(script: [[.bytes(Array("J".utf8)), .terminate(signal: 1)]])
        try AppRunner(app: BoardApp(board: board, title: "t"), device: device, store: store, clock: { 10 }).run()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- a1\n- a0\n")
        #expect(device.stopped)
    }

    @Test func anExternalChangeIsReloadedWhenNothingIsUnsaved() throws {
        let (store, board, path) = try open("## A\n\n- a0\n")
        var t = 10.0
        let device = ScriptedTerminal(script: [[], [], [.bytes(Array("q".utf8))]])
        device.onWait = { n in
            if n == 0 { try? "## A\n\n- changed elsewhere\n".write(toFile: path, atomically: true, encoding: .utf8) }
            t += 2
        }
        let runner = AppRunner(app: BoardApp(board: board, title: "t"), device: device, store: store, clock: { t })
        try runner.run()
        #expect(runner.app.board.columns[0].cards.map(\.title) == ["changed elsewhere"])
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- changed elsewhere\n")
    }

    @Test func aConflictKeepsBothVersions() throws {
        let (store, board, path) = try open("## A\n\n- a0\n- a1\n")
        let device = ScriptedTerminal(script: [[.bytes(Array("J".utf8))], [.bytes(Array("q".utf8))]])
        // The other program writes between our last look and our save.
        device.onWait = { n in
            if n == 0 { try? "## A\n\n- theirs\n".write(toFile: path, atomically: true, encoding: .utf8) }
        }
        let runner = AppRunner(app: BoardApp(board: board, title: "t"), device: device, store: store, clock: { 10 })
        try runner.run()
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "## A\n\n- theirs\n")
        let kept = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.contains("lanes-conflict") }
        #expect(kept.count == 1)
        #expect(try String(contentsOfFile: dir + "/" + kept[0], encoding: .utf8) == "## A\n\n- a1\n- a0\n")
        #expect(runner.app.status.contains("your version is kept in"))
    }
}
