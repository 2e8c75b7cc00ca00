import ArgumentParser
import Foundation
import LanesCore
import LanesTerminal

/// `lanes [FILE]`: open a board in the terminal.
@main
struct Lanes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lanes",
        abstract: "A Kanban board for the terminal, with real mouse drag and drop.",
        discussion: """
            Opens FILE (default: lanes.md in the current folder; created from the starter board if missing).
            Boards are Markdown (taskell or Obsidian Kanban). Every change is saved at once.
            Keys: press ? in the app. Key bindings can be changed in $XDG_CONFIG_HOME/lanes/config
            with lines "bind KEY ACTION" and "unbind KEY".
            """,
        version: LanesVersion.string
    )

    @Argument(help: "The board file to open.")
    var file: String = "lanes.md"

    func run() throws {
        var keymap = Keymap()
        if let (text, path) = Lanes.readConfig() {
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
        let status = created ? "Created \(file) from the starter board · drag cards with the mouse · ? help" : ""
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
