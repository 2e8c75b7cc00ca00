/// When the runner hands a change to the storage: at once while saves are cheap; a save that
/// costs the machine something waits for the hand to rest.
///
/// A save of a 100,000-card file takes a few milliseconds of CPU and a 4 MB write even when
/// only a chunk of it is formatted again, and on a two-core machine that shows in how fast the
/// terminal answers the next key. So once a save has cost more than `costly` CPU seconds, the
/// next one starts when no input came for `settle` seconds, and at the latest `maxWait`
/// seconds after the change: a hand that never rests still gets its work stored, and other
/// screens still see it within the 200 ms a live board promises. Quitting and signals store at
/// once regardless (the runner's flush does not ask).
struct SavePacing {
    var costly = 0.002
    var settle = 0.05
    var maxWait = 0.2
    /// CPU seconds the last save took on the storage's thread.
    private(set) var lastCost = 0.0
    private var lastInput = -Double.infinity
    /// When the board first differed from the stored one, while it does.
    private var pendingSince: Double?

    mutating func input(at t: Double) { lastInput = t }

    mutating func saved(cost: Double) { lastCost = cost }

    /// Whether a save of the change seen at `t` may start now (`unsaved`: the board differs from the stored one).
    mutating func mayStart(at t: Double, unsaved: Bool) -> Bool {
        guard unsaved else {
            pendingSince = nil
            return false
        }
        let since = pendingSince ?? t
        pendingSince = since
        guard lastCost > costly else { return true }
        return t - lastInput >= settle || t - since >= maxWait
    }

    /// Called when a save starts: the next change waits afresh.
    mutating func started() { pendingSince = nil }

    /// When a held-back save may start (nil: none is held back).
    var deadline: Double? {
        guard let since = pendingSince, lastCost > costly else { return nil }
        return min(lastInput + settle, since + maxWait)
    }
}
