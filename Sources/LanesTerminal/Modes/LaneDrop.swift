import DragKit
import LanesCore

/// The board as the drag engine sees it in the lane view: sections are lane × column cells
/// (`lane * columnCount + column`), items a cell's cards in column order.
///
/// A drop's calls run on a scratch copy of the cells; what they did becomes one
/// `BoardEdit.moveCardsToLane` (the cards, the target column and lane, and a slot next to a
/// card that did not move) applied by the one door, so the lane tag rewrite, the rules and
/// undo are the door's. A refusal leaves its words in `document.lastRefusal`.
public struct LaneDropSource: DragDataSource {
    public typealias Item = Card

    public var document: BoardDocument
    let grid: LaneGrid
    /// Each cell's card identities: built only for a drop's scratch copy (every motion of a drag
    /// asks the grid's placement instead, without copying 10,000 identities).
    var cells: [[ItemID]]?
    var touched: [ItemID]?
    /// A column dragged by its header during the drop's calls.
    var movedColumn: (from: Int, to: Int)?

    public init(document: BoardDocument, grid: LaneGrid) {
        self.document = document
        self.grid = grid
    }

    /// The cells as identities, from the grid's placement.
    func allCells() -> [[ItemID]] {
        var cells: [[ItemID]] = []
        for lane in grid.placement.indices {
            for (column, indices) in grid.placement[lane].enumerated() {
                cells.append(indices.map { document.board.columns[column].cards[$0].id })
            }
        }
        return cells
    }

    public func numberOfItems(inSection section: Int) -> Int {
        if let cells { return cells.indices.contains(section) ? cells[section].count : 0 }
        guard section >= 0, grid.columnCount > 0, grid.placement.indices.contains(section / grid.columnCount) else {
            return 0
        }
        return grid.placement[section / grid.columnCount][section % grid.columnCount].count
    }

    public func indexPath(for item: ItemID) -> ItemPath? {
        guard let p = document.board.indexPath(for: item) else { return nil }
        return grid.cellPath(p)
    }

    public func identity(at path: ItemPath) -> ItemID? {
        if let cells {
            guard cells.indices.contains(path.section), cells[path.section].indices.contains(path.item) else {
                return nil
            }
            return cells[path.section][path.item]
        }
        return grid.boardPath(path).flatMap { p in
            p.item >= 0 ? document.board.columns[p.section].cards[p.item].id : nil
        }
    }

    public func item(at indexPath: ItemPath) -> Card? {
        guard let id = identity(at: indexPath), let p = document.board.indexPath(for: id) else { return nil }
        return document.board.item(at: p)
    }

    public mutating func moveItem(from: ItemPath, to: ItemPath) {
        guard let id = identity(at: from), cells != nil else { return }
        touched?.append(id)
        cells![from.section].remove(at: from.item)
        cells![to.section].insert(id, at: min(max(0, to.item), cells![to.section].count))
    }

    public mutating func insertItem(_ item: Card, at indexPath: ItemPath) {
        guard let count = cells?.indices.contains(indexPath.section) == true ? cells?[indexPath.section].count : nil
        else { return }
        touched?.append(item.id)
        cells![indexPath.section].insert(item.id, at: min(max(0, indexPath.item), count))
    }

    public mutating func deleteItem(at indexPath: ItemPath) {
        guard identity(at: indexPath) != nil, cells != nil else { return }
        cells![indexPath.section].remove(at: indexPath.item)
    }

    public func sectionIndex(for id: ItemID) -> Int? { document.sectionIndex(for: id) }
    public var numberOfSections: Int { document.numberOfSections }
    public mutating func moveSection(from: Int, to: Int) { movedColumn = (from, to) }

    public mutating func performTransaction(_ body: (inout LaneDropSource) -> Void) {
        var scratch = self
        scratch.cells = allCells()
        scratch.touched = []
        body(&scratch)
        document.lastRefusal = nil
        if let (from, to) = scratch.movedColumn {
            guard document.board.columns.indices.contains(from) else { return }
            do { _ = try document.apply(.moveColumn(document.board.columns[from].id, to: to)) } catch {
                document.lastRefusal = error
            }
            return
        }
        guard let edit = scratch.edit() else { return }
        do { _ = try document.apply(edit) } catch { document.lastRefusal = error }
    }

    /// What the recorded calls did, as one edit: the touched cards in the order they now stand
    /// in their cell, to that cell's column and lane, before the next card of the cell that did
    /// not move (or after the last one before them; or at the column's end in an empty cell).
    func edit() -> BoardEdit? {
        guard let touched, let first = touched.first, let cells,
            let section = cells.firstIndex(where: { $0.contains(first) })
        else { return nil }
        let moving = Set(touched)
        let cell = cells[section]
        let moved = cell.filter { moving.contains($0) }
        let start = cell.firstIndex(of: moved[0])!
        let column = section % grid.columnCount, lane = section / grid.columnCount
        let board = document.board
        let indexInColumn: (ItemID) -> Int = { board.indexPath(for: $0)?.item ?? 0 }
        var slot: CardSlot = .end
        if let after = cell[start...].first(where: { !moving.contains($0) }) {
            slot = .before(after, orIndex: indexInColumn(after))
        } else if let before = cell[..<start].last(where: { !moving.contains($0) }) {
            slot = .after(before, orIndex: indexInColumn(before) + 1)
        }
        let tag: String? = lane < grid.swimlanes.count ? grid.swimlanes.tags[lane] : nil
        return .moveCardsToLane(moved, to: board.columns[column].id, at: slot, lane: tag)
    }
}
