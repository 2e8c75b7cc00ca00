import DragKit
import LanesCore

/// The board as the drag engine sees it in the lane view: sections are lane × column cells
/// (`lane * columnCount + column`), items a cell's cards in column order.
///
/// A drop is one `BoardEdit.moveCardsToLane` (the cards, the target column and lane, and a slot
/// next to a card of the cell that does not move), asked of the one door while the drag hovers
/// and applied by it on release, so the lane tag rewrite, the rules, their words and undo are the door's.
public struct LaneDropSource: DragDataSource {
    public typealias Item = Card

    public var document: BoardDocument
    let grid: LaneGrid

    public init(document: BoardDocument, grid: LaneGrid) {
        self.document = document
        self.grid = grid
    }

    /// The last card of a cell the drop does not carry, found from the cell's end (a drag asks at
    /// every motion: no walk of a cell of thousands).
    func lastStaying(in section: Int, moving: Set<CardID>) -> CardID? {
        guard section >= 0, grid.columnCount > 0, grid.placement.indices.contains(section / grid.columnCount) else {
            return nil
        }
        let column = section % grid.columnCount
        for i in grid.placement[section / grid.columnCount][column].reversed() {
            let id = document.board.columns[column].cards[i].id
            if !moving.contains(id) { return id }
        }
        return nil
    }

    public func numberOfItems(inSection section: Int) -> Int {
        guard section >= 0, grid.columnCount > 0, grid.placement.indices.contains(section / grid.columnCount) else {
            return 0
        }
        return grid.placement[section / grid.columnCount][section % grid.columnCount].count
    }

    public func indexPath(for item: ItemID) -> ItemPath? {
        guard let p = document.board.indexPath(for: CardID(item)) else { return nil }
        return grid.cellPath(p)
    }

    public func identity(at path: ItemPath) -> ItemID? { card(at: path).map(ItemID.init) }

    /// The card at a cell's path, nil when none is there.
    func card(at path: ItemPath) -> CardID? {
        grid.boardPath(path).flatMap { p in
            p.item >= 0 ? document.board.columns[p.section].cards[p.item].id : nil
        }
    }

    public func item(at indexPath: ItemPath) -> Card? {
        guard let id = card(at: indexPath), let p = document.board.indexPath(for: id) else { return nil }
        return document.board.item(at: p)
    }

    public func sectionIndex(for id: ItemID) -> Int? { document.sectionIndex(for: id) }
    public var numberOfSections: Int { document.numberOfSections }

    /// The edit a drop is: a column dragged by its header is the document's; cards go to the
    /// cell's column and lane, before the next card of the cell that does not move (after the
    /// last one before them when none follows; at the column's end in a cell with no other card).
    func edit(for drop: DropProposal) -> BoardEdit? {
        guard drop.kind == .item else { return document.edit(for: drop) }
        let section = drop.target.section
        guard grid.columnCount > 0, section >= 0 else { return nil }
        let column = section % grid.columnCount, lane = section / grid.columnCount
        let board = document.board
        guard board.columns.indices.contains(column) else { return nil }
        let indexInColumn: (CardID) -> Int = { board.indexPath(for: $0)?.item ?? 0 }
        var slot: CardSlot = .end
        let cards = drop.items.map(CardID.init)
        if let before = drop.target.anchor.map(CardID.init) {
            slot = .before(before, orIndex: indexInColumn(before))
        } else if let last = lastStaying(in: section, moving: Set(cards)) {
            slot = .after(last, orIndex: indexInColumn(last) + 1)
        }
        let tag: String? = lane < grid.swimlanes.count ? grid.swimlanes.tags[lane] : nil
        return .moveCardsToLane(cards, to: board.columns[column].id, at: slot, lane: tag)
    }

    public func refusal(of drop: DropProposal) -> String? {
        guard let edit = edit(for: drop) else { return BoardDocument.columnGone }
        return document.refusal(of: edit)?.words
    }

    public mutating func perform(_ drop: DropProposal) -> String? {
        guard let edit = edit(for: drop) else { return BoardDocument.columnGone }
        do { try document.apply(edit) } catch { return error.words }
        return nil
    }
}

extension LaneGrid {
    /// A drag event in cell terms read as board paths (the app's selection is a board path).
    /// A drop's target is where the card is in `board` now (the door has applied it).
    func boardEvent(_ e: DragEvent, board: Board) -> DragEvent? {
        let header = BoardDraggable.section
        switch e {
        case .tapped(_, let item?) where item.section == header: return e
        case .began(let s) where s.kind == .section: return e
        case .dropped(let d) where d.to.section == header || d.from.section == header: return e
        case .endedOutside(_, let source, _) where source.section == header: return e
        case .cancelled(_, let source, _) where source.section == header: return e
        case .tapped(let p, let item):
            return .tapped(at: p, item: item.flatMap(boardPath))
        case .began(var s):
            guard let p = boardPath(s.source) else { return nil }
            s.source = p
            return .began(s)
        case .dropped(var d):
            guard let from = boardPath(d.from) else { return nil }
            d.from = from
            d.to = board.indexPath(for: CardID(d.item)) ?? from
            d.carried = []
            return .dropped(d)
        case .endedOutside(let id, let source, let at):
            return boardPath(source).map { .endedOutside(item: id, source: $0, at: at) }
        case .dropRefused(let id, let source, let at, let why):
            return boardPath(source).map { .dropRefused(item: id, source: $0, at: at, because: why) }
        case .cancelled(let id, let source, let reason):
            return boardPath(source).map { .cancelled(item: id, source: $0, reason: reason) }
        case .moved, .targetChanged, .beganOutside, .notDraggable:
            return e
        }
    }
}
