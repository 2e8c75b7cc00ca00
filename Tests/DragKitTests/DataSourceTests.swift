import DragKit
import Testing

@Suite("Drop transactions")
struct DataSourceTests {
    /// a0..a4 are 0...4; b0..b2 are 100...102.
    let base = RecordingSource(ids: [[0, 1, 2, 3, 4], [100, 101, 102]])

    func drop(_ item: UInt64, section: Int, index: Int, gap: Int, anchor: UInt64?) -> DropTransaction {
        DropTransaction(
            item: ItemID(item),
            target: DropTarget(
                section: section, index: index, gap: gap,
                anchor: anchor.map(ItemID.init)))
    }

    @Test func moveDownInsideASectionIsOneMoveInOneTransaction() {
        var s = base
        let r = drop(1, section: 0, index: 3, gap: 4, anchor: 4).apply(to: &s)
        #expect(r?.from == path(0, 1) && r?.to == path(0, 3))
        #expect(s.raw == [[0, 2, 3, 1, 4], [100, 101, 102]])
        #expect(s.log == [.begin, .move(path(0, 1), path(0, 3)), .commit])
    }

    @Test func moveUpInsideASection() {
        var s = base
        drop(3, section: 0, index: 0, gap: 0, anchor: 0).apply(to: &s)
        #expect(s.raw[0] == [3, 0, 1, 2, 4])
        #expect(s.log == [.begin, .move(path(0, 3), path(0, 0)), .commit])
    }

    @Test func acrossSectionsIsDeleteThenInsertInOneTransaction() {
        var s = base
        let r = drop(2, section: 1, index: 1, gap: 1, anchor: 101).apply(to: &s)
        #expect(r?.from == path(0, 2) && r?.to == path(1, 1))
        #expect(s.raw == [[0, 1, 3, 4], [100, 2, 101, 102]])
        #expect(s.log == [.begin, .delete(path(0, 2)), .insert(ItemID(2), path(1, 1)), .commit])
    }

    @Test func droppingInPlaceCallsNothing() {
        var s = base
        let r = drop(2, section: 0, index: 2, gap: 3, anchor: 3).apply(to: &s)
        #expect(r?.from == path(0, 2) && r?.to == path(0, 2))
        #expect(s.log.isEmpty)
        #expect(s.raw == base.raw)
    }

    @Test func nilAnchorAppends() {
        var s = base
        drop(0, section: 0, index: 1, gap: 2, anchor: nil).apply(to: &s)
        #expect(s.raw[0] == [1, 2, 3, 4, 0], "nil anchor means the end, whatever the stale index says")
        var t = base
        drop(4, section: 1, index: 0, gap: 0, anchor: nil).apply(to: &t)
        #expect(t.raw == [[0, 1, 2, 3], [100, 101, 102, 4]])
    }

    @Test func itemsInsertedBeforeTheTargetResolveByAnchor() {
        var s = base
        let t = drop(0, section: 1, index: 1, gap: 1, anchor: 101)
        s.sections[1].insert(ItemID(900), at: 0)
        s.sections[1].insert(ItemID(901), at: 0)
        let r = t.apply(to: &s)
        #expect(r?.to == path(1, 3), "before 101, which is now at 3; not the stale index 1")
        #expect(s.raw[1] == [901, 900, 100, 0, 101, 102])
    }

    @Test func itemsRemovedBeforeTheTargetInTheSameSectionResolveByAnchor() {
        var s = base
        let t = drop(1, section: 0, index: 3, gap: 4, anchor: 4)  // a1 between a3 and a4
        s.sections[0].remove(at: 0)  // a0 gone: [1, 2, 3, 4]
        #expect(t.resolve(in: s)?.from == path(0, 0))
        #expect(t.resolve(in: s)?.to == path(0, 2))
        t.apply(to: &s)
        #expect(s.raw[0] == [2, 3, 1, 4])
    }

    @Test func theDraggedItemMovedElsewhereStillResolvesByIdentity() {
        var s = base
        let t = drop(1, section: 0, index: 1, gap: 3, anchor: 3)  // a1 before a3: in place after removal → index 2
        s.sections[0].remove(at: 1)
        s.sections[1].append(ItemID(1))  // a1 is now in b, at 3
        let r = t.resolve(in: s)
        #expect(r?.from == path(1, 3))
        #expect(r?.to == path(0, 2), "before a3 in [a0, a2, a3, a4]")
    }

    @Test func vanishedAnchorFallsBackToTheClampedIndex() {
        var s = base
        let t = drop(0, section: 1, index: 2, gap: 2, anchor: 102)
        s.sections[1] = [ItemID(100)]
        #expect(t.resolve(in: s)?.to == path(1, 1), "index 2 clamped to the end of a 1-item section")
        s.sections[1] = [100, 101, 103, 104].map(ItemID.init)
        #expect(t.resolve(in: s)?.to == path(1, 2))
    }

    @Test func vanishedItemResolvesToNilAndCallsNothing() {
        var s = base
        s.sections[0].remove(at: 1)
        #expect(drop(1, section: 1, index: 0, gap: 0, anchor: 100).apply(to: &s) == nil)
        #expect(s.log.isEmpty)
    }

    /// A column dropped by its header: from and to by the identities of the column and its anchor.
    @Test func aSectionMoveResolvesByIdentity() {
        struct Columns: DragDataSource {
            var ids: [ItemID]
            func numberOfItems(inSection section: Int) -> Int { 0 }
            func indexPath(for item: ItemID) -> ItemPath? { nil }
            func item(at indexPath: ItemPath) -> Int? { nil }
            func sectionIndex(for id: ItemID) -> Int? { ids.firstIndex(of: id) }
            var numberOfSections: Int { ids.count }
            mutating func perform(_ drop: DropProposal) -> String? { "not asked here" }
        }
        let c = Columns(ids: [10, 11, 12, 13].map(ItemID.init))
        func move(_ id: UInt64, index: Int, anchor: UInt64?) -> (from: Int, to: Int)? {
            DropProposal(
                kind: .section, items: [ItemID(id)],
                target: DropTarget(section: -1, index: index, gap: index, anchor: anchor.map(ItemID.init))
            ).sectionMove(in: c).map { ($0.from, $0.to) }
        }
        #expect(move(10, index: 2, anchor: 13).map { [$0.from, $0.to] } == [0, 2])
        #expect(move(13, index: 0, anchor: 10).map { [$0.from, $0.to] } == [3, 0])
        #expect(move(11, index: 1, anchor: nil).map { [$0.from, $0.to] } == [1, 3], "no anchor: the end")
        #expect(move(99, index: 0, anchor: 10) == nil, "a column that has gone")
    }
}
