import Testing
@testable import LanesCore

@Suite("Board merge: order and list merging")
struct MergeOrderTests {
    @Test func longestRunInOrder() {
        #expect(OrderMerge.increasingMask([3, 0, 1, 2]) == [false, true, true, true])
        #expect(OrderMerge.increasingMask([]) == [])
    }

    @Test func certainMovesAreThoseInNoLongestRun() {
        // A swap: either card may have moved.
        #expect(OrderMerge.mustMove([1, 0, 2], limit: 3) == [false, false, false])
        // The first card went to the top from the end: only it.
        #expect(OrderMerge.mustMove([2, 0, 1], limit: 3) == [true, false, false])
    }

    @Test func amongLongestRunsTheBonusDecides() {
        #expect(OrderMerge.increasingMask([1, 0, 2], limit: 3, bonus: [0, 2, 0]) == [false, true, true])
        #expect(OrderMerge.increasingMask([1, 0, 2], limit: 3, bonus: [2, 0, 0]) == [true, false, true])
        // Length first: a bonus never buys a shorter run.
        #expect(OrderMerge.increasingMask([3, 0, 1, 2], limit: 4, bonus: [3, 0, 0, 0]) == [false, true, true, true])
    }

    @Test func listsKeepBothSidesAdditionsAndDeletions() {
        #expect(mergeList(base: ["a", "b", "c"], ours: ["a", "x", "b", "c"], theirs: ["a", "b"]) == ["a", "x", "b"])
        // Two additions at one place are ordered by value, whichever side is ours.
        #expect(mergeList(base: ["a"], ours: ["a", "z"], theirs: ["a", "m"]) == ["a", "m", "z"])
        #expect(mergeList(base: ["a"], ours: ["a", "m"], theirs: ["a", "z"]) == ["a", "m", "z"])
        // The same addition on both sides is one.
        #expect(mergeList(base: ["a"], ours: ["a", "n", "z"], theirs: ["a", "n"]) == ["a", "n", "z"])
        // A move on one side and a deletion of another line on the other.
        #expect(mergeList(base: ["a", "b", "c"], ours: ["c", "a", "b"], theirs: ["a", "c"]) == ["c", "a"])
    }
}
