import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The metrics screen as a value: which chart exact keys and clicks show, and what closes it.
@Suite struct MetricsModeTests {
    let keymap = Keymap()
    let all = FlowChartKind.allCases

    @Test func digitsChooseAChartAndOthersAreNotCharts() {
        #expect(all.count >= 3, "the tests below cycle through several charts")
        for (i, chart) in all.enumerated() {
            var s = MetricsScreen()
            #expect(s.handle(.char(Character(String(i + 1))), [], keymap: keymap) == .stay)
            #expect(s == MetricsScreen(chart: chart))
        }
        var s = MetricsScreen(chart: all[1])
        #expect(s.handle(.char("0"), [], keymap: keymap) == .stay)
        #expect(s.handle(.char(Character(String(all.count + 1))), [], keymap: keymap) == .stay)
        #expect(s == MetricsScreen(chart: all[1]))
    }

    @Test func tabRightAndLStepForwardLeftAndHBackAroundTheEnds() {
        var s = MetricsScreen()
        #expect(s.chart == all[0])
        for key in [Key.tab, .right, .char("l")] {
            #expect(s.handle(key, [], keymap: keymap) == .stay)
        }
        #expect(s.chart == all[3 % all.count])
        s = MetricsScreen(chart: all[0])
        #expect(s.handle(.left, [], keymap: keymap) == .stay)
        #expect(s.chart == all[all.count - 1], "left from the first is the last")
        #expect(s.handle(.char("h"), [], keymap: keymap) == .stay)
        #expect(s.chart == all[all.count - 2])
        s = MetricsScreen(chart: all[all.count - 1])
        #expect(s.handle(.tab, [], keymap: keymap) == .stay)
        #expect(s.chart == all[0], "tab from the last is the first")
    }

    @Test func escQAndTheKeyThatOpenedItClose() {
        for key in [Key.escape, .char("q"), .char("M"), .enter] {
            var s = MetricsScreen(chart: all[2])
            #expect(s.handle(key, [], keymap: keymap) == .close, "\(key)")
            #expect(s == MetricsScreen(chart: all[2]))
        }
        var s = MetricsScreen(chart: all[2])
        #expect(s.handle(.char("x"), [], keymap: keymap) == .stay)
        #expect(s == MetricsScreen(chart: all[2]))
    }

    @Test func aClickOnAChartsNameShowsItElsewhereCloses() {
        for tab in MetricsView.tabs() {
            var s = MetricsScreen()
            #expect(s.handle(MouseEvent(.press, .left, x: tab.x, y: 0)) == .stay)
            #expect(s == MetricsScreen(chart: tab.chart))
        }
        var s = MetricsScreen(chart: all[1])
        #expect(s.handle(MouseEvent(.press, .left, x: 0, y: 0)) == .close, "the cell before the first tab")
        #expect(s.handle(MouseEvent(.press, .left, x: MetricsView.tabs()[0].x, y: 3)) == .close, "below the top line")
        #expect(s.handle(MouseEvent(.wheelDown, .none, x: 2, y: 3)) == .stay)
        #expect(s == MetricsScreen(chart: all[1]))
    }
}
