import ArgumentParser
import LanesCore

/// `lanes swimlanes BOARD [--tag TAG …|--none]`: print or set the board's swimlanes.
struct SwimlanesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swimlanes",
        abstract: "Print or set the board's swimlanes (one lane per tag).",
        discussion: """
            A lane is a tag: a card is in the first lane, in lane order, whose #tag its title carries (case ignored); cards with none are in "No lane". Without options, prints one line per lane: NUMBER<TAB>#TAG<TAB>CARDS, then "No lane" when it has cards. --tag (repeat it; the order given is the lanes' order) sets the lanes; --none removes them. lanes show prints a board with lanes lane by lane.

            The lanes are kept beside the board with its accept rules, in .NAME.lanes (a line swimlanes "frontend" "backend"), so the board file itself is not changed and taskell and Obsidian keep reading it; on a PostgreSQL board they are kept with the board. Setting merges with what others saved meanwhile.
            """
    )

    @Argument(help: "The board file (or PostgreSQL URL).", completion: .file())
    var board: String

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("A lane's tag, with or without # (repeatable; order = lane order).", valueName: "tag"))
    var tag: [String] = []

    @Flag(help: "Remove the swimlanes: the board shows as columns.")
    var none = false

    @OptionGroup var output: FormatOptions

    func validate() throws {
        if none && !tag.isEmpty { throw ValidationError("give either --tag (one or more) or --none") }
        if none || !tag.isEmpty { try output.refuseJSON(with: none ? "--none" : "--tag") }
    }

    func run() throws {
        guard none || !tag.isEmpty else {
            let (b, _) = try BoardLocation.read(board)
            if output.isJSON { return JSONOutput.write(JSONOutput.swimlanes(b, spec: board)) }
            emit(SwimlaneQuery.list(b))
            return
        }
        let lanes = none ? nil : try SwimlaneQuery.lanes(fromOptions: tag)
        let summary = try BoardCommands.edit(
            BoardLocation.storage(board),
            conflicts: { conflicts in
                for c in conflicts { errorLine("lanes: merged with a change made meanwhile: \(c.message)") }
            }
        ) { b in
            try SwimlaneQuery.set(&b, lanes)
        }
        emit(summary + "\n")
    }
}
