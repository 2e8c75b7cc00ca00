/// What the pointer did: the raw input a front end feeds the gesture recognizer.
public struct PointerInput: Hashable, Sendable {
    public enum Phase: Hashable, Sendable {
        /// The button went down.
        case press
        /// The pointer moved while the button is held.
        case move
        /// The button came up.
        case release
        /// The system took the pointer away (focus lost, resize, Esc).
        case cancel
    }

    public var phase: Phase
    public var location: Point
    /// Seconds on the injected clock.
    public var timestamp: Double

    public init(_ phase: Phase, _ location: Point, at timestamp: Double) {
        self.phase = phase
        self.location = location
        self.timestamp = timestamp
    }
}

/// The phase of a drag gesture, as the Draggable value stream reports it.
public enum GesturePhase: Hashable, Sendable {
    case began, changed, ended, cancelled
}

/// One value of a drag gesture: where it started, where it is, and how fast it went.
public struct GestureSample: Hashable, Sendable, CustomStringConvertible {
    public var phase: GesturePhase
    /// Where the button went down; the drag's origin.
    public var start: Point
    public var location: Point
    public var timestamp: Double
    /// Estimated over the recent window. Filled in on every sample; the ended sample carries the release velocity.
    public var velocity: Velocity

    public var translation: Point { location - start }

    public init(_ phase: GesturePhase, start: Point, location: Point, timestamp: Double, velocity: Velocity = .zero) {
        self.phase = phase
        self.start = start
        self.location = location
        self.timestamp = timestamp
        self.velocity = velocity
    }

    public var description: String { "\(phase) \(start)->\(location) @\(timestamp)" }
}

/// What a recognizer makes of pointer input.
public enum GestureOutput: Hashable, Sendable {
    /// Press and release without crossing the activation threshold.
    case tap(Point, timestamp: Double)
    case sample(GestureSample)
}

/// Turns pointer input into gesture output; injectable into the coordinator.
public protocol GestureRecognizing: Sendable {
    mutating func handle(_ input: PointerInput) -> [GestureOutput]
    /// Forget any gesture under way without output (the coordinator cancelled it).
    mutating func reset()
}

/// Estimates velocity from timestamped positions over a short trailing window.
///
/// Uses a least-squares line through the samples of the window, which is
/// robust to the jitter of whole-cell positions. The last sample before the
/// window serves as a baseline when the window holds a single sample or when
/// no pause separates it from the window. With fewer than two samples (or no
/// elapsed time) the velocity is zero.
public struct VelocityEstimator: Sendable {
    public var window: Double
    private struct Stamp: Sendable {
        var t: Double
        var x: Double
        var y: Double
    }

    private var points: [Stamp] = []

    public init(window: Double = 0.1) {
        self.window = window
    }

    public mutating func reset() { points.removeAll(keepingCapacity: true) }

    public mutating func add(_ p: Point, at t: Double) {
        points.append(Stamp(t: t, x: Double(p.x), y: Double(p.y)))
        let cutoff = t - window
        guard let first = points.firstIndex(where: { $0.t >= cutoff }), first > 0 else { return }
        // Keep one sample before the window as a baseline: always when the window alone
        // has fewer than two (a slow final stretch), otherwise only when it continues the
        // motion (no pause longer than the window before the next sample), so a stale
        // one, like the press before a long hold, never dilutes a fast flick.
        let continuous = points[first].t - points[first - 1].t <= window
        let keepBaseline = points.count - first < 2 || continuous
        points.removeFirst(keepBaseline ? first - 1 : first)
    }

    public var velocity: Velocity {
        guard points.count >= 2 else { return .zero }
        let n = Double(points.count)
        let mt = points.reduce(0) { $0 + $1.t } / n
        let mx = points.reduce(0) { $0 + $1.x } / n
        let my = points.reduce(0) { $0 + $1.y } / n
        var stt = 0.0, stx = 0.0, sty = 0.0
        for p in points {
            let dt = p.t - mt
            stt += dt * dt
            stx += dt * (p.x - mx)
            sty += dt * (p.y - my)
        }
        guard stt > 0 else { return .zero }
        return Velocity(dx: stx / stt, dy: sty / stt)
    }
}

/// The default recognizer: a press becomes a drag once the pointer has moved
/// `activationDistance` cells away from the press point; a release before
/// that is a tap.
public struct DragGestureRecognizer: GestureRecognizing {
    public var activationDistance: Int
    private var pressPoint: Point?
    /// Where the pointer was last reported during the gesture.
    private var lastLocation: Point?
    private var active = false
    private var estimator: VelocityEstimator

    public init(activationDistance: Int = 1, velocityWindow: Double = 0.1) {
        self.activationDistance = max(0, activationDistance)
        self.estimator = VelocityEstimator(window: velocityWindow)
    }

    public var isTracking: Bool { pressPoint != nil }
    public var isActive: Bool { active }

    public mutating func reset() {
        pressPoint = nil
        lastLocation = nil
        active = false
        estimator.reset()
    }

    public mutating func handle(_ input: PointerInput) -> [GestureOutput] {
        switch input.phase {
        case .press:
            var out: [GestureOutput] = []
            // A press while tracking means the release was lost: end the old gesture where it is.
            if let start = pressPoint, active {
                out.append(
                    .sample(
                        GestureSample(
                            .cancelled, start: start, location: lastLocation ?? start,
                            timestamp: input.timestamp, velocity: .zero)))
            }
            reset()
            pressPoint = input.location
            lastLocation = input.location
            estimator.add(input.location, at: input.timestamp)
            if activationDistance == 0 {
                active = true
                out.append(
                    .sample(
                        GestureSample(
                            .began, start: input.location, location: input.location,
                            timestamp: input.timestamp)))
            }
            return out
        case .move:
            guard let start = pressPoint else { return [] }
            lastLocation = input.location
            estimator.add(input.location, at: input.timestamp)
            if !active {
                guard input.location.distance(to: start) >= activationDistance else { return [] }
                active = true
                return [
                    .sample(
                        GestureSample(
                            .began, start: start, location: input.location,
                            timestamp: input.timestamp, velocity: estimator.velocity))
                ]
            }
            return [
                .sample(
                    GestureSample(
                        .changed, start: start, location: input.location,
                        timestamp: input.timestamp, velocity: estimator.velocity))
            ]
        case .release:
            guard let start = pressPoint else { return [] }
            defer { reset() }
            estimator.add(input.location, at: input.timestamp)
            if !active {
                if input.location.distance(to: start) >= max(1, activationDistance) {
                    // Moved far without reporting motion (merged reports): still a drag.
                    return [
                        .sample(
                            GestureSample(.began, start: start, location: input.location, timestamp: input.timestamp)),
                        .sample(
                            GestureSample(
                                .ended, start: start, location: input.location,
                                timestamp: input.timestamp, velocity: estimator.velocity)),
                    ]
                }
                return [.tap(start, timestamp: input.timestamp)]
            }
            return [
                .sample(
                    GestureSample(
                        .ended, start: start, location: input.location,
                        timestamp: input.timestamp, velocity: estimator.velocity))
            ]
        case .cancel:
            guard let start = pressPoint else { return [] }
            defer { reset() }
            guard active else { return [] }
            return [
                .sample(
                    GestureSample(
                        .cancelled, start: start, location: input.location,
                        timestamp: input.timestamp, velocity: .zero))
            ]
        }
    }
}
