import ArgumentParser
import Foundation
import LanesAgent
import LanesCore
import LanesPostgres

/// `lanes mcp [BOARD|FOLDER|URL|@NAME …]`: the boards as a Model Context Protocol server on stdin and stdout.
struct MCPServe: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp",
        abstract: "Serve boards to an AI agent: a Model Context Protocol server on stdin and stdout.",
        discussion: """
            The boards (files, folders of boards, postgresql:// URLs, @NAME for a saved workspace; default: lanes.md here) are the server's and only they: a board named in a tool call that is none of them is refused. Tools: list_boards, list_columns, read_board, read_card, search_cards, add_card, edit_card, move_card (a column, a position, a swimlane, or another of the boards), mark_done, delete_card (only with confirm: true), undo and redo (of this agent's own edits only; what other writers changed stays), flow_metrics. Every change meets the same rules as the lanes subcommands (WIP limits, accept rules, what a taskell file can hold) and a refusal is the tool's error in the words lanes prints; what others saved meanwhile is merged, never overwritten. Each board is also a resource (lanes-board:BOARD, the JSON of lanes show --json); a subscribed client is told when anyone changes it. On a PostgreSQL board the server's changes are recorded under the URL's role. The server ends when stdin does.
            """
    )

    @Argument(
        help:
            "The boards to serve: files, folders (every board in them), postgresql:// URLs, @NAME for a saved workspace.",
        completion: .file())
    var boards: [String] = []

    func run() throws {
        let (specs, skipped, _) = try WorkspaceBoards.expand(boards.isEmpty ? ["lanes.md"] : boards)
        // A folder's file that is no board is said, not served (the board files of a folder are only
        // candidates until read: one that is none answers every call with why).
        for s in skipped { errorLine("lanes mcp: not served: \(s)") }
        for spec in specs where !BoardLocation.isURL(spec) {
            // A board that is not there is said now, as every command says it (the server creates none).
            guard FileManager.default.fileExists(atPath: spec) else { throw StorageError.notFound(path: spec) }
        }
        AgentServer.run(
            specs: specs, host: Self.host, watch: { spec in try BoardLocation.openStorage(spec) },
            version: LanesVersion.string)
    }

    /// What the agent borrows from the commands: their board locations, words, JSON and moves between boards.
    static var host: AgentHost {
        AgentHost(
            openStorage: { spec in try BoardLocation.storage(spec) },
            words: { error in Self.words(error) },
            showJSON: { board, info, spec, only, more in
                JSONOutput.safe(
                    JSONWriter.write(
                        .object(
                            [("schema_version", .int(JSONSchema.version))]
                                + JSONOutput.show(board, info: info, spec: spec, only: only) + more)))
            },
            info: { store in
                (store as? FileBoardStore)?.info ?? (store as? PostgresBoardStore)?.fileInfo
                    ?? BoardFileInfo(dialect: .taskell)
            },
            moveToBoard: { board, cards, toBoard, column, position, force in
                try Self.moveToBoard(
                    board: board, cards: cards, toBoard: toBoard, column: column, position: position, force: force)
            },
            metrics: { spec, agents in try Self.metrics(spec, agents: agents) },
            key: { spec in CrossBoardCommand.key(spec) })
    }

    /// The line `lanes` prints on stderr for an error that ends a command (`Lanes.fail`).
    static func words(_ error: any Error) -> String {
        if let coded = error as? CodedError { return ErrorWords.report(coded.error).message }
        if let mapped = PostgresCLI.commandError(for: error) { return ErrorWords.report(mapped).message }
        if case StorageError.notFound(let path) = error, let e = error as? StorageError {
            return
                "lanes: \(e.description.dropLast()); `lanes \(Lanes.shellWord(path))` creates it from the starter board"
        }
        return ErrorWords.report(error).message
    }

    /// `lanes move BOARD CARD… --to-board OTHER --to COLUMN`, its line as the command prints it.
    static func moveToBoard(
        board: String, cards: [String], toBoard: String, column: String, position: Int?, force: Bool
    ) throws -> String {
        let journal = MoveJournal.standard()
        CrossBoardCommand.recoverPending(touching: [board, toBoard])
        let source = CrossBoardMove.Endpoint(
            key: CrossBoardCommand.key(board), storage: try BoardLocation.openStorage(board))
        let target = CrossBoardMove.Endpoint(
            key: CrossBoardCommand.key(toBoard), storage: try BoardLocation.openStorage(toBoard))
        let outcome = try PostgresCLI.reporting {
            try CrossBoardMove.move(
                cards: cards, from: source, to: target, column: column, position: position, force: force,
                journal: journal)
        }
        var notes = outcome.conflicts.map { "\nlanes: merged with a change made meanwhile: \($0.message)" }.joined()
        if !outcome.keptOnSource.isEmpty {
            let names = outcome.keptOnSource.map { "\"\(BoardCommands.printable($0))\"" }.joined(separator: ", ")
            notes +=
                "\nlanes: \(names) was edited on \(source.storage.displayName) while it moved: it stays there with the edit"
        }
        let col = BoardCommands.printable(outcome.targetColumn)
        if outcome.titles.count == 1 {
            let title = BoardCommands.printable(outcome.titles.first ?? "")
            return "Moved \"\(title)\" to \(target.storage.displayName), \"\(col)\" at position \(outcome.position)."
                + notes
        }
        let titles = outcome.titles.map { "\"\(BoardCommands.printable($0))\"" }.joined(separator: ", ")
        return
            "Moved \(outcome.titles.count) cards (\(titles)) to \(target.storage.displayName), \"\(col)\" at positions \(outcome.position)–\(outcome.position + outcome.titles.count - 1)."
            + notes
    }

    /// `lanes metrics BOARD --json --agent …`, run as the command runs (this executable), its output or its error line.
    static func metrics(_ spec: String, agents: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe")
        process.arguments = ["metrics", spec, "--json"] + agents.flatMap { ["--agent", $0] }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            // The error object `--json` writes on stderr: its message is the line lanes prints.
            if let node = try? JSONReader.parse(Array(errData), file: "metrics"),
                let message = node["error"]?["message"]?.string
            {
                throw CommandError(.badInput, String(message.dropFirst(message.hasPrefix("lanes: ") ? 7 : 0)))
            }
            throw CommandError(.badInput, String(decoding: errData, as: UTF8.self))
        }
        return String(decoding: outData, as: UTF8.self)
    }
}
