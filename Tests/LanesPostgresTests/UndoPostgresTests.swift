import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesPostgres

/// The undo property (see `UndoSimulation`, shared with LanesCoreTests) through the PostgreSQL
/// store: alice edits, undoes and redoes, bob edits the same board through his own connection.
@Suite(.serialized)
struct UndoPostgresTests {
    static let start = "## To do\n\n- I1\n- I2\n- I3\n\n## Doing\n\n- I4\n\n## Done\n\n- I5\n"

    /// Steps per seed (a shorter run than the file store's: every step is a round trip).
    static var steps: Int { ProcessInfo.processInfo.environment["LANES_UNDO_PG_STEPS"].flatMap(Int.init) ?? 250 }

    @Test(arguments: 0..<2)
    func undoOverAnotherWriterThroughPostgreSQL(_ seed: UInt64) throws {
        let server = try TestServer.get()
        let name = TestServer.boardName("undo")
        let (board, info) = try BoardFormat.parse(Self.start, file: "start.md")
        let alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board, info: info)
        try alice.grant(role: "bob")
        let bob = try PostgresBoardStore.open(url: server.url("bob", board: name))
        var sim = UndoSimulation(seed: 500 + seed, local: alice, other: bob, loaded: try alice.load())
        sim.liveOther = ["I1", "I2", "I3", "I4", "I5"]
        sim.exactRefresh = false
        do {
            for n in 0..<Self.steps { try sim.step(n) }
        } catch is UndoSimulation.Stop {
            Issue.record("seed \(seed) stopped; steps: \(sim.counts)")
            return
        }
        #expect(sim.counts["undo", default: 0] > 0 && sim.counts["other", default: 0] > 0)
    }
}
