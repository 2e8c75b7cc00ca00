import DragKit
import LanesCore

/// The board's history as the app has it: read by the runner when the app asks (`wantsFlow`).
struct FlowState: Sendable {
    var history: FlowHistory?
    var setting = FlowColumns()
    var report: FlowReport?
    /// Why there is no history, in words.
    var problem: String?
    /// The board revision the history was read at (-1: not read); `M` reads it again when the board changed.
    var revision = -1
    /// The history's key of each card on the board (for the card detail).
    var keys: [CardID: Int] = [:]
    var keysRevision = -1
    /// The runner was asked and has not answered yet.
    var asked = false
    /// When the last read failed (seconds since 1970): a board with no history is not asked again for 10 s.
    var failedAt: Int64?

    /// What the metrics view shows.
    var view: MetricsView.Content {
        if let problem { return .problem(problem) }
        guard let history, let report else { return .loading }
        return .report(history, report)
    }
}

extension BoardApp {
    /// Whether the runner should read the board's history now (the metrics view or a card's detail
    /// is open and the history is missing or older than the board); `now` in seconds since 1970.
    public func wantsFlow(now: Int64) -> Bool {
        guard !flow.asked else { return false }
        if let failed = flow.failedAt, now - failed < 10 { return false }
        switch mode {
        case .metrics: return flow.revision != revision
        // The detail reads once (a change made in the detail does not wait for the history).
        case .detail: return flow.revision == -1
        default: return false
        }
    }

    /// The runner's answer: the history and flow setting, or why there is none; `now` in seconds since 1970 (UTC).
    public mutating func receiveFlow(_ result: Result<(FlowHistory, FlowColumns), any Error>, now: Int64) {
        flow.asked = false
        flow.revision = revision
        switch result {
        case .success(let (history, setting)):
            flow.history = history
            flow.setting = setting
            flow.problem = nil
            flow.report = FlowBoard.report(history, setting: setting, now: now)
            flow.keysRevision = -1
            flow.failedAt = nil
        case .failure(let error):
            flow.failedAt = now
            flow.history = nil
            flow.report = nil
            flow.problem = "\(error)"
        }
    }

    /// The runner is reading the history (so `wantsFlow` does not ask twice).
    public mutating func flowRequested() { flow.asked = true }

    /// The card detail's "Age" lines: age and time in each column, or why they are missing.
    func flowLines(for id: CardID) -> [String]? {
        if let problem = flow.problem {
            // The first sentence: "board.md is not in a git repository, so it has no history to read".
            let end = problem.range(of: ". ")?.lowerBound ?? problem.range(of: ": ")?.lowerBound ?? problem.endIndex
            return ["— (" + problem[..<end] + ")"]
        }
        guard let history = flow.history, let report = flow.report else { return ["(reading the board's history)"] }
        let keys = flow.keysRevision == revision ? flow.keys : history.cardKeys(matching: board)
        guard let key = keys[id], let card = report.cards[key] else {
            return ["— (not in the history yet: new since the last version)"]
        }
        let now = report.options.now
        var lines = [
            "\(MetricsView.days(now - card.appeared)) days (since \(FlowDate.date(FlowDate.day(of: card.appeared))))"
        ]
        if let started = card.started { lines[0] += " · started \(MetricsView.days(now - started)) days ago" }
        lines.append(card.timeIn.map { "\($0.column) \(MetricsView.days($0.seconds)) d" }.joined(separator: " · "))
        return lines
    }
}
