import DragKit

/// The board under its accept rules: which columns a column takes cards from, and the rules kept
/// true to the columns when one is renamed or deleted.
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
