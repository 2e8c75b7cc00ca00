/// Which of the two descendants of a base a change came from.
enum MergeSide: Hashable, Sendable {
    case ours, theirs
}

/// Three-way merge of one ordered sequence of nodes (columns of a board, cards of a column, lines of a field).
///
/// Nodes are small integers shared by the three versions. A *stationary* node is in base and in
/// both sides, where neither side moved it; both sides keep the stationary nodes in base order, so
/// they form the skeleton of the result. Every other node that survives is *placed* by one side: it
/// goes into the gap after the stationary node that precedes it in that side's sequence. When both
/// sides put nodes into one gap, the two runs are ordered by `runsInOrder` on their first nodes — a
/// comparison of content, not of sides — so the result does not depend on which side is "ours".
enum OrderMerge {
    /// Longest increasing subsequence of `values`: a mask of the positions that are in it.
    /// O(n log n); among equally long ones it keeps, at each length, the one ending lowest.
    static func increasingMask(_ values: [Int]) -> [Bool] {
        let n = values.count
        var mask = [Bool](repeating: false, count: n)
        guard n > 0 else { return mask }
        var tailValue: [Int] = []
        var tailIndex: [Int] = []
        var previous = [Int](repeating: -1, count: n)
        for (i, v) in values.enumerated() {
            var lo = 0, hi = tailValue.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if tailValue[mid] < v { lo = mid + 1 } else { hi = mid }
            }
            previous[i] = lo > 0 ? tailIndex[lo - 1] : -1
            if lo == tailValue.count {
                tailValue.append(v)
                tailIndex.append(i)
            } else {
                tailValue[lo] = v
                tailIndex[lo] = i
            }
        }
        var k = tailIndex.last!
        while k >= 0 {
            mask[k] = true
            k = previous[k]
        }
        return mask
    }

    /// Positions of `values` (distinct, in 0..<limit) that are in no longest increasing subsequence:
    /// whatever else is decided, these certainly moved.
    static func mustMove(_ values: [Int], limit: Int) -> [Bool] {
        let n = values.count
        guard n > 1 else { return [Bool](repeating: false, count: n) }
        let ending = lengths(values, limit: limit)
        let starting = Array(lengths(values.reversed().map { limit - 1 - $0 }, limit: limit).reversed())
        let longest = ending.max() ?? 0
        return (0..<n).map { ending[$0] + starting[$0] - 1 < longest }
    }

    /// Length of the longest increasing subsequence ending at each position.
    private static func lengths(_ values: [Int], limit: Int) -> [Int] {
        var tree = [Int](repeating: 0, count: limit + 1)
        return values.map { v in
            var best = 0, i = v
            while i > 0 { best = max(best, tree[i]); i -= i & -i }
            let length = best + 1
            i = v + 1
            while i <= limit { tree[i] = max(tree[i], length); i += i & -i }
            return length
        }
    }

    /// The longest increasing subsequence of `values` (distinct, in 0..<limit) that, among the
    /// longest, has the highest total `bonus` (each 0...7); a mask of the positions in it.
    static func increasingMask(_ values: [Int], limit: Int, bonus: [Int]) -> [Bool] {
        let n = values.count
        guard n > 0 else { return [] }
        let unit = 7 * n + 1
        // Fenwick tree of (best total weight, position reaching it) over values.
        var tree = [(weight: Int, at: Int)](repeating: (0, -1), count: limit + 1)
        var previous = [Int](repeating: -1, count: n)
        var total = [Int](repeating: 0, count: n)
        for (k, v) in values.enumerated() {
            var best = (weight: 0, at: -1), i = v
            while i > 0 {
                if tree[i].weight > best.weight { best = tree[i] }
                i -= i & -i
            }
            total[k] = best.weight + unit + bonus[k]
            previous[k] = best.at
            i = v + 1
            while i <= limit {
                if total[k] > tree[i].weight { tree[i] = (total[k], k) }
                i += i & -i
            }
        }
        var mask = [Bool](repeating: false, count: n)
        var k = total.indices.max { (total[$0], -$0) < (total[$1], -$1) }!
        while k >= 0 {
            mask[k] = true
            k = previous[k]
        }
        return mask
    }

    /// For each node of `sequence` that is not stationary: the stationary node before it (nil: the start).
    static func anchors(in sequence: [Int], stationary: (Int) -> Bool) -> [Int: Int?] {
        var result: [Int: Int?] = [:]
        var anchor: Int?
        for node in sequence {
            if stationary(node) { anchor = node } else { result[node] = anchor }
        }
        return result
    }

    /// The merged sequence: `base`'s stationary nodes in order, each followed by the runs the sides placed after it.
    ///
    /// Nodes both sides added, or moved, into this sequence (`shared`) join the skeleton where ours
    /// has them. A node a side placed follows the nearest skeleton node before it in that side's
    /// sequence, so a card added after a card both sides added lands after it. A node only the
    /// other side moved is no anchor: "after Y", said before Y moved, means where Y was.
    static func merge(
        base: [Int], ours: [Int], theirs: [Int],
        stationary: (Int) -> Bool,
        placedHere: (Int, MergeSide) -> Bool,
        shared: (Int) -> Bool,
        runsInOrder: (Int, Int) -> Bool
    ) -> [Int] {
        var oursRuns: [Int: [Int]] = [:]
        var theirsRuns: [Int: [Int]] = [:]
        let start = -1
        var placedCount = 0
        func isSkeleton(_ node: Int) -> Bool { stationary(node) || shared(node) }
        func collect(_ sequence: [Int], _ side: MergeSide, into runs: inout [Int: [Int]]) {
            var anchor = start
            for node in sequence {
                if isSkeleton(node) {
                    anchor = node
                } else if placedHere(node, side) {
                    runs[anchor, default: []].append(node)
                    placedCount += 1
                }
            }
        }
        collect(ours, .ours, into: &oursRuns)
        collect(theirs, .theirs, into: &theirsRuns)
        var result: [Int] = []
        result.reserveCapacity(base.count + placedCount)
        func runs(after anchor: Int) -> [Int] {
            let o = oursRuns.removeValue(forKey: anchor) ?? []
            let t = theirsRuns.removeValue(forKey: anchor) ?? []
            if o.isEmpty { return t }
            if t.isEmpty { return o }
            return runsInOrder(t[0], o[0]) ? t + o : o + t
        }
        var emitted: Set<Int>?  // only once a cycle is being broken
        func emit(after anchor: Int) {
            var stack: [(nodes: [Int], next: Int)] = []
            let first = runs(after: anchor)
            if !first.isEmpty { stack.append((first, 0)) }
            while !stack.isEmpty {
                let top = stack.count - 1
                if stack[top].next == stack[top].nodes.count { stack.removeLast(); continue }
                let node = stack[top].nodes[stack[top].next]
                stack[top].next += 1
                if emitted != nil {
                    guard emitted!.insert(node).inserted else { continue }
                }
                result.append(node)
                let more = runs(after: node)
                if !more.isEmpty { stack.append((more, 0)) }
            }
        }
        // The skeleton: stationary nodes (in base order, which both sides keep) with the shared
        // ones where ours has them (ours is where a node both moved lands).
        let skeleton =
            ours.isEmpty
            ? (theirs.isEmpty ? base.filter(stationary) : theirs.filter(isSkeleton)) : ours.filter(isSkeleton)
        emit(after: start)
        for node in skeleton {
            result.append(node)
            emit(after: node)
        }
        // Runs anchored in a cycle (each side placed its node after the other's) are never reached: they go last.
        if !oursRuns.isEmpty || !theirsRuns.isEmpty {
            emitted = Set(result)
            for (sequence, side) in [(ours, MergeSide.ours), (theirs, .theirs)] {
                for node in sequence where placedHere(node, side) && !emitted!.contains(node) {
                    emitted!.insert(node)
                    result.append(node)
                    emit(after: node)
                }
            }
        }
        return result
    }
}

/// Three-way merge of a short list of values (description lines, sub-tasks, extra lines, tags).
///
/// Equal values pair up in order (the k-th occurrence of a value in base with the k-th on a side).
/// A value one side removed is removed; a value a side added goes after its neighbour; values both
/// sides added at one place are ordered by value. Deterministic and the same with sides swapped.
func mergeList<T: Hashable & Comparable>(base: [T], ours: [T], theirs: [T]) -> [T] {
    if ours == base { return theirs }
    if theirs == base || ours == theirs { return ours }
    return mergeList(base: base, ours: ours, theirs: theirs, less: <)
}

/// `mergeList` for values ordered by `less` when two sides add at one place.
func mergeList<T: Hashable>(base: [T], ours: [T], theirs: [T], less: (T, T) -> Bool) -> [T] {
    if ours == base { return theirs }
    if theirs == base || ours == theirs { return ours }
    var values = base
    var occurrences: [T: [Int]] = [:]
    for (i, v) in base.enumerated() { occurrences[v, default: []].append(i) }
    /// Node of each element of a side; unmatched values get new nodes (shared between the sides by value and occurrence).
    var added: [T: [Int]] = [:]
    func nodes(_ side: [T], sharingAdded: Bool) -> [Int] {
        var used: [T: Int] = [:]
        var usedAdded: [T: Int] = [:]
        return side.map { v in
            let k = used[v, default: 0]
            used[v] = k + 1
            if let list = occurrences[v], k < list.count { return list[k] }
            let a = usedAdded[v, default: 0]
            usedAdded[v] = a + 1
            if sharingAdded, let list = added[v], a < list.count { return list[a] }
            values.append(v)
            added[v, default: []].append(values.count - 1)
            return values.count - 1
        }
    }
    let b = Array(base.indices)
    let o = nodes(ours, sharingAdded: false)
    let t = nodes(theirs, sharingAdded: true)
    var inOurs = [Bool](repeating: false, count: values.count)
    var inTheirs = inOurs
    for n in o { inOurs[n] = true }
    for n in t { inTheirs[n] = true }
    let oursStill = stillInOrder(o, baseCount: base.count)
    let theirsStill = stillInOrder(t, baseCount: base.count)
    let stationary = { (n: Int) in n < base.count && oursStill.contains(n) && theirsStill.contains(n) }
    let merged = OrderMerge.merge(
        base: b, ours: o, theirs: t, stationary: stationary,
        placedHere: { n, side in
            guard n < base.count else { return side == (inOurs[n] ? .ours : .theirs) }
            if !inOurs[n] || !inTheirs[n] { return false }  // removed by a side
            return side == (oursStill.contains(n) ? .theirs : .ours)
        },
        shared: { n in
            n < base.count
                ? (inOurs[n] && inTheirs[n] && !oursStill.contains(n) && !theirsStill.contains(n))
                : inOurs[n] && inTheirs[n]
        },
        runsInOrder: { less(values[$0], values[$1]) })
    return merged.map { values[$0] }
}

/// The base nodes of a side's sequence that keep their base order (the longest run in order).
func stillInOrder(_ sequence: [Int], baseCount: Int) -> Set<Int> {
    let fromBase = sequence.filter { $0 < baseCount }
    let mask = OrderMerge.increasingMask(fromBase)
    var result = Set<Int>()
    for (i, n) in fromBase.enumerated() where mask[i] { result.insert(n) }
    return result
}
