import Foundation
import Testing
@testable import LanesTerminal

@Suite struct KeymapTests {
    @Test func chordNamesRoundTrip() throws {
        for name in ["h", "H", "ctrl-r", "left", "space", "enter", "esc", "pagedown", "f5", "alt-x", "?", "["] {
            let chord = try #require(KeyChord(name: name), "\(name)")
            #expect(chord.description == name)
        }
        #expect(KeyChord(name: "nonsense") == nil)
    }

    @Test func defaultsResolve() {
        let k = Keymap()
        #expect(k.action(for: .char("j"), []) == .down)
        #expect(k.action(for: .char("J"), [.shift]) == .moveDown)
        #expect(k.action(for: .char("r"), [.ctrl]) == .redo)
        #expect(k.action(for: .char(" "), []) == .lift)
        #expect(k.action(for: .char("z"), []) == .toggleCompact)
        #expect(k.action(for: .char("y"), []) == nil)
    }

    @Test func configRebindsAndUnbinds() throws {
        var k = Keymap()
        try k.apply(config: "# mine\n\nbind n down\nunbind j\nbind ctrl-p up\n", file: "config")
        #expect(k.action(for: .char("n"), []) == .down)
        #expect(k.action(for: .char("j"), []) == nil)
        #expect(k.action(for: .char("p"), [.ctrl]) == .up)
    }

    @Test(arguments: [
        ("bind q\n", 1, "expected \"bind KEY ACTION\", \"unbind KEY\" or \"set view compact|cards\", found \"bind q\""),
        ("\nbind zz down\n", 2, "unknown key \"zz\""),
        ("bind x\tfly\n", 1, "unknown action \"fly\" (lanes keys lists the actions)"),
        (
            "# ok\nunbind\n", 2,
            "expected \"bind KEY ACTION\", \"unbind KEY\" or \"set view compact|cards\", found \"unbind\""
        ),
    ])
    func badConfigNamesTheLine(_ text: String, _ line: Int, _ message: String) {
        var k = Keymap()
        #expect(throws: ConfigError(file: "cfg", line: line, message: message)) {
            try k.apply(config: text, file: "cfg")
        }
    }

    @Test func readmeListsEveryBinding() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(
            readme.contains(HelpView.markdownTable()),
            "README's key table is out of date; paste HelpView.markdownTable()")
    }

    /// The man page's KEYS section is the keymap table, between its two marker comments.
    @Test func manPageListsEveryBinding() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("Resources/lanes.1"), encoding: .utf8)
        let begin = try #require(page.range(of: ".\\\" keys: begin\n"))
        let end = try #require(page.range(of: ".\\\" keys: end\n"))
        let section = String(page[begin.upperBound..<end.lowerBound])
        #expect(
            section == HelpView.manPageKeys(), "Resources/lanes.1's KEYS are out of date; paste HelpView.manPageKeys()")
        #expect(
            section.contains(
                ".B F\nset which columns this one accepts cards from (empty: any) (\\fIset\\-accepts\\fP).\n"))
    }
}

extension ConfigError: Equatable {
    public static func == (a: ConfigError, b: ConfigError) -> Bool {
        a.file == b.file && a.line == b.line && a.message == b.message
    }
}

@Suite struct LineEditorTests {
    @Test func editsWithCursorKeys() {
        var e = LineEditor("hello")
        _ = e.handle(.left, [])
        _ = e.handle(.left, [])
        e.insert("XY")
        #expect(e.text == "helXYlo")
        _ = e.handle(.home, [])
        _ = e.handle(.delete, [])
        #expect(e.text == "elXYlo")
        _ = e.handle(.end, [])
        _ = e.handle(.backspace, [])
        #expect(e.text == "elXYl")
        _ = e.handle(.char("w"), [.ctrl])
        #expect(e.text == "")
    }

    @Test func ctrlUKillsToTheStartAndEnterSubmits() {
        var e = LineEditor("abc def")
        _ = e.handle(.left, [])
        _ = e.handle(.char("u"), [.ctrl])
        #expect(e.text == "f")
        #expect(e.cursor == 0)
        #expect(e.handle(.enter, []) == .submit)
        #expect(e.handle(.escape, []) == .cancel)
    }

    @Test func wideCharactersKeepTheCursorColumn() {
        var e = LineEditor("日本語")
        #expect(e.cursorColumn == 6)
        _ = e.handle(.left, [])
        #expect(e.cursorColumn == 4)
        let v = e.visible(width: 5)
        #expect(v.text == "本語")
        #expect(v.cursor == 2)
    }
}
