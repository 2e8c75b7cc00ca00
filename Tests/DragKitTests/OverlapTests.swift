import DragKit
import Testing

@Suite("Overlap evaluator and tracker")
struct OverlapTests {
    /// Two side-by-side candidates 10x10 at x 0 and 10, and a wide one underneath both.
    let left = OverlapCandidate(rect: Rect(x: 0, y: 0, width: 10, height: 10))
    let right = OverlapCandidate(rect: Rect(x: 10, y: 0, width: 10, height: 10))

    @Test func pointerInsideIgnoresTheDraggedRect() {
        let e = OverlapEvaluator(policy: .pointerInside)
        #expect(e.policy == OverlapEvaluator().policy, "pointerInside is the default")
        let dragged = Rect(x: 5, y: 2, width: 10, height: 2)
        #expect(e.ranked(pointer: pt(9, 3), dragged: dragged, candidates: [left, right]) == [0])
        #expect(e.ranked(pointer: pt(10, 3), dragged: dragged, candidates: [left, right]) == [1])
        #expect(e.ranked(pointer: pt(20, 3), dragged: dragged, candidates: [left, right]) == [])
    }

    @Test func containmentNeedsTheWholeDraggedRect() {
        let e = OverlapEvaluator(policy: .containment)
        #expect(
            e.ranked(pointer: pt(50, 50), dragged: Rect(x: 0, y: 8, width: 10, height: 2), candidates: [left, right])
                == [0],
            "the pointer does not matter")
        #expect(
            e.ranked(pointer: pt(3, 3), dragged: Rect(x: 1, y: 9, width: 3, height: 2), candidates: [left, right])
                == [],
            "one row hangs below")
        #expect(
            e.ranked(pointer: pt(3, 3), dragged: Rect(x: 8, y: 0, width: 3, height: 2), candidates: [left, right])
                == [],
            "straddling both: contained by neither")
        #expect(
            e.ranked(pointer: pt(3, 3), dragged: Rect(x: 3, y: 3, width: 0, height: 2), candidates: [left, right])
                == [],
            "an empty dragged rect is inside nothing")
    }

    @Test func intersectionRanksTheLargestShareFirst() {
        let e = OverlapEvaluator(policy: .intersection)
        #expect(
            e.ranked(pointer: pt(0, 0), dragged: Rect(x: 7, y: 0, width: 10, height: 2), candidates: [left, right]) == [
                1, 0,
            ],
            "3 cells wide on the left, 7 on the right")
        #expect(
            e.ranked(pointer: pt(0, 0), dragged: Rect(x: 3, y: 0, width: 10, height: 2), candidates: [left, right]) == [
                0, 1,
            ])
        #expect(
            e.ranked(pointer: pt(0, 0), dragged: Rect(x: 5, y: 0, width: 10, height: 2), candidates: [left, right]) == [
                0, 1,
            ],
            "equal shares: the earlier candidate")
        #expect(
            e.ranked(pointer: pt(0, 0), dragged: Rect(x: 20, y: 0, width: 5, height: 2), candidates: [left, right])
                == [],
            "touching the right edge is no overlap")
    }

    @Test(arguments: [OverlapPolicy.pointerInside, .containment, .intersection])
    func priorityBeatsShareAndOrder(_ policy: OverlapPolicy) {
        let e = OverlapEvaluator(policy: policy)
        let big = OverlapCandidate(rect: Rect(x: 0, y: 0, width: 20, height: 20), priority: 0)
        let smallHigh = OverlapCandidate(rect: Rect(x: 2, y: 2, width: 6, height: 6), priority: 5)
        let smallHigh2 = OverlapCandidate(rect: Rect(x: 2, y: 2, width: 6, height: 6), priority: 5)
        let dragged = Rect(x: 3, y: 3, width: 2, height: 2)
        #expect(e.ranked(pointer: pt(4, 4), dragged: dragged, candidates: [big, smallHigh, smallHigh2]) == [1, 2, 0])
        #expect(e.ranked(pointer: pt(4, 4), dragged: dragged, candidates: [smallHigh2, big, smallHigh]) == [0, 2, 1])
    }

    @Test func evaluateFallsThroughRefusals() {
        let e = OverlapEvaluator(policy: .pointerInside)
        let a = OverlapCandidate(rect: Rect(x: 0, y: 0, width: 10, height: 10), priority: 2)
        let b = OverlapCandidate(rect: Rect(x: 0, y: 0, width: 10, height: 10), priority: 1)
        let c = OverlapCandidate(rect: Rect(x: 0, y: 0, width: 10, height: 10), priority: 0)
        var asked: [Int] = []
        let r = e.evaluate(pointer: pt(1, 1), dragged: .zero, candidates: [c, b, a]) { i in
            asked.append(i)
            return i == 0
        }
        #expect(asked == [2, 1, 0], "asked best first, stopping at the first that accepts")
        #expect(r.target == 0 && r.refused == [2, 1])
        let none = e.evaluate(pointer: pt(1, 1), dragged: .zero, candidates: [c, b, a]) { _ in false }
        #expect(none.target == nil && none.refused == [2, 1, 0])
        let miss = e.evaluate(pointer: pt(30, 1), dragged: .zero, candidates: [c, b, a])
        #expect(miss.target == nil && miss.refused == [])
    }

    @Test func trackerFiresHoverOnlyOnChange() {
        var t = OverlapTracker(evaluator: OverlapEvaluator(policy: .intersection), candidates: [left, right])
        var hovers: [Int?] = []
        let size = Size(width: 4, height: 2)
        func at(_ x: Int) -> Rect { Rect(origin: pt(x, 3), size: size) }
        for x in [1, 2, 4, 7, 8, 9, 25, 26, 12, 3] {
            t.update(pointer: pt(x, 3), dragged: at(x)) { hovers.append($0) }
        }
        // x=1,2,4: left; 7: 3 cells left, 1 right → left; 8: 2/2 tie → left; 9: 1/3 → right;
        // 25, 26: none; 12: right; 3: left.
        #expect(hovers == [0, 1, nil, 1, 0])
        #expect(t.current == 0)
        let changed = t.update(pointer: pt(3, 3), dragged: at(3))
        #expect(!changed, "no change reports false")
    }

    @Test func trackerCompletesOnceWithTheFinalCandidate() {
        var t = OverlapTracker(candidates: [left, right])
        var hovers: [Int?] = []
        var completions: [Int?] = []
        t.update(pointer: pt(3, 3), dragged: .zero) { hovers.append($0) }
        t.complete(pointer: pt(12, 3), dragged: .zero) { completions.append($0) }
        #expect(completions == [1], "completion reports where the drag ended")
        #expect(hovers == [0])
        #expect(t.current == nil, "the tracker is ready for the next drag")
        var outside: [Int?] = []
        t.complete(pointer: pt(40, 3), dragged: .zero) { outside.append($0) }
        #expect(outside == [nil], "completion is called even over nothing")
    }
}
