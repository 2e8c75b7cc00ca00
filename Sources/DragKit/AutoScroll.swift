/// The direction a region scrolls in.
public enum ScrollAxis: Hashable, Sendable {
    /// Rows: offset grows downwards.
    case vertical
    /// Columns: offset grows rightwards.
    case horizontal
}

/// A scrolled region as the auto-scroller sees it: its viewport, content and offset, in cells.
public struct Scrollable: Hashable, Sendable {
    /// The app's name for the region (a column's section, say); steps report it.
    public var id: Int
    public var axis: ScrollAxis
    public var viewport: Rect
    /// Along the axis. May be a lower bound (content not measured yet) as long as the app
    /// updates the scroller with a longer one before its steps reach it.
    public var contentLength: Int
    public var offset: Int

    public init(id: Int, axis: ScrollAxis = .vertical, viewport: Rect, contentLength: Int, offset: Int) {
        self.id = id
        self.axis = axis
        self.viewport = viewport
        self.contentLength = contentLength
        self.offset = offset
    }

    public var viewportLength: Int { axis == .vertical ? viewport.height : viewport.width }
    /// `contentLength - viewportLength`, or 0 when everything fits.
    public var maxOffset: Int { max(0, contentLength - viewportLength) }

    /// How far it can still move: towards the start for `direction` < 0, the end otherwise.
    public func room(_ direction: Int) -> Int {
        direction < 0 ? max(0, offset) : max(0, maxOffset - offset)
    }
}

/// Rows (or columns) to scroll one region by now: negative towards the start.
public struct ScrollStep: Hashable, Sendable {
    public var id: Int
    public var rows: Int

    public init(id: Int, rows: Int) {
        self.id = id
        self.rows = rows
    }
}

/// Scrolls the region under a dragged item while the pointer rests near its edge.
///
/// The edge zone is `insideRows` rows inside the viewport's start or end edge
/// plus `outsideRows` rows beyond it, within the viewport's extent across the
/// axis. Depth counts from 1 at the innermost zone row (the edge row itself is
/// depth `insideRows`). The speed is `maxSpeed × min(1, depth / insideRows)`
/// rows/s (nearness), times a factor of time held in the zone of that region in
/// that direction: `crawlFraction` until `rampStart` seconds, then rising
/// linearly to 1 at `rampEnd`. Speeds are integrated exactly between calls, so
/// the rows returned do not depend on how often the app ticks.
public struct EdgeAutoScroller: Sendable {
    /// The curve's constants; the defaults are Lanes' (DECISIONS.md gives the anchor figures they follow).
    public struct Config: Hashable, Sendable {
        public var insideRows = 4
        public var outsideRows = 3
        /// Rows per second at the edge row (and beyond) once the time ramp is over.
        public var maxSpeed = 80.0
        /// The share of the speed while the hold is short: a brief touch moves a row or two.
        public var crawlFraction = 0.05
        /// Seconds held before the speed starts to rise.
        public var rampStart = 0.35
        /// Seconds held when full speed is reached.
        public var rampEnd = 1.2

        public init() {}

        /// Full speed (after the time ramp) at a depth, rows/s.
        public func speed(atDepth depth: Int) -> Double {
            maxSpeed * min(1, Double(max(0, depth)) / Double(max(1, insideRows)))
        }

        /// The time factor after `e` seconds held: `crawlFraction`, then linear up to 1.
        public func timeFactor(_ e: Double) -> Double {
            if e < rampStart { return crawlFraction }
            if e >= rampEnd || rampEnd <= rampStart { return 1 }
            return crawlFraction + (1 - crawlFraction) * (e - rampStart) / (rampEnd - rampStart)
        }

        /// The integral of `timeFactor` from 0 to `e`: seconds at full speed.
        public func ramped(_ e: Double) -> Double {
            let e = max(0, e), a = rampStart, b = max(rampStart, rampEnd), c = crawlFraction
            if e < a { return c * e }
            if e < b { return c * e + (1 - c) * (e - a) * (e - a) / (2 * (b - a)) }
            return c * b + (1 - c) * (b - a) / 2 + (e - b)
        }

        /// The time held at which `ramped` reaches `f` (its inverse).
        public func unramped(_ f: Double) -> Double {
            let a = rampStart, b = max(rampStart, rampEnd), c = crawlFraction
            if f <= 0 { return 0 }
            if c > 0, f < c * a { return f / c }
            if f >= ramped(b) { return b + (f - ramped(b)) }
            // c·x + k·x² = f − c·a with x = e − a.
            let k = (1 - c) / (2 * (b - a)), r = f - c * a
            return a + (-c + (c * c + 4 * k * r).squareRoot()) / (2 * k)
        }
    }

    public var config: Config
    /// The region scrolling now, with the offset its steps have reached.
    public private(set) var target: Scrollable?
    /// +1 towards the end, -1 towards the start, 0 when idle.
    public private(set) var direction = 0
    /// Full speed at the current depth, rows/s, before the ramp.
    public private(set) var speed = 0.0

    private var scrollers: [Scrollable] = []
    private var pointer = Point.zero
    private var enteredAt = 0.0
    private var lastTime = 0.0
    /// Rows covered but not yet returned; below 1 after every tick.
    private var carry = 0.0

    public init(config: Config = Config()) {
        self.config = config
    }

    /// The edge zone of `s` the pointer is in, among the directions `s` can still scroll: deeper wins, then the start.
    public static func edge(of pointer: Point, in s: Scrollable, config: Config = Config()) -> (
        direction: Int, depth: Int
    )? {
        let (along, across, lo, hi, crossLo, crossHi) =
            s.axis == .vertical
            ? (pointer.y, pointer.x, s.viewport.minY, s.viewport.maxY, s.viewport.minX, s.viewport.maxX)
            : (pointer.x, pointer.y, s.viewport.minX, s.viewport.maxX, s.viewport.minY, s.viewport.maxY)
        guard across >= crossLo, across < crossHi, !s.viewport.isEmpty else { return nil }
        let span = config.insideRows + config.outsideRows
        let startDepth = lo + config.insideRows - along
        let endDepth = along - (hi - config.insideRows) + 1
        var best: (direction: Int, depth: Int)?
        if startDepth >= 1, startDepth <= span, s.room(-1) > 0 { best = (-1, startDepth) }
        if endDepth >= 1, endDepth <= span, s.room(1) > 0, endDepth > (best?.depth ?? 0) { best = (1, endDepth) }
        return best
    }

    /// The region to scroll among nested ones listed innermost first: the first whose edge zone holds the pointer
    /// and that can still scroll that way.
    public static func choose(pointer: Point, among scrollers: [Scrollable], config: Config = Config()) -> Int? {
        scrollers.firstIndex { edge(of: pointer, in: $0, config: config) != nil }
    }

    /// Takes a pointer position during a drag and the regions under it, innermost first, with their current offsets.
    ///
    /// Call on every pointer move, and again whenever the app scrolled a region
    /// by other means. Motion up to `now` is kept at the old speed.
    public mutating func update(pointer: Point, scrollers: [Scrollable], now: Double) {
        advance(to: now)
        self.pointer = pointer
        self.scrollers = scrollers
        retarget(now: now)
    }

    /// Rows to scroll now, or nil when none are due; the step never passes either end of its region.
    ///
    /// When the region reaches its end with the pointer still in its zone, the
    /// next region out that can scroll that way takes over from `now`, ramping up afresh.
    public mutating func tick(now: Double) -> ScrollStep? {
        advance(to: now)
        guard var t = target, direction != 0 else { return nil }
        var rows = Int((carry + 1e-9).rounded(.down))
        carry -= Double(rows)
        let room = t.room(direction)
        if rows >= room {
            rows = room
            carry = 0
        }
        let step = ScrollStep(id: t.id, rows: direction * rows)
        t.offset += step.rows
        target = t
        if let i = scrollers.firstIndex(where: { $0.id == t.id }) { scrollers[i] = t }
        if t.room(direction) == 0 { retarget(now: now) }
        return rows == 0 ? nil : step
    }

    /// When the next whole row falls due, or nil while nothing scrolls.
    public var nextDeadline: Double? {
        guard let t = target, direction != 0, speed > 0, t.room(direction) > 0 else { return nil }
        let need = 1 - carry
        guard need > 1e-9 else { return lastTime }
        let f = ramped(lastTime) + need / speed
        return enteredAt + config.unramped(f)
    }

    /// Stops, forgets the regions and any fraction of a row (drop, cancel, end of a drag).
    public mutating func reset() {
        target = nil
        direction = 0
        speed = 0
        scrollers = []
        carry = 0
    }

    private mutating func retarget(now: Double) {
        guard let i = Self.choose(pointer: pointer, among: scrollers, config: config),
            let (dir, depth) = Self.edge(of: pointer, in: scrollers[i], config: config)
        else {
            target = nil
            direction = 0
            speed = 0
            carry = 0
            return
        }
        let s = scrollers[i]
        if s.id != target?.id || dir != direction {
            enteredAt = now
            lastTime = now
            carry = 0
        }
        target = s
        direction = dir
        speed = config.speed(atDepth: depth)
    }

    /// Adds the rows covered since the last call.
    private mutating func advance(to now: Double) {
        if direction != 0, now > lastTime {
            carry += speed * (ramped(now) - ramped(lastTime))
        }
        lastTime = max(lastTime, now)
    }

    /// The integral of the ramp from entering the zone to `t`: seconds at full speed.
    private func ramped(_ t: Double) -> Double {
        config.ramped(t - enteredAt)
    }
}

/// Which way a page flip goes.
public enum FlipRequest: Hashable, Sendable {
    case previous, next
}

/// Asks for a page flip when a drag rests at the board's left or right edge, or flings towards it.
///
/// The bands are `band` columns inside the board's left and right edges (and
/// anything beyond them), within the board's rows. Entering a band arms a flip
/// due `dwell` seconds later; a fling towards that edge faster than
/// `flingSpeed` makes it due at once. After a flip the band is disarmed until
/// the pointer leaves it, unless `repeatInterval` is set: then another flip
/// follows every `repeatInterval` seconds while the pointer stays. A drag whose
/// first update is already in a band (grabbed at the edge) does not flip until
/// the pointer has left that band.
public struct PageDwell: Sendable {
    public struct Config: Hashable, Sendable {
        public var band = 2
        public var dwell = 0.5
        /// Cells per second towards the edge, from `GestureSample.velocity`.
        public var flingSpeed = 60.0
        /// Nil: re-arm only after leaving the band.
        public var repeatInterval: Double?

        public init() {}
    }

    public var config: Config
    /// The band the pointer is in.
    public private(set) var side: FlipRequest?
    private var due: Double?
    private var started = false

    public init(config: Config = Config()) {
        self.config = config
    }

    /// The band `pointer` is in on `board`; the nearer edge when the bands overlap.
    public func band(of pointer: Point, on board: Rect) -> FlipRequest? {
        guard !board.isEmpty, pointer.y >= board.minY, pointer.y < board.maxY else { return nil }
        let fromLeft = pointer.x - board.minX, fromRight = board.maxX - 1 - pointer.x
        if fromLeft < config.band, fromLeft <= fromRight { return .previous }
        if fromRight < config.band { return .next }
        return nil
    }

    /// Takes a pointer position and the gesture velocity during a drag; `board` is where the pages show.
    public mutating func update(pointer: Point, velocity: Velocity, board: Rect, now: Double) {
        let current = band(of: pointer, on: board)
        if !started {
            started = true
            side = current
            due = nil
            return
        }
        if current != side {
            side = current
            due = current == nil ? nil : now + config.dwell
        }
        if let s = side, let d = due {
            let towards = s == .previous ? -velocity.dx : velocity.dx
            if towards > config.flingSpeed { due = min(d, now) }
        }
    }

    /// The flip due by `now`, once.
    public mutating func tick(now: Double) -> FlipRequest? {
        guard let s = side, let d = due, now >= d else { return nil }
        due = config.repeatInterval.map { now + $0 }
        return s
    }

    /// When the next flip falls due, or nil when none is armed.
    public var nextDeadline: Double? { side == nil ? nil : due }

    /// Forgets the drag (drop, cancel, page change by other means).
    public mutating func reset() {
        side = nil
        due = nil
        started = false
    }
}
