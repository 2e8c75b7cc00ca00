import DragKit
import Foundation
@testable import LanesCore
import Testing
@testable import LanesPostgres
#if canImport(Glibc)
    import Glibc
#endif

/// A commit from an older view never reverts, rewrites or disturbs what another writer committed
/// meanwhile (DECISIONS 41.8, 41.11): alice's insertion into a column bob has just moved a card out
/// of (or into) writes alice's card, and keys of only the rows still where alice saw them.
@Suite("PostgreSQL: an insertion from an older view leaves another writer's move alone", .serialized)
struct OthersMovesStayTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    enum Slot: String, CaseIterable, CustomTestStringConvertible {
        case top, between, end
        var testDescription: String { rawValue }
    }

    /// Review: X, Y, Z; Done: D, W. Alice and bob both read it; returns both stores and alice's view.
    func board(keys: [String: String] = [:]) throws -> (alice: PostgresBoardStore, bob: PostgresBoardStore) {
        let name = TestServer.boardName("othersmoves")
        let (board, info) = try BoardFormat.parse(
            "## Review\n\n- X\n- Y\n- Z\n\n## Done\n\n- D\n- W\n", file: "board.md")
        let alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board, info: info)
        try alice.grant(role: "bob")
        if !keys.isEmpty {
            // Keys written by hand (psql), leaving no room where a test needs none.
            let raw = try server.connect("bob")
            defer { raw.close() }
            for (title, key) in keys {
                try raw.query(
                    "UPDATE lanes.cards SET key = $3 WHERE board_id = $1 AND title = $2",
                    [String(alice.boardID), title, key])
            }
        }
        let bob = try PostgresBoardStore.open(url: server.url("bob", board: name))
        return (alice, bob)
    }

    /// Each card's row as stored: (column title, version, changed by), by title.
    func rows(_ store: PostgresBoardStore) throws -> [String: (column: String, version: Int64, by: String)] {
        let raw = try server.connect("alice")
        defer { raw.close() }
        let r = try raw.query(
            """
            SELECT c.title, col.title, c.version, c.changed_by FROM lanes.cards c
            JOIN lanes.columns col ON col.board_id = c.board_id AND col.id = c.column_id WHERE c.board_id = $1
            """, [String(store.boardID)])
        var out: [String: (String, Int64, String)] = [:]
        for i in 0..<r.count { out[r[i, 0]!] = (r[i, 1]!, r.int(i, 2)!, r[i, 3]!) }
        return out
    }

    func inserted(_ board: Board, _ title: String, at slot: Slot) -> Board {
        var b = board
        let at = [Slot.top: 0, .between: 2, .end: b.columns[0].cards.count][slot]!
        b.columns[0].cards.insert(Card(id: CardID.fresh(), title: title), at: at)
        return b
    }

    /// Where alice's card lands in Review once X is gone: top, after Y, at the end.
    func expectedReview(_ slot: Slot) -> [String] {
        [Slot.top: ["N", "Y", "Z"], .between: ["Y", "N", "Z"], .end: ["Y", "Z", "N"]][slot]!
    }

    func checkEveryCardOnce(_ store: PostgresBoardStore) throws -> Board {
        let truth = try PostgresBoardStore.open(url: store.url.display).load()
        let all = truth.columns.flatMap(\.cards)
        #expect(Set(all.map(\.id)).count == all.count)
        #expect(all.map(\.title).sorted() == ["D", "N", "W", "X", "Y", "Z"])
        return truth
    }

    @Test(
        "bob moves X out of Review; alice, from before, inserts at the top, between, the end", arguments: Slot.allCases)
    func anInsertKeepsAMoveOutOfItsColumn(slot: Slot) throws {
        let (alice, bob) = try board()
        let a0 = try alice.load()
        let b0 = try bob.load()
        let moved = try bob.commit(base: b0, ours: OthersMovesStayTests.moved(b0, "X", toDoneAt: 0))
        #expect(moved.conflicts.isEmpty)
        let before = try rows(alice)

        let out = try alice.commit(base: a0, ours: inserted(a0, "N", at: slot))
        #expect(out.conflicts.map(\.message) == [])
        #expect(titles(out.board) == [expectedReview(slot), ["X", "D", "W"]])
        #expect(titles(try checkEveryCardOnce(alice)) == titles(out.board))
        // Alice's commit wrote her card's row and no other.
        let after = try rows(alice)
        for (title, row) in before { #expect(after[title]! == row, "\(title)'s row was written by alice's insert") }

        // Bob moves X on from his view, which has not seen alice's commit: nothing of his is refused.
        let again = try bob.commit(base: moved.board, ours: OthersMovesStayTests.moved(moved.board, "X", toDoneAt: 2))
        #expect(again.conflicts.map(\.message) == [])
        #expect(titles(again.board)[1] == ["D", "W", "X"])
    }

    @Test(
        "no room at the place (keys written by hand): fresh keys for only the rows still where alice saw them, no version raised",
        arguments: [Slot.top, .between])
    func aRenumberWritesOnlyRowsAsSeen(slot: Slot) throws {
        // Hand-written keys: nothing fits before Y ("0"), nor between Y and Z ("0", "00").
        let (alice, bob) = try board(keys: ["X": "-", "Y": "0", "Z": slot == .top ? "V" : "00", "D": "V", "W": "k"])
        let a0 = try alice.load()
        let b0 = try bob.load()
        // Bob moves X out to Done and, for the insert at the top, W into Review at its end.
        var ours = OthersMovesStayTests.moved(b0, "X", toDoneAt: 0)
        if slot == .top { ours = OthersMovesStayTests.moved(ours, "W", to: 0) }
        let moved = try bob.commit(base: b0, ours: ours)
        #expect(moved.conflicts.isEmpty)
        let bobs = slot == .top ? [["Y", "Z", "W"], ["X", "D"]] : [["Y", "Z"], ["X", "D", "W"]]
        #expect(titles(moved.board) == bobs)
        let before = try rows(alice)

        // Alice's view: Review X, Y, Z; she adds N where no key fits: Y and Z, still where she saw
        // them, get fresh keys; W (bob's) and X keep theirs.
        let out = try alice.commit(base: a0, ours: inserted(a0, "N", at: slot))
        #expect(out.conflicts.map(\.message) == [])
        var expected = bobs
        expected[0].insert("N", at: slot == .top ? 0 : 1)
        #expect(titles(out.board) == expected)
        #expect(titles(try checkEveryCardOnce(alice)) == expected)
        let after = try rows(alice)
        for title in ["X", "W", "D"] { #expect(after[title]! == before[title]!, "\(title)'s row was written by alice") }
        for title in ["Y", "Z"] {
            #expect(after[title]!.column == before[title]!.column)
            #expect(after[title]!.version == before[title]!.version, "\(title)'s version raised by a renumber")
        }

        // Bob moves Y from his view (before alice's renumber): a renumber is no move, nothing is refused.
        let again = try bob.commit(base: moved.board, ours: OthersMovesStayTests.moved(moved.board, "Y", to: 1))
        #expect(again.conflicts.map(\.message) == [])
        #expect(titles(again.board)[1].last == "Y")
        _ = try checkEveryCardOnce(alice)
    }

    @Test("no room between two cards another member keyed by hand since alice's view: the column is keyed afresh")
    func noRoomBetweenRowsKeyedElsewhere() throws {
        let (alice, _) = try board()
        let a0 = try alice.load()
        let raw = try server.connect("bob")
        for (title, key) in ["X": "-", "Y": "0", "Z": "00"] {
            try raw.query(
                "UPDATE lanes.cards SET key = $3, version = version + 1 WHERE board_id = $1 AND title = $2",
                [String(alice.boardID), title, key])
        }
        raw.close()
        let before = try rows(alice)
        let out = try alice.commit(base: a0, ours: inserted(a0, "N", at: .between))
        #expect(out.conflicts.map(\.message) == [])
        #expect(titles(out.board) == [["X", "Y", "N", "Z"], ["D", "W"]])
        #expect(titles(try checkEveryCardOnce(alice)) == titles(out.board))
        let after = try rows(alice)
        for (title, row) in before {
            #expect(after[title]!.column == row.column && after[title]!.version == row.version)
        }
    }

    @Test("bob moves his card one place down, past alice's: the commit writes his row, not hers")
    func aMovePastANeighbourWritesTheMoversOwnRow() throws {
        let (alice, bob) = try board()
        var b0 = try bob.load()
        let added = try bob.commit(
            base: b0,
            ours: try b0.applying(
                .addCard(Card(id: CardID.fresh(), title: "B"), column: b0.columns[0].id, at: .top, fallbackColumn: 0)
            ).board)
        b0 = added.board
        #expect(titles(b0)[0] == ["B", "X", "Y", "Z"])
        let before = try rows(alice)
        // [B, X] to [X, B]: B moved down, or X up; the board alone cannot say which.
        let out = try bob.commit(base: b0, ours: OthersMovesStayTests.moved(b0, "B", to: 0, at: 1))
        #expect(out.conflicts.isEmpty)
        #expect(titles(out.board)[0] == ["X", "B", "Y", "Z"])
        var after = try rows(alice)
        for (title, row) in before where title != "B" { #expect(after[title]! == row, "\(title)'s row was written") }
        #expect(after["B"]!.version == before["B"]!.version + 1)
        // And back up past X: again his row only (whichever way a tie would fall, one of the two
        // directions blames X unless the diff prefers to write bob's own card).
        let back = try bob.commit(base: out.board, ours: OthersMovesStayTests.moved(out.board, "B", to: 0, at: 0))
        #expect(back.conflicts.isEmpty)
        #expect(titles(back.board)[0] == ["B", "X", "Y", "Z"])
        after = try rows(alice)
        for (title, row) in before where title != "B" { #expect(after[title]! == row, "\(title)'s row was written") }
        #expect(after["B"]!.version == before["B"]!.version + 2)
    }

    @Test("a commit's waits for the server while it holds the board row: an insert, a move, an edit, a renumber")
    func waitsUnderTheBoardRow() throws {
        let (alice, _) = try board(keys: ["X": "1", "Y": "2", "Z": "20"])  // no room between Y and Z
        var a = try alice.load()
        var waits: [String: Int] = [:]
        func commit(_ what: String, _ ours: Board) throws {
            let out = try alice.commit(base: a, ours: ours)
            #expect(out.conflicts.isEmpty)
            waits[what] = alice.lastCommitWaits
            a = out.board
        }
        try commit("insert", inserted(a, "N", at: .top))
        try commit("move", OthersMovesStayTests.moved(a, "N", toDoneAt: 0))
        var edited = a
        edited.columns[1].cards[0].title = "N2"
        try commit("edit", edited)
        var between = a
        between.columns[0].cards.insert(Card(id: CardID.fresh(), title: "M"), at: 2)  // X, Y, M, Z
        try commit("renumbering insert", between)
        #expect(titles(a)[0] == ["X", "Y", "M", "Z"])
        // The lock, its reads; COMMIT with the writes: 2. A placement reads its keys (1); an insert
        // also inserts (1) and clears a removal (1); a renumber reads the column (1), its writes go later.
        #expect(waits == ["insert": 5, "move": 3, "edit": 2, "renumbering insert": 7])
    }

    /// A screen as `Runner` keeps one: the document shown, the board last stored (`synced`), the
    /// save on its way (what its answer is absorbed from, with what came in since merged in, as `Runner` does), its store.
    struct Screen {
        let store: PostgresBoardStore
        var document: BoardDocument
        var synced: Board
        var inFlight: Board?

        init(_ store: PostgresBoardStore) throws {
            self.store = store
            synced = try store.load()
            _ = try store.refresh()  // a screen's first look: it LISTENs from here on
            document = BoardDocument(board: synced)
        }

        /// Sends what is unsaved (the worker commits it at once) and returns the answer, not yet taken in.
        mutating func send() throws -> CommitOutcome {
            inFlight = document.board
            return try store.commit(base: synced, ours: document.board)
        }

        /// A report `.changed(board)` taken in.
        mutating func changed(_ board: Board) {
            document.absorb(stored: board, base: synced)
            if let sent = inFlight { inFlight = BoardMerge.merge(base: synced, ours: sent, theirs: board).board }
            synced = board
        }

        /// The report of the save on its way taken in.
        mutating func committed(_ outcome: CommitOutcome) {
            synced = outcome.board
            document.absorb(stored: outcome.board, base: inFlight!)
            inFlight = nil
        }

        /// Saves what is unsaved and takes the reports in, as often as the screen would (at most twice here).
        mutating func save() throws -> [String] {
            var words: [String] = []
            for _ in 0..<2 where document.board != synced {
                let outcome = try send()
                words += outcome.conflicts.map(\.message)
                committed(outcome)
            }
            return words
        }
    }

    @Test(
        "a screen adds two cards at the top of Review while bob's move to its top arrives: its saves write only its cards"
    )
    func aScreensSavesAroundAnArrivingMoveWriteOnlyItsCards() throws {
        let (alice, bob) = try board()
        var screen = try Screen(alice)
        let b0 = try bob.load()
        let review = screen.synced.columns[0].id
        // Bob moves W to the top of Review; alice's storage worker reads it before her save is sent,
        // and her screen takes that report in only after sending.
        let w = b0.columns[1].cards[1].id
        let bobs = try bob.commit(
            base: b0, ours: try b0.applying(.moveCards([w], to: b0.columns[0].id, at: .top)).board)
        #expect(bobs.conflicts.isEmpty)
        // Her worker wakes on the notification and reads it.
        var p = pollfd(fd: try #require(alice.changeDescriptor), events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 5000) == 1)
        let s1 = try #require(try alice.refresh())
        // Alice's two cards sort before W: the merge puts them first, the store after W (above X).
        for title in ["A1", "A2"] {
            try screen.document.apply(
                .addCard(Card(id: CardID.fresh(), title: title), column: review, at: .top, fallbackColumn: 0))
        }
        let outcome = try screen.send()
        #expect(outcome.conflicts.isEmpty)
        screen.changed(s1)
        screen.committed(outcome)
        let before = try rows(alice)
        #expect(try screen.save() == [])
        // What the screen shows is what is stored, and alice wrote no row of bob's.
        let truth = try PostgresBoardStore.open(url: alice.url.display).load()
        #expect(titles(screen.document.board) == titles(truth))
        #expect(titles(truth)[0] == ["W", "A2", "A1", "X", "Y", "Z"])
        let after = try rows(alice)
        for (title, row) in before { #expect(after[title]! == row, "\(title)'s row was written by alice's screen") }
        // Bob moves W on from his view: not refused as moved by alice.
        let again = try bob.commit(
            base: bobs.board,
            ours: try bobs.board.applying(.moveCards([w], to: bobs.board.columns[1].id, at: .top)).board)
        #expect(again.conflicts.map(\.message) == [])
        #expect(titles(again.board)[1].first == "W")
    }

    /// `board` with card `title` moved to Done at `index`.
    static func moved(_ board: Board, _ title: String, toDoneAt index: Int) -> Board {
        LanesPostgresTests.moved(board, title, to: 1, at: index)
    }

    static func moved(_ board: Board, _ title: String, to column: Int, at index: Int? = nil) -> Board {
        LanesPostgresTests.moved(board, title, to: column, at: index)
    }
}

/// The run of cards a diff keeps in place: the longest, and among the longest the one keeping most favoured cards.
@Suite struct BoardDiffRunTests {
    @Test func amongEquallyLongRunsTheOneKeepingMoreFavouredCardsStays() {
        // [1, 0]: either stays; favouring one keeps that one.
        #expect(BoardDiff.longestIncreasing([1, 0], limit: 2, favoured: { _ in false }).count == 1)
        #expect(BoardDiff.longestIncreasing([1, 0], limit: 2, favoured: { $0 == 1 }) == [1])
        #expect(BoardDiff.longestIncreasing([1, 0], limit: 2, favoured: { $0 == 0 }) == [0])
        // A longer run wins over favour: [3, 0, 1, 2] keeps 0, 1, 2 even when 3 is favoured.
        #expect(BoardDiff.longestIncreasing([3, 0, 1, 2], limit: 4, favoured: { $0 == 3 }) == [0, 1, 2])
        // Two favoured against one: [2, 3, 0, 1] keeps 2, 3 when they are favoured, else 0, 1.
        #expect(BoardDiff.longestIncreasing([2, 3, 0, 1], limit: 4, favoured: { $0 >= 2 }) == [2, 3])
        #expect(BoardDiff.longestIncreasing([2, 3, 0, 1], limit: 4, favoured: { $0 < 2 }) == [0, 1])
        #expect(BoardDiff.longestIncreasing([], limit: 0, favoured: { _ in true }) == [])
    }

    @Test func aCardMovedPastAnotherIsTheOneMarkedWhenTheOtherIsFavoured() throws {
        let base = try BoardFormat.parse("## A\n\n- p\n- q\n- r\n", file: "b.md").board
        var ours = base
        ours.columns[0].cards.swapAt(0, 1)  // q, p, r
        let p = base.columns[0].cards[0].id, q = base.columns[0].cards[1].id
        #expect(BoardDiff(base: base, ours: ours, othersCard: { $0 == q }).placements[0].map(\.card.id) == [p])
        #expect(BoardDiff(base: base, ours: ours, othersCard: { $0 == p }).placements[0].map(\.card.id) == [q])
    }
}
