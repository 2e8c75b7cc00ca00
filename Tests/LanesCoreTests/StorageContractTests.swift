import DragKit
import Foundation
import Testing
@testable import LanesCore

/// What every `BoardStore` must do, run against each store: two handles on one board (two
/// writers), load, commit, merge with the other writer, conflicts, identities kept, change noticed.
enum StoreKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case file, memory
    var description: String { rawValue }

    static let start = "## To do\n\n- a0\n- a1\n\n## Doing\n\n- b0\n\n## Done\n"

    /// Two handles on a fresh board holding `start`, and what tidies up.
    func open() throws -> (a: any BoardStore, b: any BoardStore, done: () -> Void) {
        switch self {
        case .file:
            let folder = ScratchFolder()
            let path = folder.file("board.md")
            try Array(Self.start.utf8).write(to: path)
            return (FileBoardStore.unread(path), FileBoardStore.unread(path), { folder.remove() })
        case .memory:
            let shared = MemoryBoardStore.Shared(try BoardFormat.parse(Self.start, file: "start").board)
            return (MemoryBoardStore(shared), MemoryBoardStore(shared), {})
        }
    }
}

@Suite("Storage contract (file store, memory store)")
struct StorageContractTests {
    static func titles(_ b: Board) -> [[String]] { b.columns.map { $0.cards.map(\.title) } }

    @Test(arguments: StoreKind.allCases)
    func whatOneWriterCommitsTheOtherLoads(_ kind: StoreKind) throws {
        let (a, b, done) = try kind.open()
        defer { done() }
        let base = try a.load()
        let ours = try base.applying(
            .addCard(Card(id: CardID.fresh(), title: "new"), column: base.columns[2].id, at: .end, fallbackColumn: 2)
        ).board
        let stored = try a.commit(base: base, ours: ours)
        #expect(Self.titles(stored.board) == Self.titles(ours) && stored.conflicts.isEmpty)
        #expect(Self.titles(try b.load()) == [["a0", "a1"], ["b0"], ["new"]])
    }

    @Test(arguments: StoreKind.allCases)
    func aCommitMergesWhatTheOtherWriterCommittedMeanwhile(_ kind: StoreKind) throws {
        let (a, b, done) = try kind.open()
        defer { done() }
        let baseA = try a.load(), baseB = try b.load()
        let theirs = try baseB.applying(
            .addCard(
                Card(id: CardID.fresh(), title: "theirs"), column: baseB.columns[0].id, at: .top, fallbackColumn: 0)
        ).board
        _ = try b.commit(base: baseB, ours: theirs)
        let a1 = baseA.columns[0].cards[1].id
        let ours = try baseA.applying(.moveCards([a1], to: baseA.columns[1].id, at: .end)).board
        let merged = try a.commit(base: baseA, ours: ours)
        #expect(Self.titles(merged.board) == [["theirs", "a0"], ["b0", "a1"], []])
        #expect(merged.conflicts.isEmpty && merged.incomingChanges == 1)
        #expect(Self.titles(try b.load()) == Self.titles(merged.board))
    }

    @Test(arguments: StoreKind.allCases)
    func aCollisionIsReportedAndBothTextsKept(_ kind: StoreKind) throws {
        let (a, b, done) = try kind.open()
        defer { done() }
        let baseA = try a.load(), baseB = try b.load()
        // Every store keeps both texts and reports the collision; a file holds no identities, so
        // the file store may read a rewritten title as the card deleted there and a new one added.
        _ = try b.commit(
            base: baseB,
            ours: try baseB.applying(.setTitle(baseB.columns[0].cards[0].id, "a0 edited there", seen: nil)).board)
        let merged = try a.commit(
            base: baseA,
            ours: try baseA.applying(.setTitle(baseA.columns[0].cards[0].id, "a0 edited here", seen: nil)).board)
        let text = Self.titles(merged.board).flatMap { $0 }.joined(separator: "\n")
        #expect(text.contains("a0 edited here") && text.contains("a0 edited there") && !text.contains("a0\n"))
        #expect(merged.conflicts.count == 1)
        if kind == .memory {
            #expect(
                Self.titles(merged.board)[0] == ["a0 edited here" + CardMerge.titleJoiner + "a0 edited there", "a1"])
            #expect(merged.conflicts.map(\.kind) == [.editedTwice])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func identitiesOfCardsAndColumnsAreKept(_ kind: StoreKind) throws {
        let (a, b, done) = try kind.open()
        defer { done() }
        let baseA = try a.load(), baseB = try b.load()
        // The other writer renames Doing and inserts a column before it.
        var theirs = try baseB.applying(.renameColumn(baseB.columns[1].id, "Now")).board
        theirs = try theirs.applying(.addColumn(Column(title: "Inbox"), at: .index(0))).board
        _ = try b.commit(base: baseB, ours: theirs)
        let ours = try baseA.applying(.setTitle(baseA.columns[1].cards[0].id, "b0 edited", seen: nil)).board
        let merged = try a.commit(base: baseA, ours: ours).board
        #expect(merged.columns.map(\.title) == ["Inbox", "To do", "Now", "Done"])
        #expect(merged.columns[1...].map(\.id) == baseA.columns.map(\.id), "ours' columns keep their identities")
        #expect(merged.allIDs.filter { baseA.allIDs.contains($0) }.count == 3, "ours' cards keep their identities")
        #expect(merged.columns[2].cards.map(\.title) == ["b0 edited"])
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeByTheOtherWriterIsNoticedAndOursIsNot(_ kind: StoreKind) throws {
        let (a, b, done) = try kind.open()
        defer { done() }
        let baseA = try a.load()
        #expect(try a.refresh() == nil, "nothing changed")
        let ours = try baseA.applying(.deleteCards([baseA.columns[0].cards[0].id], seen: nil)).board
        let stored = try a.commit(base: baseA, ours: ours).board
        #expect(try a.refresh() == nil, "our own commit is not news")
        let baseB = try b.load()
        _ = try b.commit(base: baseB, ours: try baseB.applying(.setWIPLimit(baseB.columns[1].id, 3)).board)
        let news = try #require(try a.refresh())
        #expect(news.columns[1].wipLimit == 3 && Self.titles(news) == Self.titles(stored))
        #expect(news.columns.map(\.id) == stored.columns.map(\.id), "a refresh keeps the identities we knew")
        #expect(try a.refresh() == nil)
    }

    /// The undo property, shorter, over the memory store (the app's own test store).
    @Test(arguments: 0..<4)
    func undoPropertyHoldsOverTheMemoryStore(_ seed: UInt64) throws {
        let shared = MemoryBoardStore.Shared(try BoardFormat.parse(UndoPropertyTests.start, file: "start").board)
        let local = MemoryBoardStore(shared)
        var sim = UndoSimulation(
            seed: 1000 + seed, local: local, other: MemoryBoardStore(shared), loaded: try local.load())
        sim.liveOther = ["I1", "I2", "I3", "I4", "I5"]
        do {
            for n in 0..<500 { try sim.step(n) }
        } catch is UndoSimulation.Stop {
            Issue.record("seed \(seed) stopped; steps: \(sim.counts)")
        }
    }
}
