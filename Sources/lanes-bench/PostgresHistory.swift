// lanes-bench --pg-history: what the server's history of a big board costs, and reading it back.
//
//   lanes-bench --pg-history [--pg-history-cards 100000] [--pg-history-changes 1000]
//
// A board of 100k cards is copied in (100k "added" rows), then 1,000 changes are committed one
// by one (moves and edits, as a person makes them); measured: bytes per recorded change, the time
// to read the last 1,000 changes (`lanes restore --list --limit 1000`, median of 7; target ≤100 ms)
// and to restore the board as it was before them (`lanes restore --at`). Run by `make bench`
// after --pg-load (same server).
import DragKit
import Foundation
import LanesCore
import LanesPostgres
import SeededRandom
#if canImport(Glibc)
    import Glibc
#endif

func runPostgresHistory() {
    let env = ProcessInfo.processInfo.environment
    guard let dir = env["LANES_PG_DIR"], let port = env["LANES_PG_PORT"] else {
        FileHandle.standardError.write(
            Data("lanes-bench --pg-history: no server (run it through scripts/pg-test-cluster with)\n".utf8))
        exit(2)
    }
    let cardCount = opts.pgHistoryCards, changes = opts.pgHistoryChanges
    let name = "history-\(getpid())"
    let url = "postgresql://alice@/lanes?host=\(dir)&port=\(port)&board=\(name)"
    do {
        try PostgresBoardStore.setUpSchema(url: "postgresql://lanes_admin@/lanes?host=\(dir)&port=\(port)&board=x")
        let board = BoardGenerator.board(cards: cardCount).withoutLimits
        let (store, copyMs) = try timed {
            try PostgresBoardStore.create(url: url, board: board, info: BoardFileInfo(dialect: .taskell))
        }
        let afterCopy = try store.historyFootprint()
        say(
            "PostgreSQL history: \(cardCount) cards copied in \(fmt(copyMs)) ms, recorded as \(afterCopy.rows) rows, \(afterCopy.rowBytes / max(afterCopy.rows, 1)) bytes per added card (row data)"
        )

        var base = try store.load()
        let before = try store.history(limit: 1).first?.at ?? ""
        usleep(10_000)
        var rng = SplitMix64(seed: 2026)
        var commitMs: [Double] = []
        let tableBefore = try store.historyFootprint()
        for i in 0..<changes {
            var ours = base
            if i % 2 == 0 {
                ours = base.randomMove(&rng)!
            } else {
                let from = (0..<ours.columns.count).filter { !ours.columns[$0].cards.isEmpty }.randomElement(
                    using: &rng)!
                let card = ours.columns[from].cards[Int.random(in: 0..<ours.columns[from].cards.count, using: &rng)]
                ours = ours.with(.setTitle(card.id, card.title + " (edited)", seen: nil))
            }
            let (out, t) = try timed { try store.commit(base: base, ours: ours) }
            commitMs.append(t)
            base = out.board
        }
        let after = try store.historyFootprint()
        let newRows = after.rows - tableBefore.rows
        let rowBytes = Double(after.rowBytes - tableBefore.rowBytes) / Double(max(newRows, 1))
        let tableBytes =
            Double(after.tableBytes - tableBefore.tableBytes) / Double(max(after.tableRows - tableBefore.tableRows, 1))
        say(
            "  \(changes) changes (moves and edits, one commit each, commit p50 \(fmt(commitMs.percentile(50))) ms) recorded as \(newRows) rows: \(fmt(rowBytes)) bytes per change (row data), \(fmt(tableBytes)) bytes per change with the table's indexes and pages"
        )
        var readMs: [Double] = []
        var read = 0
        for _ in 0..<7 {
            let (entries, t) = try timed { try store.history(limit: 1000) }
            read = entries.count
            readMs.append(t)
        }
        say(
            "  reading the last \(read) changes of the \(cardCount)-card board (restore --list --limit 1000): median \(fmt(readMs.median)) ms, max \(fmt(readMs.max())) ms: \(readMs.median <= 100 ? "MET" : "MISSED") (≤100 ms)"
        )
        let (done, restoreMs) = try timed { try store.restore(at: before) }
        say(
            "  restore --at before those changes: \(done.undone) changes undone, \(done.outcome.board.cardCount) cards, in \(fmt(restoreMs)) ms"
        )
    } catch {
        FileHandle.standardError.write(Data("lanes-bench --pg-history: \(error)\n".utf8))
        exit(1)
    }
}
