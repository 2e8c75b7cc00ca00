/// The model behind the draggables: what the coordinator reads while a drag goes on, and what it
/// asks about a drop (after seed 002's protocol).
///
/// The coordinator never changes the data: it asks whether a drop may land at a place (while the
/// drag hovers there) and asks the source to perform it (on release). One answer serves both, so
/// the marker shown while hovering and the release cannot disagree.
public protocol DragDataSource {
    associatedtype Item

    func numberOfItems(inSection section: Int) -> Int
    func indexPath(for item: ItemID) -> ItemPath?
    func item(at indexPath: ItemPath) -> Item?
    /// For drags of sections themselves (columns by their headers): the section an identity
    /// names now, nil when it has gone (the default: sections cannot be dragged).
    func sectionIndex(for id: ItemID) -> Int?
    var numberOfSections: Int { get }
    /// The identity of the item at a path, when the source can say cheaply (nil: unknown, or none
    /// there). Lets a drag confirm where its carried items still are without searching for them.
    func identity(at path: ItemPath) -> ItemID?
    /// Why the drop would be refused, in words; nil when it may land. Asked while a drag hovers.
    func refusal(of drop: DropProposal) -> String?
    /// Performs the drop as one change; nil when done, else why it was refused (nothing changed).
    mutating func perform(_ drop: DropProposal) -> String?
}

extension DragDataSource {
    public func sectionIndex(for id: ItemID) -> Int? { nil }
    public var numberOfSections: Int { 0 }
    public func identity(at path: ItemPath) -> ItemID? { nil }
    public func refusal(of drop: DropProposal) -> String? { nil }

    /// Where `id` is now: `hint` when the source confirms it is still there, else a search.
    public func indexPath(for id: ItemID, hint: ItemPath) -> ItemPath? {
        identity(at: hint) == id ? hint : indexPath(for: id)
    }
}

/// A drop as the coordinator puts it to the data source: what the drag carries and where it lands.
public struct DropProposal: Hashable, Sendable {
    /// Items of the data source, or a section (a column dragged by its header).
    public var kind: DragItemKind
    /// The carried items in board order (the dragged one alone for a single drag); for a section, its identity.
    public var items: [ItemID]
    /// Where they land: the section, the final index of the first, and the item they go before.
    public var target: DropTarget

    public init(kind: DragItemKind = .item, items: [ItemID], target: DropTarget) {
        self.kind = kind
        self.items = items
        self.target = target
    }

    /// For a section drop: the section's index now and its final index, resolved by the identities
    /// of the section and of the anchor; nil when the section has gone.
    public func sectionMove<D: DragDataSource>(in dataSource: D) -> (from: Int, to: Int)? {
        guard kind == .section, let id = items.first, let from = dataSource.sectionIndex(for: id) else { return nil }
        var to = min(max(0, target.index), max(0, dataSource.numberOfSections - 1))
        if let a = target.anchor {
            if let ai = dataSource.sectionIndex(for: a) { to = ai > from ? ai - 1 : ai }
        } else {
            to = max(0, dataSource.numberOfSections - 1)
        }
        return (from, to)
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
/// (by section, then position).
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

/// One item's drop, resolved against the data as it is now (by identity: the item and its anchor).
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
}
