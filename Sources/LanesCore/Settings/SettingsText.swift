/// The `.<name>.lanes` settings file as text: its parser and its writer (no file I/O: the
/// storage layer reads and writes the file, `SettingsSidecar`; PostgreSQL keeps the same text).
extension AcceptRules {
    /// Parses the rules file format (see the type's documentation).
    public static func parse(_ bytes: [UInt8], file: String) throws(ParseError) -> AcceptRules {
        let source = Source(bytes: bytes, table: LineTable(bytes, file: file), file: file)
        var rules = AcceptRules()
        var firstLine: [String: Int] = [:]
        var swimlanesLine: Int?
        var flowLine: Int?
        for n in 0..<source.count {
            let text = source.text(n)
            var words = Words(text)
            guard let first = try words.next(source, n) else {
                rules.lines.append(.text(text))
                continue
            }
            if first == .bare("swimlanes") {
                let lanes = try Swimlanes.parseLine(&words, source, n, earlier: swimlanesLine)
                swimlanesLine = n + 1
                rules.lines.append(.swimlanes(lanes, comment: words.comment))
                continue
            }
            if first == .bare("flow") {
                if let earlier = flowLine {
                    throw source.error(n, "a second flow line (the first is on line \(earlier)); keep one")
                }
                flowLine = n + 1
                var f = FlowColumns()
                while let word = try words.next(source, n) {
                    guard word == .bare("started") || word == .bare("done") else {
                        throw source.error(
                            n, "expected started \"COLUMN\" or done \"COLUMN\" after flow, \(source.found(n))")
                    }
                    guard let name = try words.next(source, n)?.name else {
                        throw source.error(n, "expected the column's name after \(word.name ?? "")")
                    }
                    if word == .bare("started") { f.started = name } else { f.done = name }
                }
                guard !f.isDefault else {
                    throw source.error(
                        n, "flow names no column: write flow started \"COLUMN\" done \"COLUMN\", or remove the line")
                }
                rules.lines.append(.flow(f, comment: words.comment))
                continue
            }
            guard first == .bare("accept") else {
                throw source.error(n, "expected accept \"COLUMN\" from \"COLUMN\" …, \(source.found(n))")
            }
            guard let target = try words.next(source, n), let column = target.name else {
                throw source.error(n, "expected the column's name after accept, \(source.found(n))")
            }
            guard try words.next(source, n) == .bare("from") else {
                throw source.error(n, "expected from after accept \(quoted(column)), \(source.found(n))")
            }
            var sources: [String] = []
            while let word = try words.next(source, n) {
                guard let name = word.name else { throw source.error(n, "expected a column name, \(source.found(n))") }
                sources.append(name)
            }
            guard !sources.isEmpty else {
                throw source.error(
                    n, "accept \(quoted(column)) from no column: name at least one after from, or remove the line")
            }
            if let earlier = firstLine[column] {
                throw source.error(
                    n,
                    "a second rule for \(quoted(column)) (the first is on line \(earlier)); put all its columns on one line"
                )
            }
            firstLine[column] = n + 1
            rules.lines.append(.rule(AcceptRule(column: column, sources: sources), comment: words.comment))
        }
        if let e = source.table.pendingError { throw e }
        return rules
    }

    /// The file's text: kept lines as they were, rules in the canonical form, one per line.
    public func serialized() -> String {
        var out = ""
        for line in lines {
            switch line {
            case .text(let t): out += t
            case .rule(let r, let comment): out += AcceptRules.line(for: r) + comment
            case .swimlanes(let s, let comment): out += s.line + comment
            case .flow(let f, let comment): out += AcceptRules.line(for: f) + comment
            }
            out += "\n"
        }
        return out
    }

    /// `accept "Done" from "Review" "Doing"`
    public static func line(for rule: AcceptRule) -> String {
        "accept \(quoted(rule.column)) from " + rule.sources.map(quoted).joined(separator: " ")
    }

    /// `flow started "Doing" done "Done"` (a part left at its default is not written).
    public static func line(for flow: FlowColumns) -> String {
        var out = "flow"
        if let s = flow.started { out += " started " + quoted(s) }
        if let d = flow.done { out += " done " + quoted(d) }
        return out
    }

    /// A name in double quotes, `"` and `\` escaped; never a NUL or line break (see `TextRules.writable`).
    public static func quoted(_ name: String) -> String {
        var out = "\""
        for scalar in TextRules.writable(name).unicodeScalars {
            if scalar == "\"" || scalar == "\\" { out.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out + "\""
    }
}

/// The words of one line of a rules file: bare words and quoted names, up to a `#` comment.
struct Words {
    enum Word: Equatable {
        case bare(String)
        case quoted(String)

        /// The column name a word gives (every word can be one).
        var name: String? {
            switch self {
            case .bare(let s), .quoted(let s): s
            }
        }
    }

    /// Read by UTF-8 byte, which is reading by Unicode scalar for the ASCII marks it looks for
    /// (blanks, `#`, quotes, backslash never occur inside another scalar's bytes), not by grapheme:
    /// a quote followed by a combining mark is still a quote.
    private let bytes: [UInt8]
    /// The next byte to read.
    private var at = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    /// Once `next` returned nil: the comment ending the line with the blanks before it (`""` when none).
    var comment: String = ""

    private var current: UInt8? { at < bytes.count ? bytes[at] : nil }

    private func text(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), hash = UInt8(ascii: "#"),
        quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    mutating func next(_ source: Source, _ line: Int) throws(ParseError) -> Word? {
        let blanks = at
        while let c = current, c == Words.space || c == Words.tab { at += 1 }
        guard let c = current, c != Words.hash else {
            comment = at == bytes.count ? "" : text(blanks..<bytes.count)
            return nil
        }
        if c == Words.quote {
            at += 1
            var name: [UInt8] = []
            var run = at  // the bytes since the last escape, copied at once
            while true {
                guard let ch = current else {
                    throw source.error(line, "a quoted name is not closed (a \" is missing)")
                }
                if ch == Words.quote {
                    name.append(contentsOf: bytes[run..<at])
                    at += 1
                    break
                }
                if ch == Words.backslash {
                    name.append(contentsOf: bytes[run..<at])
                    at += 1
                    guard let esc = current, esc == Words.quote || esc == Words.backslash else {
                        throw source.error(line, "only \\\" and \\\\ may follow a backslash in a quoted name")
                    }
                    name.append(esc)
                    at += 1
                    run = at
                } else {
                    at += 1
                }
            }
            let quoted = String(decoding: name, as: UTF8.self)
            // An empty name is allowed: "## " is a column with an empty title, and its rule must read back.
            if let after = current, after != Words.space && after != Words.tab {
                throw source.error(line, "expected a space after the quoted name \(AcceptRules.quoted(quoted))")
            }
            return .quoted(quoted)
        }
        let start = at
        while let ch = current, ch != Words.space && ch != Words.tab {
            if ch == Words.quote || ch == Words.hash {
                throw source.error(
                    line, "a name with \(ch == Words.hash ? "#" : "quotes") must be written in double quotes")
            }
            at += 1
        }
        return .bare(text(start..<at))
    }
}
