import Testing
@testable import DragKit

/// A column: rows 3..12 visible, 30 rows of cards, so offsets run 0...20.
func column(offset: Int = 0, content: Int = 30, id: Int = 1) -> Scrollable {
    Scrollable(id: id, viewport: Rect(x: 0, y: 3, width: 20, height: 10), contentLength: content, offset: offset)
}

/// Starts a scroller with the pointer at `pointer` over `scrollers` at time 0.
func scroller(_ pointer: Point, _ scrollers: [Scrollable]) -> EdgeAutoScroller {
    var s = EdgeAutoScroller()
    s.update(pointer: pointer, scrollers: scrollers, now: 0)
    return s
}

@Suite struct EdgeZoneTests {
    @Test func depthCountsFromTheInnermostZoneRowToTheRowsBeyondTheEdge() {
        let c = column(offset: 5)
        // Top edge at row 3: rows 4, 3 inside, 2, 1, 0 outside.
        #expect((0...6).map { EdgeAutoScroller.edge(of: Point(x: 5, y: $0), in: c)?.depth } == [5, 4, 3, 2, 1, nil, nil])
        #expect(EdgeAutoScroller.edge(of: Point(x: 5, y: 4), in: c)?.direction == -1)
        // Bottom edge after row 12: rows 11, 12 inside, 13, 14, 15 outside.
        #expect((10...16).map { EdgeAutoScroller.edge(of: Point(x: 5, y: $0), in: c)?.depth } == [nil, 1, 2, 3, 4, 5, nil])
        #expect(EdgeAutoScroller.edge(of: Point(x: 5, y: 11), in: c)?.direction == 1)
    }

    @Test func noZoneAcrossTheViewportOrWhereItCannotScroll() {
        #expect(EdgeAutoScroller.edge(of: Point(x: 20, y: 12), in: column()) == nil)
        #expect(EdgeAutoScroller.edge(of: Point(x: -1, y: 12), in: column()) == nil)
        #expect(EdgeAutoScroller.edge(of: Point(x: 5, y: 3), in: column(offset: 0)) == nil)
        #expect(EdgeAutoScroller.edge(of: Point(x: 5, y: 12), in: column(offset: 20)) == nil)
        #expect(EdgeAutoScroller.edge(of: Point(x: 5, y: 12), in: column(content: 10)) == nil)
    }
}

@Suite struct EdgeAutoScrollerTests {
    let bottom = Point(x: 5, y: 12)  // depth 2: 16 rows/s at full speed

    @Test func rowsFollowTheRampThenTheFullSpeed() {
        var s = scroller(bottom, [column()])
        // Rows covered by t: 16 × t²/0.6 during the 0.3 s ramp, then 16 × (0.15 + t − 0.3).
        #expect(s.tick(now: 0.15) == nil)                          // 0.6
        #expect(s.tick(now: 0.3) == ScrollStep(id: 1, rows: 2))    // 2.4
        #expect(s.tick(now: 0.5) == ScrollStep(id: 1, rows: 3))    // 5.6
        #expect(s.tick(now: 1.0) == ScrollStep(id: 1, rows: 8))    // 13.6
        #expect(s.target?.offset == 13)
    }

    @Test func theRowsDoNotDependOnHowOftenTheAppTicks() {
        var s = scroller(bottom, [column()])
        var total = 0
        for i in 1...100 { total += s.tick(now: Double(i) / 100)?.rows ?? 0 }
        #expect(total == 13)
    }

    @Test func nextDeadlineIsWhenTheNextRowFallsDue() throws {
        var s = scroller(bottom, [column()])
        let first = try #require(s.nextDeadline)
        // 16 × t²/0.6 = 1  ⇒  t = √0.0375
        #expect(abs(first - 0.0375.squareRoot()) < 1e-12)
        #expect(s.tick(now: first - 0.001) == nil)
        #expect(s.tick(now: first) == ScrollStep(id: 1, rows: 1))
        let second = try #require(s.nextDeadline)
        #expect(s.tick(now: second) == ScrollStep(id: 1, rows: 1))
        #expect(s.tick(now: 1.0)?.rows == 11)
        // After the ramp a row takes 1/16 s.
        let third = try #require(s.nextDeadline)
        let expected = 1.0 + 0.4 / 16
        #expect(abs(third - expected) < 1e-12)
    }

    @Test func speedGrowsWithDepthAndIsClampedToTheMaximum() {
        var rows: [Int] = []
        for y in 11...15 {
            var s = scroller(Point(x: 5, y: y), [column(content: 200)])
            rows.append(s.tick(now: 1.3)?.rows ?? 0)
        }
        // Full speeds 8, 16, 24, 32, 40→32 rows/s over 0.15 + 1.0 ramped seconds.
        #expect(rows == [9, 18, 27, 36, 36])
    }

    @Test func stopsExactlyAtTheEndOfTheContent() {
        var s = scroller(bottom, [column(offset: 18)])
        #expect(s.tick(now: 1.0) == ScrollStep(id: 1, rows: 2))
        #expect(s.target == nil)
        #expect(s.nextDeadline == nil)
        #expect(s.tick(now: 5.0) == nil)
    }

    @Test func stopsExactlyAtTheTop() {
        var s = scroller(Point(x: 5, y: 0), [column(offset: 3)])
        #expect(s.tick(now: 1.0) == ScrollStep(id: 1, rows: -3))
        #expect(s.tick(now: 2.0) == nil)
        #expect(s.nextDeadline == nil)
    }

    @Test func noScrollOutsideTheZone() {
        for p in [Point(x: 5, y: 7), Point(x: 25, y: 12), Point(x: 5, y: 16), Point(x: 5, y: -1)] {
            var s = scroller(p, [column(offset: 10)])
            #expect(s.nextDeadline == nil)
            #expect(s.tick(now: 10) == nil)
        }
    }

    @Test func leavingTheZoneDropsTheFractionAndRestartsTheRamp() {
        var s = scroller(bottom, [column()])
        #expect(s.tick(now: 0.15) == nil)                 // 0.6 rows
        s.update(pointer: Point(x: 5, y: 7), scrollers: [column()], now: 0.25)
        #expect(s.tick(now: 0.9) == nil)
        s.update(pointer: bottom, scrollers: [column()], now: 1.0)
        #expect(s.tick(now: 1.3) == ScrollStep(id: 1, rows: 2))   // 2.4, as from a fresh start
    }

    @Test func movingDeeperKeepsTheRampAndTheFraction() {
        var s = scroller(Point(x: 5, y: 11), [column()])           // 8 rows/s
        s.update(pointer: bottom, scrollers: [column()], now: 0.3) // 1.2 rows so far, then 16 rows/s
        #expect(s.tick(now: 0.3) == ScrollStep(id: 1, rows: 1))
        #expect(s.tick(now: 0.5) == ScrollStep(id: 1, rows: 3))   // 0.2 + 3.2
    }

    @Test func resetStopsEverything() {
        var s = scroller(bottom, [column()])
        #expect(s.tick(now: 0.5)?.rows == 5)
        s.reset()
        #expect(s.target == nil)
        #expect(s.nextDeadline == nil)
        #expect(s.tick(now: 2.0) == nil)
    }

    @Test func updatedOffsetsFromTheAppAreTheTruth() {
        var s = scroller(bottom, [column()])
        #expect(s.tick(now: 1.0)?.rows == 13)
        // The app jumped the column to 19 meanwhile: only one row is left.
        s.update(pointer: bottom, scrollers: [column(offset: 19)], now: 1.0)
        #expect(s.tick(now: 2.0) == ScrollStep(id: 1, rows: 1))
    }
}

@Suite struct NestedAutoScrollTests {
    /// A vertically scrolled page whose bottom edge is the column's.
    let page = Scrollable(id: 9, viewport: Rect(x: 0, y: 3, width: 80, height: 10), contentLength: 50, offset: 0)
    let bottom = Point(x: 5, y: 12)

    @Test func theInnerColumnScrollsFirst() {
        #expect(EdgeAutoScroller.choose(pointer: bottom, among: [column(), page]) == 0)
        #expect(EdgeAutoScroller.choose(pointer: bottom, among: [column(offset: 20), page]) == 1)
        #expect(EdgeAutoScroller.choose(pointer: Point(x: 50, y: 12), among: [column(), page]) == 1)
        #expect(EdgeAutoScroller.choose(pointer: Point(x: 5, y: 7), among: [column(), page]) == nil)
    }

    @Test func theOuterTakesOverWhenTheInnerReachesItsEnd() {
        var s = scroller(bottom, [column(offset: 18), page])
        #expect(s.tick(now: 1.0) == ScrollStep(id: 1, rows: 2))
        #expect(s.target?.id == 9)
        // The page ramps up afresh from 1.0.
        #expect(s.tick(now: 1.3) == ScrollStep(id: 9, rows: 2))
    }

    @Test func aHorizontallyScrolledBoardScrollsAtItsRightEdge() {
        let board = Scrollable(id: 0, axis: .horizontal, viewport: Rect(x: 0, y: 1, width: 80, height: 22),
                               contentLength: 200, offset: 0)
        let inner = column()
        let edge = EdgeAutoScroller.edge(of: Point(x: 79, y: 10), in: board)
        #expect(edge?.direction == 1)
        #expect(edge?.depth == 2)
        var s = scroller(Point(x: 79, y: 10), [inner, board])
        #expect(s.tick(now: 0.3) == ScrollStep(id: 0, rows: 2))
        // At its left edge with offset 0 it has nowhere to go.
        #expect(EdgeAutoScroller.choose(pointer: Point(x: 0, y: 20), among: [inner, board]) == nil)
    }
}

@Suite struct PageDwellTests {
    let board = Rect(x: 0, y: 1, width: 80, height: 22)
    let middle = Point(x: 40, y: 10)
    let right = Point(x: 79, y: 10)

    func dwell(config: PageDwell.Config = PageDwell.Config()) -> PageDwell {
        var d = PageDwell(config: config)
        d.update(pointer: middle, velocity: .zero, board: board, now: 0)
        return d
    }

    @Test func bandsAreTwoColumnsInsideEachEdgeWithinTheBoardRows() {
        let d = PageDwell()
        #expect([0, 1, 2, 77, 78, 79, 80].map { d.band(of: Point(x: $0, y: 10), on: board) }
            == [.previous, .previous, nil, nil, .next, .next, .next])
        #expect(d.band(of: Point(x: -3, y: 10), on: board) == .previous)
        #expect(d.band(of: Point(x: 79, y: 0), on: board) == nil)
        #expect(d.band(of: Point(x: 79, y: 23), on: board) == nil)
    }

    @Test func firesOnceAfterExactlyTheDwellTime() {
        var d = dwell()
        d.update(pointer: right, velocity: .zero, board: board, now: 1.0)
        #expect(d.nextDeadline == 1.5)
        #expect(d.tick(now: 1.0) == nil)
        #expect(d.tick(now: 1.4999) == nil)
        #expect(d.tick(now: 1.5) == .next)
        #expect(d.tick(now: 1.5) == nil)
        #expect(d.nextDeadline == nil)
        d.update(pointer: right, velocity: .zero, board: board, now: 3.0)
        #expect(d.tick(now: 10) == nil)
    }

    @Test func movingInsideTheBandDoesNotRestartTheDwell() {
        var d = dwell()
        d.update(pointer: right, velocity: .zero, board: board, now: 1.0)
        d.update(pointer: Point(x: 78, y: 15), velocity: Velocity(dx: -10, dy: 30), board: board, now: 1.3)
        #expect(d.tick(now: 1.5) == .next)
    }

    @Test func reArmsAfterLeavingTheBand() {
        var d = dwell()
        d.update(pointer: Point(x: 0, y: 10), velocity: .zero, board: board, now: 1.0)
        #expect(d.tick(now: 1.5) == .previous)
        d.update(pointer: Point(x: 5, y: 10), velocity: .zero, board: board, now: 2.0)
        #expect(d.nextDeadline == nil)
        d.update(pointer: Point(x: 1, y: 10), velocity: .zero, board: board, now: 2.25)
        #expect(d.nextDeadline == 2.75)
        #expect(d.tick(now: 2.7) == nil)
        #expect(d.tick(now: 2.75) == .previous)
    }

    @Test func leavingBeforeTheDwellCancelsTheFlip() {
        var d = dwell()
        d.update(pointer: right, velocity: .zero, board: board, now: 1.0)
        d.update(pointer: middle, velocity: .zero, board: board, now: 1.4)
        #expect(d.tick(now: 1.5) == nil)
        #expect(d.nextDeadline == nil)
    }

    @Test func repeatIntervalKeepsFlippingWhileThePointerStays() {
        var config = PageDwell.Config()
        config.repeatInterval = 0.75
        var d = dwell(config: config)
        d.update(pointer: right, velocity: .zero, board: board, now: 1.0)
        #expect(d.tick(now: 1.5) == .next)
        #expect(d.nextDeadline == 2.25)
        #expect(d.tick(now: 2.0) == nil)
        #expect(d.tick(now: 2.25) == .next)
        #expect(d.tick(now: 3.0) == .next)
    }

    @Test func aFlingTowardsTheEdgeFlipsAtOnce() {
        var d = dwell()
        d.update(pointer: right, velocity: Velocity(dx: 61, dy: 0), board: board, now: 1.0)
        #expect(d.nextDeadline == 1.0)
        #expect(d.tick(now: 1.0) == .next)
        #expect(d.tick(now: 1.5) == nil)
        var left = dwell()
        left.update(pointer: Point(x: 1, y: 5), velocity: Velocity(dx: -80, dy: 20), board: board, now: 2.0)
        #expect(left.tick(now: 2.0) == .previous)
    }

    @Test func slowOrAwayMovesInTheBandWaitForTheDwell() {
        var d = dwell()
        d.update(pointer: right, velocity: Velocity(dx: 60, dy: 0), board: board, now: 1.0)
        #expect(d.tick(now: 1.0) == nil)
        d.update(pointer: Point(x: 78, y: 10), velocity: Velocity(dx: -200, dy: 0), board: board, now: 1.1)
        #expect(d.tick(now: 1.1) == nil)
        #expect(d.tick(now: 1.5) == .next)
    }

    @Test func flingSpeedFromTheVelocityEstimator() {
        var estimator = VelocityEstimator()
        estimator.add(Point(x: 60, y: 10), at: 0.90)
        estimator.add(Point(x: 70, y: 10), at: 0.95)
        estimator.add(Point(x: 79, y: 10), at: 1.00)
        #expect(estimator.velocity.dx > 60)
        var d = dwell()
        d.update(pointer: right, velocity: estimator.velocity, board: board, now: 1.0)
        #expect(d.tick(now: 1.0) == .next)
    }

    @Test func aDragGrabbedInsideABandWaitsUntilItLeaves() {
        var d = PageDwell()
        d.update(pointer: Point(x: 1, y: 10), velocity: .zero, board: board, now: 0)
        d.update(pointer: Point(x: 0, y: 10), velocity: Velocity(dx: -100, dy: 0), board: board, now: 0.2)
        #expect(d.tick(now: 0.2) == nil)
        #expect(d.tick(now: 5) == nil)
        d.update(pointer: middle, velocity: .zero, board: board, now: 6)
        d.update(pointer: Point(x: 0, y: 10), velocity: .zero, board: board, now: 7)
        #expect(d.tick(now: 7.5) == .previous)
    }

    @Test func resetOnDropForgetsTheDwell() {
        var d = dwell()
        d.update(pointer: right, velocity: .zero, board: board, now: 1.0)
        d.reset()
        #expect(d.nextDeadline == nil)
        #expect(d.tick(now: 1.5) == nil)
        // The next drag starts afresh (here outside the bands).
        d.update(pointer: middle, velocity: .zero, board: board, now: 2)
        d.update(pointer: right, velocity: .zero, board: board, now: 3)
        #expect(d.tick(now: 3.5) == .next)
    }
}
