import DragKit
import Foundation
import SeededRandom
import Testing
@testable import LanesCore

/// Local edits, undo and redo interleaved with a second writer's edits, all saved through the
/// real file store, checked after every step.
///
/// Every text anyone types is a fresh token (`L7` typed here, `O7` by the other writer), so a
/// board can be read as a set of tokens: a token on two cards is a duplicated card, a token
/// missing is a lost text. After every step: every card exactly once (identities and tokens
/// unique); every token typed here still on the board unless this session removed it (by an
/// edit, an undo or a redo) or the other writer did; every token the other writer typed still
/// there unless someone removed it on purpose, and never removed by an undo or a redo; a token
/// the other writer removed never comes back unless this session had removed it too (then its
/// own undo puts back what it removed); no title holds more than two tokens (undo and redo
/// never grow a text).
struct UndoSimulation {
    var rng: SplitMix64
    var doc: BoardDocument
    /// The board as the store last handed it to us.
    var synced: Board
    let local: any BoardStore
    let other: any BoardStore
    var next = 0
    var liveLocal = Set<String>()
    var liveOther = Set<String>()
    var deadOther = Set<String>()
    var removedHere = Set<String>()
    var counts: [String: Int] = [:]
    /// Whether `refresh()` returning nil means nothing came in (a file's stat, the memory store);
    /// a store told of changes by notification (PostgreSQL) may not know yet: then no check.
    var exactRefresh = true
    var current = true

    init(seed: UInt64, local: any BoardStore, other: any BoardStore, loaded: Board) {
        rng = SplitMix64(seed: seed)
        self.local = local
        self.other = other
        doc = BoardDocument(board: loaded, historyLimit: 200)
        synced = loaded
    }

    static func tokens(_ board: Board) -> [String] {
        board.columns.flatMap { $0.cards.flatMap { tokens(of: $0.title) } }
    }

    static func tokens(of title: String) -> [String] {
        title.split(separator: " ").map(String.init).filter { $0 != "⟷" }
    }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }

    mutating func token(_ prefix: String) -> String {
        next += 1
        return prefix + String(next)
    }

    /// A random edit of the kinds a person makes to cards, on `board`, with typed text `prefix`n.
    mutating func randomEdit(on board: Board, prefix: String) -> BoardEdit? {
        let cards = board.columns.flatMap { $0.cards.map(\.id) }
        let columns = board.columns.map(\.id)
        guard !columns.isEmpty else { return nil }
        // Adds and deletes balance, and past 30 cards an add becomes a delete: the board stays
        // the size of a real one, so the steps, not a growing board, set the run time.
        var roll = int(20)
        if roll < 5 && cards.count > 30 { roll = 19 }
        if roll < 5 || cards.isEmpty {
            let c = int(columns.count)
            let slot: CardSlot = [.top, .end, .index(int(4))][int(3)]
            return .addCard(
                Card(id: CardID.fresh(), title: token(prefix)), column: columns[c], at: slot, fallbackColumn: c)
        }
        let card = cards[int(cards.count)]
        switch roll {
        case 5..<11: return .setTitle(card, token(prefix), seen: nil)
        case 11..<15: return .moveCards([card], to: columns[int(columns.count)], at: .index(int(5)))
        default: return .deleteCards([card], seen: nil)
        }
    }

    static let trace = ProcessInfo.processInfo.environment["LANES_UNDO_TRACE"] != nil
    func show(_ b: Board) -> String {
        b.columns.map { $0.title + ":" + $0.cards.map(\.title).joined(separator: ",") }.joined(separator: " | ")
    }

    mutating func step(_ n: Int) throws {
        let roll = int(100)
        defer { if Self.trace { print("#\(n) roll \(roll): \(show(doc.board))") } }
        if roll < 40 {
            try otherWrites()
            // Half the time this session reads it at once; else its next save merges it in,
            // and the edits, undos and redos before that act on a board that does not show it yet.
            guard int(2) == 0 else { return }
            current = try refresh() || exactRefresh
        } else {
            let before = doc.board
            var kind = "edit"
            if roll < 70 {
                if let edit = randomEdit(on: doc.board, prefix: "L") { _ = try? doc.apply(edit) }
            } else if roll < 85 {
                kind = "undo"
                _ = doc.undo()
            } else {
                kind = "redo"
                _ = doc.redo()
            }
            let had = Set(Self.tokens(before)), has = Set(Self.tokens(doc.board))
            let vanished = had.subtracting(has)
            if kind != "edit" {
                let reverted = vanished.intersection(liveOther)
                if !reverted.isEmpty {
                    Issue.record("step \(n): \(kind) removed the other writer's \(reverted.sorted())"); throw Stop()
                }
            }
            liveLocal.subtract(vanished)
            liveOther.subtract(vanished)
            removedHere.formUnion(vanished)
            liveLocal.formUnion(has.subtracting(had).filter { $0.hasPrefix("L") })
            counts[kind, default: 0] += 1
            try save()
        }
        try check(n)
    }

    mutating func otherWrites() throws {
        var vanished = Set<String>(), appeared = Set<String>()
        var sim = self
        try BoardCommands.edit(other) { (b: inout Board) in
            guard let edit = sim.randomEdit(on: b, prefix: "O"), let o = try? b.applying(edit) else { return }
            if Self.trace { print("  other: \(edit) -> \(sim.show(o.board))") }
            let had = Set(Self.tokens(b)), has = Set(Self.tokens(o.board))
            vanished = had.subtracting(has)
            appeared = has.subtracting(had)
            b = o.board
        }
        rng = sim.rng
        next = sim.next
        liveOther.subtract(vanished)
        liveLocal.subtract(vanished)
        deadOther.formUnion(vanished)
        liveOther.formUnion(appeared)
        counts["other", default: 0] += 1
    }

    @discardableResult
    mutating func refresh() throws -> Bool {
        guard let stored = try local.refresh() else { return false }
        doc.absorb(stored: stored, base: synced)
        synced = stored
        return true
    }

    mutating func save() throws {
        let ours = doc.board
        // Nothing to save: read what came in instead (as the app's watcher would), so every check sees it all.
        guard ours != synced else { current = try refresh() || exactRefresh; return }
        current = true
        let outcome = try local.commit(base: synced, ours: ours)
        doc.absorb(stored: outcome.board, base: ours)
        synced = outcome.board
    }

    struct Stop: Error {}

    func check(_ n: Int) throws {
        guard current else { return }
        let board = doc.board
        let ids = board.allIDs
        func fail(_ what: String) throws {
            Issue.record("step \(n): \(what)")
            throw Stop()
        }
        if Set(ids).count != ids.count { try fail("a card identity is on two cards") }
        var seen = Set<String>()
        for t in Self.tokens(board) where !seen.insert(t).inserted {
            try fail("\(t) is on two cards (a duplicated card)")
        }
        for c in board.columns {
            for card in c.cards where Self.tokens(of: card.title).count > 2 { try fail("a title grew: \(card.title)") }
        }
        let missingLocal = liveLocal.subtracting(seen)
        if !missingLocal.isEmpty { try fail("text typed here lost: \(missingLocal.sorted())") }
        let missingOther = liveOther.subtracting(seen)
        if !missingOther.isEmpty { try fail("the other writer's text lost: \(missingOther.sorted())") }
        let back = deadOther.intersection(seen).subtracting(removedHere)
        if !back.isEmpty { try fail("what the other writer removed came back: \(back.sorted())") }
    }
}
