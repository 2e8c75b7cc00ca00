import ArgumentParser
import Foundation
import LanesCore
import LanesTerminal

/// `lanes [FILE]` opens a board in the terminal (the default subcommand, `open`); the others script a board.
@main
struct Lanes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lanes",
        abstract: "A Kanban board for the terminal, with real mouse drag and drop.",
        usage: """
            lanes [FILE]
            lanes <subcommand>
            """,
        discussion: """
            lanes [FILE] opens FILE in the terminal (default: lanes.md in the current folder; created from the starter board if missing). Boards are Markdown (taskell or Obsidian Kanban). Every change is saved at once. Keys: press ? in the app. Key bindings can be changed in $XDG_CONFIG_HOME/lanes/config with lines "bind KEY ACTION" and "unbind KEY".

            The other subcommands script a board without the UI. Exit status: 0 success; 1 not found (file, card, column) or the file cannot be used (locked by another Lanes process, unreadable); 2 bad input (malformed file, ambiguous card, bad option). Errors go to stderr; a malformed file is reported as FILE:LINE: message.
            """,
        version: LanesVersion.string,
        subcommands: [Open.self, Show.self, Columns.self, Add.self, Move.self, Rules.self, Export.self, Import.self, Copy.self, Grant.self, Revoke.self],
        defaultSubcommand: Open.self
    )

    /// Runs the command; errors go to stderr with exit status 1 (not found) or 2 (bad input or usage).
    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as ParseError {
            fail(error)
        } catch let error as CommandError {
            fail(error)
        } catch let error as StorageError {
            fail(error)
        } catch {
            // Usage errors exit 2 like other bad input; help, versions and completion scripts go their usual way.
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }

    private static func fail(_ error: any Error) -> Never {
        let (message, status) = CommandError.report(error)
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(status)
    }
}

/// `lanes open [FILE]`, also plain `lanes [FILE]`: the board in the terminal UI.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a board in the terminal (the default: lanes FILE does this).",
        discussion: """
            Opens FILE (default: lanes.md in the current folder; created from the starter board if missing). Keys: press ? in the app. Key bindings can be changed in $XDG_CONFIG_HOME/lanes/config with lines "bind KEY ACTION" and "unbind KEY". Accept rules (which columns take cards from which) are read from .FILE.lanes beside the board; see lanes rules --help.
            """
    )

    @Argument(help: "The board file to open.")
    var file: String = "lanes.md"

    func run() throws {
        var keymap = Keymap()
        if let (text, path) = Open.readConfig() {
            do { try keymap.apply(config: text, file: path) } catch {
                throw ValidationError("\(error)")
            }
        }
        let store: BoardStore
        let board: Board
        let created: Bool
        do {
            (store, board, created) = try BoardStore.open(file, starter: StarterBoard.markdown)
        } catch {
            FileHandle.standardError.write(Data("lanes: \(error)\n".utf8))
            throw ExitCode(2)
        }
        var status = created ? "Created \(file) from the starter board · drag cards with the mouse · ? help" : ""
        let unknown = board.unknownRuleColumns
        if !unknown.isEmpty {
            // Kept in the file and matching nothing; said once so a typo does not go unnoticed.
            let names = Board.listed(unknown.map { "“\($0)”" }, or: "and")
            status = "Accept rules in \(URL(fileURLWithPath: store.rulesPath).lastPathComponent) name no such column: \(names)"
        }
        let name = URL(fileURLWithPath: file).lastPathComponent
        let app = BoardApp(board: board, title: "Lanes · \(name)", status: status, keymap: keymap)
        let runner = AppRunner(app: app, device: CursesTerminal(), store: store)
        try runner.run()
    }

    static func readConfig() -> (String, String)? {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (env["HOME"].map { $0 + "/.config" } ?? "")
        let path = base + "/lanes/config"
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else { return nil }
        return (text, path)
    }
}

enum LanesVersion {
    static let string = "0.1.0"
}
