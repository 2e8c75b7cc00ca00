import ArgumentParser
import Foundation
import LanesCore

/// `lanes merge BASE OURS THEIRS [NAME]`: git's merge driver for board files (`%O %A %B %P`).
struct Merge: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Merge two versions of a board card by card (git's merge driver).",
        discussion: """
            Follows git's merge-driver contract (driver = lanes merge %O %A %B %P; see lanes git-setup): BASE is the common ancestor, OURS the current version, THEIRS the other one. The merged board is written to OURS, atomically. Cards are matched across the three versions by content and place (Markdown cards carry no ids), and what each side changed is kept: moves, new cards, deletions, edits of title, description, due date, sub-tasks and tags, column changes. A collision (one card edited two ways, moved to two places, edited on one side and deleted on the other, a column deleted on one side while the other changed its cards) is resolved by a fixed rule that loses no text — an edit beats a delete, two titles are both kept joined by " ⟷ ", a card moved two ways goes where OURS put it — and is reported on stderr. The result is always a valid board: never conflict markers.

            Accept rules (.BOARD.lanes sidecars) are separate files; the driver leaves them to git's ordinary line merge.

            Exit status: 0 merged, no collision; 1 merged, a collision was resolved by the rule (git then asks for a review of the file); 2 an input cannot be read or parsed (reported as FILE:LINE: message) and OURS is left untouched.
            """
    )

    @Argument(help: "The common ancestor (git's %O); an empty file when there is none.")
    var base: String

    @Argument(help: "Our version (git's %A); the result is written here.")
    var ours: String

    @Argument(help: "Their version (git's %B).")
    var theirs: String

    @Argument(help: "The board's path in the repository (git's %P), for messages.")
    var name: String?

    func run() throws {
        let label = name ?? ours
        let outcome: (text: String, info: BoardFileInfo, result: BoardMerge.Result)
        let oursFingerprint: FileFingerprint
        do {
            let baseBytes = try SafeFile.read(base).bytes
            let (oursBytes, fingerprint) = try SafeFile.read(ours)
            oursFingerprint = fingerprint
            let theirsBytes = try SafeFile.read(theirs).bytes
            let baseFile = try BoardFormat.parse(baseBytes, file: "\(label) (base)")
            let oursFile = try BoardFormat.parse(oursBytes, file: "\(label) (ours)")
            outcome = try BoardMerge.mergeFiles(base: baseBytes.isEmpty ? nil : baseFile, ours: oursFile.board,
                                                oursInfo: oursFile.info, oursMatching: .content,
                                                theirs: theirsBytes, theirsFile: "\(label) (theirs)")
        } catch {
            Merge.fail(error)
        }
        do {
            try SafeFile.writeAtomically(Array(outcome.text.utf8), to: ours, expecting: oursFingerprint)
        } catch {
            Merge.fail(error)
        }
        for conflict in outcome.result.conflicts {
            // Card text never reaches the terminal as a control sequence (errorLine escapes it).
            errorLine("lanes merge: \(label): \(conflict.message)")
        }
        if !outcome.result.conflicts.isEmpty { throw ExitCode(1) }
    }

    private static func fail(_ error: any Error) -> Never {
        let message = error is ParseError ? "\(error)" : "lanes merge: \(CommandError.report(error).message.replacingOccurrences(of: "lanes: ", with: ""))"
        errorLine(message)
        Foundation.exit(2)
    }
}

/// `lanes git-setup BOARD…`: registers `lanes merge` as the merge driver for those boards in their repository.
struct GitSetup: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "git-setup",
        abstract: "Make git merge these boards card by card (registers lanes merge as their merge driver).",
        discussion: """
            For each BOARD, adds a line "/PATH merge=lanes" (PATH relative to the repository's top) to the repository's .gitattributes, and sets merge.lanes.name and merge.lanes.driver in the repository's .git/config. The driver command is "lanes merge %O %A %B %P" when the lanes found on PATH is this very program, otherwise this program's absolute path (run git-setup again after moving it). Running it again changes nothing. Commit .gitattributes so others get it; each clone needs its own git-setup for .git/config.

            Exit status: 0 done; 1 a BOARD is not in a git repository or git failed.
            """
    )

    @Argument(help: "The board files to register.")
    var boards: [String]

    static let driverName = "Lanes: card-level merge of Kanban boards"

    func run() throws {
        let driver = GitSetup.driverCommand()
        var configured = Set<String>()
        for board in boards {
            let url = URL(fileURLWithPath: board).standardizedFileURL
            let folder = url.deletingLastPathComponent().path
            let top = try GitSetup.git(["-C", folder, "rev-parse", "--show-toplevel"], board: board)
            let realTop = URL(fileURLWithPath: top).resolvingSymlinksInPath().path
            let realFolder = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
            var relative = String(realFolder.dropFirst(realTop.count))
            if relative.hasPrefix("/") { relative.removeFirst() }
            let path = (relative.isEmpty ? "" : relative + "/") + url.lastPathComponent
            let added = try GitSetup.addAttribute(pattern: GitSetup.pattern(for: path), in: realTop + "/.gitattributes")
            if !configured.contains(realTop) {
                configured.insert(realTop)
                for (key, value) in [("merge.lanes.name", GitSetup.driverName), ("merge.lanes.driver", driver)] {
                    let current = try? GitSetup.git(["-C", realTop, "config", "--local", "--get", key], board: board)
                    if current != value { _ = try GitSetup.git(["-C", realTop, "config", "--local", key, value], board: board) }
                }
            }
            emit((added ? "\(board): merged by lanes merge from now on (.gitattributes: \(GitSetup.pattern(for: path)) merge=lanes)"
                        : "\(board): already set up") + "\n")
        }
    }

    /// The gitattributes pattern for a path from the top: anchored with `/`, glob characters
    /// escaped, quoted C-style when it holds a space, a quote or a backslash.
    static func pattern(for path: String) -> String {
        var escaped = ""
        for ch in path {
            if "*?[".contains(ch) { escaped.append("\\") }
            escaped.append(ch)
        }
        let anchored = "/" + escaped
        guard anchored.contains(where: { $0 == " " || $0 == "\"" || $0 == "\\" || $0 == "\t" }) else { return anchored }
        return "\"" + anchored.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\t", with: "\\t") + "\""
    }

    /// Adds `pattern merge=lanes` unless a line already gives that pattern `merge=lanes`; true when added.
    static func addAttribute(pattern: String, in file: String) throws -> Bool {
        var text = FileManager.default.contents(atPath: file).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix(pattern + " ") || line.hasPrefix(pattern + "\t") {
            let attributes = line.dropFirst(pattern.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            if attributes.contains("merge=lanes") { return false }
        }
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += pattern + " merge=lanes\n"
        let fingerprint = try SafeFile.fingerprint(file)
        try SafeFile.writeAtomically(Array(text.utf8), to: file, expecting: fingerprint)
        return true
    }

    /// `lanes merge %O %A %B %P` when PATH's lanes is this program, else its absolute path, quoted for sh.
    static func driverCommand() -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let exe = FileManager.default.fileExists(atPath: me) && me != "/proc/self/exe"
            ? me : URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.resolvingSymlinksInPath().path
        let onPath = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").lazy
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("lanes") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
        let program = onPath.map { $0.resolvingSymlinksInPath().path } == exe ? "lanes" : shellQuoted(exe)
        return program + " merge %O %A %B %P"
    }

    static func shellQuoted(_ s: String) -> String {
        s.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+".contains($0) }) ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Runs git; its trimmed stdout, or a CommandError with its stderr.
    static func git(_ arguments: [String], board: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        do { try process.run() } catch {
            throw CommandError(.notFound, "\(board): cannot run git: \(error.localizedDescription)")
        }
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            let words = String(decoding: errors, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if arguments.contains("rev-parse") { throw CommandError(.notFound, "\(board): not in a git repository (\(words))") }
            throw CommandError(.notFound, "\(board): git \(arguments.dropFirst(2).joined(separator: " ")) failed: \(words)")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
