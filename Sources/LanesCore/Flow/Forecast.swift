/// SplitMix64 (Steele, Lea and Flood): the forecast's seeded generator, so `--seed` repeats a forecast exactly.
public struct FlowRandom: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A sample index in 0..<count: `next() % count` (the bias, below count/2^64, does not show in 10,000 trials).
    public mutating func index(_ count: Int) -> Int { Int(next() % UInt64(count)) }
}

/// A Monte Carlo forecast over the daily throughput of recent days.
///
/// Each trial draws one past day's throughput (uniformly, with replacement) for every future
/// day. "How many by a day": the sum over the days after today up to that day, where X at c %
/// is the nearest-rank (100 − c)th percentile of the trials' sums (c % of trials finish at least X).
/// "By when N cards": the days until the running sum reaches N, where the day at c % is the
/// nearest-rank cth percentile (c % of trials are done by then). How-many trials run first, then
/// when-trials, from one generator.
public struct Forecast: Hashable, Sendable {
    public static let confidences = [50, 85, 95]
    /// A trial that needs more days than this gives up (the answer is "not within 10 years").
    public static let horizon = 3650

    /// Throughput of each sampled day, oldest first; empty when the history has no whole day before today.
    public var samples: [Int]
    public var firstSampleDay: Int
    public var today: Int
    public var seed: UInt64
    public var trials: Int
    /// The day asked about, and at least how many cards are done by its end at each confidence (nil: no forecast).
    public var byDay: Int
    public var howMany: [Int: Int]?
    /// The cards asked about, and the day by which they are done at each confidence (nil value: beyond the horizon).
    public var cards: Int
    public var when: [Int: Int?]?
    /// Why there is no forecast, in words; nil when there is one.
    public var unavailable: String?

    public static func run(
        samples: [Int], firstSampleDay: Int, today: Int, byDay: Int, cards: Int, seed: UInt64,
        trials: Int
    ) -> Forecast {
        var f = Forecast(
            samples: samples, firstSampleDay: firstSampleDay, today: today, seed: seed, trials: trials,
            byDay: byDay, howMany: nil, cards: cards, when: nil, unavailable: nil)
        guard !samples.isEmpty else {
            f.unavailable = "no whole day of history before today to sample throughput from"
            return f
        }
        guard samples.contains(where: { $0 > 0 }) else {
            f.unavailable = "no card was finished in the \(samples.count) sampled day(s): nothing to extrapolate"
            return f
        }
        var rng = FlowRandom(seed: seed)
        let days = byDay - today
        if days > 0 {
            var sums: [Int] = []
            sums.reserveCapacity(trials)
            for _ in 0..<trials {
                var sum = 0
                for _ in 0..<days { sum += samples[rng.index(samples.count)] }
                sums.append(sum)
            }
            sums.sort()
            var result: [Int: Int] = [:]
            for c in confidences { result[c] = sums[FlowMetrics.nearestRank(100 - c, trials) - 1] }
            f.howMany = result
        }
        if cards > 0 {
            var needed: [Int] = []
            needed.reserveCapacity(trials)
            for _ in 0..<trials {
                var sum = 0, d = 0
                while sum < cards && d <= horizon {
                    d += 1
                    sum += samples[rng.index(samples.count)]
                }
                needed.append(d)
            }
            needed.sort()
            var result: [Int: Int?] = [:]
            for c in confidences {
                let d = needed[FlowMetrics.nearestRank(c, trials) - 1]
                result[c] = d > horizon ? nil : today + d
            }
            f.when = result
        }
        return f
    }
}
