/// Column titles are unique on a board, ignoring case: accept rules and the command line find columns by name.
extension Board {
    /// The title of another column that `title` would clash with (case ignored), nil when none does.
    /// `except` is the column being renamed, which may keep or re-case its own title.
    public func columnTitleClash(_ title: String, except: Int? = nil) -> String? {
        let wanted = title.lowercased()
        for (i, c) in columns.enumerated() where i != except && c.title.lowercased() == wanted {
            return c.title
        }
        return nil
    }

    /// Gives each column whose title an earlier one has (case ignored) a number: `Done`, `Done 2`, `Done 3`.
    /// For boards made from elsewhere (Trello lists may share a name), where refusing would lose the import.
    mutating func makeColumnTitlesUnique() {
        var taken = Set<String>()
        for i in columns.indices {
            var title = columns[i].title
            var n = 2
            while taken.contains(title.lowercased()) {
                title = "\(columns[i].title) \(n)"
                n += 1
            }
            taken.insert(title.lowercased())
            columns[i].title = title
        }
    }

    /// Inserts a new empty column; refuses a title another column has (case ignored).
    mutating func addColumn(titled title: String, at index: Int) throws(ColumnNameError) {
        if let clash = columnTitleClash(title) { throw ColumnNameError(title: title, existing: clash) }
        columns.insert(Column(title: title), at: min(max(0, index), columns.count))
    }

    /// Renames a column (and the accept rules naming it); refuses a title another column has (case ignored).
    mutating func renameColumn(at section: Int, toUnique title: String) throws(ColumnNameError) {
        if let clash = columnTitleClash(title, except: section) { throw ColumnNameError(title: title, existing: clash) }
        renameColumn(at: section, to: title)
    }
}

/// A column title refused because another column already has it.
public struct ColumnNameError: Error, Hashable, Sendable, CustomStringConvertible {
    public var title: String
    public var existing: String
    public init(title: String, existing: String) {
        self.title = title
        self.existing = existing
    }
    public var description: String {
        existing == title
            ? "there is already a column “\(title)”"
            : "“\(title)” is the same name as the column “\(existing)” (case is ignored)"
    }
}
