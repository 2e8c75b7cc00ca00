#if canImport(Glibc)
    import Glibc
#endif

/// Monotonic nanoseconds.
@inline(__always) func nanos() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func ms(_ ns: UInt64) -> Double { Double(ns) / 1e6 }
func us(_ ns: UInt64) -> Double { Double(ns) / 1e3 }

/// Runs `body` and returns its result and the milliseconds it took.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let t0 = nanos()
    let r = try body()
    return (r, ms(nanos() - t0))
}

extension Array where Element == Double {
    func percentile(_ p: Double) -> Double {
        guard !isEmpty else { return .nan }
        let s = sorted()
        let rank = Int((p / 100 * Double(s.count - 1)).rounded())
        return s[Swift.min(Swift.max(0, rank), s.count - 1)]
    }
    var median: Double { percentile(50) }
    var mean: Double { isEmpty ? .nan : reduce(0, +) / Double(count) }
}

/// `VmHWM` (peak resident set) from /proc/self/status, in kB.
func peakRSSkB() -> Int { statusField("VmHWM:") }

/// `VmRSS` (resident set now) from /proc/self/status, in kB.
func currentRSSkB() -> Int { statusField("VmRSS:") }

private func statusField(_ name: String) -> Int {
    guard let f = fopen("/proc/self/status", "r") else { return -1 }
    defer { fclose(f) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, f) != nil {
        let s = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if s.hasPrefix(name) {
            return Int(s.dropFirst(name.count).filter(\.isNumber)) ?? -1
        }
    }
    return -1
}

/// Formats a number for the table: 3 significant-ish digits.
func fmt(_ v: Double?) -> String {
    guard let v, v.isFinite else { return "—" }
    if v >= 1000 { return String(Int(v.rounded())) }
    if v >= 100 { return String(Int(v.rounded())) }
    if v >= 10 { return String((v * 10).rounded() / 10) }
    return String((v * 100).rounded() / 100)
}
