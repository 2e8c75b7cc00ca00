/// Sort keys for cards and columns: strings in base 62 (`0-9A-Za-z`, ordered as bytes) read as
/// fractions, so a key fits between any two others and a move rewrites one row.
///
/// A key never ends in `0`, so there is always room before it; keys grow by about one character
/// per six insertions at the same place, and stay short under scattered moves.
public enum OrderKey {
    static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)
    static let base = 62

    /// A key strictly between `a` and `b` (nil: no bound on that side). Requires `a < b` when both are given.
    public static func between(_ a: String?, _ b: String?) -> String {
        let da = a.map(decode) ?? []
        let db = b.map(decode)
        if let db { precondition(compare(da, db) < 0, "OrderKey.between: \(a ?? "nil") is not before \(b ?? "nil")") }
        return encode(midpoint(da[...], db?[...]))
    }

    /// `count` increasing keys of one width, evenly spread (a column written in one go).
    public static func spread(_ count: Int) -> [String] {
        var width = 1
        var capacity = base
        while capacity <= count { width += 1; capacity *= base }
        let step = capacity / (count + 1)
        return (0..<count).map { i in
            var v = (i + 1) * step
            var out = [UInt8](repeating: digits[0], count: width)
            for p in stride(from: width - 1, through: 0, by: -1) {
                out[p] = digits[v % base]
                v /= base
            }
            // A middle digit at the end keeps the rule "never ends in 0" and leaves room on both sides.
            return String(decoding: out + [digits[base / 2]], as: UTF8.self)
        }
    }

    private static func midpoint(_ a: ArraySlice<Int>, _ b: ArraySlice<Int>?) -> [Int] {
        if let b {
            var n = 0
            while n < b.count, digit(a, n) == b[b.startIndex + n] { n += 1 }
            if n > 0 {
                return Array(b.prefix(n)) + midpoint(a.dropFirst(n), b.dropFirst(n))
            }
        }
        let lo = a.first ?? 0
        let hi = b?.first ?? base
        if hi - lo > 1 { return [(lo + hi) / 2] }
        if let b, b.count > 1 { return [b[b.startIndex]] }
        return [lo] + midpoint(a.dropFirst(), nil)
    }

    private static func digit(_ a: ArraySlice<Int>, _ n: Int) -> Int {
        n < a.count ? a[a.startIndex + n] : 0
    }

    private static func compare(_ a: [Int], _ b: [Int]) -> Int {
        for i in 0..<max(a.count, b.count) {
            let x = i < a.count ? a[i] : 0, y = i < b.count ? b[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    private static func decode(_ s: String) -> [Int] {
        s.utf8.map { c in
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(c - UInt8(ascii: "A")) + 10
            case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(c - UInt8(ascii: "a")) + 36
            default: preconditionFailure("OrderKey: \(s) is not a key")
            }
        }
    }

    private static func encode(_ d: [Int]) -> String {
        String(decoding: d.map { digits[$0] }, as: UTF8.self)
    }
}
