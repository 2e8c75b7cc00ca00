import DragKit

/// Columns by identity: what prompts, scroll positions, undo and a dragged header hold.
extension Board {
    /// The drag engine's identity of the column at `index` (its `ColumnID` as an `ItemID`).
    public func columnID(at index: Int) -> ItemID { columns[index].id.item }

    /// The column a drag identity names now, nil when none does.
    public func columnIndex(for id: ItemID) -> Int? { index(of: ColumnID(id.rawValue)) }

    /// Where the column with this identity is now, nil when it is gone.
    public func index(of column: ColumnID) -> Int? { columns.firstIndex { $0.id == column } }

    /// The column with this identity, nil when it is gone.
    public func column(_ id: ColumnID) -> Column? { index(of: id).map { columns[$0] } }

    /// This board with the identities `known` gave its columns kept: a column whose identity
    /// `known` lacks takes the identity of the one column of `known` with its title (case
    /// ignored) whose identity this board lacks. A store that names columns itself (PostgreSQL
    /// gives a new column its row id on the first save) then moves no prompt, scroll or undo
    /// step off the column it meant.
    public func keepingColumnIdentities(of known: Board) -> Board {
        let mine = Set(columns.map(\.id)), theirs = Set(known.columns.map(\.id))
        guard mine != theirs else { return self }
        var free: [String: [ColumnID]] = [:]
        for c in known.columns where !mine.contains(c.id) { free[c.title.lowercased(), default: []].append(c.id) }
        guard !free.isEmpty else { return self }
        var result = self
        for i in result.columns.indices where !theirs.contains(result.columns[i].id) {
            if let ids = free[result.columns[i].title.lowercased()], ids.count == 1 { result.columns[i].id = ids[0] }
        }
        return result
    }

    /// Moves a column to a final index (after its removal), keeping every card.
    mutating func moveColumn(from: Int, to: Int) {
        guard from != to, columns.indices.contains(from), columns.indices.contains(to) else { return }
        let c = columns.remove(at: from)
        columns.insert(c, at: to)
    }
}

extension BoardDocument {
    public func sectionIndex(for id: ItemID) -> Int? { board.columnIndex(for: id) }
    public var numberOfSections: Int { board.columns.count }
    public func identity(at path: ItemPath) -> ItemID? { board.item(at: path).map { ItemID($0.id) } }
}
