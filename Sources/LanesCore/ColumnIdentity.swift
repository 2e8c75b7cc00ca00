import DragKit

/// Identities for columns while one is dragged by its header.
///
/// Columns carry no stored identity, so a column is named by its title and which
/// occurrence of that title it is (FNV-1a of both). That survives other writers
/// reordering, adding or removing other columns mid-drag; a rename mid-drag loses the
/// column, and the drag is cancelled with words, as for a deleted card.
extension Board {
    /// The identity of the column at `index`.
    public func columnID(at index: Int) -> ItemID {
        let title = columns[index].title
        let occurrence = columns[..<index].reduce(0) { $0 + ($1.title == title ? 1 : 0) }
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in title.utf8 {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        h ^= UInt64(occurrence) &* 0x9e37_79b9_7f4a_7c15
        return ItemID(h)
    }

    /// The column an identity names now, nil when none does.
    public func columnIndex(for id: ItemID) -> Int? {
        columns.indices.first { columnID(at: $0) == id }
    }

    /// Moves a column to a final index (after its removal), keeping every card.
    public mutating func moveColumn(from: Int, to: Int) {
        guard from != to, columns.indices.contains(from), columns.indices.contains(to) else { return }
        let c = columns.remove(at: from)
        columns.insert(c, at: to)
    }
}

extension BoardDocument {
    public func sectionIndex(for id: ItemID) -> Int? { board.columnIndex(for: id) }
    public var numberOfSections: Int { board.columns.count }
    public mutating func moveSection(from: Int, to: Int) { board.moveColumn(from: from, to: to) }
    public func identity(at path: ItemPath) -> ItemID? { board.item(at: path)?.id }
}
