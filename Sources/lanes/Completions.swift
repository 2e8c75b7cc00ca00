import ArgumentParser
import Foundation
import LanesCore
import LanesPostgres

/// What the shells' completion scripts (`lanes --generate-completion-script bash|zsh|fish`) offer
/// beyond files: a board's column names and card titles, and saved workspaces. The scripts run
/// `lanes ---completion …` on a TAB, which calls these; nothing here runs when Lanes starts.
/// A board that cannot be read offers nothing: a completion never prints an error.
enum Completions {
    /// The options whose next word is their value (so that word is not the board).
    static let valueOptions: Set<String> = [
        "--column", "-c", "--to", "-t", "--from", "-f", "--position", "-p", "--to-board", "--started", "--done",
        "--after", "--before", "--title", "--due", "--tag", "--description", "--add-subtask", "--check", "--uncheck",
        "--format", "--limit", "--at", "--since", "--now", "--chart", "--seed", "--by", "--cards", "--dialect",
        "--output", "-o",
    ]

    /// A shell word as the shell would pass it: quotes removed, backslash escapes undone, `~/` expanded.
    static func unquoted(_ word: String) -> String {
        var out = ""
        var quote: Character?
        var escaped = false
        for c in word {
            if escaped {
                out.append(c)
                escaped = false
            } else if let q = quote {
                if c == q { quote = nil } else if c == "\\" && q == "\"" { escaped = true } else { out.append(c) }
            } else if c == "'" || c == "\"" {
                quote = c
            } else if c == "\\" {
                escaped = true
            } else {
                out.append(c)
            }
        }
        if out.hasPrefix("~/"), let home = ProcessInfo.processInfo.environment["HOME"] {
            out = home + out.dropFirst()
        }
        return out
    }

    /// The board a command line names: the first word after the subcommand (and `column`'s own
    /// subcommand) that is neither an option nor an option's value, nor the word being completed;
    /// for `move … --to-board B`, B (its `--to` is a column of B).
    static func board(in words: [String], completing index: Int) -> String? {
        if let i = words.firstIndex(of: "--to-board"), i + 1 < words.count, i + 1 != index {
            return unquoted(words[i + 1])
        }
        guard words.count > 2 else { return nil }
        var i = 2  // words[0] is lanes, words[1] the subcommand
        if words[1] == "column", words.count > 3 { i = 3 }
        while i < words.count {
            let w = words[i]
            if w.hasPrefix("-") {
                i += valueOptions.contains(w) ? 2 : 1
                continue
            }
            if i == index { return nil }
            return unquoted(w)
        }
        return nil
    }

    /// The board's columns and cards, read without changing anything (no move is recovered, nothing created).
    static func read(_ spec: String) -> Board? {
        if BoardLocation.isURL(spec) { return try? PostgresBoardStore.open(url: spec).load() }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: spec, isDirectory: &isDirectory), !isDirectory.boolValue else {
            return nil
        }
        return try? FileBoardStore.load(spec).board
    }

    /// The column titles of the board on the command line that start with what is typed.
    @Sendable static func columnNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let spec = board(in: words, completing: index), let b = read(spec) else { return [] }
        return matching(b.columns.map(\.title), unquoted(prefix))
    }

    /// The card titles of the board on the command line that start with what is typed.
    @Sendable static func cardTitles(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        guard let spec = board(in: words, completing: index), let b = read(spec) else { return [] }
        return matching(b.columns.flatMap { $0.cards.map(\.title) }, unquoted(prefix))
    }

    /// The saved workspaces' names.
    @Sendable static func workspaceNames(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        matching(WorkspaceBoards.names(), unquoted(prefix))
    }

    /// What `lanes open` takes: `@NAME` of a saved workspace, else files and folders (`name/`).
    @Sendable static func boardsAndWorkspaces(_ words: [String], _ index: Int, _ prefix: String) -> [String] {
        let typed = unquoted(prefix)
        let workspaces = WorkspaceBoards.names().map { "@" + $0 }
        if typed.hasPrefix("@") { return matching(workspaces, typed) }
        let slash = typed.lastIndex(of: "/")
        let folder = slash.map { String(typed[...$0]) } ?? ""
        let start = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        var files: [String] = []
        for name in entries.sorted() where name.hasPrefix(start) && (start.hasPrefix(".") || !name.hasPrefix(".")) {
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + name, isDirectory: &isDirectory)
            files.append(folder + name + (isDirectory.boolValue ? "/" : ""))
        }
        return files + (typed.isEmpty ? workspaces : [])
    }

    /// Titles starting with `prefix` (case ignored, as the commands match them), each once, in board order.
    static func matching(_ titles: [String], _ prefix: String) -> [String] {
        var seen = Set<String>()
        let p = prefix.lowercased()
        return titles.filter { $0.lowercased().hasPrefix(p) && seen.insert($0).inserted }
    }
}
