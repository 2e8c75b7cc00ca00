import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesTerminal

private struct Mix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A move between boards runs beside the screen (`MoveThread`): the real runner, real files, and
/// a move made slow for real — another mover holds B's lock in the move journal — while keys
/// arrive on both boards and another program writes to both files. Every card ends up exactly
/// once, every typed title is kept, and an edit of the card on its way is refused in words.
@Suite(.serialized) struct WorkspaceMoveBesideTests {
    let dir: String

    init() throws {
        dir = NSTemporaryDirectory() + "lanes-ws-beside-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    }

    func hosted(_ path: String, _ name: String) throws -> HostedBoard {
        let (store, board, _) = try FileBoardStore.open(path, starter: nil)
        return HostedBoard(
            app: BoardApp(board: board, title: "Lanes · \(name)"), tabName: name, storage: store,
            boardName: path, copyInfo: store.info,
            mover: (path, { FileBoardStore.unread(path) }))
    }

    /// Another program adding a card at the end of a file's first column (through a store of its own).
    static func otherWriter(_ path: String, adds title: String) throws {
        let store = FileBoardStore.unread(path)
        let board = try store.load()
        var ours = board
        ours.columns[0].cards.append(Card(id: CardID.fresh(), title: title))
        _ = try store.commit(base: board, ours: ours)
    }

    static func allTitles(_ path: String) throws -> [String] {
        try FileBoardStore.unread(path).load().columns.flatMap { $0.cards.map(\.title) }
    }

    @Test(arguments: 0..<10)
    func editsOnBothBoardsWhileAMoveWaitsKeepEveryCardOnceAndEveryTypedTitle(_ seed: Int) throws {
        var rng = Mix(state: UInt64(seed) &* 7919 &+ 17)
        let run = dir + "/\(seed)"
        try FileManager.default.createDirectory(atPath: run, withIntermediateDirectories: true)
        let a = run + "/A.md", b = run + "/B.md"
        try "## To do\n\n- a0\n- a1\n- a2\n- a3\n\n## Done\n\n- a4\n".write(
            toFile: a, atomically: true, encoding: .utf8)
        try "## Backlog\n\n- b0\n\n## Doing\n\n- b1\n".write(toFile: b, atomically: true, encoding: .utf8)
        let journal = MoveJournal(folder: run + "/moves")
        // Another mover holds B: this move waits for it, for real, until the script lets go.
        var blocker: MoveJournal.BoardLocks? = try journal.lockBoards([b])

        let moving = Int.random(in: 0...3, using: &rng)
        let movingTitle = "a\(moving)"
        var script: [[TerminalInput]] = []
        func keys(_ s: String) { script.append([.bytes(Array(s.utf8))]) }
        keys(String(repeating: "j", count: moving))
        keys("mB.md:Doing\r")
        // The card on its way: toggling it and retitling it are refused in words; the prompt keeps the text.
        keys("x")
        let refusedAt = script.count
        keys("e")
        keys(" edited\r")
        let promptKeptAt = script.count
        keys("\u{1b}")
        script.append([])  // a lone Esc is told from a key's start by the pause after it
        var typed: [String] = []
        var external: [String] = []
        var writes: [Int: (String, String)] = [:]
        var onB = false
        for n in 0..<Int.random(in: 4...9, using: &rng) {
            switch Int.random(in: 0..<5, using: &rng) {
            case 0:
                let t = "typed\(seed)x\(n)"
                typed.append(t)
                keys("a\(t)\r")
            case 1: keys(["J", "K", "j", "k", "l", "h"].randomElement(using: &rng)!)
            case 2:
                onB.toggle()
                keys("\u{0e}")
            case 3:
                let t = "ext\(seed)x\(n)"
                external.append(t)
                writes[script.count] = (Bool.random(using: &rng) ? a : b, t)
                script.append([])
            default:
                let t = "typedB\(seed)x\(n)"
                typed.append(t)
                keys((onB ? "" : "\u{0e}") + "a\(t)\r")
                onB = true
            }
        }
        let releaseAt = script.count
        // Idle: the move finishes, then the held saves go out; q stores the rest.
        for _ in 0..<3 { script.append([]) }
        keys("q")

        let device = ScriptedTerminal(size: Size(width: 100, height: 20), script: script)
        var framesAt: [Int: String] = [:]
        device.onWait = { w in
            if let (path, title) = writes[w] { try? Self.otherWriter(path, adds: title) }
            if w == releaseAt { blocker = nil }
            framesAt[w] = device.frames.last.map(\.text) ?? ""
        }
        let runner = AppRunner(
            boards: [try hosted(a, "A.md"), try hosted(b, "B.md")], device: device, environment: ["HOME": run])
        runner.moveJournal = journal
        device.idleWhile = { [unowned runner] in runner.workspace.moveUnderWay != nil }
        try runner.run()
        withExtendedLifetime(blocker) {}

        // While the move waited: the screen answered, said so, and refused the card on its way.
        let during = framesAt[refusedAt] ?? ""
        #expect(during.contains("Moving “\(movingTitle)” to B.md") || during.contains("is moving to B.md"), "\(during)")
        #expect(
            during.contains("“\(movingTitle)” is moving to B.md; edit it there once the move is done"),
            "x refused: \(during)")
        let prompt = framesAt[promptKeptAt] ?? ""
        #expect(prompt.contains("\(movingTitle) edited"), "the typed title stays in the prompt: \(prompt)")

        let inA = try Self.allTitles(a), inB = try Self.allTitles(b)
        let all = inA + inB
        let expected = ["a0", "a1", "a2", "a3", "a4", "b0", "b1"] + typed + external
        #expect(all.sorted() == expected.sorted(), "every card exactly once; A \(inA), B \(inB)")
        #expect(inB.contains(movingTitle) && !inA.contains(movingTitle), "the card moved: A \(inA), B \(inB)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: run + "/moves").filter { $0.hasSuffix(".move") }
                .isEmpty,
            "no move record left")
        #expect(runner.workspace.moveUnderWay == nil)
    }

    /// The move waits for its boards' saves without holding the screen: A's save of a card typed just
    /// before is kept waiting by another Lanes process's write lock on A.md (a real `flock`).
    @Test func aMoveWaitsForItsBoardsSavesBesideTheScreen() throws {
        let a = dir + "/A.md", b = dir + "/B.md"
        try "## To do\n\n- a0\n- a1\n".write(toFile: a, atomically: true, encoding: .utf8)
        try "## Backlog\n\n- b0\n\n## Doing\n\n- b1\n".write(toFile: b, atomically: true, encoding: .utf8)
        let bBefore = try String(contentsOfFile: b, encoding: .utf8)
        let fd = open(a, O_RDONLY)
        #expect(fd >= 0 && flock(fd, LOCK_EX) == 0)
        var locked = true
        let script: [[TerminalInput]] = [
            [.bytes(Array("afresh\r".utf8))], [.bytes(Array("k".utf8))], [.bytes(Array("mB.md:Doing\r".utf8))],
            [.bytes(Array("j".utf8))], [.bytes(Array("x".utf8))], [.bytes(Array("k".utf8))],
            [.bytes(Array("x".utf8))], [], [], [], [], [.bytes(Array("q".utf8))],
        ]
        let device = ScriptedTerminal(size: Size(width: 100, height: 20), script: script)
        var seen: [Int: (frame: String, a: String, b: String)] = [:]
        device.onWait = { w in
            seen[w] = (
                device.frames.last?.text ?? "", (try? String(contentsOfFile: a, encoding: .utf8)) ?? "",
                (try? String(contentsOfFile: b, encoding: .utf8)) ?? ""
            )
            if w == 7, locked { flock(fd, LOCK_UN); close(fd); locked = false }
        }
        let runner = AppRunner(
            boards: [try hosted(a, "A.md"), try hosted(b, "B.md")], device: device, environment: ["HOME": dir])
        runner.moveJournal = MoveJournal(folder: dir + "/moves")
        device.idleWhile = { [unowned runner] in runner.workspace.moveUnderWay != nil }
        try runner.run()
        if locked { close(fd) }
        // While A's save waited: the move said so, nothing was moved, and the keys were answered.
        let waiting = try #require(seen[5])
        #expect(waiting.a == "## To do\n\n- a0\n- a1\n", "A's save waits for the other process's lock")
        #expect(waiting.b == bBefore, "the move waits for A's save")
        // x on the card below: answered at once (A is a taskell file: no done mark, in the door's words).
        #expect(waiting.frame.contains("Taskell files have no done mark"), "x was answered: \(waiting.frame)")
        let refused = try #require(seen[7])
        #expect(
            refused.frame.contains("“a0” is moving to B.md; edit it there once the move is done"), "\(refused.frame)")
        #expect(try Self.allTitles(a) == ["fresh", "a1"] || Self.allTitles(a) == ["a1", "fresh"])
        #expect(try Self.allTitles(b) == ["b0", "b1", "a0"])
    }
}
