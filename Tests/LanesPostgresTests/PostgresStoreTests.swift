import DragKit
import Foundation
@testable import LanesCore
import Synchronization
import Testing
@testable import LanesPostgres
#if canImport(Glibc)
    import Glibc
#endif

/// Against a real PostgreSQL server (see `TestServer`); serialized, since one test restarts it.
@Suite(.serialized)
struct PostgresStoreTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    /// A board copied in by alice, with bob granted; returns both stores and the board name.
    func sharedBoard(_ text: String = taskellBoard, grant: [String] = ["bob"], on other: TestServer? = nil) throws -> (
        alice: PostgresBoardStore, bob: PostgresBoardStore, name: String
    ) {
        let server = other ?? server
        let name = TestServer.boardName("shared")
        let (board, info) = try BoardFormat.parse(text, file: "fixture.md")
        let alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board, info: info)
        for role in grant { try alice.grant(role: role) }
        let bob = try PostgresBoardStore.open(url: server.url("bob", board: name))
        return (alice, bob, name)
    }

    @Test func migrationsRunOnceEvenWhenClientsRace() throws {
        let super_ = try server.connect("postgres", database: "postgres")
        let db = "mig_\(UInt32.random(in: 0...UInt32.max))"
        try super_.query("CREATE DATABASE \(db) OWNER lanes_admin")
        defer { _ = try? super_.query("DROP DATABASE \(db) WITH (FORCE)") }
        let conninfo = server.conninfo("lanes_admin", database: db)
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            do {
                let c = try PGConnection(conninfo: conninfo, displayName: "racer")
                try Schema.migrate(c)
                try Schema.migrate(c)
            } catch {
                failures.withLock { $0.append("\(error)") }
            }
        }
        #expect(failures.withLock { $0 } == [])
        let c = try PGConnection(conninfo: conninfo, displayName: "check")
        let applied = try c.query("SELECT version, applied_by FROM lanes.schema_migrations ORDER BY version")
        #expect(applied.values == (1...Schema.latest).map { [String($0), "lanes_admin"] })
        #expect(try Schema.currentVersion(c) == Schema.latest)
    }

    @Test(arguments: [taskellBoard, obsidianBoard])
    func copyInAndOutGivesEveryCardOnceWhereItWas(_ text: String) throws {
        let name = TestServer.boardName("copy")
        let (board, info) = try BoardFormat.parse(text, file: "fixture.md")
        let url = server.url("alice", board: name)
        _ = try PostgresBoardStore.create(url: url, board: board, info: info)
        let store = try PostgresBoardStore.open(url: url)
        let loaded = try store.load()
        #expect(titles(loaded) == titles(board))
        #expect(loaded.columns.map(\.title) == board.columns.map(\.title))
        #expect(loaded.columns.map(\.extraLines) == board.columns.map(\.extraLines))
        // Content of every card, by position (identities are fresh in the database).
        for (c, column) in board.columns.enumerated() {
            for (i, card) in column.cards.enumerated() {
                var got = loaded.columns[c].cards[i]
                got.id = card.id
                #expect(got == card)
            }
        }
        #expect(Set(loaded.allIDs).count == loaded.cardCount)
        #expect(Set(loaded.allIDs).isDisjoint(with: board.allIDs))
        #expect(store.fileInfo.dialect == info.dialect)
        // Out again: the same text.
        #expect(BoardFormat.serialize(loaded, info: store.fileInfo) == text)
        // Copying over an existing board needs replace.
        #expect(throws: CommandError.self) { try PostgresBoardStore.create(url: url, board: board, info: info) }
        var other = board
        other.columns.removeLast()
        _ = try PostgresBoardStore.create(url: url, board: other, info: info, replace: true)
        #expect(titles(try store.load()) == titles(other))
    }

    @Test func aMoveByOneIsSeenByTheOtherAfterTheNotification() throws {
        let (alice, bob, _) = try sharedBoard()
        let a0 = try alice.load()
        let b0 = try bob.load()
        #expect(try alice.refresh() == nil)  // nothing arrived: no reload
        let ours = moved(b0, "Fix login", to: 2, at: 0)
        let outcome = try bob.commit(base: b0, ours: ours)
        #expect(outcome.conflicts.isEmpty)
        #expect(titles(outcome.board) == titles(ours))

        // The notification turns alice's socket readable.
        let fd = try #require(alice.changeDescriptor)
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 2000) == 1)
        let seen = try #require(try alice.refresh())
        #expect(titles(seen) == titles(ours))
        #expect(seen.allIDs.sorted() == a0.allIDs.sorted())
        #expect(try alice.refresh() == nil)
        // Bob's own commit notifies bob too, but he has that version already.
        #expect(try bob.refresh() == nil)
    }

    @Test func concurrentMovesOfOneCardOneWinsTheOtherIsToldWhere() throws {
        let (alice, bob, _) = try sharedBoard()
        let a0 = try alice.load()
        let b0 = try bob.load()
        let won = try alice.commit(base: a0, ours: moved(a0, "Fix login", to: 2))
        #expect(won.conflicts.isEmpty)
        // Bob still sees it in To do and moves it to Doing, and moves another card too.
        let bobs = moved(moved(b0, "Fix login", to: 1, at: 0), "Write docs", to: 1)
        let lost = try bob.commit(base: b0, ours: bobs)
        #expect(lost.conflicts.count == 1)
        let conflict = try #require(lost.conflicts.first)
        #expect(conflict.kind == .refused)
        #expect(conflict.message == "“Fix login” was moved to “Done” by alice")
        // The database's board: alice's move stands, bob's other move went through.
        #expect(
            titles(lost.board) == [
                ["Plan release #ops"], ["Review PR", "Deploy staging", "Write docs"], ["Set up CI", "Fix login"],
            ])
        #expect(titles(try alice.load()) == titles(lost.board))
        #expect(lost.incomingChanges >= 1)
    }

    @Test func aStaleBaseCannotUndoAMoveItNeverSaw() throws {
        let (alice, bob, _) = try sharedBoard()
        let a0 = try alice.load()
        _ = try alice.refresh()  // a screen's first look: it LISTENs from here on
        let b0 = try bob.load()
        _ = try bob.commit(base: b0, ours: moved(b0, "Review PR", to: 2))
        // Alice's store hears of it, but her app commits from the board it had before.
        var p = pollfd(fd: try #require(alice.changeDescriptor), events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 2000) == 1)
        #expect(try alice.refresh() != nil)
        let out = try alice.commit(base: a0, ours: moved(a0, "Review PR", to: 0))
        #expect(out.conflicts.map(\.message) == ["“Review PR” was moved to “Done” by bob"])
        #expect(titles(out.board)[2] == ["Set up CI", "Review PR"])
        // Deleting it from that stale board is refused too: it stays where bob put it.
        var deleted = a0
        deleted.columns[1].cards.removeFirst()
        let del = try alice.commit(base: a0, ours: deleted)
        #expect(del.conflicts.map(\.message) == ["“Review PR” was moved to “Done” by bob: it stays"])
        #expect(del.board.cardCount == 6)
    }

    @Test func editsOfOtherFieldsMergeAndMovesKeepTheirPlace() throws {
        let (alice, bob, _) = try sharedBoard()
        let a0 = try alice.load()
        let b0 = try bob.load()
        var retitled = a0
        retitled.columns[0].cards[1].title = "Write the docs"
        #expect(try alice.commit(base: a0, ours: retitled).conflicts.isEmpty)
        // Bob moves the card alice retitled: the move applies, her title stays.
        let out = try bob.commit(base: b0, ours: moved(b0, "Write docs", to: 1, at: 1))
        #expect(out.conflicts.isEmpty)
        #expect(titles(out.board)[1] == ["Review PR", "Write the docs", "Deploy staging"])
        // Bob retitles it from the board he has now: applies. Alice, from her older board, retitles it too:
        // both titles are kept, as a file merge keeps them, and she is told.
        let b1 = out.board
        var bobs = b1
        let at = try #require(b1.indexPath(for: b1.columns[1].cards[1].id))
        bobs[at].title = "Docs!"
        #expect(try bob.commit(base: b1, ours: bobs).conflicts.isEmpty)
        let a1 = try alice.load()
        _ = try bob.commit(
            base: bobs,
            ours: {
                var b = bobs; b[at].title = "Docs, final"; return b
            }())
        var alices = a1
        let mine = try #require(a1.indexPath(for: b1.columns[1].cards[1].id))
        alices[mine].title = "Alice's docs"
        let both = try alice.commit(base: a1, ours: alices)
        #expect(both.conflicts.map(\.kind) == [.editedTwice])
        #expect(
            both.conflicts.first?.message == "“Alice's docs ⟷ Docs, final” was edited here and by bob: both titles kept"
        )
        #expect(titles(both.board)[1][1] == "Alice's docs ⟷ Docs, final")
        #expect(titles(try bob.load())[1][1] == "Alice's docs ⟷ Docs, final", "stored, not only shown")
    }

    @Test func columnsAndRulesTravelAndCollideWithWords() throws {
        let (alice, bob, _) = try sharedBoard()
        let a0 = try alice.load()
        _ = try alice.refresh()  // a screen's first look: it LISTENs from here on
        let b0 = try bob.load()
        // Alice adds a column between Doing and Done, renames Doing, sets a WIP limit and a rule.
        var a1 = a0
        a1.columns.insert(Column(title: "QA", cards: [Card(id: CardID.fresh(), title: "Test it")]), at: 2)
        a1.renameColumn(at: 1, to: "In progress")
        a1.columns[1].wipLimit = 3
        a1.acceptRules.setSources(["QA"], for: "Done")
        let out = try alice.commit(base: a0, ours: a1)
        #expect(out.conflicts.isEmpty)
        #expect(out.board.columns.map(\.title) == ["To do", "In progress", "QA", "Done"])
        #expect(out.board == a1)
        // Bob, from his older board, renames Doing too and moves a column: the rename is refused, the move stands.
        var b1 = b0
        b1.columns[1].title = "WIP"
        b1.columns.swapAt(0, 2)
        let bobs = try bob.commit(base: b0, ours: b1)
        #expect(
            bobs.conflicts.map(\.message) == [
                "Column “Doing” was renamed to “In progress” by alice first: “WIP” was not saved"
            ])
        let order = bobs.board.columns.map(\.title)
        #expect(order.filter { $0 != "QA" } == ["Done", "In progress", "To do"])
        #expect(order.contains("QA"))
        #expect(bobs.board.columns[1].wipLimit == 3)
        #expect(bobs.board.acceptRules.sources(for: "Done") == ["QA"])
        // Alice deletes QA (moving its card out first); bob meanwhile put a card into it: QA stays, with words.
        var p = pollfd(fd: try #require(alice.changeDescriptor), events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 2000) == 1)
        let a2base = try #require(try alice.refresh())
        let b2 = bobs.board
        let qaForBob = try #require(b2.columns.firstIndex { $0.title == "QA" })
        #expect(try bob.commit(base: b2, ours: moved(b2, "Set up CI", to: qaForBob)).conflicts.isEmpty)
        var a2 = moved(a2base, "Test it", to: 0)
        a2.removeColumn(at: try #require(a2.columns.firstIndex { $0.title == "QA" }))
        let del = try alice.commit(base: a2base, ours: a2)
        #expect(del.conflicts.map(\.kind) == [.columnDeletedWithChanges])
        #expect(del.conflicts.first?.message == "Column “QA” kept: it holds 1 card put there elsewhere")
        #expect(titles(del.board)[try #require(del.board.columns.firstIndex { $0.title == "QA" })] == ["Set up CI"])
        #expect(del.board.cardCount == 7)
        #expect(titles(try bob.load()) == titles(del.board))
    }

    @Test func aRoleWithoutAGrantSeesNothingNotEvenWithPlainSQL() throws {
        let (_, _, name) = try sharedBoard()
        // Lanes says so, with exit status 2 words.
        do {
            _ = try PostgresBoardStore.open(url: server.url("carol", board: name))
            Issue.record("carol opened a board she has no grant for")
        } catch let e as CommandError {
            #expect(e.status == 2)
            #expect(e.message.contains("role carol has no access to board “\(name)”"))
        }
        // Plain SQL, as carol.
        let carol = try server.connect("carol")
        #expect(try carol.query("SELECT count(*) FROM lanes.cards").values == [["0"]])
        #expect(try carol.query("SELECT count(*) FROM lanes.columns").values == [["0"]])
        #expect(try carol.query("SELECT count(*) FROM lanes.boards WHERE name = $1", [name]).values == [["0"]])
        try carol.query("UPDATE lanes.cards SET title = 'pwned'")
        try carol.query("INSERT INTO lanes.card_deletions (board_id, id) SELECT board_id, id FROM lanes.cards")
        #expect(throws: PostgresError.self) {
            _ = try carol.query("DELETE FROM lanes.cards")
        }
        let alice = try PostgresBoardStore.open(url: server.url("alice", board: name))
        #expect(throws: PostgresError.self) {
            try carol.query("INSERT INTO lanes.members (board_id, role) VALUES ($1, 'carol')", [String(alice.boardID)])
        }
        #expect(throws: PostgresError.self) {
            let column = try server.connect("alice").query(
                "SELECT id FROM lanes.columns WHERE board_id = $1 LIMIT 1", [String(alice.boardID)])[0, 0]
            try carol.query(
                "INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ($1, 1, $2, 'x', 'planted', 1)",
                [String(alice.boardID), column])
        }
        #expect(throws: PostgresError.self) {
            try carol.query(
                "UPDATE lanes.boards SET owner = 'carol' WHERE id = $1 RETURNING id", [String(alice.boardID)]
            ).count == 0 ? { throw PostgresError(message: "nothing updated") }() : ()
        }
        let board = try alice.load()
        #expect(board.cardCount == 6)
        #expect(!board.columns.flatMap(\.cards).contains { $0.title == "pwned" })
        // Bob may not grant; alice may, and revoke again.
        let bob = try PostgresBoardStore.open(url: server.url("bob", board: name))
        #expect(throws: CommandError.self) { try bob.grant(role: "carol") }
        try alice.grant(role: "carol")
        let carolStore = try PostgresBoardStore.open(url: server.url("carol", board: name))
        #expect(try carolStore.load().cardCount == 6)
        try alice.revoke(role: "carol")
        #expect(throws: BoardGone.self) { try carolStore.load() }
        #expect(throws: CommandError.self) { try alice.revoke(role: "alice") }
    }

    @Test func serverRestartUnderAnOpenStoreThenItReconnects() throws {
        let own = try TestServer.startOwn()
        defer { own.stop() }
        let (alice, bob, _) = try sharedBoard(on: own)
        let a0 = try alice.load()
        let b0 = try bob.load()
        #expect(try alice.refresh() == nil)  // a screen's first look: its reading connection LISTENs
        try own.restart()
        // The reading connection finds its loss on its first use and says offline; the next look
        // makes it again (and LISTENs again).
        #expect(throws: StorageUnavailable.self) { try alice.refresh() }
        #expect(alice.changeDescriptor == nil)
        // A commit finds its idle connection closed and goes through at once on a new one.
        let ours = moved(a0, "Review PR", to: 0, at: 0)
        let out = try alice.commit(base: a0, ours: ours)
        #expect(titles(out.board) == titles(ours))
        // Made again on the same server (its timeline unchanged): nothing newer than the commit to read.
        #expect(try alice.refresh() == nil)
        #expect(alice.changeDescriptor != nil)
        var seen: Board?
        for _ in 0..<3 where seen == nil {
            do { seen = try bob.refresh() } catch is StorageUnavailable { continue }
        }
        #expect(seen.map(titles) == titles(ours))
        // Bob's next move reaches alice through the new LISTEN.
        let bobs = moved(try #require(seen), "Set up CI", to: 1)
        _ = try bob.commit(base: try #require(seen), ours: bobs)
        let fd = try #require(alice.changeDescriptor)
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        #expect(poll(&p, 1, 2000) == 1)
        #expect(try alice.refresh().map(titles) == titles(bobs))
        _ = b0
    }

    @Test func aCommitWhoseReplyWasLostIsNotAppliedTwiceWhenRepeated() throws {
        let (alice, bob, _) = try sharedBoard()
        let a0 = try alice.load()
        var ours = moved(a0, "Fix login", to: 1)
        ours.columns.append(Column(title: "Archive", cards: [Card(id: CardID.fresh(), title: "New card")]))
        ours.columns[0].cards.append(Card(id: CardID.fresh(), title: "Another new card"))
        alice.dropReplyToNextCommit = true
        #expect(throws: StorageUnavailable.self) { try alice.commit(base: a0, ours: ours) }
        // The commit did reach the database (bob sees it, once the server has read on to the COMMIT)…
        var seen = try bob.load()
        for _ in 0..<100 where titles(seen) != titles(ours) {
            usleep(20_000)
            seen = try bob.load()
        }
        #expect(titles(seen) == titles(ours))
        // …and the app repeats it: nothing twice, nothing lost, no conflict.
        let again = try alice.commit(base: a0, ours: ours)
        #expect(again.conflicts.isEmpty)
        #expect(titles(again.board) == titles(ours))
        #expect(again.board.allIDs == ours.allIDs)
        #expect(titles(try bob.load()) == titles(ours))
        // A fresh client repeating it without the token: the version checks make it a no-op for cards.
        let other = try PostgresBoardStore.open(url: alice.url.display)
        _ = try other.load()
        var cardsOnly = moved(a0, "Fix login", to: 1)
        cardsOnly.columns[0].cards.append(ours.columns[0].cards.last!)
        let replay = try other.commit(base: a0, ours: cardsOnly)
        #expect(replay.conflicts.isEmpty)
        #expect(titles(replay.board) == titles(ours))
    }

    @Test func aClientKilledMidTransactionLeavesNothingHalfDone() throws {
        let (alice, _, name) = try sharedBoard()
        let before = try alice.load()
        // A client that writes two statements of a transaction and is killed before COMMIT.
        let victim = try server.connect("alice")
        let pid = try victim.query("SELECT pg_backend_pid()")[0, 0]!
        try victim.query("BEGIN")
        let boardID = try victim.query("SELECT id FROM lanes.boards WHERE name = $1", [name]).int(0, 0)!
        try victim.query("UPDATE lanes.boards SET version = version + 1 WHERE id = $1", [String(boardID)])
        try victim.query("UPDATE lanes.cards SET title = 'half done' WHERE board_id = $1", [String(boardID)])
        try victim.query(
            """
            INSERT INTO lanes.card_deletions (board_id, id)
            SELECT board_id, id FROM lanes.cards WHERE board_id = $1 AND title = 'half done' AND key < 'V'
            """, [String(boardID)])
        let killer = try server.connect("postgres")
        #expect(try killer.query("SELECT pg_terminate_backend($1)", [pid])[0, 0] == "t")
        #expect(throws: StorageUnavailable.self) { try victim.query("COMMIT") }
        let after = try alice.load()
        #expect(after == before)
        // And the board still takes commits (no lock left behind).
        let out = try alice.commit(base: after, ours: moved(after, "Set up CI", to: 0, at: 0))
        #expect(out.conflicts.isEmpty)
        #expect(titles(out.board)[0].first == "Set up CI")
    }

    @Test func randomSessionsOfTwoClientsConverge() throws {
        let (alice, bob, _) = try sharedBoard()
        var boards = [try alice.load(), try bob.load()]
        let stores = [alice, bob]
        var rng = SystemRandomNumberGenerator()
        for step in 0..<120 {
            let who = Int.random(in: 0...1, using: &rng)
            if let fresh = try stores[who].refresh() { boards[who] = fresh }
            var ours = boards[who]
            let all = ours.columns.indices.flatMap { s in
                ours.columns[s].cards.indices.map { ItemPath(section: s, item: $0) }
            }
            switch Int.random(in: 0..<10, using: &rng) {
            case 0..<6 where !all.isEmpty:
                let from = all.randomElement(using: &rng)!
                let card = ours.columns[from.section].cards.remove(at: from.item)
                let to = Int.random(in: 0..<ours.columns.count, using: &rng)
                ours.columns[to].cards.insert(card, at: Int.random(in: 0...ours.columns[to].cards.count, using: &rng))
            case 6:
                ours.columns[Int.random(in: 0..<ours.columns.count, using: &rng)].cards.insert(
                    Card(id: CardID.fresh(), title: "card \(step)"), at: 0)
            case 7 where !all.isEmpty:
                let at = all.randomElement(using: &rng)!
                ours.columns[at.section].cards.remove(at: at.item)
            case 8 where !all.isEmpty:
                let at = all.randomElement(using: &rng)!
                ours[at].title += " ·\(step)"
            default:
                ours.columns[0].cards.append(Card(id: CardID.fresh(), title: "tail \(step)"))
            }
            // Now and then the other side is a step behind (a stale base).
            let out = try stores[who].commit(base: boards[who], ours: ours)
            boards[who] = out.board
            #expect(Set(out.board.allIDs).count == out.board.cardCount)
        }
        // Whichever is behind the database is told so through its descriptor, and catches up.
        let observer = try PostgresBoardStore.open(url: alice.url.display)
        _ = try observer.load()
        for i in 0..<2 where stores[i].version < observer.version {
            var p = pollfd(fd: try #require(stores[i].changeDescriptor), events: Int16(POLLIN), revents: 0)
            #expect(poll(&p, 1, 2000) == 1)
            boards[i] = try #require(try stores[i].refresh())
        }
        for i in 0..<2 { #expect(stores[i].version == observer.version) }
        let truth = try PostgresBoardStore.open(url: alice.url.display).load()
        #expect(boards[0] == truth)
        #expect(boards[1] == truth)
    }
}

@Suite struct OrderKeyTests {
    @Test func keysFitBetweenAnyTwoAndStayOrdered() throws {
        var keys = OrderKey.spread(5)
        #expect(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<2000 {
            let i = Int.random(in: 0...keys.count, using: &rng)
            let k = try #require(OrderKey.between(i > 0 ? keys[i - 1] : nil, i < keys.count ? keys[i] : nil))
            #expect(!k.hasSuffix("0"))
            keys.insert(k, at: i)
        }
        #expect(keys == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
        #expect(Set(keys).count == keys.count)
    }

    @Test func repeatedInsertsAtOnePlaceGrowSlowly() throws {
        var lo = "V", hi = "W"
        for _ in 0..<60 { hi = try #require(OrderKey.between(lo, hi)) }
        #expect(hi.count <= 14)
        lo = try #require(OrderKey.between(nil, "1"))
        #expect(lo < "1")
        #expect(OrderKey.spread(10_000).count == 10_000)
        #expect(Set(OrderKey.spread(10_000)).count == 10_000)
    }

    /// Keys a member wrote by hand (SQL): equal, one `0` longer than a neighbour, bytes that are
    /// not digits, the wrong way round. A key is found whenever one fits, as the database orders
    /// them (bytes), and none (never a crash) when none does.
    @Test func keysWrittenByHandGiveAKeyWhenOneFitsAndNoneOtherwise() {
        let pieces = ["0", "1", "9", "A", "V", "z", "-", "~", "00", "zx5", "zx50"]
        var rng = SystemRandomNumberGenerator()
        func random() -> String? {
            Int.random(in: 0..<6, using: &rng) == 0
                ? nil
                : (0..<Int.random(in: 0...3, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        }
        let digits = Set("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
        var found = 0, none = 0
        for _ in 0..<20_000 {
            let a = random(), b = random()
            let ab = Array((a ?? "").utf8)
            if let k = OrderKey.between(a, b) {
                found += 1
                let kb = Array(k.utf8)
                #expect(ab.lexicographicallyPrecedes(kb), "\(a ?? "nil") < \(k)")
                if let b { #expect(kb.lexicographicallyPrecedes(Array(b.utf8)), "\(k) < \(b)") }
                #expect(kb.dropFirst(ab.count).allSatisfy(digits.contains), "what \(k) adds is digits")
            } else {
                none += 1
                // No key fits: b is not after a, or b is a then "0" alone or a byte below every digit.
                let bb = Array((b ?? "").utf8)
                let roomless =
                    !ab.lexicographicallyPrecedes(bb)
                    || (bb.starts(with: ab)
                        && (bb.dropFirst(ab.count) == [UInt8(ascii: "0")] || bb[ab.count] < UInt8(ascii: "0")))
                #expect(b != nil && roomless, "\(a ?? "nil") … \(b ?? "nil"): a key fits")
            }
        }
        #expect(found > 1_000 && none > 1_000)
        #expect(OrderKey.between("zx5", "zx5") == nil)
        #expect(OrderKey.between("zx5", "zx50") == nil)
        #expect(OrderKey.between("zx50", "zx5") == nil)
        #expect(OrderKey.between("a", "a-") == nil)
        #expect(OrderKey.between("a", "a1") == "a0V")
        #expect(OrderKey.between("zx5", "zx500") == "zx50")
    }
}

@Suite struct PostgresURLTests {
    @Test func boardIsTakenOutAndThePasswordNeverShown() throws {
        let u = try PostgresURL(
            "postgresql://bob:s3cret@db.example:5433/team?sslmode=require&board=My%20Board&password=other")
        #expect(u.board == "My Board")
        #expect(u.conninfo == "postgresql://bob:s3cret@db.example:5433/team?sslmode=require&password=other")
        #expect(u.display == "postgresql://bob@db.example:5433/team?sslmode=require&password=***&board=My%20Board")
        #expect(!u.display.contains("s3cret") && !u.display.contains("other"))
        #expect(PostgresURL.isURL("postgres://x@y/z?board=b"))
        #expect(!PostgresURL.isURL("board.md"))
        #expect(throws: CommandError.self) { try PostgresURL("postgresql://bob:s3cret@h/db") }
        do {
            _ = try PostgresURL("postgresql://bob:s3cret@h/db")
        } catch {
            #expect(!"\(error)".contains("s3cret"))
        }
        #expect(
            Masking.mask("connection to postgresql://u:pw@h failed, password=pw2 bad")
                == "connection to postgresql://u@h failed, password=*** bad")
    }

    @Test func anUnreachableServerIsOfflineQuicklyWithoutThePassword() throws {
        let start = Date()
        do {
            _ = try PostgresBoardStore.open(url: "postgresql://bob:s3cret@127.0.0.1:1/db?board=x", timeout: 2)
            Issue.record("connected to nothing")
        } catch let e as StorageUnavailable {
            #expect(!e.description.contains("s3cret"))
            #expect(e.description.contains("postgresql://bob@127.0.0.1:1/db"))
        }
        #expect(Date().timeIntervalSince(start) < 3)
    }
}
