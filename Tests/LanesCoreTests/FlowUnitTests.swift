import Testing
@testable import LanesCore

/// The pieces of flow metrics with exact answers: dates, weeks, percentiles, the forecast.
@Suite("Flow: dates, percentiles and the forecast")
struct FlowUnitTests {
    @Test(
        "ISO 8601 dates and times, read and written",
        arguments: [
            ("2026-11-25", 1_795_564_800 as FlowTime),
            ("2026-11-25T16:56:13Z", 1_795_625_773),
            ("2026-11-25T16:56Z", 1_795_625_760),
            ("2026-11-25 18:56:13+02:00", 1_795_625_773),
            ("2026-11-25T11:26:13-05:30", 1_795_625_773),
            ("2024-02-29", 1_709_164_800),
            ("1969-12-31T23:59:59Z", -1),
        ])
    func parse(text: String, time: FlowTime) {
        #expect(FlowDate.parse(text) == time)
    }

    @Test(
        "refused dates",
        arguments: [
            "", "yesterday", "2026-13-01", "2026-02-29", "2025-11-31", "2026-11-25T24:00Z",
            "2026-11-25T10:60Z", "2026-11-25T10:00:00+2", "2026/11/25", "2026-11-25Tx", "2026-11-25T10:00:00Zjunk",
        ])
    func refused(text: String) {
        #expect(FlowDate.parse(text) == nil)
    }

    @Test("a bare date as the end of its day; ISO text back")
    func endOfDay() {
        #expect(FlowDate.parse("2026-11-25", endOfDay: true) == 1_795_651_199)
        #expect(FlowDate.iso(1_795_625_773) == "2026-11-25T16:56:13Z")
        #expect(FlowDate.iso(-1) == "1969-12-31T23:59:59Z")
        #expect(FlowDate.date(FlowDate.day(of: -1)) == "1969-12-31")
    }

    @Test(
        "ISO weeks, across year ends",
        arguments: [
            ("2026-11-25", "2026-W48"), ("2021-01-03", "2020-W53"), ("2021-01-04", "2021-W01"),
            ("2024-12-30", "2025-W01"),
            ("2026-01-01", "2026-W01"), ("2027-01-01", "2026-W53"), ("2010-01-03", "2009-W53"),
        ])
    func weeks(date: String, week: String) {
        #expect(FlowDate.week(FlowDate.day(of: FlowDate.parse(date)!)) == week)
    }

    @Test("civil dates round-trip over four centuries")
    func civil() {
        for day in stride(from: -150_000, to: 150_000, by: 37) {
            let (y, m, d) = FlowDate.civil(day)
            #expect(FlowDate.days(year: y, month: m, day: d) == day)
        }
    }

    @Test("nearest-rank percentiles")
    func percentiles() {
        #expect(FlowMetrics.nearestRank(50, 1) == 1)
        #expect(FlowMetrics.nearestRank(85, 20) == 17)
        #expect(FlowMetrics.nearestRank(95, 20) == 19)
        #expect(FlowMetrics.nearestRank(50, 10) == 5)
        let p = FlowMetrics.percentiles([15, 20, 35, 40, 50])
        #expect(p.p50 == 35 && p.p85 == 50 && p.p95 == 50 && p.count == 5)
        #expect(FlowMetrics.percentiles([]).p50 == nil)
    }

    @Test("a constant throughput forecasts exactly")
    func constant() {
        let f = Forecast.run(
            samples: [2, 2, 2], firstSampleDay: 100, today: 103, byDay: 113, cards: 7, seed: 5, trials: 10_000)
        #expect(f.howMany == [50: 20, 85: 20, 95: 20])
        #expect(f.when == [50: 107, 85: 107, 95: 107])
    }

    @Test("no sample days, or no card finished in them: no forecast, in words")
    func unavailable() {
        #expect(
            Forecast.run(samples: [], firstSampleDay: 0, today: 0, byDay: 14, cards: 3, seed: 0, trials: 100)
                .unavailable != nil)
        let zero = Forecast.run(
            samples: [0, 0], firstSampleDay: 0, today: 2, byDay: 16, cards: 3, seed: 0, trials: 100)
        #expect(zero.unavailable?.contains("no card was finished") == true)
        #expect(zero.howMany == nil && zero.when == nil)
    }

    @Test("the same seed repeats a forecast; the forecast is close to the exact distribution")
    func seeded() {
        let samples = [0, 1, 0, 3, 1, 0, 2]
        let a = Forecast.run(
            samples: samples, firstSampleDay: 0, today: 7, byDay: 17, cards: 12, seed: 99, trials: 10_000)
        let b = Forecast.run(
            samples: samples, firstSampleDay: 0, today: 7, byDay: 17, cards: 12, seed: 99, trials: 10_000)
        #expect(a == b)
        // The exact distribution of the sum of 10 draws, by convolution.
        var dist = [1.0]
        for _ in 0..<10 {
            var next = [Double](repeating: 0, count: dist.count + 3)
            for (s, p) in dist.enumerated() where p > 0 {
                for v in samples { next[s + v] += p / Double(samples.count) }
            }
            dist = next
        }
        func atLeast(_ x: Int) -> Double { dist[x...].reduce(0, +) }
        for c in [50, 85, 95] {
            let x = a.howMany![c]!
            // c % of trials reach x: the exact chance of at least x is about c % or more, of at least x + 1 below it.
            #expect(atLeast(x) >= Double(c) / 100 - 0.02)
            #expect(atLeast(x + 1) <= Double(c) / 100 + 0.02)
        }
    }
}
