/// A board's history and flow setting, ready for `FlowMetrics`: what the command and the app both read.
public enum FlowBoard {
    /// The git history of a board file and the flow setting from its settings file (`.NAME.lanes`).
    public static func readFile(_ path: String, useCache: Bool = true) throws -> (
        history: FlowHistory, setting: FlowColumns
    ) {
        let history = try GitHistory.read(board: path, useCache: useCache)
        let setting = try SettingsSidecar.read(SettingsSidecar.path(forBoard: path)).rules.flow
        return (history, setting)
    }

    /// The metrics of a history under a setting, with the default forecast questions; agents are
    /// the ones the history's server marks (a git history names none: the command's `--agent` does).
    public static func report(
        _ history: FlowHistory, setting: FlowColumns, now: FlowTime, since: FlowTime? = nil,
        seed: UInt64 = 0
    ) -> FlowReport {
        FlowMetrics.compute(
            history,
            options: FlowOptions(
                columns: setting, since: since, now: now, seed: seed, agents: history.agents ?? FlowAgents()))
    }
}
