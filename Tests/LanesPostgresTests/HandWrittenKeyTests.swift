import Foundation
@testable import LanesCore
import Testing
@testable import LanesPostgres

/// Sort keys a member wrote by hand (raw SQL: one a `0` longer than another, bytes that are not
/// digits; equal keys the schema refuses) leave no room between two cards or columns; a Lanes commit placing
/// something there gives that column's cards (or the board's columns) fresh keys in the order
/// shown, and lands where the person put it. Before, the key arithmetic stopped the process.
@Suite("PostgreSQL: keys written by hand never stop a commit", .serialized)
struct HandWrittenKeyTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    @Test(
        "a card moved between cards whose keys leave no room, and a column between columns alike: placed as shown, every card once"
    )
    func noRoomBetweenKeys() throws {
        let name = TestServer.boardName("handkeys")
        let (board0, info) = try BoardFormat.parse(
            "## A\n\n- One\n- Two\n- Three\n- Five\n\n## B\n\n- Four\n\n## C\n\n", file: "keys.md")
        let alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board0, info: info)
        defer { alice.disconnect() }
        try alice.grant(role: "bob")
        let raw = try server.connect("bob")
        defer { raw.close() }
        let b = String(alice.boardID)
        // Bob's keys: One, Two and Three equal as fractions (trailing 0s), Five not digits.
        for (title, key) in [("One", "zx5"), ("Two", "zx50"), ("Three", "zx500"), ("Five", "zx5-")] {
            try raw.query("UPDATE lanes.cards SET key = $3 WHERE board_id = $1 AND title = $2", [b, title, key])
        }
        // Columns A and B with keys equal as fractions.
        try raw.query("UPDATE lanes.columns SET key = 'Q' WHERE board_id = $1 AND title = 'A'", [b])
        try raw.query("UPDATE lanes.columns SET key = 'Q0' WHERE board_id = $1 AND title = 'B'", [b])

        var base = try alice.refresh() ?? alice.load()
        let shown = base.columns[0].cards.map(\.title)
        #expect(Set(shown) == ["One", "Two", "Three", "Five"])
        // Four goes between the second and third card shown in A (keys equal as fractions).
        var ours = base
        let four = ours.columns.first { $0.title == "B" }!.cards[0]
        let bIndex = ours.columns.firstIndex { $0.title == "B" }!
        ours.columns[bIndex].cards.removeAll()
        ours.columns[0].cards.insert(four, at: 2)
        var out = try alice.commit(base: base, ours: ours)
        #expect(out.conflicts.isEmpty)
        let expectedA = Array(shown[..<2]) + ["Four"] + Array(shown[2...])
        #expect(out.board.columns[0].cards.map(\.title) == expectedA)

        // Then Four between the first two shown (no key between theirs), and C between A and B (alike).
        base = out.board
        ours = base
        let f = ours.columns[0].cards.remove(at: 2)
        ours.columns[0].cards.insert(f, at: 1)
        #expect(base.columns.map(\.title) == ["A", "B", "C"])
        let c = ours.columns.remove(at: 2)
        ours.columns.insert(c, at: 1)  // between A and B
        out = try alice.commit(base: base, ours: ours)
        #expect(out.conflicts.isEmpty)
        let wanted = ours.columns.map { "\($0.title): " + $0.cards.map(\.title).joined(separator: ", ") }

        // Another member reads the same board, in the same order; every card once.
        let bob = try PostgresBoardStore.open(url: server.url("bob", board: name))
        defer { bob.disconnect() }
        let read = try bob.load()
        #expect(read.columns.map { "\($0.title): " + $0.cards.map(\.title).joined(separator: ", ") } == wanted)
        #expect(read.columns.flatMap(\.cards).count == 5)
    }
}
