import DragKit
import Foundation
#if canImport(Glibc)
    import Glibc
#endif
@testable import LanesCore
import SeededRandom
import Testing

/// A mover stopped at a step, as a crash would stop it.
private struct SimulatedCrash: Error {}

extension ScratchFolder {
    /// A fresh folder in `/dev/shm` when there is one: memory, where `fsync` costs nothing (for the many-moves
    /// test, which is about process crashes, not power loss), else in the temp folder.
    static func inMemory() -> ScratchFolder {
        var template = Array("/dev/shm/lanes-moves-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!).map { String(cString: $0) } }
        guard let made else { return ScratchFolder() }
        return ScratchFolder(path: made)
    }

    private init(path: String) { self.path = path }
}

/// Two file boards and a move journal in a scratch folder.
private struct TwoBoards {
    var dir = ScratchFolder()
    var a: String { dir.file("a.md") }
    var b: String { dir.file("b.md") }
    var journal: MoveJournal { MoveJournal(folder: dir.file("state/moves")) }

    init(
        a aText: String = "## To do\n\n- Alpha\n- Beta\n    > the details\n    * [x] a step\n\n## Done\n",
        b bText: String = "## Inbox\n\n- Gamma\n\n## Later\n", inMemory: Bool = false
    ) {
        if inMemory { dir = .inMemory() }
        writeBehindTheBack(Array(aText.utf8), to: a)
        writeBehindTheBack(Array(bText.utf8), to: b)
    }

    func endpoint(_ path: String) -> CrossBoardMove.Endpoint { .init(key: path, storage: FileBoardStore.unread(path)) }

    func move(
        _ card: String, from: String, to: String, column: String, position: Int? = nil, force: Bool = false,
        step: (CrossBoardMove.Step) throws -> Void = { _ in }
    ) throws -> CrossBoardMove.Outcome {
        try CrossBoardMove.move(
            cards: [card], from: endpoint(from), to: endpoint(to), column: column, position: position,
            force: force, journal: journal, step: step)
    }

    func recover() -> [CrossBoardMove.Recovered] {
        CrossBoardMove.recover(journal: journal) { FileBoardStore.unread($0) }
    }

    func board(_ path: String) throws -> Board { try FileBoardStore.load(path).board }

    func text(_ path: String) -> String { String(decoding: contents(of: path) ?? [], as: UTF8.self) }

    /// How many times each title is on either board.
    func titleCounts() throws -> [String: Int] {
        var counts: [String: Int] = [:]
        for path in [a, b] {
            for c in try board(path).columns.flatMap({ Array($0.cards) }) { counts[c.title, default: 0] += 1 }
        }
        return counts
    }

    /// The move records in the journal (not the boards' lock files).
    var records: [String] { POSIX.entries(of: journal.folder).filter { !$0.hasSuffix(".lock") }.sorted() }
}

@Suite struct CrossBoardMoveTests {
    @Test func aMoveTakesTheWholeCardToTheTargetColumnAndPositionAndLeavesNoRecord() throws {
        let t = TwoBoards(); defer { t.dir.remove() }
        let out = try t.move("Beta", from: t.a, to: t.b, column: "Inbox", position: 1)
        #expect(out.titles == ["Beta"] && out.targetColumn == "Inbox" && out.position == 1 && out.keptOnSource.isEmpty)
        #expect(t.text(t.a) == "## To do\n\n- Alpha\n\n## Done\n")
        let target = try t.board(t.b)
        #expect(target.columns[0].cards.map(\.title) == ["Beta", "Gamma"])
        #expect(target.columns[0].cards[0].descriptionLines == ["the details"])
        #expect(target.columns[0].cards[0].subtasks == [Subtask("a step", done: true)])
        #expect(t.records.isEmpty)
        #expect(POSIX.status(t.journal.folder).map { $0.st_mode & 0o777 } == .success(0o700))
    }

    @Test func everyRefusalSaysWhyAndLeavesBothBoardsAsTheyWere() throws {
        let t = TwoBoards(b: "## Inbox\n\n- Gamma\n\n## Full (1)\n\n- Delta\n"); defer { t.dir.remove() }
        let before = (t.text(t.a), t.text(t.b))
        func refused(_ expected: String, _ body: () throws -> Void) {
            do { try body(); Issue.record("not refused: \(expected)") } catch {
                #expect("\(error)".contains(expected), "\(error)")
            }
            #expect((t.text(t.a), t.text(t.b)) == before)
            #expect(t.records.isEmpty)
        }
        refused("already on") { _ = try t.move("Alpha", from: t.a, to: t.a, column: "Done") }
        refused("no column matches \"Nowhere\"") { _ = try t.move("Alpha", from: t.a, to: t.b, column: "Nowhere") }
        refused("does not exist") { _ = try t.move("Alpha", from: t.a, to: t.dir.file("none.md"), column: "Inbox") }
        refused("position 5 is outside") { _ = try t.move("Alpha", from: t.a, to: t.b, column: "Inbox", position: 5) }
        refused("no card matches") { _ = try t.move("Omega", from: t.a, to: t.b, column: "Inbox") }
        let notABoard = t.dir.file("data.bin")
        writeBehindTheBack([0, 1, 2, 0xFF], to: notABoard)
        refused("data.bin:1") { _ = try t.move("Alpha", from: t.a, to: notABoard, column: "Inbox") }
        chmod(t.b, 0o444)
        refused("read-only") { _ = try t.move("Alpha", from: t.a, to: t.b, column: "Inbox") }
        chmod(t.b, 0o644)
        if getuid() != 0 {  // root reads anything
            chmod(t.b, 0o000)
            refused("Cannot read") { _ = try t.move("Alpha", from: t.a, to: t.b, column: "Inbox") }
            chmod(t.b, 0o644)
        }
        #expect(try t.board(t.b).columns[1].wipLimit == 1)
        refused("is full (WIP limit 1)") { _ = try t.move("Alpha", from: t.a, to: t.b, column: "Full") }
        _ = try t.move("Alpha", from: t.a, to: t.b, column: "Full", force: true)
        #expect(try t.board(t.b).columns[1].cards.map(\.title) == ["Delta", "Alpha"])
    }

    /// The target's door knows what its file can keep: a done card is refused by a taskell board
    /// (both files as they were, no record), and lines only Obsidian keeps arrive as description
    /// lines, which taskell keeps. Nothing a card carries is dropped on the way.
    @Test func aTaskellTargetRefusesADoneCardAndKeepsExtraLinesAsDescription() throws {
        let obsidian =
            "---\n\nkanban-plugin: basic\n\n---\n\n## To do\n\n- [x] Shipped\n- [ ] Notes\nsome extra line\n\n## Done\n\n"
        let t = TwoBoards(a: obsidian); defer { t.dir.remove() }
        #expect(try t.board(t.a).columns[0].cards[1].extraLines.contains("some extra line"))
        let before = (t.text(t.a), t.text(t.b))
        do {
            _ = try t.move("Shipped", from: t.a, to: t.b, column: "Inbox")
            Issue.record("a done card moved into a taskell file")
        } catch {
            #expect(
                "\(error)"
                    == "“Shipped” is marked done and taskell files have no done mark: nothing changed (mark it not done first)"
            )
        }
        #expect((t.text(t.a), t.text(t.b)) == before)
        #expect(t.records.isEmpty)

        _ = try t.move("Notes", from: t.a, to: t.b, column: "Inbox")
        #expect(t.text(t.b) == "## Inbox\n\n- Gamma\n- Notes\n    > some extra line\n\n## Later\n")
        #expect(try t.board(t.a).columns[0].cards.map(\.title) == ["Shipped"])
    }

    @Test func theTargetsAcceptRuleAppliesByColumnTitle() throws {
        let t = TwoBoards(); defer { t.dir.remove() }
        writeBehindTheBack(Array("accept \"Later\" from \"Doing\"\n".utf8), to: SettingsSidecar.path(forBoard: t.b))
        do { _ = try t.move("Alpha", from: t.a, to: t.b, column: "Later"); Issue.record("not refused") } catch {
            #expect("\(error)".contains("accepts cards only from \"Doing\", not from \"To do\""))
        }
        #expect(try t.titleCounts() == ["Alpha": 1, "Beta": 1, "Gamma": 1])
        #expect(try t.board(t.a).columns[0].cards.count == 2)
    }

    @Test func aFullDiskOnTheTargetLeavesTheCardInTheSourceAndNoRecord() throws {
        let t = TwoBoards(); defer { t.dir.remove() }
        let before = (t.text(t.a), t.text(t.b))
        let target = t.b
        do {
            _ = try SafeFile.$faultInjector.withValue({ step, temp in
                temp.hasPrefix(POSIX.directory(of: target)) && step == .write(offset: 0) ? .fail(ENOSPC) : nil
            }) { try t.move("Alpha", from: t.a, to: t.b, column: "Inbox") }
            Issue.record("the move did not fail")
        } catch {
            #expect("\(error)".contains("No space left on device"), "\(error)")
        }
        #expect((t.text(t.a), t.text(t.b)) == before)
        #expect(t.records.isEmpty)
    }

    @Test func aCrashAtEveryStepIsFinishedOrRolledBackByRecoveryAndRecoveryIsIdempotent() throws {
        for step in CrossBoardMove.Step.allCases {
            let t = TwoBoards(); defer { t.dir.remove() }
            #expect(throws: SimulatedCrash.self) {
                _ = try t.move("Beta", from: t.a, to: t.b, column: "Later") { if $0 == step { throw SimulatedCrash() } }
            }
            #expect(t.records.count == 1)
            let results = t.recover()
            #expect(results.map(\.result) == [step == .recorded ? .rolledBack : .finished], "\(step)")
            #expect(try t.titleCounts() == ["Alpha": 1, "Beta": 1, "Gamma": 1], "\(step)")
            let betaOnB = try t.board(t.b).columns[1].cards.map(\.title) == ["Beta"]
            #expect(betaOnB == (step != .recorded), "\(step)")
            #expect(t.records.isEmpty)
            // Again: nothing left to do, nothing changes.
            let settled = (t.text(t.a), t.text(t.b))
            #expect(t.recover().isEmpty)
            #expect((t.text(t.a), t.text(t.b)) == settled)
        }
    }

    @Test func recoveryLeavesALiveMoveAloneAndOnlyTouchesTheBoardsItIsAskedAbout() throws {
        let t = TwoBoards(); defer { t.dir.remove() }
        var during: [CrossBoardMove.Recovered] = []
        var unrelated: [CrossBoardMove.Recovered] = []
        _ = try t.move("Alpha", from: t.a, to: t.b, column: "Inbox") { step in
            if step == .marked {
                during = t.recover()
                unrelated = CrossBoardMove.recover(journal: t.journal, touching: ["/elsewhere.md"]) {
                    FileBoardStore.unread($0)
                }
            }
        }
        #expect(during.isEmpty && unrelated.isEmpty)
        #expect(try t.titleCounts() == ["Alpha": 1, "Beta": 1, "Gamma": 1])
        #expect(try t.board(t.b).columns[0].cards.map(\.title) == ["Gamma", "Alpha"])
    }

    @Test func aTwinAlreadyInTheTargetIsNotTakenForTheMovedCard() throws {
        // The target holds a card with the same text: the counts in the record tell them apart.
        let t = TwoBoards(a: "## To do\n\n- Same\n- Other\n", b: "## Inbox\n\n- Same\n"); defer { t.dir.remove() }
        for (step, expectOnA) in [(CrossBoardMove.Step.recorded, 1), (.inserted, 0)] {
            writeBehindTheBack(Array("## To do\n\n- Same\n- Other\n".utf8), to: t.a)
            writeBehindTheBack(Array("## Inbox\n\n- Same\n".utf8), to: t.b)
            #expect(throws: SimulatedCrash.self) {
                _ = try t.move("Same", from: t.a, to: t.b, column: "Inbox") { if $0 == step { throw SimulatedCrash() } }
            }
            _ = t.recover()
            #expect(try t.board(t.a).columns[0].cards.filter { $0.title == "Same" }.count == expectOnA, "\(step)")
            #expect(try t.board(t.b).columns[0].cards.count == 2 - expectOnA, "\(step)")
        }
    }

    @Test func aCardEditedOnTheSourceWhileItMovesStaysThereWithTheEditAndLeavesTheTarget() throws {
        let t = TwoBoards(); defer { t.dir.remove() }
        let out = try t.move("Beta", from: t.a, to: t.b, column: "Inbox") { step in
            guard step == .marked else { return }
            // Another writer edits the card between the two writes.
            let other = FileBoardStore.unread(t.a)
            let base = try other.load()
            var ours = base
            ours.columns[0].cards[1].title = "Beta, edited elsewhere"
            _ = try other.commit(base: base, ours: ours)
        }
        #expect(out.keptOnSource == ["Beta"])
        #expect(try t.board(t.a).columns[0].cards.map(\.title) == ["Alpha", "Beta, edited elsewhere"])
        #expect(try t.board(t.b).columns[0].cards.map(\.title) == ["Gamma"])
        #expect(t.records.isEmpty)
    }

    @Test func otherWritersChangesToEitherBoardDuringAMoveAreKept() throws {
        let t = TwoBoards(); defer { t.dir.remove() }
        _ = try t.move("Alpha", from: t.a, to: t.b, column: "Inbox", position: 1) { step in
            func write(_ path: String, _ change: (inout Board) -> Void) throws {
                let other = FileBoardStore.unread(path)
                let base = try other.load()
                var ours = base
                change(&ours)
                _ = try other.commit(base: base, ours: ours)
            }
            if step == .recorded {
                try write(t.b) { $0.columns[1].cards.append(Card(id: CardID.fresh(), title: "Added on b")) }
            }
            if step == .marked {
                try write(t.a) { $0.columns[1].cards.append(Card(id: CardID.fresh(), title: "Added on a")) }
            }
        }
        #expect(try t.board(t.a).columns.map { $0.cards.map(\.title) } == [["Beta"], ["Added on a"]])
        #expect(try t.board(t.b).columns.map { $0.cards.map(\.title) } == [["Alpha", "Gamma"], ["Added on b"]])
    }

    /// The terminal's move (#27): the cards the screen showed, found again by content after another writer
    /// changed the source in between (twins added, other cards renamed, a shown card edited), 300 rounds.
    /// Every card is on exactly one board after each; a card edited meanwhile is refused and nothing moves.
    @Test func cardsShownOnScreenAreFoundByContentAfterOtherWritersChangedTheBoard() throws {
        var rng = SplitMix64(seed: 27)
        var (moved, refused) = (0, 0)
        for round in 0..<300 {
            let names = ["Alpha", "Beta", "Alpha", "Gamma", "Beta", "Delta"]
            let t = TwoBoards(
                a: "## To do\n\n" + names.map { "- \($0)\n" }.joined() + "\n## Done\n\n- Alpha\n",
                b: "## Inbox\n\n- Omega\n", inMemory: true)
            defer { t.dir.remove() }
            let screen = try t.board(t.a)
            var shown: [(card: Card, column: String, row: Int)] = []
            for (s, column) in screen.columns.enumerated() {
                for (i, card) in column.cards.enumerated() where Int.random(in: 0..<3, using: &rng) == 0 {
                    shown.append((card, screen.columns[s].title, i))
                }
            }
            if shown.isEmpty { shown = [(screen.columns[0].cards[0], "To do", 0)] }
            // Another writer, between the screen and the move.
            let other = FileBoardStore.unread(t.a)
            let base = try other.load()
            var theirs = base
            var editedShown = false
            for _ in 0..<Int.random(in: 0...3, using: &rng) {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:  // a twin of some card, anywhere
                    let title = names.randomElement(using: &rng)!
                    let s = Int.random(in: 0..<2, using: &rng)
                    theirs.columns[s].cards.insert(
                        Card(id: CardID.fresh(), title: title),
                        at: Int.random(in: 0...theirs.columns[s].cards.count, using: &rng))
                case 1:  // a card renamed: shown or not
                    let s = Int.random(in: 0..<2, using: &rng)
                    guard !theirs.columns[s].cards.isEmpty else { continue }
                    let i = Int.random(in: 0..<theirs.columns[s].cards.count, using: &rng)
                    // A renamed card with a twin leaves the twin to be found; the shown card is gone only
                    // when fewer cards of its content remain than were shown (`editedShown` below).
                    theirs.columns[s].cards[i].title += " (renamed)"
                default:
                    break
                }
            }
            _ = try other.commit(base: base, ours: theirs)
            let before = (t.text(t.a), t.text(t.b))
            let storedA = try t.board(t.a)
            // Whether every shown card still has a distinct copy of its content on the source.
            var available: [String: Int] = [:]
            for c in storedA.columns.flatMap({ Array($0.cards) }) { available[c.title, default: 0] += 1 }
            var needed: [String: Int] = [:]
            for s in shown { needed[s.card.title, default: 0] += 1 }
            editedShown = needed.contains { available[$0.key, default: 0] < $0.value }
            let countsBefore = try t.titleCounts()
            do {
                let outcome = try CrossBoardMove.move(
                    selecting: { try CrossBoardMove.paths(of: shown, in: $0) },
                    from: t.endpoint(t.a), to: t.endpoint(t.b), column: "Inbox", journal: t.journal)
                #expect(!editedShown, "round \(round): a card changed meanwhile must be refused")
                #expect(outcome.titles.sorted() == shown.map(\.card.title).sorted(), "round \(round)")
                #expect(try t.titleCounts() == countsBefore, "round \(round): every card exactly once")
                let inbox = try t.board(t.b).columns[0].cards.map(\.title)
                #expect(
                    Array(inbox.suffix(shown.count)) == shown.map(\.card.title), "round \(round): in the order shown")
                moved += 1
            } catch let error as CommandError {
                refused += 1
                #expect(editedShown, "round \(round): refused although every card was there: \(error)")
                #expect(error.message.contains("changed or went away on its board meanwhile"))
                #expect((t.text(t.a), t.text(t.b)) == before, "round \(round): a refusal changes nothing")
            }
            #expect(t.journal.takePending().pending.isEmpty)
        }
        #expect(moved > 100 && refused > 10, "both outcomes are exercised: \(moved) moved, \(refused) refused")
    }

    /// 1,000 moves back and forth between two file boards, each stopped at a random step (or not at all), with
    /// another writer adding and editing cards at random points, recovery after each: every card exactly once.
    @Test func manyMovesCrashedAtRandomStepsWithOtherWritersKeepEveryCardExactlyOnce() throws {
        var rng = SplitMix64(seed: 27)
        let t = TwoBoards(
            a: "## To do\n\n" + (0..<12).map { "- card \($0)\n" }.joined() + "\n## Done\n",
            b: "## Inbox\n\n" + (12..<20).map { "- card \($0)\n" }.joined() + "\n## Later\n", inMemory: true)
        defer { t.dir.remove() }
        var expected = Set((0..<20).map { "card \($0)" })
        var next = 20
        var crashes = 0, finished = 0, rolledBack = 0
        for round in 0..<1000 {
            let fromA = Bool.random(using: &rng)
            let (from, to) = fromA ? (t.a, t.b) : (t.b, t.a)
            let source = try t.board(from), target = try t.board(to)
            let cards = source.columns.flatMap { Array($0.cards) }
            guard !cards.isEmpty else { continue }
            let card = cards[Int.random(in: 0..<cards.count, using: &rng)]
            let column = target.columns[Int.random(in: 0..<target.columns.count, using: &rng)].title
            let crashAt = CrossBoardMove.Step(rawValue: Int.random(in: 0...5, using: &rng))
            let otherAt = CrossBoardMove.Step(rawValue: Int.random(in: 1...6, using: &rng))
            do {
                _ = try t.move(card.title, from: from, to: to, column: column) { step in
                    if step == otherAt {
                        // Another writer adds a card to one board and renames one that is not moving.
                        let path = Bool.random(using: &rng) ? t.a : t.b
                        let other = FileBoardStore.unread(path)
                        let base = try other.load()
                        var ours = base
                        let s = Int.random(in: 0..<ours.columns.count, using: &rng)
                        ours.columns[s].cards.append(Card(id: CardID.fresh(), title: "card \(next)"))
                        expected.insert("card \(next)")
                        next += 1
                        if let (c, i) = ours.columns.indices.lazy.flatMap({ c in
                            ours.columns[c].cards.indices.map { (c, $0) }
                        })
                        .first(where: {
                            ours.columns[$0.0].cards[$0.1].title != card.title
                                && Int.random(in: 0..<4, using: &rng) == 0
                        }) {
                            let old = ours.columns[c].cards[i].title
                            ours.columns[c].cards[i].title = old + "+"
                            expected.remove(old)
                            expected.insert(old + "+")
                        }
                        _ = try other.commit(base: base, ours: ours)
                    }
                    if step == crashAt { throw SimulatedCrash() }
                }
            } catch is SimulatedCrash {
                crashes += 1
            }
            // A record stays while something holds its lock: here a child another suite forks from this test
            // process (fork without exec keeps our descriptors, and so the lock, for its short life). Try again.
            var waited = 0
            repeat {
                for r in t.recover() {
                    if r.result == .finished { finished += 1 }
                    if r.result == .rolledBack { rolledBack += 1 }
                }
                if t.records.isEmpty { break }
                usleep(20_000)
                waited += 1
            } while waited < 500
            let counts = try t.titleCounts()
            #expect(Set(counts.keys) == expected, "round \(round)")
            #expect(counts.values.allSatisfy { $0 == 1 }, "round \(round): \(counts.filter { $0.value != 1 })")
            #expect(t.records.isEmpty)
            if counts.values.contains(where: { $0 != 1 }) || Set(counts.keys) != expected { break }
        }
        #expect(crashes > 500 && finished > 330 && rolledBack > 120)
    }
}
