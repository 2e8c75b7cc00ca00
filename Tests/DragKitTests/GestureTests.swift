import DragKit
import Testing

/// Feeds inputs to a recognizer and collects all outputs.
private func run(_ r: inout DragGestureRecognizer, _ inputs: [PointerInput]) -> [GestureOutput] {
    inputs.flatMap { r.handle($0) }
}

private func sample(_ o: GestureOutput) -> GestureSample? {
    if case .sample(let s) = o { return s }
    return nil
}

@Suite("Gesture recognizer")
struct RecognizerTests {
    @Test func pressAndReleaseWithoutMotionIsATap() {
        var r = DragGestureRecognizer()
        let out = run(&r, [PointerInput(.press, pt(4, 5), at: 1), PointerInput(.release, pt(4, 5), at: 1.2)])
        #expect(out == [.tap(pt(4, 5), timestamp: 1.2)])
        #expect(!r.isTracking && !r.isActive)
    }

    @Test func motionBackToThePressPointIsStillATap() {
        var r = DragGestureRecognizer(activationDistance: 2)
        let out = run(
            &r,
            [
                PointerInput(.press, pt(4, 5), at: 0), PointerInput(.move, pt(5, 6), at: 0.1),
                PointerInput(.release, pt(5, 5), at: 0.2),
            ])
        #expect(
            out == [.tap(pt(4, 5), timestamp: 0.2)],
            "one cell of wobble under a 2-cell threshold; the tap is at the press point")
    }

    @Test func defaultThresholdIsOneCell() {
        var r = DragGestureRecognizer()
        #expect(r.activationDistance == 1)
        #expect(run(&r, [PointerInput(.press, pt(4, 5), at: 0), PointerInput(.move, pt(4, 5), at: 0.1)]) == [])
        let out = run(&r, [PointerInput(.move, pt(5, 4), at: 0.2)])
        #expect(out.count == 1)
        let s = sample(out[0])
        #expect(s?.phase == .began)
        #expect(s?.start == pt(4, 5), "the drag's origin is the press point")
        #expect(s?.location == pt(5, 4))
        #expect(s?.translation == pt(1, -1))
        #expect(r.isActive)
    }

    @Test(arguments: [2, 3, 5])
    func activationThreshold(_ d: Int) {
        var r = DragGestureRecognizer(activationDistance: d)
        var out = run(
            &r, [PointerInput(.press, pt(10, 10), at: 0), PointerInput(.move, pt(10 + d - 1, 10 - (d - 1)), at: 0.1)])
        #expect(out == [], "one cell short of the threshold")
        out = run(&r, [PointerInput(.move, pt(10, 10 + d), at: 0.2)])
        #expect(out.compactMap(sample).map(\.phase) == [.began])
        #expect(out.compactMap(sample).first?.start == pt(10, 10))
        out = run(&r, [PointerInput(.move, pt(11, 10), at: 0.3)])
        #expect(out.compactMap(sample).map(\.phase) == [.changed], "once active, any motion is reported")
        #expect(out.compactMap(sample).first?.translation == pt(1, 0))
        out = run(&r, [PointerInput(.release, pt(11, 10), at: 0.4)])
        #expect(out.compactMap(sample).map(\.phase) == [.ended])
        #expect(!r.isTracking)
    }

    @Test func zeroThresholdBeginsOnPress() {
        var r = DragGestureRecognizer(activationDistance: 0)
        let out = run(&r, [PointerInput(.press, pt(3, 3), at: 0)])
        #expect(out == [.sample(GestureSample(.began, start: pt(3, 3), location: pt(3, 3), timestamp: 0))])
        let end = run(&r, [PointerInput(.release, pt(3, 3), at: 0.5)])
        #expect(end.compactMap(sample).map(\.phase) == [.ended], "with no threshold there are no taps")
    }

    @Test func mergedReportsStillDrag() {
        var r = DragGestureRecognizer()
        let out = run(&r, [PointerInput(.press, pt(2, 2), at: 0), PointerInput(.release, pt(20, 9), at: 0.3)])
        let samples = out.compactMap(sample)
        #expect(samples.count == 2 && out.count == 2)
        #expect(samples.map(\.phase) == [.began, .ended])
        #expect(samples.allSatisfy { $0.start == pt(2, 2) && $0.location == pt(20, 9) && $0.timestamp == 0.3 })
    }

    @Test func cancelBeforeActivationIsSilent() {
        var r = DragGestureRecognizer()
        #expect(run(&r, [PointerInput(.press, pt(2, 2), at: 0), PointerInput(.cancel, pt(2, 2), at: 0.1)]) == [])
        #expect(!r.isTracking)
        #expect(run(&r, [PointerInput(.release, pt(2, 2), at: 0.2)]) == [], "the release after a cancel is not a tap")
    }

    @Test func cancelWhileActive() {
        var r = DragGestureRecognizer()
        let out = run(
            &r,
            [
                PointerInput(.press, pt(2, 2), at: 0), PointerInput(.move, pt(6, 2), at: 0.1),
                PointerInput(.cancel, pt(7, 2), at: 0.2), PointerInput(.move, pt(8, 2), at: 0.3),
                PointerInput(.release, pt(8, 2), at: 0.4),
            ])
        #expect(out.compactMap(sample).map(\.phase) == [.began, .cancelled])
        #expect(
            out.compactMap(sample).last
                == GestureSample(.cancelled, start: pt(2, 2), location: pt(7, 2), timestamp: 0.2))
    }

    @Test func motionWithoutPressIsIgnored() {
        var r = DragGestureRecognizer()
        #expect(
            run(
                &r,
                [
                    PointerInput(.move, pt(2, 2), at: 0), PointerInput(.release, pt(9, 9), at: 0.1),
                    PointerInput(.cancel, pt(9, 9), at: 0.2),
                ]) == [])
    }

    @Test func newPressWhileActiveCancelsTheOldGestureWhereItWas() {
        var r = DragGestureRecognizer()
        let out = run(
            &r,
            [
                PointerInput(.press, pt(2, 2), at: 0), PointerInput(.move, pt(6, 3), at: 0.1),
                PointerInput(.press, pt(30, 9), at: 0.5),
            ])
        #expect(out.compactMap(sample).map(\.phase) == [.began, .cancelled])
        #expect(
            out.last == .sample(GestureSample(.cancelled, start: pt(2, 2), location: pt(6, 3), timestamp: 0.5)),
            "the lost gesture ends where it was last seen, not at the new press")
        let next = run(&r, [PointerInput(.move, pt(31, 9), at: 0.6)])
        #expect(next.compactMap(sample).first?.start == pt(30, 9), "the new press starts a fresh gesture")
    }

    @Test func newPressWhileTrackingButInactiveDropsTheOldPress() {
        var r = DragGestureRecognizer()
        let out = run(
            &r,
            [
                PointerInput(.press, pt(2, 2), at: 0), PointerInput(.press, pt(9, 9), at: 0.1),
                PointerInput(.release, pt(9, 9), at: 0.2),
            ])
        #expect(out == [.tap(pt(9, 9), timestamp: 0.2)])
    }

    @Test func resetForgetsTheGesture() {
        var r = DragGestureRecognizer()
        _ = run(&r, [PointerInput(.press, pt(2, 2), at: 0), PointerInput(.move, pt(6, 2), at: 0.1)])
        r.reset()
        #expect(!r.isTracking && !r.isActive)
        #expect(run(&r, [PointerInput(.move, pt(7, 2), at: 0.2), PointerInput(.release, pt(7, 2), at: 0.3)]) == [])
    }
}

@Suite("Velocity")
struct VelocityTests {
    static func close(_ v: Velocity, _ dx: Double, _ dy: Double, within fraction: Double = 0.05) -> Bool {
        let expected = (dx * dx + dy * dy).squareRoot()
        let err = ((v.dx - dx) * (v.dx - dx) + (v.dy - dy) * (v.dy - dy)).squareRoot()
        return err <= fraction * expected
    }

    @Test func fewerThanTwoSamplesIsZero() {
        var e = VelocityEstimator()
        #expect(e.velocity == .zero)
        e.add(pt(3, 3), at: 1)
        #expect(e.velocity == .zero)
        e.add(pt(9, 3), at: 1)
        #expect(e.velocity == .zero, "no elapsed time")
    }

    @Test(arguments: [
        (40.0, 0.0, 0.025), (0.0, -40.0, 0.025), (40.0, 40.0, 0.025), (40.0, 20.0, 0.05), (-20.0, 60.0, 0.05),
    ])
    func exactSpeed(_ dx: Double, _ dy: Double, _ dt: Double) {
        var e = VelocityEstimator()
        for k in 0..<20 {
            let t = Double(k) * dt
            e.add(pt(Int((dx * t).rounded()), Int((dy * t).rounded())), at: 10 + t)
        }
        #expect(Self.close(e.velocity, dx, dy, within: 1e-9), "\(e.velocity)")
    }

    /// Whole-cell positions at 60 Hz: 40 cells/s is 2/3 cell a frame, so positions jitter.
    ///
    /// Horizontal and at 45° with 40 cells/s on each axis; slower axes are coarser
    /// (see the report: whole cells cannot give 5% at every angle).
    @Test(arguments: [(40.0, 0.0), (40.0, 40.0), (-40.0, 40.0)], [0.0, 0.2, 0.5, 0.8])
    func jitteryIntegerPositionsAt60Hz(_ v: (Double, Double), _ phase: Double) {
        var e = VelocityEstimator()
        for k in 0..<40 {
            let t = Double(k) / 60
            e.add(pt(Int((v.0 * t + phase).rounded(.down)), Int((v.1 * t + 1 - phase).rounded(.down))), at: t)
            if k >= 8 { #expect(Self.close(e.velocity, v.0, v.1), "frame \(k): \(e.velocity)") }
        }
    }

    @Test func slowFinalStretchKeepsABaseline() {
        var e = VelocityEstimator(window: 0.1)
        e.add(pt(0, 0), at: 0)
        e.add(pt(1, 0), at: 0.25)
        e.add(pt(2, 0), at: 0.5)
        #expect(Self.close(e.velocity, 4, 0, within: 1e-9), "one cell every quarter second: \(e.velocity)")
    }

    /// A flick right after a long hold: the press long before must not drag the estimate down.
    @Test func flickAfterAPauseIsNotDilutedByTheOldPress() {
        var e = VelocityEstimator(window: 0.1)
        e.add(pt(0, 0), at: 0)
        for k in 1...4 { e.add(pt(k, 0), at: 2 + Double(k) * 0.025) }
        #expect(Self.close(e.velocity, 40, 0), "\(e.velocity)")
    }

    @Test func stoppingBeforeTheReleaseGivesZero() {
        var e = VelocityEstimator(window: 0.1)
        for k in 0..<10 { e.add(pt(k, 0), at: Double(k) * 0.025) }
        e.add(pt(9, 0), at: 2)
        #expect(e.velocity == .zero, "\(e.velocity)")
    }

    @Test func recognizerSamplesCarryTheVelocity() {
        var r = DragGestureRecognizer()
        var outs: [GestureOutput] = []
        for k in 0...12 {
            let p = pt(5 + k, 3 + k)
            outs += r.handle(PointerInput(k == 0 ? .press : .move, p, at: Double(k) * 0.025))
        }
        outs += r.handle(PointerInput(.release, pt(18, 16), at: 13 * 0.025))
        let samples = outs.compactMap(sample)
        #expect(samples.first?.phase == .began)
        let ended = samples.last!
        #expect(ended.phase == .ended)
        #expect(Self.close(ended.velocity, 40, 40, within: 1e-9), "\(ended.velocity)")
        #expect(samples.dropFirst(3).dropLast().allSatisfy { Self.close($0.velocity, 40, 40, within: 1e-9) })
    }

    @Test func dropCarriesTheReleaseVelocity() {
        var d = Driver(ids: [[0, 1, 2], [100]])
        var events: [DragEvent] = []
        d.step = 0.025
        events += d.press(Layout.x(0), Layout.upper(0))
        for k in 1...12 { events += d.move(Layout.x(0) + k, Layout.upper(0)) }
        events += d.release(Layout.x(0) + 13, Layout.upper(0))
        guard case .dropped(let drop) = events.last else {
            Issue.record("no drop: \(events)")
            return
        }
        #expect(Self.close(drop.velocity, 40, 0, within: 1e-9), "\(drop.velocity)")
        #expect(drop.to == path(1, 0))
    }
}
