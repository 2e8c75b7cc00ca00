import DragKit
import Foundation
import SeededRandom
import Testing
@testable import LanesCore
@testable import LanesPostgres

/// Three writers on one PostgreSQL board, their steps interleaved by a seeded random script.
///
/// Alice is a screen as `Runner` keeps one: a document she edits through the door, the board
/// last stored, a storage worker whose reports (`.changed`, `.committed`) she takes in some steps
/// later, so her saves are sent from views of random staleness. Bob, and alice again from the
/// command line (a store of her own; carol stays without a grant: other suites count on it), commit
/// one edit at a time from a board they read some commits ago. The edits: moves of any card to any column at
/// the top, the end or an index; adds at the top, the end or an index; retitles; deletes.
///
/// After every commit, against the rows as stored: every card once; each row the commit wrote is
/// a card its writer's own edits named (no other card's row written: not its column, key, title or
/// version); a card the writer moved, retitled or deleted that is not as the writer left it is named
/// in the commit's words. So no writer's completed change is undone by another's commit.
@Suite("PostgreSQL: writers interleaved from stale views never undo one another", .serialized)
struct InterleavedWritersTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    @Test("seeded scripts of 200 steps", arguments: [UInt64(41_11), 7, 2026])
    func writersInterleaved(seed: UInt64) throws {
        var run = try WritersRun(server: server, seed: seed)
        for step in 0..<200 { try run.step(step) }
        try run.finish()
        #expect(run.commits > 40, "too few commits to say anything: \(run.commits)")
    }
}

/// A stored card: where it is and what it holds (rows compared before and after a commit).
struct StoredRow: Equatable {
    var column: String
    var key: String
    var title: String
    var version: Int64
    var changedBy: String
}

struct WritersRun {
    struct Stop: Error {}

    /// What one commit meant to do: each card it names, and where it was meant to end.
    struct Intent {
        enum Goal: Equatable {
            case placed(column: String)
            case titled(String)
            case deleted
        }
        var goals: [CardID: [Goal]] = [:]
        /// Cards a card moved within its column passed: which of the two moved a board cannot say
        /// (the commit may write either's key), so their rows may take a new key, nothing else.
        var passed = Set<CardID>()
        mutating func add(_ id: CardID, _ goal: Goal) { goals[id, default: []].append(goal) }
        mutating func formUnion(_ other: Intent) {
            for (id, g) in other.goals { goals[id, default: []] += g }
            passed.formUnion(other.passed)
        }

        /// The cards whose order to `id` differs in `after` from `before`, in a column it stayed in.
        mutating func notePassed(_ id: CardID, before: Board, after: Board) {
            guard let from = before.indexPath(for: id), let to = after.indexPath(for: id),
                before.columns[from.section].id == after.columns[to.section].id
            else { return }
            let was = before.columns[from.section].cards.map(\.id), now = after.columns[to.section].cards.map(\.id)
            let above = Set(was[..<from.item]), nowAbove = Set(now[..<to.item])
            passed.formUnion(above.symmetricDifference(nowAbove).subtracting([id]))
        }
    }

    enum Report {
        case changed(Board)
        case committed(CommitOutcome)
    }

    let server: TestServer
    var rng: SplitMix64
    let raw: PGConnection
    let boardID: Int64
    var token = 0
    private(set) var commits = 0

    // Alice's screen.
    let alice: PostgresBoardStore
    var document: BoardDocument
    var synced: Board
    var unsaved = Intent()
    /// Sent to the worker: base, ours, what it means; `ran`: the worker committed it (its report
    /// queued); `answerBase`: what its answer is absorbed from (`ours` with what came in since merged in, as `Runner` does).
    var inFlight: (base: Board, ours: Board, intent: Intent, ran: Bool, answerBase: Board)?
    var reports: [Report] = []
    /// What alice's screen said when it took boards in (the merge's words: an edit kept over her delete…).
    var aliceHeard: [String] = []

    // Bob and alice's command line: stores and the boards they read, oldest first.
    let others: [PostgresBoardStore]
    var views: [[Board]]

    init(server: TestServer, seed: UInt64) throws {
        self.server = server
        rng = SplitMix64(seed: seed)
        let name = TestServer.boardName("interleaved")
        var text = ""
        for (c, column) in ["To do", "Doing", "Review", "Done"].enumerated() {
            text += "## \(column)\n\n" + (0..<4).map { "- c\(c)\($0)\n" }.joined() + "\n"
        }
        let (board, info) = try BoardFormat.parse(text, file: "board.md")
        alice = try PostgresBoardStore.create(url: server.url("alice", board: name), board: board, info: info)
        try alice.grant(role: "bob")
        boardID = alice.boardID
        synced = try alice.load()
        _ = try alice.refresh()  // a screen's first look: it LISTENs from here on
        document = BoardDocument(board: synced)
        others = try ["bob", "alice"].map { try PostgresBoardStore.open(url: server.url($0, board: name)) }
        views = try others.map { [try $0.load()] }
        raw = try server.connect("alice")
    }

    mutating func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }

    mutating func title(_ who: String) -> String {
        token += 1
        return "\(who)\(token)"
    }

    /// A random edit on `board`, and what it means.
    mutating func randomEdit(on board: Board, by who: String) -> (BoardEdit, Intent)? {
        let cards = board.columns.flatMap { $0.cards.map(\.id) }
        let columns = board.columns.map(\.id)
        var intent = Intent()
        var roll = int(20)
        if roll < 6 && cards.count > 24 { roll = 19 }
        let slots: [CardSlot] = [.top, .top, .end, .index(int(4)), .index(1)]
        if roll < 6 || cards.isEmpty {
            let c = int(columns.count)
            let card = Card(id: CardID.fresh(), title: title(who))
            intent.add(card.id, .placed(column: board.columns[c].title))
            return (.addCard(card, column: columns[c], at: slots[int(slots.count)], fallbackColumn: c), intent)
        }
        let card = cards[int(cards.count)]
        switch roll {
        case 6..<9:
            let t = title(who)
            intent.add(card, .titled(t))
            return (.setTitle(card, t, seen: nil), intent)
        case 9..<17:
            let c = int(columns.count)
            intent.add(card, .placed(column: board.columns[c].title))
            return (.moveCards([card], to: columns[c], at: slots[int(slots.count)]), intent)
        default:
            intent.add(card, .deleted)
            return (.deleteCards([card], seen: nil), intent)
        }
    }

    mutating func step(_ n: Int) throws {
        switch int(12) {
        case 0..<3:  // alice edits what her screen shows
            guard let (edit, asked) = randomEdit(on: document.board, by: "a") else { return }
            var intent = asked
            let shown = document.board
            if (try? document.apply(edit)) != nil {
                if case .moveCards(let ids, _, _) = edit {
                    intent.notePassed(ids[0], before: shown, after: document.board)
                }
                unsaved.formUnion(intent)
            }
        case 3:  // her worker looks (a notification may not have arrived yet: then nothing)
            if let b = try alice.refresh() { reports.append(.changed(b)) }
        case 4..<6:  // the screen sends what is unsaved (one commit at a time)
            if inFlight == nil, document.board != synced {
                inFlight = (synced, document.board, unsaved, false, document.board)
                unsaved = Intent()
            }
            if inFlight?.ran == false, int(2) == 0 { try aliceCommits(n) }
        case 6:
            if inFlight?.ran == false { try aliceCommits(n) }
        case 7..<9:  // the screen takes in its worker's reports
            try takeReports(n)
        default:
            try otherCommits(n, who: int(2))
        }
    }

    mutating func aliceCommits(_ n: Int) throws {
        guard let f = inFlight else { return }
        let store = alice
        let outcome = try committing(n, "alice", f.intent) { try store.commit(base: f.base, ours: f.ours) }
        inFlight!.ran = true
        reports.append(.committed(outcome))
    }

    /// As `Runner.process`: `.changed` merges under the document; `.committed` ends the commit in flight.
    mutating func takeReports(_ n: Int) throws {
        for report in reports {
            switch report {
            case .changed(let board):
                aliceHeard += document.absorb(stored: board, base: synced).conflicts.map(\.message)
                if let f = inFlight {
                    inFlight!.answerBase = BoardMerge.merge(base: synced, ours: f.answerBase, theirs: board).board
                }
                synced = board
            case .committed(let outcome):
                let sent = inFlight!.answerBase
                inFlight = nil
                synced = outcome.board
                aliceHeard += document.absorb(stored: outcome.board, base: sent).conflicts.map(\.message)
            }
            let ids = document.board.allIDs
            if Set(ids).count != ids.count {
                Issue.record("step \(n): alice's screen shows a card twice"); throw Stop()
            }
        }
        reports = []
    }

    mutating func otherCommits(_ n: Int, who: Int) throws {
        let store = others[who]
        let name = who == 0 ? "bob" : "alice's command line"
        if int(3) == 0, let b = try store.refresh() { views[who].append(b) }
        // A view of random staleness: one of the last few this writer read.
        let view = views[who][max(0, views[who].count - 1 - int(4))]
        guard let (edit, asked) = randomEdit(on: view, by: name == "bob" ? "b" : "c"),
            let ours = try? view.applying(edit).board
        else { return }
        var intent = asked
        if case .moveCards(let ids, _, _) = edit { intent.notePassed(ids[0], before: view, after: ours) }
        let outcome = try committing(n, name, intent) { try store.commit(base: view, ours: ours) }
        views[who].append(outcome.board)
        if views[who].count > 8 { views[who].removeFirst() }
    }

    /// The rows as stored, by card.
    func rows() throws -> [CardID: StoredRow] {
        let r = try raw.query(
            """
            SELECT c.id, col.title, c.key, c.title, c.version, c.changed_by FROM lanes.cards c
            JOIN lanes.columns col ON col.board_id = c.board_id AND col.id = c.column_id WHERE c.board_id = $1
            """, [String(boardID)])
        var out: [CardID: StoredRow] = [:]
        for i in 0..<r.count {
            let id = CardID(UInt64(bitPattern: r.int(i, 0)!))
            out[id] = StoredRow(
                column: r[i, 1]!, key: r[i, 2]!, title: r[i, 3]!, version: r.int(i, 4)!, changedBy: r[i, 5]!)
        }
        return out
    }

    /// Runs one commit and checks it against the rows before and after.
    mutating func committing(_ n: Int, _ who: String, _ intent: Intent, _ commit: () throws -> CommitOutcome) throws
        -> CommitOutcome
    {
        let before = try rows()
        let outcome = try commit()
        commits += 1
        let after = try rows()
        let words = (outcome.conflicts.map(\.message) + (who == "alice" ? aliceHeard : [])).joined(separator: " · ")
        var faults: [String] = []
        func newKeyOnly(_ a: StoredRow?, _ b: StoredRow?) -> Bool {
            guard let a, let b else { return false }
            return a.column == b.column && a.title == b.title
        }
        for id in Set(before.keys).union(after.keys) where intent.goals[id] == nil && before[id] != after[id] {
            if intent.passed.contains(id) && newKeyOnly(before[id], after[id]) { continue }
            let what = before[id].map { "“\($0.title)” in \($0.column)" } ?? "“\(after[id]!.title)”"
            faults.append(
                "\(who)'s commit wrote \(what), which no edit of \(who)'s named: \(String(describing: before[id])) → \(String(describing: after[id]))"
            )
        }
        for (id, goals) in intent.goals {
            guard let row = after[id] ?? before[id] else { continue }  // added and deleted elsewhere, or never stored
            let titles =
                [row.title]
                + goals.compactMap { g -> String? in
                    if case .titled(let t) = g { return t }
                    return nil
                }
            let told = titles.contains { words.contains("“\($0)”") }
            // The last place (or delete) and the last title each writer's edits asked for.
            let place = goals.last { if case .titled = $0 { return false } else { return true } }
            // (A title asked for before a delete is the delete's.)
            let title =
                place == .deleted ? nil : goals.last { if case .titled = $0 { return true } else { return false } }
            for goal in [place, title].compactMap({ $0 }) {
                let met: Bool
                switch goal {
                case .placed(let column): met = after[id]?.column == column
                case .titled(let t): met = after[id]?.title.contains(t) == true
                case .deleted: met = after[id] == nil
                }
                if !met && !told {
                    faults.append("\(who)'s \(goal) of “\(row.title)” did not happen and was not said: [\(words)]")
                }
            }
        }
        if !faults.isEmpty {
            Issue.record("step \(n): \(faults.joined(separator: "\n"))")
            throw Stop()
        }
        return outcome
    }

    /// Alice saves what is left and takes every report in; then her screen shows what is stored.
    mutating func finish() throws {
        for _ in 0..<4 {
            if inFlight?.ran == false { try aliceCommits(999) }
            try takeReports(999)
            if let b = try alice.refresh() {
                reports.append(.changed(b))
                try takeReports(999)
            }
            if document.board != synced {
                inFlight = (synced, document.board, unsaved, false, document.board)
                unsaved = Intent()
                try aliceCommits(999)
                try takeReports(999)
            }
        }
        let truth = try PostgresBoardStore.open(url: alice.url.display).load()
        #expect(Set(truth.allIDs).count == truth.cardCount)
        #expect(titles(document.board) == titles(truth))
    }
}
