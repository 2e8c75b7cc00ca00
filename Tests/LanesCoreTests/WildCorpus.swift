import SeededRandom

/// A seeded generator of odd but valid board files in both dialects, reproducing the shapes of
/// docs/FORMATS.md (Obsidian Kanban boards as people's notes hold them, taskell files).
///
/// The same seed gives the same file. Every file is one both tools open: what Lanes must open,
/// keep byte for byte, and edit touching only its own lines.
struct WildCorpus {
    var rng: SplitMix64

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &rng) }
    mutating func chance(_ p: Double) -> Bool { Double.random(in: 0..<1, using: &rng) < p }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...items.count - 1)] }

    /// One file: about one in four taskell, the rest Obsidian.
    mutating func file() -> [UInt8] {
        chance(0.25) ? taskell() : obsidian()
    }

    static let words = [
        "Plan", "the", "garden", "Call", "Ana", "fix", "bug", "#urgent", "#blog", "[[Shed]]",
        "[[Notes|alias]]", "Überprüfen", "日本語", "emoji 🌱", "**bold**", "`code`", "a<br>b",
        "[link](https://example.org)", "50%", "(draft)", "@home", "x&y", "~strike~", "#a/b-c",
    ]

    mutating func title() -> String {
        var parts: [String] = []
        for _ in 0..<int(1...5) { parts.append(pick(Self.words)) }
        var t = parts.joined(separator: " ")
        if chance(0.15) { t += " @{2025-0\(int(1...9))-1\(int(0...9))}" }
        if chance(0.05) { t += " @@{10:\(int(10...59))}" }
        if chance(0.05) { t += " [owner:: ana]" }
        if chance(0.05) { t += " ^blk\(int(100...999))" }
        if chance(0.03) { t += " " }
        return t
    }

    // MARK: Obsidian

    mutating func obsidian() -> [UInt8] {
        var lines: [String] = []
        switch int(0...3) {
        case 0: lines += ["---", "", "kanban-plugin: board", "", "---", ""]
        case 1: lines += ["---", "kanban-plugin: basic", "---", ""]
        case 2: lines += ["---", "tags: [home, garden]", "kanban-plugin: board", "cssclasses: wide", "---"]
        default: lines += ["---", "", "kanban-plugin: basic", "", "---", "", ""]
        }
        if chance(0.15) { lines += ["Notes above the lanes.", ""] }
        let level = chance(0.8) ? 2 : int(1...6)
        let blanksBetweenCards = chance(0.6) ? 0 : 1
        let laneGap = int(1...3)
        let fileStyle = pick(["- [ ] ", "- [ ] ", "- [ ] ", "* [ ] ", "+ [ ] ", "1. [ ] ", "- "])
        for lane in 0..<int(0...5) {
            if lane > 0 { lines += Array(repeating: "", count: chance(0.9) ? laneGap : int(1...3)) }
            let hashes = String(repeating: "#", count: chance(0.9) ? level : int(1...6))
            var heading = hashes + " " + pick(["Todo", "Doing", "Done", "Backlog", "Later", "🔥 Hot", "Ideas"])
            if chance(0.1) { heading += " (\(int(1...9)))" }
            lines.append(heading)
            lines.append("")
            if chance(0.15) { lines += ["**Complete**"]; if chance(0.5) { lines.append("") } }
            if chance(0.05) { lines += ["A paragraph about this lane.", ""] }
            // A fenced block above the cards: its `#` and `-` lines are code, not a lane or cards.
            if chance(0.03) { lines += ["```", "## not a lane", "- [ ] not a card", "```", ""] }
            let style = chance(0.85) ? fileStyle : pick(["- [ ] ", "* [ ] ", "- "])
            for k in 0..<int(0...6) {
                if k > 0 { lines += Array(repeating: "", count: chance(0.95) ? blanksBetweenCards : 1) }
                var m = marker(style)
                // Now and then a card whose bullet is another list's (a list the plugin does not read),
                // or a marker indented by a space (still the same list; two or three spaces would make
                // it a sub-item of a card with a narrower marker, so moves could change its reading).
                if k > 0 && chance(0.03) { m = pick(["* [ ] ", "+ [ ] ", "1. [ ] ", "2) "]) }
                if k > 0 && chance(0.03) { m = " " + m }
                lines.append(m + (chance(0.03) ? "" : title()))
                if chance(0.25) { lines += extraLines() }
            }
        }
        if chance(0.3) {
            lines += ["", "", "***", "", "## Archive", ""]
            for _ in 0..<int(0...3) { lines.append("- [x] " + title()) }
            // A lane after the archive: the plugin shows it.
            if chance(0.15) { lines += ["", "## After the archive", "", "- [ ] " + title()] }
        }
        if chance(0.85) {
            lines += Array(repeating: "", count: int(1...3))
            lines += pick(Self.settingsBlocks)
        }
        if chance(0.05) { lines += ["", "Text after the settings."] }
        // Lanes after the settings block (hand-appended): the plugin shows them.
        if chance(0.08) { lines += ["", "## Added later", ""] + (0..<int(0...2)).map { _ in "- [ ] " + title() } }
        return encode(lines)
    }

    static let settingsBlocks: [[String]] = [
        ["%% kanban:settings", "```", #"{"kanban-plugin":"board","list-collapse":[false,false]}"#, "```", "%%"],
        ["%% kanban:settings", "```", #"{"kanban-plugin":"basic"}"#, "```", "%%"],
        ["%% kanban:settings", "", "```", #"{"kanban-plugin":"board"}"#, "```", "", "%%"],
        ["%% kanban:settings", "```", "{", #"  "kanban-plugin": "board","#, #"  "lane-width": 300"#, "}", "```", "%%"],
        ["%% kanban:settings"],
        ["%% kanban:settings", "## Archive", "", "```", "```", "", "%%"],
        [
            "%% kanban:settings", "```", "{}", "```", "%%", "***", "", "## Archive", "", "%% kanban:settings", "```",
            "{}", "```", "%%",
        ],
    ]

    mutating func marker(_ style: String) -> String {
        guard style.contains("[") else { return style }
        let check = chance(0.7) ? " " : pick(["x", "x", "X", "/", "-"])
        return style.replacingOccurrences(of: "[ ]", with: "[\(check)]")
    }

    mutating func extraLines() -> [String] {
        var out: [String] = []
        for _ in 0..<int(1...3) {
            switch int(0...13) {
            case 0: out.append("\t#" + pick(["blog", "work", "idea"]))
            case 1: out.append("    an indented note: " + pick(Self.words))
            case 2: out.append("<!-- task-id: \(int(1000...9999)) -->")
            case 3: out.append("\t- [ ] a sub-task " + pick(Self.words))
            case 4: out.append("\t\t- [x] nested deeper")
            case 5: out.append("  - [ ] two-space sub-item")
            case 6: out.append("\t> a quote in the card")
            case 8: out += ["", "An unindented note after a blank line"]
            case 9: out.append("a lazy continuation line")
            case 10: out += ["\t```", "\t## code in a card", "\t```"]
            case 11: out += ["<div>", "a block of HTML", "</div>"]
            case 12: out += ["***"]  // (a `---` under a paragraph would underline it as a heading)
            default: out += ["", "    after a blank line, indented"]
            }
        }
        return out
    }

    // MARK: taskell

    mutating func taskell() -> [UInt8] {
        var lines: [String] = []
        for list in 0..<int(1...5) {
            if list > 0 { lines.append("") }
            lines.append(
                "## " + pick(["To Do", "Doing", "Done", "Backlog", "週末"]) + (chance(0.1) ? " (\(int(1...9)))" : ""))
            lines.append("")
            for _ in 0..<int(0...6) {
                lines.append("- " + title())
                if chance(0.2) { lines.append("    @ 2025-0\(int(1...9))-1\(int(0...9))") }
                if chance(0.3) { for _ in 0..<int(1...3) { lines.append("    > " + title()) } }
                if chance(0.3) {
                    for _ in 0..<int(1...3) { lines.append((chance(0.5) ? "    * [x] " : "    * [ ] ") + title()) }
                }
            }
        }
        return encode(lines)
    }

    /// Joined with LF (one in ten CRLF), a final line ending most of the time, a BOM now and then.
    mutating func encode(_ lines: [String]) -> [UInt8] {
        let ending = chance(0.1) ? "\r\n" : "\n"
        var text = lines.joined(separator: ending)
        if chance(0.85) { text += ending }
        var bytes = Array(text.utf8)
        if chance(0.03) { bytes = [0xEF, 0xBB, 0xBF] + bytes }
        return bytes
    }
}
