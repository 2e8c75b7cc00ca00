/// Near misses of a word among a few known ones, for "did you mean …?".
public enum Spelling {
    /// Whether `a` becomes `b` by exactly one edit: one character inserted, deleted or
    /// replaced, or two neighbours swapped (`shwo` → `show`). Compares characters, so
    /// `Show` is one edit from `show`.
    public static func isOneEditAway(_ a: String, _ b: String) -> Bool {
        let x = Array(a), y = Array(b)
        guard x != y, abs(x.count - y.count) <= 1 else { return false }
        var i = 0
        while i < min(x.count, y.count) && x[i] == y[i] { i += 1 }
        if x.count == y.count {
            // Replaced: the rest is equal. Swapped: the next two are crossed and the rest is equal.
            if x[(i + 1)...] == y[(i + 1)...] { return true }
            return i + 1 < x.count && x[i] == y[i + 1] && x[i + 1] == y[i] && x[(i + 2)...] == y[(i + 2)...]
        }
        let (long, short) = x.count > y.count ? (x, y) : (y, x)
        return long[(i + 1)...] == short[i...]
    }

    /// The one candidate `word` is one edit away from; nil when there is none, or more than one.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let near = candidates.filter { isOneEditAway(word, $0) }
        return near.count == 1 ? near[0] : nil
    }
}
