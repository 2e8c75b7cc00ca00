#if canImport(Glibc)
    import Glibc
#endif

/// What the tests and the benchmarks share; no product module depends on it.
public enum ThreadCPU {
    /// The CPU time this thread has spent so far, in seconds: what other processes do does not count.
    public static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// The CPU time this thread spends in `body`, in seconds.
    public static func seconds(_ body: () throws -> Void) rethrows -> Double {
        let start = now()
        try body()
        return now() - start
    }
}
