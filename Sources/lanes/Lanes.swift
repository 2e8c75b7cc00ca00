import ArgumentParser
import Foundation
import LanesCore
import LanesPostgres
import LanesTerminal
#if canImport(Glibc)
    import Glibc
#endif

/// `lanes [FILE]` opens a board in the terminal (the default subcommand, `open`); the others script a board.
@main
struct Lanes: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lanes",
        abstract: "A Kanban board for the terminal, with real mouse drag and drop.",
        usage: """
            lanes [FILE]
            lanes FILE|FOLDER|URL|@NAME …
            lanes <subcommand>
            """,
        discussion: """
            lanes [FILE] opens FILE in the terminal (default: lanes.md in the current folder; created from the starter board if missing). Boards are Markdown (taskell or Obsidian Kanban). Every change is saved at once. Keys: press ? in the app. Key bindings can be changed in $XDG_CONFIG_HOME/lanes/config with lines "bind KEY ACTION" and "unbind KEY"; "set view compact" starts in the compact view. ACTION is one of: \(Action.allCases.map(\.rawValue).joined(separator: ", ")) (lanes keys says what each does).

            Help topics: lanes help tour (five lines to start with), keys, files, many-writers, git, postgresql, environment (or man lanes); lanes help SUBCOMMAND for a subcommand.

            The other subcommands script a board without the UI. Exit status: 0 success; 1 not found (file, card, column) or the file cannot be used (unreadable, cannot be created); 2 bad input or usage (malformed file, a read-only board to change, ambiguous card, bad option, a move refused by a WIP limit or an accept rule, a mistyped subcommand, no usable terminal). Errors go to stderr; a malformed file is reported as FILE:LINE: message.
            """,
        version: LanesVersion.string,
        subcommands: [
            Open.self, Show.self, Columns.self, Add.self, Move.self, Edit.self, Remove.self, ColumnCommand.self,
            Rules.self, SwimlanesCommand.self, Export.self, Import.self, Merge.self, GitSetup.self, Keys.self,
            Copy.self, Grant.self, Revoke.self, Rename.self, Delete.self, HandOver.self, Restore.self, Metrics.self,
            Flow.self, WorkspaceCommand.self, MCPServe.self,
        ],
        defaultSubcommand: Open.self
    )

    /// Runs the command; errors go to stderr with exit status 1 (not found) or 2 (bad input or usage).
    static func main() {
        let words = Array(CommandLine.arguments.dropFirst())
        jsonErrors = JSONErrors.requested(words)
        if words.first == "help", let answer = HelpCommand.answer(Array(words.dropFirst()), width: helpWidth()) {
            if answer.toStderr { FileHandle.standardError.write(Data(answer.text.utf8)) } else { emit(answer.text) }
            Foundation.exit(answer.status)
        }
        if let first = CommandLine.arguments.dropFirst().first, case let names = mistypedSubcommand(first),
            !names.isEmpty
        {
            // Caught before `open` would create a board by that name.
            errorLine(
                """
                lanes: "\(first)" is neither a subcommand nor a file here; did you mean \(names.map { "`lanes \($0)`" }.joined(separator: " or "))? \
                (`lanes open \(first)` creates a board named \(first).)
                """)
            Foundation.exit(2)
        }
        do {
            var command = try parseAsRoot()
            try command.run()
            for note in StorageNotes.take() { errorLine("lanes: " + note) }
        } catch let error as ParseError {
            fail(error)
        } catch let error as CommandError {
            fail(error)
        } catch let error as CodedError {
            fail(error)
        } catch let error as StorageError {
            if case .notFound(let path) = error, let hint = boardMissingHint(path) {
                fail(CommandError(.notFound, "\(error.description.dropLast()); \(hint)"))
            }
            fail(error)
        } catch let error as ConfigError {
            // A bad line of the config file: its place and what is wrong, like a malformed board (status 2).
            errorLine(error.description)
            Foundation.exit(2)
        } catch {
            if let mapped = PostgresCLI.commandError(for: error) {
                fail(CodedError(error: mapped, code: PostgresCLI.code(for: error) ?? .server))
            }
            // Usage errors exit 2 like other bad input; help, versions and completion scripts go their usual way.
            guard exitCode(for: error) == .validationFailure else { exit(withError: error) }
            fail(message: fullMessage(for: error), status: 2, code: .usage)
        }
    }

    /// The subcommands `argument` is one edit away from (`colums`: columns and column), when it
    /// names no file, no subcommand and is no option.
    static func mistypedSubcommand(_ argument: String) -> [String] {
        guard !argument.hasPrefix("-"), !argument.contains("/"), !FileManager.default.fileExists(atPath: argument)
        else {
            return []
        }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        if names.contains(argument) { return [] }  // `column` is one edit from `columns`, and a subcommand itself
        return names.filter { Spelling.isOneEditAway(argument, $0) }
    }

    /// How to make the board at `path` that a command found missing (nil when what is missing is no
    /// board: the export `lanes import` reads, the files of `lanes merge`).
    static func boardMissingHint(_ path: String) -> String? {
        let words = Array(CommandLine.arguments.dropFirst())
        guard let first = words.first, !["import", "merge"].contains(first), words.contains(path) else { return nil }
        return "`lanes \(shellWord(path))` creates it from the starter board"
    }

    /// `word` as a shell reads it back: as it is when it is plain, else in single quotes.
    static func shellWord(_ word: String) -> String {
        let plain =
            !word.isEmpty
            && word.unicodeScalars.allSatisfy { c in
                c.isASCII && (CharacterSet.alphanumerics.contains(c) || "._-/+@:,=".unicodeScalars.contains(c))
            }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Columns for `lanes help TOPIC`: the terminal's width (at most 100), else 80.
    static func helpWidth() -> Int {
        let width = terminalWindowSize().width
        return width >= 40 ? min(width, 100) : 80
    }

    private static func fail(_ error: any Error) -> Never {
        let (message, status) = ErrorWords.report((error as? CodedError)?.error ?? error)
        fail(message: message, status: status, code: JSONErrors.code(error, status: status))
    }

    /// Says the error that ends the command, with the notes before and after it: as lines, or as
    /// one JSON object when a read command was asked for JSON (`code` is for that object).
    private static func fail(message: String, status: Int32, code: ErrorCode) -> Never {
        let before = StorageNotes.take().map { "lanes: " + $0 }
        let after = afterError.map { "lanes: " + $0 }
        if jsonErrors {
            JSONErrors.write(code: code, message: message, status: status, notes: before + after)
        } else {
            for note in before { errorLine(note) }
            errorLine(message)
            for note in after { errorLine(note) }
        }
        Foundation.exit(status)
    }

    /// Whether errors are said as JSON (`JSONErrors.requested`), set before the command is parsed.
    nonisolated(unsafe) static var jsonErrors = false

    /// Said after the error that ends the command (set by the command on its way out).
    nonisolated(unsafe) static var afterError: [String] = []
}

/// `lanes open [FILE]`, also plain `lanes [FILE]`: the board in the terminal UI.
struct Open: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Open a board in the terminal (the default: lanes FILE does this).",
        discussion: """
            Opens FILE (default: lanes.md in the current folder; created from the starter board if missing). Several boards (files, postgresql:// URLs, a FOLDER's Markdown boards, @NAME for a workspace saved with lanes workspace save) open together, one tab each: ctrl-n/ctrl-p or a click on a tab switches, m moves the card to another board, and a card dragged onto a tab and held there opens that board under it. Keys: press ? in the app. Key bindings can be changed in $XDG_CONFIG_HOME/lanes/config with lines "bind KEY ACTION" and "unbind KEY". Accept rules (which columns take cards from which) are read from .FILE.lanes beside the board; see lanes rules --help.
            """
    )

    @Argument(
        help:
            "The boards to open: files, folders (every board in them), postgresql:// URLs, @NAME for a saved workspace. Several open as tabs.",
        completion: .custom(Completions.boardsAndWorkspaces)
    )
    var files: [String] = []

    func run() throws {
        do {
            try open()
        } catch {
            // What was typed while the board was read was meant for Lanes: never for the shell
            // that gets the terminal back now (a stray key there runs as a command).
            if Typeahead.discardStandardInput() > 0 {
                Lanes.afterError.append("keys typed while the board was read were discarded")
            }
            throw error
        }
    }

    private func open() throws {
        // Nothing is read or created before it is known that the board can be shown here.
        if let problem = TerminalCheck.problemHere() { throw CommandError(.badInput, problem.description) }
        var config = AppConfig()
        if let (text, path) = try Open.readConfig() {
            // `FILE:LINE: what is wrong`, alone: the command was typed right, so no usage follows.
            try config.apply(config: text, file: path)
        }
        var (specs, skipped, fromFolder) = try WorkspaceBoards.expand(files.isEmpty ? ["lanes.md"] : files)
        guard !specs.isEmpty else {
            throw CommandError(
                .notFound, "no board to open" + (skipped.isEmpty ? "" : "; skipped: " + skipped.joined(separator: ", "))
            )
        }
        // A cross-board move a dead process left on these boards is finished (or rolled back) first.
        CrossBoardCommand.recoverPending(touching: specs)
        // A big board file alone is shown from its first cards, read whole after the first frame (#24).
        if specs.count == 1, skipped.isEmpty, !BoardLocation.isURL(specs[0]), !fromFolder.contains(specs[0]),
            let reading = try FileBoardStore.Reading.start(specs[0])
        {
            try Open.run(specs[0], reading: reading, keymap: config.keymap, compact: config.compact)
            return
        }
        // The first board opens now; the others after the first frame, in the background (#27). A
        // folder's file is a board once it opens as one: the first that does is shown, those before it skipped.
        var opened: Open.Opened?
        while opened == nil, let spec = specs.first {
            guard fromFolder.contains(spec) else { opened = try Open.opening(spec); break }
            do { opened = try Open.folderBoard(spec) } catch {
                skipped.append(FolderBoards.notABoard(spec, error).asSkipped)
                specs.removeFirst()
            }
        }
        guard var first = opened else {
            throw CommandError(.notFound, "no board to open; skipped: " + skipped.joined(separator: ", "))
        }
        if !skipped.isEmpty {
            let s = skipped.count
            first.status =
                "Opened \(specs.count) \(specs.count == 1 ? "board" : "boards"); skipped \(s) \(s == 1 ? "file" : "files"): "
                + skipped.joined(separator: "; ")
        }
        let names = WorkspaceBoards.tabNames(
            specs.indices.map { i in i == 0 ? first.name : Open.plainName(specs[i]) }, specs: specs)
        let keymap = config.keymap, compact = config.compact
        let boards = [Open.hosted(first, spec: specs[0], tabName: names[0], keymap: keymap, compact: compact)]
        let later = specs.indices.dropFirst().map { i in
            let spec = specs[i], name = names[i]
            let inFolder = fromFolder.contains(spec)
            return BoardLoader.Later(tabName: name) {
                Open.hosted(
                    try inFolder ? Open.folderBoard(spec) : Open.opening(spec), spec: spec, tabName: name,
                    keymap: keymap, compact: compact)
            }
        }
        let runner = AppRunner(boards: boards, later: later, device: CursesTerminal())
        runner.moveJournal = MoveJournal.standard()
        do {
            try runner.run()
        } catch let error as CursesTerminalError {
            throw CommandError(.badInput, "\(error)")
        }
        // A signal that ended Lanes with its last changes unstored ends it as that signal would:
        // 128 + the signal's number (the recovery copy was named on stderr).
        if let signal = runner.unsavedAtSignal { Foundation.exit(128 + signal) }
    }

    /// A board file or database board opened, with errors said as the subcommands say them.
    static func opening(_ spec: String) throws -> Opened {
        BoardLocation.isURL(spec) ? try Open.database(spec) : try Open.file(spec)
    }

    /// A file found in a folder, opened only if it is a board (never created, never written otherwise).
    static func folderBoard(_ path: String) throws -> Opened {
        do {
            let o = try Open.file(path, starter: nil)
            try FolderBoards.confirm(o.board, path: path)
            return o
        } catch {
            throw FolderBoards.notABoard(path, error)
        }
    }

    /// A board's name before it is opened: a file's name (a database board's tab takes its `board=`).
    static func plainName(_ spec: String) -> String {
        BoardLocation.isURL(spec) ? spec : URL(fileURLWithPath: spec).lastPathComponent
    }

    /// An opened board as the runner hosts it: its app (with a recovery copy's note), storage and mover.
    static func hosted(_ o: Opened, spec: String, tabName: String, keymap: Keymap, compact: Bool) -> HostedBoard {
        var status = o.status
        if let copy = RecoveryCopies(environment: ProcessInfo.processInfo.environment).takeCopies(for: o.key).last {
            status = "Unsaved changes of your last session on this board were kept in \(copy)"
        }
        // Made at the terminal's size, so the runner's first resize has nothing to lay out again.
        var app = BoardApp(
            board: o.board, title: "Lanes · \(o.name)", size: terminalWindowSize(), status: status, keymap: keymap)
        app.configure(compact: compact)
        return HostedBoard(
            app: app, tabName: tabName, storage: o.storage, boardName: o.key, copyInfo: o.info,
            flowSource: o.flowSource,
            mover: (CrossBoardCommand.key(spec), { try BoardLocation.openStorage(spec) }))
    }

    /// A board ready for the app: its storage, the board, what to call it, and the first words to show.
    struct Opened {
        var storage: any BoardStore
        var board: Board
        var info: BoardFileInfo
        /// In the title bar.
        var name: String
        /// The board in the recovery index: an absolute path, or the URL without a password.
        var key: String
        var status: String
        /// The board's history for flow metrics.
        var flowSource: (@Sendable () throws -> (FlowHistory, FlowColumns))?
    }

    /// A board file, created from the starter board when missing (or parsed from what `reading`
    /// read). Errors are reported like the other subcommands': 2 for a malformed file, 1 for one
    /// that cannot be used.
    static func file(_ file: String, starter: String? = StarterBoard.markdown, reading: FileBoardStore.Reading? = nil)
        throws -> Opened
    {
        let (store, board, created): (FileBoardStore, Board, Bool)
        if let reading {
            (store, board) = try reading.finish()
            created = false
        } else {
            (store, board, created) = try FileBoardStore.open(file, starter: starter)
        }
        var status = created ? "Created \(file) from the starter board · drag cards with the mouse · ? help" : ""
        // What could not be read but is kept as written (an unusual settings block, …).
        if let note = store.info.readingNotes.first { status = note }
        let unknown = board.unknownRuleColumns
        if !unknown.isEmpty {
            // Kept in the file and matching nothing; said once so a typo does not go unnoticed.
            let names = Board.listed(unknown.map { "“\($0)”" }, or: "and")
            status =
                "Accept rules in \(URL(fileURLWithPath: store.rulesPath).lastPathComponent) name no such column: \(names)"
        }
        if store.isReadOnly {
            status = "\(file) is read-only: changes stay in this session (q offers to save a copy)"
        }
        return Opened(
            storage: store, board: board, info: store.info, name: URL(fileURLWithPath: file).lastPathComponent,
            key: URL(fileURLWithPath: file).standardizedFileURL.path, status: status,
            flowSource: { try FlowBoard.readFile(file) })
    }

    /// A board in PostgreSQL (it must exist: lanes copy creates one).
    static func database(_ url: String) throws -> Opened {
        let store = try BoardLocation.openDatabase(url)
        let board = try PostgresCLI.reporting { try store.load() }
        return Opened(
            storage: store, board: board, info: store.fileInfo, name: store.title,
            key: store.displayName,
            status: "Live board “\(store.url.board)” · every change is saved and shared at once",
            flowSource: { try PostgresFlowHistory.read(url: url) })
    }

    /// The config file's text and path; nil when there is none. A file that is not UTF-8 is an error.
    static func readConfig() throws -> (String, String)? {
        let env = ProcessInfo.processInfo.environment
        let base =
            env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (env["HOME"].map { $0 + "/.config" } ?? "")
        let path = base + "/lanes/config"
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        if let bad = firstInvalidUTF8([UInt8](data)) {
            throw ConfigError(
                file: path, line: bad.line,
                message: "invalid UTF-8 at byte \(bad.byte) of the line; the config file must be UTF-8 text")
        }
        return (String(decoding: data, as: UTF8.self), path)
    }
}

enum LanesVersion {
    static let string = "0.1.0"
}
