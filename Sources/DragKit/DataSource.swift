/// The model behind the draggables: how drops reach the data (after seed 002's protocol).
public protocol DragDataSource {
    associatedtype Item

    func numberOfItems(inSection section: Int) -> Int
    func indexPath(for item: ItemID) -> ItemPath?
    func item(at indexPath: ItemPath) -> Item?
    /// Moves inside one section; `to` is the final index after removal.
    mutating func moveItem(from: ItemPath, to: ItemPath)
    mutating func insertItem(_ item: Item, at indexPath: ItemPath)
    mutating func deleteItem(at indexPath: ItemPath)
    /// Groups the calls of one drop so they apply, and undo, together.
    mutating func performTransaction(_ body: (inout Self) -> Void)
}

extension DragDataSource {
    public mutating func performTransaction(_ body: (inout Self) -> Void) {
        body(&self)
    }
}

/// Where a drop goes: a section and a final index, anchored to item identity.
public struct DropTarget: Hashable, Sendable, CustomStringConvertible {
    public var section: Int
    /// The final index of the dropped item, after its removal from its old place.
    public var index: Int
    /// The gap in the current layout where a marker belongs (0 = above the first item).
    public var gap: Int
    /// The item the dropped one will sit right before; nil for the end.
    public var anchor: ItemID?

    public init(section: Int, index: Int, gap: Int, anchor: ItemID?) {
        self.section = section
        self.index = index
        self.gap = gap
        self.anchor = anchor
    }

    public var indexPath: ItemPath { ItemPath(section: section, item: index) }
    public var description: String { "\(section).\(index)" }
}

/// One drop, applied to a data source as a single transaction.
public struct DropTransaction: Hashable, Sendable {
    public var item: ItemID
    public var target: DropTarget

    public init(item: ItemID, target: DropTarget) {
        self.item = item
        self.target = target
    }

    /// Where the item will go given the data source as it is now: resolved by
    /// identity (the item and its anchor), falling back to the proposed index
    /// only when the anchor has gone. Nil when the item has gone.
    public func resolve<D: DragDataSource>(in dataSource: D) -> (from: ItemPath, to: ItemPath)? {
        guard let from = dataSource.indexPath(for: item) else { return nil }
        let same = from.section == target.section
        let count = dataSource.numberOfItems(inSection: target.section) - (same ? 1 : 0)
        var index = min(max(0, target.index), max(0, count))
        if let anchor = target.anchor {
            if let a = dataSource.indexPath(for: anchor), a.section == target.section {
                index = same && a.item > from.item ? a.item - 1 : a.item
            }
        } else {
            index = max(0, count)
        }
        return (from, ItemPath(section: target.section, item: index))
    }

    /// Applies the drop: one move inside a section, or delete + insert across
    /// sections, inside one transaction; nothing at all when the item would
    /// land where it is. Returns the resolved positions, or nil when the item has gone.
    @discardableResult
    public func apply<D: DragDataSource>(to dataSource: inout D) -> (from: ItemPath, to: ItemPath)? {
        guard let (from, to) = resolve(in: dataSource) else { return nil }
        guard dataSource.relocateItem(from: from, to: to) else { return nil }
        return (from, to)
    }
}

extension DragDataSource {
    /// Puts the item at `from` at final position `to` in one transaction: a move inside a
    /// section, delete + insert across sections, nothing when they are equal.
    /// False when there is no item at `from`.
    @discardableResult
    public mutating func relocateItem(from: ItemPath, to: ItemPath) -> Bool {
        guard let value = item(at: from) else { return false }
        guard from != to else { return true }
        if from.section == to.section {
            performTransaction { $0.moveItem(from: from, to: to) }
        } else {
            performTransaction { ds in
                ds.deleteItem(at: from)
                ds.insertItem(value, at: to)
            }
        }
        return true
    }
}
