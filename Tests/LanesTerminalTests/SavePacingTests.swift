@testable import LanesTerminal
import Testing

/// `mayStart` as a value (an expectation cannot call a mutating method).
private func may(_ p: inout SavePacing, _ t: Double, _ unsaved: Bool) -> Bool { p.mayStart(at: t, unsaved: unsaved) }

@Suite struct SavePacingTests {
    /// While saves are cheap, a change is stored at once, however busy the hand.
    @Test func cheapSavesStartAtOnce() {
        var p = SavePacing()
        p.saved(cost: 0.0005)
        p.input(at: 10.0)
        #expect(may(&p, 10.001, true))
        #expect(p.deadline == nil, "nothing is held back")
        p.started()
        #expect(p.deadline == nil)
        #expect(!may(&p, 10.002, false))
    }

    /// After a costly save, the next waits for 50 ms without input; the deadline says when.
    @Test func aCostlySaveWaitsForTheHandToRest() {
        var p = SavePacing()
        p.saved(cost: 0.004)
        p.input(at: 10.000)
        #expect(!may(&p, 10.001, true))
        #expect(p.deadline == 10.050)
        p.input(at: 10.030)  // a key: the wait starts again
        #expect(!may(&p, 10.031, true))
        #expect(p.deadline == 10.080)
        #expect(!may(&p, 10.079, true))
        #expect(may(&p, 10.080, true))
        p.started()
        #expect(p.deadline == nil)
    }

    /// A hand that never rests still gets its change stored, 0.2 s after it was made.
    @Test func aBusyHandWaitsAtMostAFifthOfASecond() {
        var p = SavePacing()
        p.saved(cost: 0.010)
        var t = 20.0
        p.input(at: t)
        #expect(!may(&p, t, true))
        var started: Double?
        while t < 21 {
            p.input(at: t)
            if may(&p, t + 0.001, true) { started = t + 0.001; break }
            #expect(p.deadline == 20.2 || p.deadline == t + 0.05)
            t += 0.02
        }
        #expect(started != nil && started! >= 20.2 && started! < 20.23)
    }

    /// A board that went back to the stored one holds nothing back.
    @Test func nothingUnsavedHoldsNothingBack() {
        var p = SavePacing()
        p.saved(cost: 0.010)
        p.input(at: 5)
        #expect(!may(&p, 5.001, true))
        #expect(p.deadline != nil)
        #expect(!may(&p, 5.002, false))
        #expect(p.deadline == nil)
    }
}
