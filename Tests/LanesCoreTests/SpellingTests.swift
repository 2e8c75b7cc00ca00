import Testing
@testable import LanesCore

@Suite struct SpellingTests {
    @Test(arguments: [
        ("shwo", "show"), ("sho", "show"), ("shows", "show"), ("shaw", "show"), ("Show", "show"),
        ("hsow", "show"), ("sohw", "show"), ("mvoe", "move"), ("ad", "add"), ("adds", "add"), ("colums", "columns"),
        ("exprot", "export"), ("impor", "import"), ("oepn", "open"), ("rule", "rules"), ("x", ""),
        ("ü", "u"),
    ])
    func oneEditApart(_ a: String, _ b: String) {
        #expect(Spelling.isOneEditAway(a, b))
        #expect(Spelling.isOneEditAway(b, a))
    }

    @Test(arguments: [
        ("show", "show"), ("swho", "show"), ("wohs", "show"), ("board.md", "show"),
        ("shw", "move"), ("showed", "show"), ("", "ab"), ("abc", "cba"),
    ])
    func notOneEditApart(_ a: String, _ b: String) {
        #expect(!Spelling.isOneEditAway(a, b))
        #expect(!Spelling.isOneEditAway(b, a))
    }

    @Test func suggestsOnlyAnUnambiguousNearMiss() {
        let commands = ["open", "show", "columns", "add", "move", "rules", "export", "import", "help"]
        #expect(Spelling.suggestion(for: "shwo", among: commands) == "show")
        #expect(Spelling.suggestion(for: "mvoe", among: commands) == "move")
        #expect(Spelling.suggestion(for: "todo.md", among: commands) == nil)
        #expect(Spelling.suggestion(for: "show", among: commands) == nil)
        #expect(Spelling.suggestion(for: "ove", among: commands) == "move")
        #expect(Spelling.suggestion(for: "bat", among: ["bad", "cat"]) == nil)
    }
}
