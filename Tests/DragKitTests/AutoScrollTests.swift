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
        // Top edge at row 3: rows 6, 5, 4, 3 inside (3 is the edge row, depth 4), 2, 1, 0 outside.
        #expect(
            (-1...7).map { EdgeAutoScroller.edge(of: Point(x: 5, y: $0), in: c)?.depth } == [
                nil, 7, 6, 5, 4, 3, 2, 1, nil,
            ])
        #expect(EdgeAutoScroller.edge(of: Point(x: 5, y: 4), in: c)?.direction == -1)
        // Bottom edge after row 12: rows 9…12 inside, 13, 14, 15 outside.
        #expect(
            (8...16).map { EdgeAutoScroller.edge(of: Point(x: 5, y: $0), in: c)?.depth } == [
                nil, 1, 2, 3, 4, 5, 6, 7, nil,
            ])
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

/// The default curve: 80 rows/s × min(1, depth/4) × a time factor of 0.05 until 0.35 s held,
/// rising linearly to 1 at 1.2 s. Rows covered at the edge row by t (t ≥ 0.35):
/// 80 × (0.05 t + 0.95 (t − 0.35)² / 1.7) until 1.2 s, then 80 × (t − 0.73625).
@Suite struct EdgeAutoScrollerTests {
    let bottom = Point(x: 5, y: 12)  // the edge row: depth 4, 80 rows/s at full speed
    let long = column(content: 400)

    @Test func rowsFollowTheCrawlThenTheRampThenTheFullSpeed() {
        var s = scroller(bottom, [long])
        #expect(s.tick(now: 0.15) == nil)  // 0.6
        #expect(s.tick(now: 0.3) == ScrollStep(id: 1, rows: 1))  // 1.2
        #expect(s.tick(now: 0.5) == ScrollStep(id: 1, rows: 2))  // 3.006
        #expect(s.tick(now: 1.0) == ScrollStep(id: 1, rows: 19))  // 22.888
        #expect(s.tick(now: 1.5) == ScrollStep(id: 1, rows: 39))  // 61.1
        #expect(s.target?.offset == 61)
    }

    @Test func anchorsFiguresAShortHoldMovesARowAndFullSpeedComesWithinASecond() {
        // A short hold (0.35 s) at the very edge: a row or two, so fine placement stays easy.
        var brief = scroller(bottom, [long])
        #expect(brief.tick(now: 0.35)?.rows == 1)
        // After a second held the speed is past 60 rows/s: rows in the 50 ms around t = 1 s.
        var s = scroller(bottom, [long])
        _ = s.tick(now: 0.975)
        let rows = s.tick(now: 1.025)?.rows ?? 0
        #expect(rows >= 3, "\(rows) rows in 50 ms")
        #expect(s.config.speed(atDepth: 4) * s.config.timeFactor(1.0) >= 60)
        // One row inside the edge (depth 3, 60 rows/s): 300 rows (the 100th 3-row card) in under 6 s.
        var inside = scroller(Point(x: 5, y: 11), [column(content: 1000)])
        #expect(inside.tick(now: 5.7)?.rows == 297)  // 297.825
        #expect(inside.tick(now: 5.8)?.rows == 6)  // 303.825
        #expect(inside.target?.offset == 303)
    }

    @Test func theRowsDoNotDependOnHowOftenTheAppTicks() {
        var s = scroller(bottom, [long])
        var total = 0
        for i in 1...100 { total += s.tick(now: Double(i) / 100)?.rows ?? 0 }
        #expect(total == 22)
    }

    @Test func nextDeadlineIsWhenTheNextRowFallsDue() throws {
        var s = scroller(bottom, [long])
        let first = try #require(s.nextDeadline)
        // 80 × 0.05 × t = 1  ⇒  t = 0.25
        #expect(abs(first - 0.25) < 1e-12)
        #expect(s.tick(now: first - 0.001) == nil)
        #expect(s.tick(now: first) == ScrollStep(id: 1, rows: 1))
        let second = try #require(s.nextDeadline)
        // Inside the ramp: 80 × (0.05 t + 0.95 (t − 0.35)² / 1.7) = 2.
        let k = 0.95 / 1.7, r = 2.0 / 80 - 0.05 * 0.35
        #expect(abs(second - (0.35 + (-0.05 + (0.0025 + 4 * k * r).squareRoot()) / (2 * k))) < 1e-12)
        #expect(s.tick(now: second) == ScrollStep(id: 1, rows: 1))
        #expect(s.tick(now: 1.5)?.rows == 59)
        // After the ramp a row takes 1/80 s; 0.1 of a row is carried.
        let third = try #require(s.nextDeadline)
        #expect(abs(third - (1.5 + 0.9 / 80)) < 1e-9)
    }

    @Test func speedGrowsWithNearnessAndIsFullAtTheEdgeRowAndBeyond() {
        var rows: [Int] = []
        for y in 9...15 {
            var s = scroller(Point(x: 5, y: y), [long])
            rows.append(s.tick(now: 1.3)?.rows ?? 0)
        }
        // Full speeds 20, 40, 60, 80, 80… rows/s over 0.56375 ramped seconds.
        #expect(rows == [11, 22, 33, 45, 45, 45, 45])
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
        var s = scroller(bottom, [long])
        #expect(s.tick(now: 0.15) == nil)  // 0.6 rows
        s.update(pointer: Point(x: 5, y: 7), scrollers: [long], now: 0.25)
        #expect(s.tick(now: 0.9) == nil)
        s.update(pointer: bottom, scrollers: [long], now: 1.0)
        #expect(s.tick(now: 1.3) == ScrollStep(id: 1, rows: 1))  // 1.2, as from a fresh start
        #expect(s.tick(now: 1.5) == ScrollStep(id: 1, rows: 2))  // 3.006
    }

    @Test func movingDeeperKeepsTheRampAndTheFraction() {
        var s = scroller(Point(x: 5, y: 11), [long])  // 60 rows/s
        s.update(pointer: bottom, scrollers: [long], now: 0.5)  // 2.254 rows so far, then 80 rows/s
        #expect(s.tick(now: 0.5) == ScrollStep(id: 1, rows: 2))
        #expect(s.tick(now: 0.6) == ScrollStep(id: 1, rows: 2))  // 0.254 + 2.188, not a fresh crawl
    }

    @Test func resetStopsEverything() {
        var s = scroller(bottom, [long])
        #expect(s.tick(now: 0.5)?.rows == 3)
        s.reset()
        #expect(s.target == nil)
        #expect(s.nextDeadline == nil)
        #expect(s.tick(now: 2.0) == nil)
    }

    @Test func updatedOffsetsFromTheAppAreTheTruth() {
        var s = scroller(bottom, [column(content: 60)])
        #expect(s.tick(now: 1.0)?.rows == 22)
        // The app jumped the column to 49 meanwhile: only one row is left.
        s.update(pointer: bottom, scrollers: [column(offset: 49, content: 60)], now: 1.0)
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
        // The page starts afresh from 1.0: a crawl first.
        #expect(s.tick(now: 1.3) == ScrollStep(id: 9, rows: 1))
    }

    @Test func aHorizontallyScrolledBoardScrollsAtItsRightEdge() {
        let board = Scrollable(
            id: 0, axis: .horizontal, viewport: Rect(x: 0, y: 1, width: 80, height: 22),
            contentLength: 200, offset: 0)
        let inner = column()
        let edge = EdgeAutoScroller.edge(of: Point(x: 79, y: 10), in: board)
        #expect(edge?.direction == 1)
        #expect(edge?.depth == 4)
        var s = scroller(Point(x: 79, y: 10), [inner, board])
        #expect(s.tick(now: 0.3) == ScrollStep(id: 0, rows: 1))
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
        #expect(
            [0, 1, 2, 77, 78, 79, 80].map { d.band(of: Point(x: $0, y: 10), on: board) }
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
