import Foundation
import LanesCore
import LanesPostgres

/// `lanes move … --to-board`, and the recovery of moves a dead process left, run before a command touches a board.
enum CrossBoardCommand {
    /// The key a board has in move records: its absolute path with links resolved, or its URL without a password.
    static func key(_ spec: String) -> String {
        if BoardLocation.isURL(spec) { return (try? PostgresURL(spec).display) ?? spec }
        let absolute = URL(fileURLWithPath: spec).standardizedFileURL.path
        guard let resolved = realpath(absolute, nil) else { return absolute }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Moves the CARDs of `board` to COLUMN of `toBoard` (together, one move); prints what happened like `lanes move`.
    static func run(board: String, cards: [String], toBoard: String, column: String, position: Int?, force: Bool) throws
    {
        let journal = MoveJournal.standard()
        recoverPending(touching: [board, toBoard])
        let source = CrossBoardMove.Endpoint(key: key(board), storage: try BoardLocation.openStorage(board))
        let target = CrossBoardMove.Endpoint(key: key(toBoard), storage: try BoardLocation.openStorage(toBoard))
        let crashAt = ProcessInfo.processInfo.environment["LANES_MOVE_CRASH_AT"].flatMap { Int($0) }
        let outcome = try PostgresCLI.reporting {
            try CrossBoardMove.move(
                cards: cards, from: source, to: target, column: column, position: position,
                force: force, journal: journal
            ) { step in
                // A test's kill point: the process dies here as under kill -9.
                if step.rawValue == crashAt { kill(getpid(), SIGKILL) }
            }
        }
        for c in outcome.conflicts { errorLine("lanes: merged with a change made meanwhile: \(c.message)") }
        if !outcome.keptOnSource.isEmpty {
            let names = outcome.keptOnSource.map { "\"\(BoardCommands.printable($0))\"" }.joined(separator: ", ")
            let moved = outcome.titles.count - outcome.keptOnSource.count
            let rest =
                moved > 0
                ? "; the other \(moved == 1 ? "card" : "\(moved) cards") moved to \(target.storage.displayName)"
                : ", and nothing was added to \(target.storage.displayName)"
            throw CommandError(
                .badInput,
                "\(names) was edited on \(source.storage.displayName) while it moved: it stays there with the edit\(rest)"
            )
        }
        let column = BoardCommands.printable(outcome.targetColumn)
        if outcome.titles.count == 1 {
            let title = BoardCommands.printable(outcome.titles.first ?? "")
            emit(
                "Moved \"\(title)\" to \(target.storage.displayName), \"\(column)\" at position \(outcome.position).\n")
        } else {
            let titles = outcome.titles.map { "\"\(BoardCommands.printable($0))\"" }.joined(separator: ", ")
            emit(
                "Moved \(outcome.titles.count) cards (\(titles)) to \(target.storage.displayName), \"\(column)\" at positions \(outcome.position)–\(outcome.position + outcome.titles.count - 1).\n"
            )
        }
    }

    /// Finishes or rolls back moves left by a process that died, where they touch one of `specs`; said on stderr.
    /// A record that cannot be finished now (a database down) is left for next time.
    static func recoverPending(touching specs: [String]) {
        let journal = MoveJournal.standard()
        guard FileManager.default.fileExists(atPath: journal.folder) else { return }
        let byKey = Dictionary(specs.map { (key($0), $0) }, uniquingKeysWith: { a, _ in a })
        let results = CrossBoardMove.recover(journal: journal, touching: Set(byKey.keys)) { k in
            // The command's own spelling of the board (a URL with its password), else the key itself.
            try BoardLocation.openStorage(byKey[k] ?? k)
        }
        for r in results { errorLine("lanes: \(r.description)") }
    }
}
