import ArgumentParser
import Foundation
import LanesCore
import LanesPostgres
import LanesTerminal

/// The boards `lanes A.md B.md`, `lanes FOLDER` and `lanes @NAME` open, and `lanes workspace save|list|show`.
enum WorkspaceBoards {
    /// Where saved workspaces are: `$XDG_CONFIG_HOME/lanes/workspaces` (else `~/.config/lanes/workspaces`).
    static func folder() -> String {
        let env = ProcessInfo.processInfo.environment
        let base =
            env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (env["HOME"].map { $0 + "/.config" } ?? ".")
        return base + "/lanes/workspaces"
    }

    /// The saved workspaces' names, sorted (none when the folder is not there).
    static func names() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder())) ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func path(of name: String) throws -> String {
        guard !name.isEmpty, !name.contains("/"), !name.hasPrefix("."),
            name.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else {
            throw CommandError(
                .badInput,
                "a workspace name is one plain word without / (it names a file in \(folder())); got \"\(BoardCommands.printable(name))\""
            )
        }
        return folder() + "/" + name
    }

    /// The boards a saved workspace lists: one per line; blank lines and `#` comments are skipped.
    static func read(_ name: String) throws -> [String] {
        let file = try path(of: name)
        guard let data = FileManager.default.contents(atPath: file) else {
            let saved =
                (try? FileManager.default.contentsOfDirectory(atPath: folder()))?.filter { !$0.hasPrefix(".") }.sorted()
                ?? []
            throw CommandError(
                .notFound,
                "no workspace \"\(BoardCommands.printable(name))\" (\(file) does not exist); saved: \(saved.isEmpty ? "none (lanes workspace save NAME BOARDS… saves one)" : saved.joined(separator: ", "))"
            )
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandError(.badInput, "\(file): not UTF-8 text; a workspace is a list of boards, one per line")
        }
        let boards = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        if boards.isEmpty {
            throw CommandError(.badInput, "\(file) lists no boards (one file, folder or postgresql:// URL per line)")
        }
        return boards
    }

    /// The command line's boards made concrete: `@NAME` replaced by its list (relative paths in it
    /// are taken from the home folder they were saved against: they are stored absolute), folders by their Markdown files.
    /// Returns the boards, the files skipped (each with its reason), and which boards came from a folder:
    /// those are only candidates, each confirmed as a board when it opens (`FolderBoards`).
    static func expand(_ arguments: [String]) throws -> (boards: [String], skipped: [String], fromFolder: Set<String>) {
        var boards: [String] = []
        var skipped: [String] = []
        var fromFolder = Set<String>()
        for argument in arguments {
            let items = argument.hasPrefix("@") ? try read(String(argument.dropFirst())) : [argument]
            for item in items {
                var isDir: ObjCBool = false
                if !BoardLocation.isURL(item), FileManager.default.fileExists(atPath: item, isDirectory: &isDir),
                    isDir.boolValue
                {
                    // Listed, not read: the first frame does not wait for every file of the folder (#27).
                    let (found, left) = try FolderBoards.candidates(in: item)
                    for f in found where !boards.contains(f) {
                        boards.append(f)
                        fromFolder.insert(f)
                    }
                    skipped += left
                } else if !boards.contains(item) {
                    boards.append(item)
                }
            }
        }
        return (boards, skipped, fromFolder)
    }

    /// Tab names: a file's name, with its folder added where two share one; a database board's name (`board=`).
    static func tabNames(_ titles: [String], specs: [String]) -> [String] {
        let names = titles.enumerated().map { i, title in
            BoardLocation.isURL(specs[i]) ? ((try? PostgresURL(specs[i]))?.board ?? title) : title
        }
        return names.enumerated().map { i, name in
            guard names.filter({ $0 == name }).count > 1, !BoardLocation.isURL(specs[i]) else { return name }
            let url = URL(fileURLWithPath: specs[i]).standardizedFileURL
            return url.deletingLastPathComponent().lastPathComponent + "/" + name
        }
    }
}

/// `lanes workspace save NAME BOARDS…`, `lanes workspace list`, `lanes workspace show NAME`.
struct WorkspaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "workspace",
        abstract: "Save a list of boards under a name; lanes @NAME opens them together.",
        discussion: """
            A workspace is a plain text file in $XDG_CONFIG_HOME/lanes/workspaces (default ~/.config/lanes/workspaces), one board per line: a file, a folder (its boards), or a postgresql:// URL. Lines starting with # are comments. Files are saved with absolute paths. A URL with a password is refused: put the password in ~/.pgpass.
            """,
        subcommands: [Save.self, List.self, ShowList.self]
    )

    struct Save: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Save BOARDS as workspace NAME (replacing it).")
        @Argument(help: "The workspace's name.") var name: String
        @Argument(help: "The boards: files, folders, postgresql:// URLs.", completion: .file()) var boards: [String] =
            []

        func run() throws {
            guard !boards.isEmpty else {
                throw CommandError(.badInput, "name the boards to save: lanes workspace save \(name) A.md B.md …")
            }
            var lines: [String] = []
            for b in boards {
                if BoardLocation.isURL(b) {
                    if WorkspaceCommand.holdsPassword(b) {
                        throw CommandError(
                            .badInput,
                            "\(PostgresURL.withoutPasswords(b).prefix(60))…: the URL holds a password, which would be saved as plain text; leave it out and put it in ~/.pgpass"
                        )
                    }
                    lines.append(b)
                } else if b.hasPrefix("@") {
                    lines += try WorkspaceBoards.read(String(b.dropFirst()))
                } else {
                    var isDir: ObjCBool = false
                    guard FileManager.default.fileExists(atPath: b, isDirectory: &isDir) else {
                        throw CommandError(.notFound, "\(b) does not exist; a workspace lists boards that are there")
                    }
                    lines.append(URL(fileURLWithPath: b).standardizedFileURL.path)
                }
            }
            let file = try WorkspaceBoards.path(of: name)
            try FileManager.default.createDirectory(atPath: WorkspaceBoards.folder(), withIntermediateDirectories: true)
            try SafeFile.writeAtomically(Array((lines.joined(separator: "\n") + "\n").utf8), to: file, expecting: nil)
            emit(
                "Saved workspace \(name) (\(lines.count) \(lines.count == 1 ? "board" : "boards")) in \(file); lanes @\(name) opens it.\n"
            )
        }
    }

    /// Whether a connection URL spells a password (`user:secret@` or `password=`).
    static func holdsPassword(_ url: String) -> Bool {
        if url.lowercased().contains("password=") { return true }
        guard let scheme = url.range(of: "://") else { return false }
        let rest = url[scheme.upperBound...]
        guard let at = rest.firstIndex(of: "@") else { return false }
        return rest[..<at].contains(":")
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the saved workspaces.")
        @OptionGroup var output: FormatOptions
        func run() throws {
            let names = WorkspaceBoards.names()
            if output.isJSON {
                return JSONOutput.write(JSONOutput.workspaces(folder: WorkspaceBoards.folder(), names: names))
            }
            for n in names { emit("@" + n + "\n") }
        }
    }

    struct ShowList: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "show", abstract: "Print the boards of workspace NAME, one per line.")
        @Argument(help: "The workspace's name.", completion: .custom(Completions.workspaceNames)) var name: String
        @OptionGroup var output: FormatOptions
        func run() throws {
            if output.isJSON {
                let boards = try WorkspaceBoards.read(name)
                return JSONOutput.write(
                    JSONOutput.workspace(name: name, file: try WorkspaceBoards.path(of: name), boards: boards))
            }
            for b in try WorkspaceBoards.read(name) { emit(BoardCommands.printable(b) + "\n") }
        }
    }
}
