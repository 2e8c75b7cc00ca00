import Foundation
@testable import LanesCore
import Testing
@testable import LanesPostgres

/// A board read in one snapshot, as the server answers `BoardDelta.statements` (the shared server).
@Suite struct BoardDeltaTests {
    let server: TestServer
    init() throws { server = try TestServer.get() }

    func read(_ db: PGConnection, _ board: Int64, since: Int64?, look: Bool = false) throws -> BoardDelta? {
        try BoardDelta(
            db.snapshot(BoardDelta.statements(board: board, since: since, look: look)), since: since, look: look,
            system: "7")
    }

    @Test func aWholeReadIsTheBoardAsStoredAndADeltaOnlyWhatCameAfter() throws {
        let name = TestServer.boardName("delta")
        let (board, info) = try BoardFormat.parse(obsidianBoard, file: "fixture.md")
        let alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board, info: info)
        let stored = try alice.load()
        let db = try server.connect("alice")
        let whole = try #require(try read(db, alice.boardID, since: nil))
        #expect(whole.version == alice.version)
        #expect(whole.info.dialect == .obsidian)
        #expect(whole.info.frontmatter == info.frontmatter && whole.info.settings == info.settings)
        #expect(whole.columns.map(\.title) == stored.columns.map(\.title))
        #expect(Set(whole.changed.map(\.card.title)) == Set(stored.columns.flatMap { $0.cards.map(\.title) }))
        #expect(whole.removed.isEmpty && whole.name == nil && whole.channel == nil)
        // Where the server's log stood, on this primary: its timeline, a flushed LSN, never recovered.
        let point = try #require(whole.point)
        #expect(point.system == "7" && point.timeline >= 1 && point.flushed > 0)
        #expect(whole.history?.holds(point) == true)

        // One card moved, one deleted: a read since the version brings those two and nothing else.
        let before = whole.version
        let first = stored.columns[0].cards
        var ours = moved(stored, first[0].title, to: 1)
        ours = try ours.applying(.deleteCards([first[1].id], seen: nil)).board
        _ = try alice.commit(base: stored, ours: ours)
        let delta = try #require(try read(db, alice.boardID, since: before))
        #expect(delta.version == before + 1)
        #expect(delta.changed.map(\.card.title) == [first[0].title])
        #expect(delta.removed == [Int64(bitPattern: first[1].id.rawValue)])
        #expect(delta.columns.count == whole.columns.count)
        #expect(try #require(delta.point).flushed >= point.flushed)

        // A look: the same, with the board's name and its channel.
        let look = try #require(try read(db, alice.boardID, since: before, look: true))
        #expect(look.name == name && look.channel?.hasPrefix("lanes_") == true)
        #expect(look.changed.map(\.card.title) == delta.changed.map(\.card.title) && look.point != nil)

        // A role that may not read the board gets no board row: nil, not an empty board.
        let carol = try server.connect("carol")
        #expect(try read(carol, alice.boardID, since: nil) == nil)
    }
}
