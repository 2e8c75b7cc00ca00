import ArgumentParser
import Foundation
import LanesCore
import LanesTerminal
import LanesPostgres

extension FlowOutput.Format: ExpressibleByArgument {}
extension FlowChartKind: ExpressibleByArgument {}

/// `lanes metrics BOARD`: cycle time, throughput, cumulative flow, aging work and a forecast, from the board's history.
struct Metrics: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Flow metrics from the board's history: cycle time, throughput, cumulative flow, aging, forecast.",
        discussion: """
            The history of a board file is its git history: every commit that changed it along HEAD's first-parent line (a merge counts at the merge), renames followed, uncommitted changes counted at the file's modification time. A PostgreSQL board's history is the server's change record (lanes.history). Cards are matched version to version like lanes merge matches them, so a card moved, edited or renamed stays one card. A commit whose board does not parse is skipped and named in the output. What was read is cached in .git/lanes-cache, so the next run reads only new commits.

            Columns: the first is "not started", the last "done", those between "in progress"; lanes flow changes this. Definitions (README, "Flow metrics"): cycle time of a finished card = last entry into done − first time seen in progress (or done), in days (seconds / 86,400); percentiles by nearest rank; throughput = finished cards per UTC day (on the day they last entered done) and ISO week; cumulative flow = cards in each column at the end of each UTC day; aging = age of each card in progress now against the 50th/85th/95th cycle-time percentiles; forecast = Monte Carlo over the daily throughput of the last 30 whole days (10,000 trials).

            --format json (or --json) keys: schema_version, board, now, since, columns, history, cycle_time_days {count, p50, p85, p95, cards [{title, started, finished, days, seconds, finished_by}]}, finished_by {agents_named, agents {count, p50, p85, p95}, people {…}, unattributed, authors [{author, agent, count, p50, p85, p95}]}, throughput {daily [{date, done}], weekly [{week, done}]}, cfd [{date, counts {column: n}}], aging [{title, column, age_days, started, over}], forecast {trials, seed, sample_days, available, reason, how_many {by, days, at_50, at_85, at_95}, when {cards, at_50, at_85, at_95}} (README, "JSON output": every key always there, null when it has no value). Times are ISO 8601 UTC. --format csv writes the --chart's table (default: cycle); svg draws the --chart (default: cfd).

            Finished by: the author of a finished card's last entry into done (a card finished, reopened and finished again counts for whoever finished it last): a git commit's author (Name <email>, after .mailmap), a PostgreSQL board's role. Agents in git are the authors --agent names; on PostgreSQL, roles the administrator made members of role lanes_agents. An agent working through lanes mcp on a file board commits nothing: its moves are in git under whoever commits them.

            Exit status: 0 done; 1 the file is missing or has no history (said in words, with what gives one); 2 bad input (not a board, a bad --since/--now/--by, a bad option).
            """
    )

    @Argument(help: "The board file, or a PostgreSQL board's URL.", completion: .file())
    var board: String

    @Option(
        help: ArgumentHelp(
            "Only cards finished from then on, and the flow from that day (YYYY-MM-DD or an ISO 8601 time).",
            valueName: "date"))
    var since: String?

    @Option(
        help: ArgumentHelp(
            "The moment to measure at (default: the current time); a bare date is the end of that UTC day.",
            valueName: "time"))
    var now: String?

    @Option(name: .shortAndLong, help: "The output format.")
    var format: FlowOutput.Format = .text

    @Flag(help: "The same as --format json.")
    var json = false

    @Option(help: "One chart (text, svg) or table (csv): cfd, cycle, throughput, aging.")
    var chart: FlowChartKind?

    @Option(help: "The forecast's random seed (the same seed gives the same forecast).")
    var seed: UInt64 = 0

    @Option(help: ArgumentHelp("The forecast's \"how many by\" day (default: 14 days after now).", valueName: "date"))
    var by: String?

    @Option(
        help: ArgumentHelp("The forecast's \"by when\" number of cards (default: every card not done).", valueName: "n")
    )
    var cards: Int?

    @Flag(help: "Read the whole history again instead of using the cache (the cache is left as it was).")
    var noCache = false

    @Option(
        name: .customLong("agent"),
        help: ArgumentHelp(
            "A git author who is an agent: a shell pattern for \"Name <email>\", the name or the email (repeatable). A PostgreSQL server marks its agents itself (members of role lanes_agents).",
            valueName: "pattern"))
    var agents: [String] = []

    @Flag(help: "List each author's finished cards under the agents / people line (JSON always has them).")
    var byAuthor = false

    func validate() throws {
        if json
            && CommandLine.arguments.contains(where: { ["--format", "-f"].contains($0) || $0.hasPrefix("--format=") })
            && format != .json
        {
            throw ValidationError("--json and --format \(format.rawValue) ask for two formats; give one")
        }
    }

    func run() throws {
        let format = json ? FlowOutput.Format.json : format
        let nowTime: FlowTime
        if let now {
            guard let t = FlowDate.parse(now, endOfDay: true) else { throw Metrics.badTime("--now", now) }
            nowTime = t
        } else {
            nowTime = FlowTime(Date().timeIntervalSince1970.rounded(.down))
        }
        var sinceTime: FlowTime?
        if let since {
            guard let t = FlowDate.parse(since) else { throw Metrics.badTime("--since", since) }
            guard t <= nowTime else {
                throw CommandError(.badInput, "--since \(since) is after now (\(FlowDate.iso(nowTime)))")
            }
            sinceTime = t
        }
        var byDay: Int?
        if let by {
            guard let t = FlowDate.parse(by) else { throw Metrics.badTime("--by", by) }
            byDay = FlowDate.day(of: t)
            guard byDay! > FlowDate.day(of: nowTime) else {
                throw CommandError(
                    .badInput,
                    "--by \(by) is not after today (\(FlowDate.date(FlowDate.day(of: nowTime)))): the forecast looks ahead"
                )
            }
        }
        if let cards, cards < 1 { throw CommandError(.badInput, "--cards must be 1 or more, not \(cards)") }
        if !agents.isEmpty && BoardLocation.isURL(board) {
            throw CommandError(
                .badInput,
                "--agent names agents among a git history's authors; a PostgreSQL server says who its agents are (members of role lanes_agents, which an administrator grants)"
            )
        }
        if let empty = agents.first(where: { $0.isEmpty }) {
            throw CommandError(.badInput, "--agent \"\(empty)\" names nobody: give a name, an email or a pattern")
        }
        let history: FlowHistory, setting: FlowColumns
        do {
            if BoardLocation.isURL(board) {
                (history, setting) = try PostgresCLI.reporting {
                    try PostgresFlowHistory.read(url: board, now: nowTime)
                }
            } else {
                (history, setting) = try FlowBoard.readFile(board, useCache: !noCache)
            }
        } catch let e as NoHistory {
            throw CommandError(.notFound, e.message)
        }
        let report = FlowMetrics.compute(
            history,
            options: FlowOptions(
                columns: setting, since: sinceTime, now: nowTime,
                forecastDay: byDay, forecastCards: cards, seed: seed,
                agents: history.agents ?? FlowAgents(patterns: agents)))
        let name =
            BoardLocation.isURL(board)
            ? ((try? PostgresURL(board))?.board ?? board) : URL(fileURLWithPath: board).lastPathComponent
        let input = FlowOutput.Input(board: name, history: history, report: report)
        switch format {
        case .json: JSONOutput.write(JSONOutput.metrics(FlowOutput.json(input)))
        case .csv: outputDocument(FlowOutput.csv(input, chart: chart))
        case .svg: outputDocument(FlowOutput.svg(input, chart: chart))
        case .text:
            let tty = isatty(STDOUT_FILENO) != 0
            let colour = tty && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            let text = FlowOutput.text(
                input, chart: chart, width: Metrics.width(tty: tty), colour: colour, byAuthor: byAuthor)
            // The text is already made safe (card text escaped); colour sequences are ours.
            FileHandle.standardOutput.write(Data(text.utf8))
        }
    }

    static func badTime(_ option: String, _ value: String) -> CommandError {
        CommandError(
            .badInput,
            "\(option) \"\(value)\" is not a date or time: write YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS] with Z or ±HH:MM (no zone: UTC)"
        )
    }

    /// The terminal's width (80 when not a terminal; COLUMNS wins when set).
    static func width(tty: Bool) -> Int {
        if let c = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), c >= 40 { return min(c, 200) }
        guard tty else { return 80 }
        let width = terminalWindowSize().width
        return width >= 40 ? min(width, 200) : 80
    }
}

/// `lanes flow BOARD --started COLUMN --done COLUMN`: which columns the flow metrics count as started and done.
struct Flow: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print or set which columns count as started and done for lanes metrics.",
        discussion: """
            Without options, prints what each column means. --started COLUMN: that column and those right of it up to done are in progress; --done COLUMN: that column and those right of it are done; --default: back to the default (the first column is not started, the last is done, every column between is in progress). Columns are found like lanes move finds them: number, title, or the unique start of a title.

            The setting is stored beside the board in .NAME.lanes with the accept rules, as a line flow started "Doing" done "Done"; a column renamed in Lanes keeps its meaning. Setting merges with what others saved meanwhile.
            """
    )

    @Argument(help: "The board file.", completion: .file())
    var board: String

    @Option(
        help: ArgumentHelp("The first column of work in progress.", valueName: "column"),
        completion: .custom(Completions.columnNames))
    var started: String?

    @Option(
        help: ArgumentHelp("The first column of finished work.", valueName: "column"),
        completion: .custom(Completions.columnNames))
    var done: String?

    @Flag(name: .customLong("default"), help: "Remove the setting: first column not started, last done.")
    var useDefault = false

    @OptionGroup var output: FormatOptions

    func validate() throws {
        if useDefault && (started != nil || done != nil) {
            throw ValidationError("--default goes alone, without --started or --done")
        }
        if started != nil || done != nil || useDefault {
            try output.refuseJSON(with: useDefault ? "--default" : started != nil ? "--started" : "--done")
        }
    }

    func run() throws {
        if started == nil && done == nil && !useDefault {
            let (b, _) = try BoardLocation.read(board)
            if output.isJSON { return JSONOutput.write(JSONOutput.flow(b, spec: board)) }
            emit(Flow.describe(b))
            return
        }
        let summary = try BoardCommands.edit(
            BoardLocation.storage(board),
            conflicts: { cs in
                for c in cs { errorLine("lanes: merged with a change made meanwhile: \(c.message)") }
            }
        ) { (b: inout Board) throws -> String in
            // The door holds the rule (started left of done) and its words.
            var setting = useDefault ? FlowColumns() : b.acceptRules.flow
            if let started { setting.started = b.columns[try BoardQuery.column(started, in: b)].title }
            if let done { setting.done = b.columns[try BoardQuery.column(done, in: b)].title }
            try BoardCommands.door(&b, .setFlow(setting))
            return Flow.describe(b)
        }
        emit(summary)
    }

    static func stages(_ b: Board, _ setting: FlowColumns) -> [FlowStage] {
        FlowMetrics.columnStages(titles: b.columns.map(\.title), setting: setting)
    }

    static func describe(_ b: Board) -> String {
        let stages = Flow.stages(b, b.acceptRules.flow)
        var out = ""
        for stage in [FlowStage.notStarted, .inProgress, .done] {
            let names = zip(b.columns, stages).filter { $1 == stage }.map { "\"\($0.0.title)\"" }
            out += "\(stage.name): \(names.isEmpty ? "(none)" : names.joined(separator: ", "))\n"
        }
        return out
    }
}
