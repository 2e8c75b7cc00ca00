// The options of lanes-bench, read by swift-argument-parser as `lanes` reads its own:
// a mistyped flag is an error and `--help` lists them all.
import ArgumentParser
import DragKit

/// Every option of `lanes-bench`; a benchmark in a file of its own adds its options here.
struct BenchOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lanes-bench",
        abstract: "The benchmarks of `make bench` (run them from a release build).",
        discussion: """
            With no mode, runs every phase at every size and writes the figures to --json.
            Modes (each runs alone): --write-board, --rss, --memory-probe, --drop-probe, --flow, --pg-load, --pg-history, --pg-team.
            """)

    // MARK: The benchmark

    @Option(help: "Board sizes to measure, comma-separated.")
    var sizes: String = "1000,10000,100000"
    @Option(help: "Measure only this size (with --rss: the size of --board).")
    var only: Int?
    @Option(help: "Motion events per scripted drag.")
    var motions: Int = 3000
    @Option(help: "Where the figures go (merged into an existing file).")
    var json: String = "bench-results.json"
    @Option(help: "Screen size WxH (default: 120x40 and 80x24; --write-board: 120x40).")
    var screen: String?
    @Option(help: "Phases to run, comma-separated: parse,launch,drag,pty,save,rss,text,shapes.")
    var phases: String = "parse,launch,drag,pty,save,rss,text,shapes"
    @Flag(name: .customLong("no-parse"), help: "Skip the parse phase.") var noParse = false
    @Flag(name: .customLong("no-launch"), help: "Skip launch to first frame.") var noLaunch = false
    @Flag(name: .customLong("no-drag"), help: "Skip the scripted drags.") var noDrag = false
    @Flag(name: .customLong("no-pty"), help: "Skip the curses bytes on a pty.") var noPty = false
    @Flag(name: .customLong("no-save"), help: "Skip the saves.") var noSave = false
    @Flag(name: .customLong("no-rss"), help: "Skip peak RSS in a process of its own.") var noRss = false
    @Flag(name: .customLong("no-text"), help: "Skip long text in the line editor.") var noText = false
    @Flag(name: .customLong("no-shapes"), help: "Skip parsing by shape.") var noShapes = false
    @Flag(name: .customLong("no-merge"), help: "Skip the merge benchmark.") var noMerge = false
    @Flag(name: .customLong("no-flow"), help: "Skip the flow metrics benchmark.") var noFlow = false
    @Option(name: .customLong("dump-frames"), help: "Print this many drag frames' bytes to stderr.")
    var dumpFrames: Int = 0

    // MARK: Modes

    @Option(
        name: .customLong("write-board"),
        help: ArgumentHelp(
            "Write an N-card board to FILE and print the title lines of the last card fully shown on its first screen.",
            valueName: "N"))
    var writeBoard: Int?
    @Argument(help: ArgumentHelp("The file --write-board writes.", valueName: "FILE"))
    var writeBoardFile: String?
    @Option(help: "Screen size WxH for --write-board.")
    var size: String?
    @Flag(help: "--write-board: 4 columns, a one-line description a card (the 1M-card shape).")
    var lean = false
    @Flag(help: "--write-board: then print \"GEOMETRY x0 y0 x1 y1 COL0 COL1\".")
    var geometry = false

    @Flag(help: "Peak RSS of one size (--only N, --board FILE), in a process of its own.")
    var rss = false
    @Option(help: "The board file --rss opens.")
    var board: String?

    @Option(
        name: .customLong("memory-probe"),
        help: ArgumentHelp("Where a launch's memory goes, step by step.", valueName: "FILE"))
    var memoryProbe: String?
    @Flag(name: .customLong("drop-bytes"), help: "--memory-probe: note that the bytes are kept until the end.")
    var dropBytes = false
    @Option(
        name: .customLong("drop-probe"),
        help: ArgumentHelp("What a drop costs, piece by piece, on an N-card board.", valueName: "N"))
    var dropProbe: Int?

    @Flag(
        name: .customLong("json-bench"),
        help: "Lanes' JSON writer and reader against Foundation's, on an export of --only N cards (default 100,000).")
    var jsonBench = false

    @Flag(
        help:
            "lanes mcp: a tool call's round trip over stdio (read_board, move_card), median of 21, on a board of --only N cards (default 10,000)."
    )
    var mcp = false
    @Option(
        name: .customLong("lanes"),
        help: ArgumentHelp("The lanes binary --mcp starts (default: the one beside lanes-bench).", valueName: "path"))
    var lanesBinary: String?

    @Flag(help: "Flow metrics alone: 10,000 commits of a 1,000-card board.")
    var flow = false
    @Flag(name: .customLong("flow-check"), help: "--flow: also read every version whole and compare the events.")
    var flowCheck = false
    @Option(
        name: .customLong("flow-mix"),
        help: "--flow: the history's mix of changes, standard, edits (rich in title edits) or both.")
    var flowMix: String = "both"
    @Flag(
        name: .customLong("pg-flow"),
        help: "Flow metrics of a PostgreSQL board with many history rows (through scripts/pg-test-cluster with).")
    var pgFlow = false
    @Option(name: .customLong("pg-flow-rows")) var pgFlowRows: Int = 1_000_000
    @Option(name: .customLong("pg-flow-cards")) var pgFlowCards: Int = 1_000
    @Option(
        name: .customLong("pg-flow-board"), help: "--pg-flow: this board, made on first use and kept (for profiling).")
    var pgFlowBoard: String?
    @Flag(
        name: .customLong("pg-fold"),
        help:
            "What the flow aggregates cost a write: many rows per card in one statement, 500 moves in one transaction.")
    var pgFold = false
    @Flag(name: .customLong("pg-fold-big"), help: "--pg-fold: also 1,000 cards × 1,000 rows in one statement.")
    var pgFoldBig = false

    @Flag(name: .customLong("pg-load"), help: "Many clients moving cards on one PostgreSQL board (then --pg-history).")
    var pgLoad = false
    @Option(name: .customLong("pg-clients")) var pgClients: Int = 20
    @Option(name: .customLong("pg-seconds")) var pgSeconds: Double = 60
    @Option(name: .customLong("pg-moves")) var pgMoves: Int = 20_000
    @Option(name: .customLong("pg-cards")) var pgCards: Int = 10_000
    @Flag(
        name: .customLong("pg-team"),
        help: "Hundreds of screens that also write, on one board or many (#43; scripts/bench-team runs it).")
    var pgTeam = false
    @Option(name: .customLong("team-clients")) var teamClients: Int = 200
    @Option(name: .customLong("team-boards")) var teamBoards: Int = 1
    @Option(name: .customLong("team-seconds")) var teamSeconds: Double = 30
    @Option(name: .customLong("team-think"), help: "--pg-team: seconds between one client's changes, on average.")
    var teamThink: Double = 2
    @Option(name: .customLong("team-cards")) var teamCards: Int = 500
    @Option(name: .customLong("team-pooler"), help: "--pg-team: through the PgBouncer on this port of 127.0.0.1.")
    var teamPooler: String?
    @Option(
        name: .customLong("team-failover"),
        help:
            "--pg-team: after this many seconds stop the primary and promote its standby (LANES_PG_STANDBY_PORT, LANES_TEAM_STOP_PRIMARY, LANES_TEAM_PROMOTE; scripts/bench-team --failover)."
    )
    var teamFailover: Double?
    @Option(name: .customLong("team-failover-gap"), help: "--team-failover: seconds from the stop to the promotion.")
    var teamFailoverGap: Double = 1
    @Flag(name: .customLong("pg-history"), help: "The PostgreSQL history benchmark alone.")
    var pgHistory = false
    @Option(name: .customLong("pg-history-cards")) var pgHistoryCards: Int = 100_000
    @Option(name: .customLong("pg-history-changes")) var pgHistoryChanges: Int = 1_000

    @Flag(help: "The swimlane benchmark alone: a board of 8 columns × 10 lanes, open, switch the view, drag.")
    var swimlanes = false
    @Option(name: .customLong("cards"), help: "--swimlanes: how many cards.") var laneCards: Int = 10_000

    @Flag(help: "The workspace benchmark alone: open N boards of M cards, switch between them.")
    var workspace = false
    @Option(name: .customLong("ws-boards")) var wsBoards: Int = 20
    @Option(name: .customLong("ws-cards")) var wsCards: Int = 1_000

    func validate() throws {
        if writeBoardFile != nil && writeBoard == nil {
            throw ValidationError("a FILE argument is only for --write-board N FILE")
        }
        if writeBoard != nil && writeBoardFile == nil {
            throw ValidationError("--write-board N needs the FILE to write")
        }
        for (name, value) in [("--screen", screen), ("--size", size)] {
            if let v = value, parseSize(v) == nil { throw ValidationError("\(name) \(v): expected WxH, e.g. 120x40") }
        }
        let known: Set<String> = ["parse", "launch", "drag", "pty", "save", "rss", "text", "shapes"]
        for p in phases.split(separator: ",") where !known.contains(String(p)) {
            throw ValidationError("--phases: unknown phase \(p) (known: \(known.sorted().joined(separator: ",")))")
        }
        if FlowBench.mixes(flowMix) == nil {
            throw ValidationError("--flow-mix \(flowMix): expected standard, edits or both")
        }
        for s in sizes.split(separator: ",") where Int(s) == nil {
            throw ValidationError("--sizes: \(s) is not a number")
        }
    }

    /// Whether a phase runs: named in --phases and not skipped by --no-PHASE.
    func on(_ phase: String) -> Bool {
        let skipped =
            [
                "parse": noParse, "launch": noLaunch, "drag": noDrag, "pty": noPty, "save": noSave,
                "rss": noRss, "text": noText, "shapes": noShapes,
            ][phase] ?? false
        return phases.split(separator: ",").contains(Substring(phase)) && !skipped
    }

    /// The board sizes to run: --only, or --sizes.
    var sizeList: [Int] { only.map { [$0] } ?? sizes.split(separator: ",").compactMap { Int($0) } }
}

/// The size WxH, or nil.
func parseSize(_ s: String) -> Size? {
    let p = s.split(separator: "x").compactMap { Int($0) }
    return p.count == 2 ? Size(width: p[0], height: p[1]) : nil
}
