import DragKit
import LanesCore

/// The metrics screen over the board: which chart it shows.
///
/// Digits 1… choose a chart, tab/right/l the next, left/h the previous; a click on a chart's
/// name in the top line shows it. Esc (any closing key) or the key that opened it (`M`) closes
/// it, as does a click elsewhere. It changes nothing on the board.
public struct MetricsScreen: Hashable, Sendable {
    public var chart: FlowChartKind = .cfd

    public init(chart: FlowChartKind = .cfd) { self.chart = chart }

    mutating func handle(_ key: Key, _ mods: Modifiers, keymap: Keymap) -> ViewOutcome {
        let all = FlowChartKind.allCases
        let i = all.firstIndex(of: chart) ?? 0
        if case .char(let c) = key, let n = c.wholeNumberValue, (1...all.count).contains(n) {
            chart = all[n - 1]
        } else if key == .tab || key == .right || key == .char("l") {
            chart = all[(i + 1) % all.count]
        } else if key == .left || key == .char("h") {
            chart = all[(i + all.count - 1) % all.count]
        } else if ViewKey(key, mods, keymap: keymap) == .close || keymap.action(for: key, mods) == .metrics {
            return .close
        }
        return .stay
    }

    mutating func handle(_ m: MouseEvent) -> ViewOutcome {
        guard case .press = m.kind else { return .stay }
        guard m.location.y == 0, let chart = MetricsView.chart(atColumn: m.location.x) else { return .close }
        self.chart = chart
        return .stay
    }
}
