import DragKit
import Testing

@Suite("Symmetric drop rule")
struct SymmetricDropTests {
    /// Lanes' shape: 3-row cards stacked without gaps (card i on rows 3i…3i+2).
    func driver() -> Driver {
        let src = RecordingSource(ids: [[0, 1, 2, 3, 4]])
        let column = TestColumn(
            section: 0, frame: Rect(x: 0, y: 0, width: 10, height: 30), ids: src.sections[0],
            cardHeight: 3, top: 0, spacing: 0)
        return Driver(src, arena: DragArena(container: Rect(x: 0, y: 0, width: 10, height: 30), draggables: [column]))
    }

    /// Drags card `item`, grabbed `grab` rows into it, by `shift` rows; the final index.
    func landing(_ item: Int, grab: Int, shift: Int) -> Int? {
        var d = driver()
        let y = 3 * item + grab
        let events = d.began(pt(3, y), pt(3, y + shift)) + d.ended(pt(3, y + shift))
        guard case .dropped(let drop)? = events.last else { return nil }
        return drop.to.item
    }

    @Test(arguments: [0, 1, 2])
    func oneCardHeightSwapsTheNeighboursEitherWay(_ grab: Int) {
        #expect(landing(2, grab: grab, shift: 3) == 3, "card 2 down one card height lands after card 3")
        #expect(landing(3, grab: grab, shift: -3) == 2, "card 3 up one card height lands before card 2")
    }

    @Test(arguments: [0, 1, 2])
    func theSameShiftGivesTheMirroredResultUpAndDown(_ grab: Int) {
        // Down: the ghost's lower edge reaches the next card's centre after 2 rows; up: its upper edge, after 2 rows.
        let down = [1, 2, 3, 4, 5, 6].map { landing(1, grab: grab, shift: $0) }
        let up = [1, 2, 3, 4, 5, 6].map { landing(3, grab: grab, shift: -$0) }
        #expect(down == [1, 2, 2, 2, 3, 3])
        #expect(up == [3, 2, 2, 2, 1, 1])
        #expect(zip(down, up).allSatisfy { d, u in d! - 1 == 3 - u! })
    }
}
