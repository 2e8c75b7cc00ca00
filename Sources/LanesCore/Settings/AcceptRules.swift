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
}
