import ArgumentParser
import Foundation
import LanesCore

/// Collisions with what someone else saved meanwhile, resolved by the merge rule: said on stderr.
private func reportConflicts(_ conflicts: [BoardConflict]) {
    for c in conflicts { errorLine("lanes: merged with a change made meanwhile: \(c.message)") }
}

struct Show: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a board's columns and cards as plain text.",
        discussion: """
            Cards are numbered 1, 2, 3, … in file order, column by column. A board with swimlanes (see lanes swimlanes) is printed lane by lane, each lane column by column, with the same numbers. Other commands accept these numbers as card ids; they change when cards are added or moved before them. Works while the board is open in Lanes.
            """
    )

    @Argument(help: "The board file.", completion: .file())
    var board: String

    @Flag(name: .shortAndLong, help: "Also print each card's description and sub-tasks.")
    var details = false

    @OptionGroup var output: FormatOptions

    func run() throws {
        let (b, info) = try BoardLocation.read(board)
        if output.isJSON {
            // Descriptions and sub-tasks are always there: one shape, with or without --details.
            return JSONOutput.write(JSONOutput.show(b, info: info, spec: board))
        }
        if let lanes = b.acceptRules.swimlanes {
            emit(SwimlaneQuery.show(b, lanes: lanes, info: info, details: details))
        } else {
            emit(BoardCommands.show(b, info: info, details: details))
        }
    }
}

struct Columns: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a board's columns.",
        discussion:
            "One line per column: NUMBER<TAB>TITLE<TAB>CARDS, CARDS written 3/5 when the column has a WIP limit of 5."
    )

    @Argument(help: "The board file.", completion: .file())
    var board: String

    @OptionGroup var output: FormatOptions

    func run() throws {
        let (b, _) = try BoardLocation.read(board)
        if output.isJSON { return JSONOutput.write(JSONOutput.columns(b, spec: board)) }
        emit(BoardCommands.columns(b))
    }
}

struct Add: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add a card to a column (at the end, or at the top with --top).",
        discussion: """
            COLUMN is the column's number (see lanes columns), its title, or the unique start of its title (case ignored). Prints the new card's number. What others saved meanwhile is merged, never overwritten; the file keeps its dialect.
            """
    )

    @Argument(help: "The board file.", completion: .file())
    var board: String

    @Option(name: .shortAndLong, help: "The column to add to.", completion: .custom(Completions.columnNames))
    var column: String

    @Argument(help: "The card's title.")
    var title: String

    @Flag(help: "Put the card first in the column.")
    var top = false

    @Flag(help: "Add even when the column is at its WIP limit.")
    var force = false

    func run() throws {
        let placed = try BoardCommands.edit(BoardLocation.storage(board), conflicts: reportConflicts) { b in
            try BoardCommands.add(&b, column: column, title: title, top: top, force: force)
        }
        emit("Added card \(placed.number) to \"\(placed.column)\" at position \(placed.position).\n")
    }
}

struct Move: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Move a card to a column, at the end or at a position.",
        discussion: """
            CARD is the card's number as lanes show prints it, its exact title, or the unique start of its title (case ignored); a number that is also another card's exact title is ambiguous. COLUMN is matched the same way against column numbers and titles. --position counts from 1 in the target column, not counting the card itself. A move into another column is refused (exit status 2) when that column is full or its accept rule (see lanes rules) does not name the card's column. What others saved meanwhile is merged, never overwritten; the file keeps its dialect.
            """
    )

    @Argument(help: "The board file.", completion: .file())
    var board: String

    @Argument(
        help: "The card to move: number, title, or start of title (several, with --to-board, move together).",
        completion: .custom(Completions.cardTitles))
    var cards: [String] = []
    var card: String { cards[0] }

    @Option(
        name: .shortAndLong, help: ArgumentHelp("The column to move the card to.", valueName: "column"),
        completion: .custom(Completions.columnNames))
    var to: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("1-based position in the column (default: the end).", valueName: "n"))
    var position: Int?

    @Flag(
        help: "Move even when the target column is at its WIP limit or its accept rule does not name the card's column."
    )
    var force = false

    @Option(
        help: ArgumentHelp(
            "Move the card to this other board (a file or a postgresql:// URL), into its column --to. Crash-safe: a move cut short is finished or rolled back by the next lanes command on either board.",
            valueName: "board"))
    var toBoard: String?

    func run() throws {
        guard !cards.isEmpty else {
            throw CommandError(.badInput, "name the card to move: lanes move BOARD CARD --to COLUMN")
        }
        if let toBoard {
            return try CrossBoardCommand.run(
                board: board, cards: cards, toBoard: toBoard, column: to, position: position, force: force)
        }
        guard cards.count == 1 else {
            throw CommandError(
                .badInput,
                "several cards move together only to another board (--to-board); inside a board, move them one at a time"
            )
        }
        let placed = try BoardCommands.edit(BoardLocation.storage(board), conflicts: reportConflicts) { b in
            try BoardCommands.move(&b, card: card, to: to, position: position, force: force)
        }
        if placed.changed {
            emit(
                "Moved \"\(placed.title)\" to \"\(placed.column)\" at position \(placed.position) (now card \(placed.number)).\n"
            )
        } else {
            emit(
                "\"\(placed.title)\" already is at position \(placed.position) of \"\(placed.column)\"; nothing changed.\n"
            )
        }
    }
}

struct Rules: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print or set which columns each column accepts cards from.",
        discussion: """
            Without options, prints the board's accept rules, one line each in the syntax of the rules file (accept "Done" from "Review" "Doing"), then a comment for every name that matches no column. With --column, sets that column's rule: the --from columns (repeat the option) or, with --any, no rule at all (the column accepts from every column). Columns are found like lanes move finds them: number, title, or the unique start of a title.

            The rules live beside the board in .NAME.lanes (for board.md: .board.md.lanes), so taskell and Obsidian keep reading the board itself. A column without a rule accepts cards from every column; moving a card inside its own column is always allowed. lanes move refuses a move the rules forbid (exit status 2) unless --force; lanes add is never refused by a rule. Setting merges with what others saved meanwhile.
            """
    )

    @Argument(help: "The board file.", completion: .file())
    var board: String

    @Option(
        name: .shortAndLong, help: ArgumentHelp("The column whose rule to set.", valueName: "column"),
        completion: .custom(Completions.columnNames))
    var column: String?

    @Option(
        name: .shortAndLong, help: ArgumentHelp("A column it accepts cards from (repeatable).", valueName: "column"),
        completion: .custom(Completions.columnNames))
    var from: [String] = []

    @Flag(help: "Remove the column's rule: it accepts cards from every column.")
    var any = false

    @OptionGroup var output: FormatOptions

    func validate() throws {
        if column == nil && (any || !from.isEmpty) { throw ValidationError("--from and --any need --column") }
        if column != nil && any == !from.isEmpty {
            throw ValidationError("give --column with either --from (one or more) or --any")
        }
        if column != nil { try output.refuseJSON(with: "--column") }
    }

    func run() throws {
        guard let column else {
            let (b, _) = try BoardLocation.read(board)
            if output.isJSON { return JSONOutput.write(JSONOutput.rules(b, spec: board)) }
            emit(BoardCommands.rules(b))
            return
        }
        let summary = try BoardCommands.edit(BoardLocation.storage(board), conflicts: reportConflicts) { b in
            try BoardCommands.setRule(&b, column: column, from: any ? [] : from)
        }
        say(summary + "\n")
    }
}

extension BoardExport.Format: ExpressibleByArgument {}

struct Export: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write a board to stdout as JSON or Markdown.",
        discussion: """
            json: {"version": 1, "dialect", "columns": [{"number", "title", "wipLimit", "cards": [{"id", "title", "done", "due", "dueDate", "tags", "description", "subtasks": [{"title", "done"}]}]}]}. id is the card number as lanes show prints it; due is as written in the file, dueDate is YYYY-MM-DD when due reads as a date (else null); description is one string with \\n between lines; every key is always present, in this order.

            markdown: the board in its own dialect, as saved.

            taskell, obsidian: the board converted to that dialect (Obsidian's done marks have no taskell form and are dropped).
            """
    )

    @Argument(help: "The board file.", completion: .file())
    var board: String

    @Option(name: .shortAndLong, help: "The output format.")
    var format: BoardExport.Format = .json

    func run() throws {
        let (b, info) = try BoardLocation.read(board)
        outputDocument(BoardExport.text(b, info: info, format: format))
    }
}

struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a board from another tool's file.",
        subcommands: [Trello.self]
    )

    /// `lanes import` alone names no format: a usage error (exit status 2), not help with status 0.
    func run() throws {
        throw ValidationError("name the format to import from: lanes import trello EXPORT.json --output BOARD.md")
    }

    enum Dialect: String, ExpressibleByArgument, CaseIterable {
        case taskell, obsidian
        var value: BoardDialect { self == .taskell ? .taskell : .obsidian }
    }

    struct Trello: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a board from a Trello JSON export.",
            discussion: """
                Reads Trello's "Export as JSON" (or the REST API's lists-with-cards array). Lists and cards follow Trello's order (pos); archived lists and cards are left out unless --include-archived. Checklist items become sub-tasks, desc the description, due a YYYY-MM-DD due date (the UTC date), and labels #tags at the end of the title (in both dialects: Lanes reads tags from titles; a label without a name gives its colour). A list's soft limit becomes its WIP limit. An existing output file is refused unless --force.
                """
        )

        @Argument(help: ArgumentHelp("The Trello JSON file.", valueName: "export.json"))
        var export: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The board file to write.", valueName: "board"))
        var output: String

        @Option(help: "The Markdown dialect to write.")
        var dialect: Dialect = .taskell

        @Flag(help: "Also import archived (closed) lists and cards.")
        var includeArchived = false

        @Flag(help: "Replace the output file if it exists.")
        var force = false

        func run() throws {
            do {
                let summary = try BoardCommands.importTrello(
                    from: export, to: output, dialect: dialect.value,
                    options: TrelloImport.Options(includeArchived: includeArchived), force: force)
                say(summary + "\n")
            } catch StorageError.exists(let path) {
                throw CommandError(.badInput, "\(path) already exists; --force replaces it")
            }
        }
    }
}
