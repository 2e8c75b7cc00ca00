import Foundation
import Testing

/// Which folders of a module's sources name what other folders declare, read from the source text.
///
/// A folder is the first path component under the module's directory. A name is a declaration
/// of a folder when one of its files declares it at the top level (a type, typealias, function
/// or global); a folder names it when the identifier appears in its code (comments and string
/// literals left out, string interpolations kept). Overloads and extensions add no declarations.
struct FolderArrows {
    /// For each folder, the other folders it names, with the names.
    private(set) var arrows: [String: [String: Set<String>]] = [:]
    private(set) var folders: Set<String> = []

    init(files: [(folder: String, text: String)]) {
        let code = files.map { (folder: $0.folder, code: Self.code(of: $0.text)) }
        var owners: [String: Set<String>] = [:]
        for f in code {
            folders.insert(f.folder)
            for line in f.code.split(separator: "\n", omittingEmptySubsequences: true) {
                if let name = Self.declaredName(line) { owners[name, default: []].insert(f.folder) }
            }
        }
        for f in code {
            for word in Self.identifiers(f.code) {
                for owner in owners[word] ?? [] where owner != f.folder {
                    arrows[f.folder, default: [:]][owner, default: []].insert(word)
                }
            }
        }
    }

    /// Every `.swift` file under `directory`, by its first folder.
    static func read(module directory: URL) throws -> FolderArrows {
        let root = directory.standardizedFileURL.path
        var files: [(folder: String, text: String)] = []
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            guard relative.hasSuffix(".swift") else { continue }
            let parts = relative.split(separator: "/")
            let folder = parts.count > 1 ? String(parts[0]) : "."
            files.append((folder, try String(contentsOfFile: root + "/" + relative, encoding: .utf8)))
        }
        return FolderArrows(files: files)
    }

    /// Groups of folders that reach each other through arrows (each a cycle), sorted by name.
    var cycles: [[String]] {
        func reach(_ start: String) -> Set<String> {
            var seen: Set<String> = []
            var todo = Array((arrows[start] ?? [:]).keys)
            while let f = todo.popLast() {
                if seen.insert(f).inserted { todo += (arrows[f] ?? [:]).keys }
            }
            return seen
        }
        let reached = Dictionary(uniqueKeysWithValues: folders.map { ($0, reach($0)) })
        var groups: Set<[String]> = []
        for f in folders where reached[f]!.contains(f) {
            groups.insert(folders.filter { reached[f]!.contains($0) && reached[$0]!.contains(f) }.sorted())
        }
        return groups.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// One line a folder: `Modes → Input (Key, …), Render (…)`.
    var listing: String {
        folders.sorted().map { f in
            let to = (arrows[f] ?? [:]).sorted { $0.key < $1.key }
                .map { "\($0.key) (\($0.value.sorted().joined(separator: ", ")))" }
            return "\(f) → " + (to.isEmpty ? "nothing" : to.joined(separator: ", "))
        }.joined(separator: "\n")
    }

    /// The name a top-level line declares, if it declares one.
    static func declaredName(_ line: Substring) -> String? {
        guard let first = line.first, first.isLetter || first == "@" else { return nil }
        let modifiers: Set<Substring> = [
            "public", "internal", "private", "fileprivate", "package", "final", "indirect", "nonisolated",
        ]
        let kinds: Set<Substring> = ["struct", "enum", "class", "protocol", "actor", "typealias", "func", "let", "var"]
        var words = line.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "@") })[...]
        while let w = words.first, modifiers.contains(w) || w.hasPrefix("@") { words = words.dropFirst() }
        guard let kind = words.first, kinds.contains(kind), let name = words.dropFirst().first else { return nil }
        return String(name)
    }

    static func identifiers(_ code: String) -> Set<String> {
        Set(code.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "_") }).map(String.init))
    }

    /// The code of a Swift source: comments and the text of string literals blanked, what a
    /// string interpolates kept.
    static func code(of text: String) -> String {
        let s = Array(text.unicodeScalars)
        var i = 0
        var out = String.UnicodeScalarView()
        func at(_ k: Int, _ c: Unicode.Scalar) -> Bool { k < s.count && s[k] == c }

        func code(inInterpolation: Bool) {
            var depth = 0
            while i < s.count {
                let c = s[i]
                if c == "/" && at(i + 1, "/") {
                    while i < s.count && s[i] != "\n" { i += 1 }
                } else if c == "/" && at(i + 1, "*") {
                    var nesting = 0
                    repeat {
                        if at(i, "/") && at(i + 1, "*") {
                            nesting += 1
                            i += 2
                        } else if at(i, "*") && at(i + 1, "/") {
                            nesting -= 1
                            i += 2
                        } else {
                            if s[i] == "\n" { out.append("\n") }
                            i += 1
                        }
                    } while nesting > 0 && i < s.count
                } else if c == "\"" {
                    string()
                    out.append(" ")
                } else {
                    if inInterpolation && c == "(" { depth += 1 }
                    if inInterpolation && c == ")" {
                        if depth == 0 {
                            i += 1
                            return
                        }
                        depth -= 1
                    }
                    out.append(c)
                    i += 1
                }
            }
        }

        func string() {
            var hashes = 0
            while out.last == "#" {
                out.removeLast()
                hashes += 1
            }
            let multiline = at(i + 1, "\"") && at(i + 2, "\"")
            i += multiline ? 3 : 1
            func closes() -> Bool {
                guard multiline ? at(i, "\"") && at(i + 1, "\"") && at(i + 2, "\"") : at(i, "\"") else { return false }
                let end = i + (multiline ? 3 : 1)
                return (0..<hashes).allSatisfy { at(end + $0, "#") }
            }
            while i < s.count {
                if closes() {
                    i += (multiline ? 3 : 1) + hashes
                    return
                }
                let escape = s[i] == "\\" && (0..<hashes).allSatisfy { at(i + 1 + $0, "#") }
                if escape && at(i + 1 + hashes, "(") {
                    i += 2 + hashes
                    out.append(" ")
                    code(inInterpolation: true)
                    out.append(" ")
                } else if escape {
                    i += 2 + hashes
                } else {
                    if s[i] == "\n" { out.append("\n") }
                    i += 1
                }
            }
        }

        code(inInterpolation: false)
        return String(out)
    }
}

@Suite struct FolderArrowsTests {
    /// The terminal's folders, arrows and all: no folder names what a folder naming it declares.
    @Test func lanesTerminalFoldersHaveNoCycle() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let arrows = try FolderArrows.read(module: root.appendingPathComponent("Sources/LanesTerminal"))
        #expect(arrows.folders.isSuperset(of: ["App", "Input", "Modes", "Render", "Runtime", "Terminal", "Workspace"]))
        #expect(arrows.cycles == [], "folders that import each other:\n\(arrows.listing)")
    }

    @Test func aCycleThroughThreeFoldersIsFound() {
        let arrows = FolderArrows(files: [
            ("A", "struct Alpha { var b: Beta }"),
            ("B", "public final class Beta {\n    let c = gamma()\n}"),
            ("C", "func gamma() -> Alpha? { nil }"),
            ("D", "enum Delta { static let a = Alpha.self }"),
        ])
        #expect(arrows.cycles == [["A", "B", "C"]])
        #expect(
            arrows.listing
                == "A → B (Beta)\nB → C (gamma)\nC → A (Alpha)\nD → A (Alpha)")
    }

    @Test func commentsAndStringsNameNothingButInterpolationsDo() {
        let arrows = FolderArrows(files: [
            ("A", "struct Alpha {}\nlet said = \"\\(Beta.name) and Gamma\""),
            ("B", "/// Alpha\nenum Beta { static let name = \"Alpha\" /* Alpha */ }"),
            ("C", "struct Gamma { let text = \"\"\"\n    Alpha\n    \"\"\"\n  let raw = #\"Alpha \\(x)\"# }"),
        ])
        #expect(arrows.listing == "A → B (Beta)\nB → nothing\nC → nothing")
        #expect(arrows.cycles == [])
    }

    @Test func onlyTopLevelDeclarationsCount() {
        #expect(FolderArrows.declaredName("public struct BoardApp {") == "BoardApp")
        #expect(FolderArrows.declaredName("@MainActor final class Runner: X {") == "Runner")
        #expect(FolderArrows.declaredName("func monotonicNow() -> Double {") == "monotonicNow")
        #expect(FolderArrows.declaredName("    var nested = 0") == nil)
        #expect(FolderArrows.declaredName("extension BoardApp {") == nil)
        #expect(FolderArrows.declaredName("import LanesCore") == nil)
    }
}
