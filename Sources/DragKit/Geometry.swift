/// A position in terminal cells: `x` grows rightwards, `y` downwards.
public struct Point: Hashable, Sendable, CustomStringConvertible {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    public static let zero = Point(x: 0, y: 0)

    public static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    public static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }

    /// Chebyshev distance: how many cells apart two points are on the grid.
    public func distance(to other: Point) -> Int { max(abs(x - other.x), abs(y - other.y)) }

    public var description: String { "(\(x),\(y))" }
}

/// A width and height in cells; negative values are clamped to zero.
public struct Size: Hashable, Sendable, CustomStringConvertible {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    public static let zero = Size(width: 0, height: 0)
    public var area: Int { width * height }
    public var description: String { "\(width)x\(height)" }
}

/// A half-open rectangle of cells: it contains `minX..<maxX` × `minY..<maxY`.
///
/// A rect with zero width or height is empty: it contains no point and
/// intersects nothing, not even itself. Rects that only share an edge do not
/// intersect.
public struct Rect: Hashable, Sendable, CustomStringConvertible {
    public var origin: Point
    public var size: Size

    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    public static let zero = Rect(x: 0, y: 0, width: 0, height: 0)

    public var minX: Int { origin.x }
    public var minY: Int { origin.y }
    /// One past the last column inside.
    public var maxX: Int { origin.x + size.width }
    /// One past the last row inside.
    public var maxY: Int { origin.y + size.height }
    public var width: Int { size.width }
    public var height: Int { size.height }
    public var area: Int { size.area }
    public var isEmpty: Bool { size.width == 0 || size.height == 0 }

    public func contains(_ p: Point) -> Bool {
        p.x >= minX && p.x < maxX && p.y >= minY && p.y < maxY
    }

    /// Whether `other` lies wholly inside; an empty rect is inside nothing.
    public func contains(_ other: Rect) -> Bool {
        !other.isEmpty && other.minX >= minX && other.maxX <= maxX
            && other.minY >= minY && other.maxY <= maxY
    }

    /// The shared cells, or nil when there are none.
    public func intersection(_ other: Rect) -> Rect? {
        let x0 = max(minX, other.minX), x1 = min(maxX, other.maxX)
        let y0 = max(minY, other.minY), y1 = min(maxY, other.maxY)
        guard x1 > x0, y1 > y0 else { return nil }
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func intersects(_ other: Rect) -> Bool { intersection(other) != nil }

    /// The smallest rect covering both; an empty operand is ignored.
    public func union(_ other: Rect) -> Rect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let x0 = min(minX, other.minX), x1 = max(maxX, other.maxX)
        let y0 = min(minY, other.minY), y1 = max(maxY, other.maxY)
        return Rect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    public func offsetBy(dx: Int, dy: Int) -> Rect {
        Rect(x: minX + dx, y: minY + dy, width: width, height: height)
    }

    /// Shrunk by `d` cells on every side (grown when negative), like `CGRect.insetBy`.
    public func insetBy(_ d: Int) -> Rect {
        Rect(x: minX + d, y: minY + d, width: width - 2 * d, height: height - 2 * d)
    }

    /// The point inside nearest to `p`; `p` itself when inside. Empty rects return their origin.
    public func clamp(_ p: Point) -> Point {
        guard !isEmpty else { return origin }
        return Point(x: min(max(p.x, minX), maxX - 1), y: min(max(p.y, minY), maxY - 1))
    }

    public var description: String { "[\(minX),\(minY) \(width)x\(height)]" }
}

/// A two-dimensional velocity in cells per second.
public struct Velocity: Hashable, Sendable, CustomStringConvertible {
    public var dx: Double
    public var dy: Double

    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    public static let zero = Velocity(dx: 0, dy: 0)
    public var speed: Double { (dx * dx + dy * dy).squareRoot() }
    public var description: String { "(\(dx),\(dy))/s" }
}
