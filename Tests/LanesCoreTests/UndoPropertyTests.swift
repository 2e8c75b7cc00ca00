import DragKit
import Foundation
import SeededRandom
import Testing
@testable import LanesCore

@Suite("Undo and redo over another writer's changes (property)")
struct UndoPropertyTests {
    static let start = "## To do\n\n- I1\n- I2\n- I3\n\n## Doing\n\n- I4\n\n## Done\n\n- I5\n"

    /// Steps per seed: 10 seeds × 300 in `make test` (a few seconds); `LANES_UNDO_STEPS=10000` runs the 100,000 steps.
    static var steps: Int { ProcessInfo.processInfo.environment["LANES_UNDO_STEPS"].flatMap(Int.init) ?? 300 }

    @Test(arguments: 0..<10)
    func fileStore(_ seed: UInt64) throws {
        if let only = ProcessInfo.processInfo.environment["LANES_UNDO_SEED"].flatMap(UInt64.init), only != seed {
            return
        }
        let folder = ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("board.md")
        try Array(Self.start.utf8).write(to: path)
        let (local, loaded, _) = try FileBoardStore.open(path, starter: nil)
        let other = FileBoardStore.unread(path)
        // Both writers are this thread and write whole files by rename: nothing here is ever half written,
        // so no read needs to wait for the file to settle (FileBoardStore.quietPeriod).
        local.quietPeriod = 0
        other.quietPeriod = 0
        var sim = UndoSimulation(seed: seed, local: local, other: other, loaded: loaded)
        sim.liveOther = ["I1", "I2", "I3", "I4", "I5"]
        do {
            for n in 0..<Self.steps { try sim.step(n) }
        } catch is UndoSimulation.Stop {
            Issue.record("seed \(seed) stopped; steps: \(sim.counts)")
            return
        }
        // The file holds what the app holds once it has read the last change.
        try sim.refresh()
        let onDisk = try FileBoardStore.load(path).board
        #expect(UndoSimulation.tokens(onDisk).sorted() == UndoSimulation.tokens(sim.doc.board).sorted())
        #expect(sim.counts["undo", default: 0] > Self.steps / 10 && sim.counts["other", default: 0] > Self.steps / 4)
    }
}

extension Array where Element == UInt8 {
    func write(to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: Data(self)) else {
            throw StorageError.notFound(path: path)
        }
    }
}
