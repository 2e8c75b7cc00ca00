import Foundation
import Glibc
import Testing
@testable import LanesTerminal

@Suite struct EditorFileTests {
    private func mode(_ path: String) -> (mode: mode_t, isDirectory: Bool, owner: uid_t)? {
        var st = stat()
        guard lstat(path, &st) == 0 else { return nil }
        return (st.st_mode & 0o7777, (st.st_mode & S_IFMT) == S_IFDIR, st.st_uid)
    }

    private func scratch() throws -> String {
        let dir = NSTemporaryDirectory() + "editor-file-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: false)
        return dir
    }

    @Test func theFileIsPrivateInAFolderOfItsOwnAndHoldsTheText() throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let file = try EditorFile(name: "card.md", contents: Array("- a card\n".utf8), temporaryDirectory: base + "/")
        #expect(file.path == file.directory + "/card.md")
        #expect(
            file.directory.hasPrefix(base + "/lanes-card-") && file.directory.count == (base + "/lanes-card-").count + 6
        )
        #expect(mode(file.directory)?.mode == 0o700 && mode(file.directory)?.isDirectory == true)
        #expect(mode(file.path)?.mode == 0o600 && mode(file.path)?.isDirectory == false)
        #expect(mode(file.path)?.owner == getuid())
        #expect(FileManager.default.contents(atPath: file.path) == Data("- a card\n".utf8))

        // An editor's leftovers go with it.
        #expect(FileManager.default.createFile(atPath: file.directory + "/.card.md.swp", contents: Data()))
        file.remove()
        #expect(mode(file.path) == nil && mode(file.directory) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: base).isEmpty)
    }

    @Test func everyFileGetsANewFolder() throws {
        let base = try scratch()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let a = try EditorFile(name: "card.md", contents: [], temporaryDirectory: base)
        let b = try EditorFile(name: "card.md", contents: [], temporaryDirectory: base)
        #expect(a.directory != b.directory)
        a.remove()
        b.remove()
    }

    @Test func aFolderThatCannotBeUsedIsAnErrorWithItsPath() {
        #expect {
            _ = try EditorFile(name: "card.md", contents: [], temporaryDirectory: "/nonexistent/lanes-tests")
        } throws: { error in
            "\(error)" == "cannot create a private folder in /nonexistent/lanes-tests: No such file or directory"
        }
    }
}
