import Foundation
import Testing
import DragKit
@testable import LanesCore

/// Board files written for these tests, committed under `Tests/Fixtures` (found from this source file).
enum Fixtures {
    static func directory(_ filePath: String = #filePath) -> URL {
        packageRoot(filePath).appendingPathComponent("Tests/Fixtures")
    }

    /// The fixture's bytes; a missing directory or file fails the test with the path it looked at.
    static func bytes(
        _ name: String, in dir: URL = directory(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [UInt8] {
        var isDirectory: ObjCBool = false
        try #require(
            FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory) && isDirectory.boolValue,
            "fixture directory missing: \(dir.path)", sourceLocation: sourceLocation)
        let path = dir.appendingPathComponent(name).path
        let data = try #require(
            FileManager.default.contents(atPath: path),
            "fixture file missing: \(path)", sourceLocation: sourceLocation)
        return Array(data)
    }

    static func text(
        _ name: String, in dir: URL = directory(),
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> String {
        let bytes = try bytes(name, in: dir, sourceLocation: sourceLocation)
        return try #require(String(validating: bytes, as: UTF8.self), "fixture is not UTF-8: \(name)")
    }

    static func packageRoot(_ filePath: String) -> URL {
        URL(fileURLWithPath: filePath)
            .deletingLastPathComponent()  // LanesCoreTests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()  // package root
    }
}

/// Real files from other tools in `<package root>/../shared/fixtures`, present in CI and
/// on the project's own machines but not in a user's clone: the interop suite runs only
/// where they are.
enum SharedFixtures {
    static func directory(_ filePath: String = #filePath) -> URL {
        Fixtures.packageRoot(filePath).appendingPathComponent("../shared/fixtures").standardizedFileURL
    }

    /// Whether the folder is there; when it is not, says so once, on standard error.
    static let available: Bool = {
        let dir = directory()
        var isDirectory: ObjCBool = false
        let found = FileManager.default.fileExists(atPath: dir.path, isDirectory: &isDirectory) && isDirectory.boolValue
        if !found {
            FileHandle.standardError.write(
                Data(
                    "interop suite skipped: \(dir.path) is not there (real taskell, Obsidian and Trello files; present in CI)\n"
                        .utf8))
        }
        return found
    }()

    static func bytes(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [UInt8] {
        try Fixtures.bytes(name, in: directory(), sourceLocation: sourceLocation)
    }

    static func text(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        try Fixtures.text(name, in: directory(), sourceLocation: sourceLocation)
    }
}

/// Splits on "\n" exactly as a file's lines (a final newline gives no extra empty line).
func fileLines(_ text: String) -> [String] {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    if lines.last == "" { lines.removeLast() }
    return lines
}

/// The lines of `b` minus those of `a` and vice versa, as an LCS line diff sees them.
func lineDiff(_ a: [String], _ b: [String]) -> (removed: [String], added: [String]) {
    let n = a.count, m = b.count
    var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
    for i in stride(from: n - 1, through: 0, by: -1) {
        for j in stride(from: m - 1, through: 0, by: -1) {
            table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
        }
    }
    var removed: [String] = [], added: [String] = []
    var i = 0, j = 0
    while i < n && j < m {
        if a[i] == b[j] {
            i += 1; j += 1
        } else if table[i + 1][j] >= table[i][j + 1] {
            removed.append(a[i]); i += 1
        } else {
            added.append(b[j]); j += 1
        }
    }
    removed += a[i...]
    added += b[j...]
    return (removed, added)
}

/// Parses, failing the test with the error's description if it throws.
func parseOK(_ text: String, file: String = "board.md", sourceLocation: SourceLocation = #_sourceLocation) throws -> (
    board: Board, info: BoardFileInfo
) {
    do {
        return try BoardFormat.parse(text, file: file)
    } catch {
        Issue.record("unexpected parse error: \(error)", sourceLocation: sourceLocation)
        throw error
    }
}

/// The error a parse throws; fails the test when it parses.
func parseError(_ bytes: [UInt8], file: String = "board.md", sourceLocation: SourceLocation = #_sourceLocation)
    -> ParseError?
{
    do {
        _ = try BoardFormat.parse(bytes, file: file)
        Issue.record("expected a parse error, but it parsed", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

func parseError(_ text: String, file: String = "board.md", sourceLocation: SourceLocation = #_sourceLocation)
    -> ParseError?
{
    parseError(Array(text.utf8), file: file, sourceLocation: sourceLocation)
}

/// Moves a card by identity to a column and index (index after removal).
func moving(_ board: Board, card id: CardID, toColumn column: Int, index: Int) -> Board {
    var board = board
    let from = board.indexPath(for: id)!
    let card = board.columns[from.section].cards.remove(at: from.item)
    board.columns[column].cards.insert(card, at: index)
    return board
}
