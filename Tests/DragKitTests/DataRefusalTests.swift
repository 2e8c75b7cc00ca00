import DragKit
import Testing

/// The data source's own rule: asked while the drag hovers (its words in the hover) and again
/// when the drop is performed; the coordinator never changes the data itself.
@Suite("Drops the data refuses")
struct DataRefusalTests {
    /// Column c (section 2) takes nothing, in the data's words.
    static func refusingC() -> Driver {
        var source = RecordingSource(ids: standard)
        source.refuse = { $0.target.section == 2 ? "column c is full (WIP limit 0)" : nil }
        return Driver(source)
    }

    @Test func aHoverTheDataRefusesCarriesItsWordsAndTheReleaseSnapsBack() {
        var d = Self.refusingC()
        let p = pt(cx, 3)
        _ = d.began(pt(ax, Layout.upper(1)), pt(ax + 1, Layout.upper(1)))
        #expect(
            d.changed(p) == [
                .moved(to: p, hover: .refused(section: 2, because: "column c is full (WIP limit 0)")),
                .targetChanged(section: 2),
            ])
        #expect(d.ended(p) == [.endedOutside(item: ItemID(1), source: path(0, 1), at: p)])
        #expect(d.source.log.isEmpty, "a refused place is never asked to perform")
        #expect(d.source.raw == standard)
    }

    /// A release re-asks the place under the pointer: the data changed since the last motion
    /// (another writer filled the column), so the release snaps back, performing nothing.
    @Test func aReleaseReAsksThePlace() {
        var d = Driver(ids: standard)
        let p = pt(cx, 3)
        _ = d.began(pt(ax, Layout.upper(1)), pt(ax + 1, Layout.upper(1)))
        #expect(
            d.changed(p) == [
                .moved(to: p, hover: target(2, index: 0, gap: 0, anchor: nil)), .targetChanged(section: 2),
            ])
        d.source.refuse = { _ in "column c is full (WIP limit 0)" }
        #expect(
            d.ended(p) == [
                .moved(to: p, hover: .refused(section: 2, because: "column c is full (WIP limit 0)")),
                .endedOutside(item: ItemID(1), source: path(0, 1), at: p),
            ])
        #expect(d.source.log.isEmpty && d.source.raw == standard)
    }

    /// A keyboard drop performs where the card was aimed; when the data refuses it then (it
    /// changed since the aim), the words come back as `dropRefused` and nothing changes.
    @Test func aDropTheDataRefusesWhenPerformedSaysSoAndChangesNothing() {
        var d = Driver(ids: standard)
        _ = d.coordinator.lift(at: path(0, 1), dataSource: d.source)
        _ = d.coordinator.moveLifted(toSection: 2, index: 0, dataSource: d.source)
        #expect(d.coordinator.session?.hover == target(2, index: 0, gap: 0, anchor: nil))
        let at = d.coordinator.session!.location
        d.source.refuse = { _ in "column c is full (WIP limit 0)" }
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source) == [
                .dropRefused(item: ItemID(1), source: path(0, 1), at: at, because: "column c is full (WIP limit 0)")
            ])
        #expect(d.source.log == [.refused("column c is full (WIP limit 0)")])
        #expect(d.source.raw == standard && !d.coordinator.isDragging)
    }

    /// A keyboard drag asks the same question: `verdict` and `moveLifted` carry the data's words.
    @Test func aKeyboardDragHearsTheSameWords() {
        var d = Self.refusingC()
        _ = d.coordinator.lift(at: path(0, 1), dataSource: d.source)
        #expect(
            d.coordinator.verdict(toSection: 2, index: 0, dataSource: d.source)
                == .refused(section: 2, because: "column c is full (WIP limit 0)"))
        #expect(
            d.coordinator.verdict(toSection: 1, index: 0, dataSource: d.source)
                == target(1, index: 0, gap: 0, anchor: 100))
        let events = d.coordinator.moveLifted(toSection: 2, index: 0, dataSource: d.source)
        let hover: Hover? = events.first.flatMap { if case .moved(_, let h) = $0 { h } else { nil } }
        #expect(hover?.refusal == "column c is full (WIP limit 0)")
        let at = d.coordinator.session!.location
        #expect(
            d.coordinator.dropLifted(dataSource: &d.source) == [
                .endedOutside(item: ItemID(1), source: path(0, 1), at: at)
            ])
        #expect(d.source.log.isEmpty && d.source.raw == standard)
    }
}
