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
            outcome = try BoardMerge.mergeFiles(
                base: baseBytes.isEmpty ? nil : baseFile, ours: oursFile.board,
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
        let message =
            error is ParseError
            ? "\(error)"
            : "lanes merge: \(ErrorWords.report(error).message.replacingOccurrences(of: "lanes: ", with: ""))"
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
            For each BOARD, adds a line "/PATH merge=lanes" (PATH relative to the repository's top) to the repository's .gitattributes, and sets merge.lanes.name and merge.lanes.driver in the repository's .git/config. The driver is this program by its absolute path (the path it was called by, e.g. ~/.local/bin/lanes, when that leads to this very program), followed by merge %O %A %B %P; should that path ever be gone, the driver says so on git's output and leaves the board as a conflict instead of merging. Running it again changes nothing; run it again after moving lanes. Commit .gitattributes so others get it; each clone needs its own git-setup for .git/config.

            With --check, changes nothing and says in words whether the registered driver can run (its program still exists) and which boards git hands to it; BOARDs are optional then (default: the repository of the current folder).

            Exit status: 0 done (with --check: the driver can run); 1 a BOARD is not in a git repository, git failed, or (with --check) the driver is missing or cannot run.
            """
    )

    @Argument(help: "The board files to register (with --check: to check).")
    var boards: [String] = []

    @Flag(help: "Change nothing; say whether the registered merge driver can run, and for which boards.")
    var check = false

    static let driverName = "Lanes: card-level merge of Kanban boards"

    func validate() throws {
        if boards.isEmpty && !check {
            throw ValidationError("name the board files to register: lanes git-setup BOARD…")
        }
    }

    func run() throws {
        if check { return try runCheck() }
        let driver = GitSetup.driverCommand(program: GitSetup.runningProgram())
        var configured = Set<String>()
        for board in boards {
            let (realTop, path) = try GitSetup.locate(board)
            let added = try GitSetup.addAttribute(pattern: GitSetup.pattern(for: path), in: realTop + "/.gitattributes")
            if !configured.contains(realTop) {
                configured.insert(realTop)
                for (key, value) in [("merge.lanes.name", GitSetup.driverName), ("merge.lanes.driver", driver)] {
                    let current = try? GitSetup.git(["-C", realTop, "config", "--local", "--get", key], board: board)
                    if current != value {
                        _ = try GitSetup.git(["-C", realTop, "config", "--local", key, value], board: board)
                    }
                }
            }
            emit(
                (added
                    ? "\(board): merged by lanes merge from now on (.gitattributes: \(GitSetup.pattern(for: path)) merge=lanes)"
                    : "\(board): already set up") + "\n")
        }
    }

    /// The repository's top (symlinks resolved) and the board's path from there.
    static func locate(_ board: String) throws -> (top: String, path: String) {
        let url = URL(fileURLWithPath: board).standardizedFileURL
        let folder = url.deletingLastPathComponent().path
        let top = try GitSetup.git(["-C", folder, "rev-parse", "--show-toplevel"], board: board)
        let realTop = URL(fileURLWithPath: top).resolvingSymlinksInPath().path
        let realFolder = URL(fileURLWithPath: folder).resolvingSymlinksInPath().path
        var relative = String(realFolder.dropFirst(realTop.count))
        if relative.hasPrefix("/") { relative.removeFirst() }
        return (realTop, (relative.isEmpty ? "" : relative + "/") + url.lastPathComponent)
    }

    /// `--check`: whether the registered driver's program exists, and which boards git hands to it.
    func runCheck() throws {
        var broken = false
        var tops: [(top: String, boards: [String])] = []
        if boards.isEmpty {
            let top = try GitSetup.git(["rev-parse", "--show-toplevel"], board: ".")
            tops.append((URL(fileURLWithPath: top).resolvingSymlinksInPath().path, []))
        }
        for board in boards {
            let (top, path) = try GitSetup.locate(board)
            if let i = tops.firstIndex(where: { $0.top == top }) {
                tops[i].boards.append(path)
            } else {
                tops.append((top, [path]))
            }
        }
        for (top, paths) in tops {
            let driver = try? GitSetup.git(["-C", top, "config", "--get", "merge.lanes.driver"], board: top)
            let verdict = GitSetup.verdict(driver: driver, running: GitSetup.runningProgram())
            emit("\(top): \(verdict.words)\n")
            broken = broken || !verdict.ok
            let attributes =
                FileManager.default.contents(atPath: top + "/.gitattributes").map {
                    String(decoding: $0, as: UTF8.self)
                } ?? ""
            let registered = attributes.split(whereSeparator: \.isNewline).filter {
                $0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().contains("merge=lanes")
            }
            emit(
                registered.isEmpty
                    ? "  .gitattributes hands no board to the driver (lanes git-setup BOARD adds one)\n"
                    : registered.map { "  .gitattributes: \($0)\n" }.joined())
            for path in paths {
                let attribute = (try? GitSetup.git(["-C", top, "check-attr", "merge", "--", path], board: path)) ?? ""
                if attribute.hasSuffix(": merge: lanes") {
                    emit("  \(path): merged by the driver\n")
                } else {
                    emit("  \(path): not handed to the driver; lanes git-setup \(path) registers it\n")
                    broken = true
                }
            }
        }
        if broken { throw ExitCode(1) }
    }

    /// What --check says about a registered driver command, and whether it can run.
    static func verdict(driver: String?, running: String) -> (words: String, ok: Bool) {
        guard let driver, !driver.isEmpty else {
            return (
                "no merge driver is registered in this clone's .git/config; lanes git-setup BOARD registers it", false
            )
        }
        guard let program = registeredProgram(driver) else {
            return (
                "the merge driver is \"\(driver)\", which is not one lanes git-setup writes; lanes git-setup BOARD replaces it",
                false
            )
        }
        if !program.hasPrefix("/") {
            let found = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
                .map { String($0) + "/" + program }.first { FileManager.default.isExecutableFile(atPath: $0) }
            let whereFound = found.map { "found on this PATH at \($0)" } ?? "not found on this PATH"
            return (
                "the merge driver is registered as the bare word \(program) (\(whereFound)); git finds it only when its own PATH has it. lanes git-setup BOARD registers the absolute path instead",
                false
            )
        }
        guard FileManager.default.isExecutableFile(atPath: program) else {
            let gone = FileManager.default.fileExists(atPath: program) ? "is not executable" : "no longer exists"
            return (
                "the merge driver's program \(program) \(gone), so git cannot merge boards card by card here (the driver says so and leaves each board as a conflict). Run lanes git-setup BOARD again with the lanes you use now (this one is \(running))",
                false
            )
        }
        let same =
            URL(fileURLWithPath: program).resolvingSymlinksInPath().path
            == URL(fileURLWithPath: running).resolvingSymlinksInPath().path
        return (
            "the merge driver runs \(program)"
                + (same ? " (this lanes); it can run" : ", which exists; it can run (this lanes is \(running))"), true
        )
    }

    /// The program a driver command written by git-setup runs: the guarded form's path, or an older form's first word.
    static func registeredProgram(_ driver: String) -> String? {
        var rest = Substring(driver)
        if rest.hasPrefix("if [ -x ") { rest = rest.dropFirst("if [ -x ".count) }
        var word = ""
        while let ch = rest.first, ch != " " {
            if ch == "'" {
                rest.removeFirst()
                guard let close = rest.firstIndex(of: "'") else { return nil }
                word += rest[..<close]
                rest = rest[rest.index(after: close)...]
                if rest.hasPrefix("\\''") { word += "'"; rest = rest.dropFirst(2) }
            } else {
                word.append(ch)
                rest.removeFirst()
            }
        }
        guard !word.isEmpty, driver.contains(" merge %O %A %B") else { return nil }
        return word
    }

    /// The driver command for `program` (an absolute path): runs `program merge %O %A %B %P` when it still
    /// exists, else says on stderr that the board was not merged (git then leaves it as a conflict).
    static func driverCommand(program: String) -> String {
        let p = shellQuoted(program)
        return "if [ -x \(p) ]; then exec \(p) merge %O %A %B %P; fi; "
            + "echo \"lanes merge driver:\" \(p) \"no longer exists, so\" %P \"was not merged (git leaves it as a conflict). "
            + "Run lanes git-setup again with the lanes you use now, then git checkout -m on the board (lanes help git).\" >&2; exit 2"
    }

    /// The absolute path this program was called by (through PATH when called by a bare name) when it leads to
    /// this very program, so a symlink such as ~/.local/bin/lanes outlives rebuilds; else the program's real path.
    static func runningProgram() -> String {
        let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let arg0 = CommandLine.arguments[0]
        let called: String?
        if arg0.contains("/") {
            called = URL(fileURLWithPath: arg0).standardizedFileURL.path
        } else {
            called = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
                .map { URL(fileURLWithPath: String($0)).appendingPathComponent(arg0).standardizedFileURL.path }
                .first { $0.hasPrefix("/") && FileManager.default.isExecutableFile(atPath: $0) }
        }
        if me == "/proc/self/exe" || !FileManager.default.fileExists(atPath: me) {
            return called ?? URL(fileURLWithPath: arg0).standardizedFileURL.resolvingSymlinksInPath().path
        }
        if let called, URL(fileURLWithPath: called).resolvingSymlinksInPath().path == me { return called }
        return me
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
        return "\""
            + anchored.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\t", with: "\\t") + "\""
    }

    /// Adds `pattern merge=lanes` unless a line already gives that pattern `merge=lanes`; true when added.
    static func addAttribute(pattern: String, in file: String) throws -> Bool {
        var text = FileManager.default.contents(atPath: file).flatMap { String(data: $0, encoding: .utf8) } ?? ""
        for line in text.split(whereSeparator: \.isNewline)
        where line.hasPrefix(pattern + " ") || line.hasPrefix(pattern + "\t") {
            let attributes = line.dropFirst(pattern.count).split(whereSeparator: { $0 == " " || $0 == "\t" })
            if attributes.contains("merge=lanes") { return false }
        }
        if !text.isEmpty && !text.hasSuffix("\n") { text += "\n" }
        text += pattern + " merge=lanes\n"
        let fingerprint = try SafeFile.fingerprint(file)
        try SafeFile.writeAtomically(Array(text.utf8), to: file, expecting: fingerprint)
        return true
    }

    static func shellQuoted(_ s: String) -> String {
        s.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+".contains($0) })
            ? s : "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
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
            if arguments.contains("rev-parse") {
                throw CommandError(.notFound, "\(board): not in a git repository (\(words))")
            }
            throw CommandError(
                .notFound, "\(board): git \(arguments.dropFirst(2).joined(separator: " ")) failed: \(words)")
        }
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
