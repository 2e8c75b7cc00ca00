/// How a dragged rect is matched against candidate rects (after seed 004).
public enum OverlapPolicy: Hashable, Sendable {
    /// The candidate contains the pointer.
    case pointerInside
    /// The candidate contains the whole dragged rect.
    case containment
    /// The candidate shares cells with the dragged rect; larger shares rank first.
    case intersection
}

/// A rect that a dragged one may hover over.
public struct OverlapCandidate: Hashable, Sendable {
    public var rect: Rect
    public var priority: Int

    public init(rect: Rect, priority: Int = 0) {
        self.rect = rect
        self.priority = priority
    }
}

/// Decides which candidate a dragged rect is over.
public struct OverlapEvaluator: Hashable, Sendable {
    public var policy: OverlapPolicy

    public init(policy: OverlapPolicy = .pointerInside) {
        self.policy = policy
    }

    /// The candidates that overlap under the policy, best first: higher
    /// priority, then (for intersection) the larger share of the dragged
    /// rect, then the earlier candidate.
    public func ranked(pointer: Point, dragged: Rect, candidates: [OverlapCandidate]) -> [Int] {
        var hits: [(index: Int, priority: Int, share: Int)] = []
        for (i, c) in candidates.enumerated() {
            switch policy {
            case .pointerInside:
                if c.rect.contains(pointer) { hits.append((i, c.priority, 0)) }
            case .containment:
                if c.rect.contains(dragged) { hits.append((i, c.priority, 0)) }
            case .intersection:
                if let shared = c.rect.intersection(dragged) { hits.append((i, c.priority, shared.area)) }
            }
        }
        hits.sort { a, b in
            if a.priority != b.priority { return a.priority > b.priority }
            if a.share != b.share { return a.share > b.share }
            return a.index < b.index
        }
        return hits.map(\.index)
    }

    /// The best overlapping candidate that `accepts` approves, and the better-ranked ones that refused.
    public func evaluate(
        pointer: Point, dragged: Rect, candidates: [OverlapCandidate],
        accepts: (Int) -> Bool = { _ in true }
    ) -> (target: Int?, refused: [Int]) {
        var refused: [Int] = []
        for i in ranked(pointer: pointer, dragged: dragged, candidates: candidates) {
            if accepts(i) { return (i, refused) }
            refused.append(i)
        }
        return (nil, refused)
    }
}

/// Follows a drag over candidate rects: calls `hover` whenever the overlapped
/// candidate changes and `completion` once on release, with the candidate
/// overlapped then (nil for none).
public struct OverlapTracker: Sendable {
    public var evaluator: OverlapEvaluator
    public var candidates: [OverlapCandidate]
    public private(set) var current: Int?

    public init(evaluator: OverlapEvaluator = OverlapEvaluator(), candidates: [OverlapCandidate]) {
        self.evaluator = evaluator
        self.candidates = candidates
    }

    /// Re-evaluates at a new position; returns whether the hovered candidate changed.
    @discardableResult
    public mutating func update(pointer: Point, dragged: Rect, hover: (Int?) -> Void = { _ in }) -> Bool {
        let next = evaluator.evaluate(pointer: pointer, dragged: dragged, candidates: candidates).target
        guard next != current else { return false }
        current = next
        hover(next)
        return true
    }

    /// Ends the drag at a final position and reports the candidate it ended over.
    public mutating func complete(pointer: Point, dragged: Rect, completion: (Int?) -> Void) {
        update(pointer: pointer, dragged: dragged)
        completion(current)
        current = nil
    }
}
