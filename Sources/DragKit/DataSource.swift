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
    /// For drags of sections themselves (columns by their headers): the section an identity
    /// names now, nil when it has gone (the default: sections cannot be dragged).
    func sectionIndex(for id: ItemID) -> Int?
    var numberOfSections: Int { get }
    /// Moves a section to a final index (after its removal).
    mutating func moveSection(from: Int, to: Int)
    /// The identity of the item at a path, when the source can say cheaply (nil: unknown, or none
    /// there). Lets a drag confirm where its carried items still are without searching for them.
    func identity(at path: ItemPath) -> ItemID?
}

extension DragDataSource {
    public func sectionIndex(for id: ItemID) -> Int? { nil }
    public var numberOfSections: Int { 0 }
    public mutating func moveSection(from: Int, to: Int) {}
    public func identity(at path: ItemPath) -> ItemID? { nil }

    /// Where `id` is now: `hint` when the source confirms it is still there, else a search.
    public func indexPath(for id: ItemID, hint: ItemPath) -> ItemPath? {
        identity(at: hint) == id ? hint : indexPath(for: id)
    }

    public mutating func performTransaction(_ body: (inout Self) -> Void) {
        body(&self)
    }
}

/// One carried item of a multi-item drop: where it was and where it went.
public struct CarriedMove: Hashable, Sendable {
    public var item: ItemID
    public var from: ItemPath
    public var to: ItemPath

    public init(item: ItemID, from: ItemPath, to: ItemPath) {
        self.item = item
        self.from = from
        self.to = to
    }
}

/// Several items dropped together: they land side by side at the target, in board order
/// (by section, then position), as one transaction.
public struct GroupDropTransaction: Hashable, Sendable {
    /// The carried items, in any order; those no longer in the data source are left out.
    public var items: [ItemID]
    /// `index` is the final index of the first carried item after all of them are removed.
    public var target: DropTarget

    public init(items: [ItemID], target: DropTarget) {
        self.items = items
        self.target = target
    }

    /// Where each item goes given the data source as it is now, in board order: resolved by
    /// the anchor's identity (an anchor that is carried or gone falls back to the index).
    public func resolve<D: DragDataSource>(in dataSource: D) -> [CarriedMove] {
        let found = items.compactMap { id in dataSource.indexPath(for: id).map { (id, $0) } }.sorted { $0.1 < $1.1 }
        let carried = Set(found.map(\.0))
        let inTarget = found.filter { $0.1.section == target.section }.map(\.1.item)
        let remaining = dataSource.numberOfItems(inSection: target.section) - inTarget.count
        var index = min(max(0, target.index), max(0, remaining))
        if let anchor = target.anchor {
            if !carried.contains(anchor), let a = dataSource.indexPath(for: anchor), a.section == target.section {
                index = a.item - inTarget.filter { $0 < a.item }.count
            }
        } else {
            index = max(0, remaining)
        }
        return found.enumerated().map { k, e in
            CarriedMove(item: e.0, from: e.1, to: ItemPath(section: target.section, item: index + k))
        }
    }

    /// Applies the drop in one transaction: every carried item deleted, then inserted in board
    /// order at the target; nothing at all when every item would land where it is.
    @discardableResult
    public func apply<D: DragDataSource>(to dataSource: inout D) -> [CarriedMove] {
        let moves = resolve(in: dataSource)
        guard moves.contains(where: { $0.from != $0.to }) else { return moves }
        let values = moves.compactMap { dataSource.item(at: $0.from) }
        guard values.count == moves.count else { return [] }
        dataSource.performTransaction { ds in
            for m in moves.reversed() { ds.deleteItem(at: m.from) }
            for (m, v) in zip(moves, values) { ds.insertItem(v, at: m.to) }
        }
        return moves
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
