import DragKit
import Testing

@Suite("Geometry")
struct GeometryTests {
    let r = Rect(x: 2, y: 3, width: 4, height: 5)

    @Test func edgesAreHalfOpen() {
        #expect(r.minX == 2 && r.maxX == 6 && r.minY == 3 && r.maxY == 8)
        #expect(r.contains(pt(2, 3)))
        #expect(r.contains(pt(5, 7)))
        #expect(!r.contains(pt(6, 7)), "maxX is excluded")
        #expect(!r.contains(pt(5, 8)), "maxY is excluded")
        #expect(!r.contains(pt(1, 3)))
        #expect(!r.contains(pt(2, 2)))
        #expect(r.area == 20)
    }

    @Test func negativeSizesClampToEmpty() {
        let e = Rect(x: 1, y: 1, width: -3, height: 4)
        #expect(e.width == 0 && e.isEmpty && e.area == 0)
        #expect(Size(width: 3, height: -1) == Size(width: 3, height: 0))
    }

    @Test(arguments: [Rect(x: 2, y: 3, width: 0, height: 5), Rect(x: 2, y: 3, width: 4, height: 0), Rect.zero])
    func emptyRectsContainAndIntersectNothing(_ e: Rect) {
        #expect(e.isEmpty)
        #expect(!e.contains(e.origin))
        #expect(!e.intersects(e), "an empty rect does not even intersect itself")
        #expect(!e.intersects(Rect(x: -10, y: -10, width: 100, height: 100)))
        #expect(!Rect(x: -10, y: -10, width: 100, height: 100).contains(e), "an empty rect is inside nothing")
        #expect(e.union(r) == r)
        #expect(r.union(e) == r)
        #expect(e.clamp(pt(50, 50)) == e.origin)
    }

    @Test func touchingRectsDoNotIntersect() {
        let right = Rect(x: 6, y: 3, width: 2, height: 5)
        let below = Rect(x: 2, y: 8, width: 4, height: 1)
        let corner = Rect(x: 6, y: 8, width: 1, height: 1)
        #expect(r.intersection(right) == nil && !r.intersects(right))
        #expect(r.intersection(below) == nil)
        #expect(r.intersection(corner) == nil)
        let overlapByOne = Rect(x: 5, y: 7, width: 3, height: 3)
        #expect(r.intersection(overlapByOne) == Rect(x: 5, y: 7, width: 1, height: 1))
    }

    @Test func intersectionIsSymmetricAndExact() {
        let o = Rect(x: 4, y: 0, width: 10, height: 5)
        #expect(r.intersection(o) == Rect(x: 4, y: 3, width: 2, height: 2))
        #expect(o.intersection(r) == r.intersection(o))
        #expect(r.intersection(r) == r)
    }

    @Test func containsRect() {
        #expect(r.contains(r))
        #expect(r.contains(Rect(x: 3, y: 4, width: 3, height: 4)))
        #expect(!r.contains(Rect(x: 3, y: 4, width: 4, height: 4)), "one column past maxX")
        #expect(!r.contains(Rect(x: 1, y: 4, width: 2, height: 2)))
    }

    @Test func union() {
        #expect(r.union(Rect(x: 10, y: 0, width: 1, height: 1)) == Rect(x: 2, y: 0, width: 9, height: 8))
        #expect(Rect.zero.union(.zero) == .zero)
    }

    @Test func clampToNearestInsidePoint() {
        #expect(r.clamp(pt(3, 4)) == pt(3, 4))
        #expect(r.clamp(pt(100, 100)) == pt(5, 7), "clamps to the last inside cell, not maxX/maxY")
        #expect(r.clamp(pt(-5, 5)) == pt(2, 5))
        #expect(r.contains(r.clamp(pt(6, 8))))
    }

    @Test func insetByShrinksAndNegativeGrows() {
        #expect(r.insetBy(1) == Rect(x: 3, y: 4, width: 2, height: 3))
        #expect(r.insetBy(-2) == Rect(x: 0, y: 1, width: 8, height: 9))
        #expect(r.insetBy(0) == r)
        #expect(r.insetBy(3).isEmpty, "shrinking past the middle leaves an empty rect")
    }

    @Test func offsetAndPointArithmetic() {
        #expect(r.offsetBy(dx: -2, dy: 1) == Rect(x: 0, y: 4, width: 4, height: 5))
        #expect(pt(3, 4) + pt(1, -6) == pt(4, -2))
        #expect(pt(3, 4) - pt(1, -6) == pt(2, 10))
        #expect(pt(0, 0).distance(to: pt(3, -7)) == 7, "Chebyshev distance")
        #expect(Velocity(dx: 3, dy: 4).speed == 5)
    }
}
