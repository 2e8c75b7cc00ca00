import DragKit

/// One accept rule: `column` takes cards only from the columns named in `sources` (by title).
public struct AcceptRule: Hashable, Sendable {
    public var column: String
    /// Never empty; no duplicates.
    public var sources: [String]

    public init(column: String, sources: [String]) {
        self.column = column
        self.sources = AcceptRules.unique(sources)
    }
}

/// Which columns may receive cards from which, per board; kept in a sidecar file beside the board.
///
/// Neither board dialect has a place for them (taskell's parser rejects unknown lines), so they
/// live in `.<name>.lanes` next to the board's real file, one rule a line:
///
///     # Review is the only way into Done.
///     accept "Done" from "Review"
///     accept "Doing" from "To do" "Review"
///
/// Names are column titles, in double quotes (`\"` and `\\` inside) or as bare words without
/// spaces, quotes or `#`. `#` starts a comment. Comments and blank lines are kept verbatim when
/// Lanes rewrites the file. A column without a rule accepts from every column; moving a card
/// inside its own column is always allowed. Rules match titles exactly; when several columns
/// share a title the rule applies to each of them.
public struct AcceptRules: Hashable, Sendable {
    /// A line of the file: text Lanes keeps as it is (comments, blank lines) or a rule,
    /// with the comment that followed it on its line (`""` or ` # …`, kept verbatim).
    enum Line: Hashable, Sendable {
        case text(String)
        case rule(AcceptRule, comment: String = "")
        /// The board's swimlanes (see `Swimlanes`), with its line's comment.
        case swimlanes(Swimlanes, comment: String)
        /// `flow started "Doing" done "Done"`: which columns flow metrics count as started and done.
        case flow(FlowColumns, comment: String = "")
    }

    var lines: [Line]

    /// The comment Lanes writes at the top of a rules file it creates.
    public static let header =
        "# Lanes accept rules: accept \"COLUMN\" from \"COLUMN\" … (a column without a rule accepts from all)"

    public init() {
        lines = []
    }

    public init(_ rules: [AcceptRule]) {
        lines = rules.map { .rule($0) }
    }

    /// The rules, in file order.
    public var rules: [AcceptRule] {
        lines.compactMap { if case .rule(let r, _) = $0 { r } else { nil } }
    }

    public var isEmpty: Bool { !lines.contains { if case .rule = $0 { true } else { false } } }

    /// No rules, and nothing a person wrote: only blank lines and Lanes' own header. Such a file is deleted rather than written.
    public var isDisposable: Bool {
        lines.allSatisfy {
            if case .text(let t) = $0 {
                t.allSatisfy { $0 == " " || $0 == "\t" } || t == AcceptRules.header
            } else {
                false
            }
        }
    }

    /// Which columns flow metrics count as started and done (`lanes flow`); both nil by default.
    /// Setting the default removes the `flow` line; a changed setting keeps its line and comment.
    public var flow: FlowColumns {
        get {
            for case .flow(let f, _) in lines { return f }
            return FlowColumns()
        }
        set {
            let index = lines.firstIndex { if case .flow = $0 { true } else { false } }
            switch (index, newValue.isDefault) {
            case (let i?, true): lines.remove(at: i)
            case (let i?, false):
                guard case .flow(_, let comment) = lines[i] else { return }
                lines[i] = .flow(newValue, comment: comment)
            case (nil, true): break
            case (nil, false):
                if lines.isEmpty { lines.append(.text(AcceptRules.header)) }
                lines.append(.flow(newValue))
            }
        }
    }

    /// The columns `column` accepts cards from, or nil when it has no rule (accepts from all).
    public func sources(for column: String) -> [String]? {
        for case .rule(let r, _) in lines where r.column == column { return r.sources }
        return nil
    }

    /// Sets the columns `column` accepts from; nil or an empty list removes its rule.
    /// A new rule goes at the end (after Lanes' header comment in a new file); a changed one keeps its line.
    public mutating func setSources(_ sources: [String]?, for column: String) {
        let sources = AcceptRules.unique(sources ?? [])
        let index = lines.firstIndex { if case .rule(let r, _) = $0 { r.column == column } else { false } }
        switch (index, sources.isEmpty) {
        case (let i?, true): lines.remove(at: i)
        case (let i?, false):
            guard case .rule(_, let comment) = lines[i] else { return }
            lines[i] = .rule(AcceptRule(column: column, sources: sources), comment: comment)
        case (nil, true): break
        case (nil, false):
            if lines.isEmpty { lines.append(.text(AcceptRules.header)) }
            lines.append(.rule(AcceptRule(column: column, sources: sources)))
        }
    }

    /// A column was renamed: every rule naming `old` names `new` instead. When `new` already
    /// had a rule of its own, the two merge (the first keeps its line and takes the union of sources).
    public mutating func renameColumn(_ old: String, to new: String) {
        guard old != new else { return }
        var f = flow
        if f.started == old { f.started = new }
        if f.done == old { f.done = new }
        if f != flow { flow = f }
        var merged: [Line] = []
        var ruleAt: [String: Int] = [:]
        for line in lines {
            guard case .rule(var r, let comment) = line else { merged.append(line); continue }
            if r.column == old { r.column = new }
            r.sources = AcceptRules.unique(r.sources.map { $0 == old ? new : $0 })
            if let i = ruleAt[r.column], case .rule(let first, let firstComment) = merged[i] {
                merged[i] = .rule(
                    AcceptRule(column: first.column, sources: first.sources + r.sources),
                    comment: firstComment + comment)
            } else {
                ruleAt[r.column] = merged.count
                merged.append(.rule(r, comment: comment))
            }
        }
        lines = merged
    }

    /// A column was deleted: its own rule goes, and its name leaves every list. A rule left
    /// with no sources is removed (that column accepts from all again); their columns are returned.
    @discardableResult
    public mutating func removeColumn(_ title: String) -> [String] {
        var opened: [String] = []
        var f = flow
        if f.started == title { f.started = nil }
        if f.done == title { f.done = nil }
        if f != flow { flow = f }
        lines = lines.compactMap { line in
            guard case .rule(var r, let comment) = line else { return line }
            if r.column == title { return nil }
            guard r.sources.contains(title) else { return line }
            r.sources.removeAll { $0 == title }
            if r.sources.isEmpty { opened.append(r.column); return nil }
            return .rule(r, comment: comment)
        }
        return opened
    }

    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    // MARK: File

    /// The sidecar beside a board: `.<name>.lanes` in the folder of the board's real file
    /// (symlinks followed, like the lock `.<name>.lanes-lock`).
    public static func sidecarPath(forBoard path: String) -> String {
        POSIX.sidecar(of: (try? POSIX.resolveFinalLinks(path).get()) ?? path, suffix: ".lanes")
    }

    /// Reads a rules file; no file means no rules. Errors are `file:line: message`.
    public static func read(_ path: String) throws -> (rules: AcceptRules, fingerprint: FileFingerprint?) {
        let bytes: [UInt8]
        let fingerprint: FileFingerprint
        do {
            (bytes, fingerprint) = try SafeFile.read(path)
        } catch StorageError.notFound {
            return (AcceptRules(), nil)
        }
        return (try parse(bytes, file: path), fingerprint)
    }

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

/// Which columns flow metrics count as started and done, by title; nil is the default
/// (started: the second column; done: the last).
public struct FlowColumns: Hashable, Sendable {
    /// This column and those right of it up to `done` are in progress.
    public var started: String?
    /// This column and those right of it are done.
    public var done: String?

    public init(started: String? = nil, done: String? = nil) {
        self.started = started
        self.done = done
    }

    public var isDefault: Bool { started == nil && done == nil }
}

// MARK: - The board under its rules

extension Board {
    /// The sections `section` accepts cards from under the accept rules; nil when it has no rule.
    /// Names matching no column match nothing.
    public func allowedSources(of section: Int) -> Set<Int>? {
        guard !acceptRules.isEmpty, columns.indices.contains(section),
            let names = acceptRules.sources(for: columns[section].title)
        else { return nil }
        let wanted = Set(names)
        return Set(columns.indices.filter { wanted.contains(columns[$0].title) })
    }

    /// Whether the accept rules let a card from `source` into `target` (always inside one column).
    public func rulesAllow(into target: Int, from source: Int) -> Bool {
        target == source || allowedSources(of: target).map { $0.contains(source) } ?? true
    }

    /// Whether a card from `source` may go into `target`: inside one column always; otherwise the
    /// target must be under its WIP limit and its accept rule must name the source.
    public func canMove(into target: Int, from source: Int) -> Bool {
        guard columns.indices.contains(target) else { return false }
        return target == source || (!columns[target].isFull && rulesAllow(into: target, from: source))
    }

    /// Why the accept rules refuse a card from `source` in `target`, e.g. `Done accepts only from Review`;
    /// nil when they allow it. Names that match no column are marked `(no such column)`.
    public func ruleRefusal(into target: Int, from source: Int) -> String? {
        guard !rulesAllow(into: target, from: source) else { return nil }
        let title = columns[target].title
        let titles = Set(columns.map(\.title))
        let names = (acceptRules.sources(for: title) ?? []).map { titles.contains($0) ? $0 : $0 + " (no such column)" }
        return "\(title) accepts only from \(Board.listed(names))"
    }

    /// `A`, `A or B`, `A, B or C` (or another conjunction).
    public static func listed(_ names: [String], or conjunction: String = "or") -> String {
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " \(conjunction) " + names.last!
    }

    /// Names in the rules that match no column, in file order (each once).
    public var unknownRuleColumns: [String] {
        let titles = Set(columns.map(\.title))
        return AcceptRules.unique(
            acceptRules.rules.flatMap { [$0.column] + $0.sources }.filter { !titles.contains($0) })
    }

    /// Renames a column and the rules naming it (unless another column still has the old title).
    mutating func renameColumn(at section: Int, to title: String) {
        let old = columns[section].title
        columns[section].title = title
        if !columns.contains(where: { $0.title == old }) { acceptRules.renameColumn(old, to: title) }
    }

    /// Deletes a column and its name from the rules (unless another column still has its title).
    /// Returns the columns whose rule named only this one and was removed.
    @discardableResult
    mutating func removeColumn(at section: Int) -> [String] {
        let old = columns.remove(at: section).title
        guard !columns.contains(where: { $0.title == old }) else { return [] }
        return acceptRules.removeColumn(old)
    }
}
