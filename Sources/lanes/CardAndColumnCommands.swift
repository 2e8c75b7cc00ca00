import ArgumentParser
import LanesCore

// `lanes edit`, `lanes remove` and `lanes column …`: every edit the terminal makes, from the
// command line. Each builds edits for the door (`Board.applying`, through BoardCommands) and
// holds no rule of its own.

/// Collisions with what someone else saved meanwhile, resolved by the merge rule: said on stderr.
private func reportMerged(_ conflicts: [BoardConflict]) {
    for c in conflicts { errorLine("lanes: merged with a change made meanwhile: \(c.message)") }
}

/// Reads `board`, applies `change` through the door and commits (merging what others saved meanwhile).
private func change(_ board: String, _ change: (inout Board) throws -> String) throws {
    let summary = try BoardCommands.edit(BoardLocation.storage(board), conflicts: reportMerged, change)
    say(summary + "\n")
}

struct Edit: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Change a card's fields: title, tags, due date, description, sub-tasks, done mark.",
        discussion: """
            CARD is found like lanes move finds it: its number as lanes show prints it, its exact title, or the unique start of its title. Each option is one edit, applied in the order title, tags, due, description and new sub-tasks, done, sub-task marks, --tick; if any is refused (an empty title, a date that is no date, a tag with a space, a sub-task number the card lacks) nothing is saved and the reason is printed (exit status 2). --tag replaces the title's #tags (repeat it for several; --tag "" removes them all). --description replaces the description (repeat it, or put line breaks in it, for several lines; --description "" clears it). Taskell files have no done mark: --done and --no-done are refused there. What others saved meanwhile is merged, never overwritten; the file keeps its dialect.
            """
    )

    @Argument(help: "The board file (or a postgresql:// URL).", completion: .file())
    var board: String

    @Argument(help: "The card: number, title, or start of title.", completion: .custom(Completions.cardTitles))
    var card: String

    @Option(help: "The new title (its #tags are part of it).")
    var title: String?

    @Option(
        help: ArgumentHelp(
            "The due date (YYYY-MM-DD, or as the board writes dates); \"\" clears it.", valueName: "date"))
    var due: String?

    @Flag(name: .customLong("no-due"), help: "Clear the due date.")
    var noDue = false

    @Option(
        name: .customLong("tag"),
        help: ArgumentHelp("A #tag the title ends with (repeatable; replaces the title's tags).", valueName: "tag"))
    var tags: [String] = []

    @Option(
        name: .customLong("description"),
        help: ArgumentHelp("A description line (repeatable; replaces the description).", valueName: "line"))
    var descriptionLines: [String] = []

    @Option(
        name: .customLong("add-subtask"),
        help: ArgumentHelp("A sub-task added at the end, not done (repeatable).", valueName: "text"))
    var addSubtasks: [String] = []

    @Option(name: .customLong("check"), help: ArgumentHelp("Tick sub-task N (1-based; repeatable).", valueName: "n"))
    var check: [Int] = []

    @Option(
        name: .customLong("uncheck"), help: ArgumentHelp("Untick sub-task N (1-based; repeatable).", valueName: "n"))
    var uncheck: [Int] = []

    @Flag(help: "Tick the first open sub-task, or untick all when every one is done (the t key).")
    var tick = false

    @Flag(inversion: .prefixedNo, help: "Mark the card done (--done) or not done (--no-done).")
    var done: Bool?

    func validate() throws {
        if noDue && due != nil { throw ValidationError("give --due or --no-due, not both") }
    }

    /// What the options ask, as one set of changes (the parsing only; the door judges them).
    var changes: BoardCommands.CardChanges {
        var c = BoardCommands.CardChanges()
        c.title = title
        if noDue { c.due = .some(nil) } else if let due { c.due = .some(due) }
        if !tags.isEmpty { c.tags = tags.flatMap { $0.split(separator: " ").map(String.init) } }
        if !descriptionLines.isEmpty { c.descriptionLines = descriptionLines == [""] ? [] : descriptionLines }
        c.addSubtasks = addSubtasks
        c.subtaskDone = check.map { .init(number: $0, done: true) } + uncheck.map { .init(number: $0, done: false) }
        c.tick = tick
        c.done = done
        return c
    }

    func run() throws {
        let changes = self.changes
        try change(board) { b in try BoardCommands.editCard(&b, card: card, changes) }
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete cards from a board.",
        discussion: """
            CARD is found like lanes move finds it: number, exact title, or unique start of a title; give several to delete them together (numbers are read before any card is deleted). A card another writer changed meanwhile is kept and said so. What others saved meanwhile is merged, never overwritten.
            """
    )

    @Argument(help: "The board file (or a postgresql:// URL).", completion: .file())
    var board: String

    @Argument(help: "The cards: numbers, titles, or starts of titles.", completion: .custom(Completions.cardTitles))
    var cards: [String]

    func validate() throws {
        if cards.isEmpty { throw ValidationError("name the card to delete: lanes remove BOARD CARD") }
    }

    func run() throws {
        try change(board) { b in try BoardCommands.removeCards(&b, cards: cards) }
    }
}

struct ColumnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "column",
        abstract: "Add, rename, move or delete a column, or set its WIP limit.",
        discussion: """
            COLUMN is found like lanes move finds it: its number (see lanes columns), its title, or the unique start of its title. Column titles are one line, not empty, and unique on a board (case ignored). Accept rules: lanes rules. What others saved meanwhile is merged, never overwritten.
            """,
        subcommands: [Add.self, Rename.self, Move.self, Delete.self, Limit.self]
    )

    /// `lanes column` alone names no change: a usage error (exit status 2), not help with status 0.
    func run() throws {
        throw ValidationError("name the change: lanes column add|rename|move|delete|limit BOARD …")
    }

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a column (at the end, or --after or --before a column, or at --position).",
            discussion: """
                lanes column add plan.md Review --after Doing puts Review between Doing and the column after it, as A does in the app after the selected column. COLUMN is found like lanes move finds it (number, title, or the unique start of a title).
                """)

        @Argument(help: "The board file (or a postgresql:// URL).", completion: .file())
        var board: String

        @Argument(help: "The new column's title.")
        var title: String

        @Option(
            name: .shortAndLong,
            help: ArgumentHelp("1-based position among the columns (default: last).", valueName: "n"))
        var position: Int?

        @Option(
            help: ArgumentHelp("Put it right after this column.", valueName: "column"),
            completion: .custom(Completions.columnNames))
        var after: String?

        @Option(
            help: ArgumentHelp("Put it right before this column.", valueName: "column"),
            completion: .custom(Completions.columnNames))
        var before: String?

        func run() throws {
            let given = [
                position.map { "--position \($0)" }, after.map { "--after \"\($0)\"" },
                before.map { "--before \"\($0)\"" },
            ].compactMap { $0 }
            if given.count > 1 {
                throw CommandError(
                    .badInput,
                    "\(Board.listed(given, or: "and")) are two places for one column; give one of them (nothing was added)"
                )
            }
            let place: BoardCommands.ColumnPlace =
                after.map { .after($0) } ?? before.map { .before($0) } ?? position.map { .position($0) } ?? .end
            try change(board) { b in try BoardCommands.addColumn(&b, title: title, place: place) }
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a column (its accept rules follow it).")

        @Argument(help: "The board file (or a postgresql:// URL).", completion: .file())
        var board: String

        @Argument(help: "The column: number, title, or start of title.", completion: .custom(Completions.columnNames))
        var column: String

        @Argument(help: "The new title.")
        var title: String

        func run() throws {
            try change(board) { b in try BoardCommands.renameColumn(&b, column: column, to: title) }
        }
    }

    struct Move: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Move a column to another position, with its cards.")

        @Argument(help: "The board file (or a postgresql:// URL).", completion: .file())
        var board: String

        @Argument(help: "The column: number, title, or start of title.", completion: .custom(Completions.columnNames))
        var column: String

        @Option(name: .shortAndLong, help: ArgumentHelp("Its 1-based position afterwards.", valueName: "n"))
        var position: Int

        func run() throws {
            try change(board) { b in try BoardCommands.moveColumn(&b, column: column, to: position) }
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a column; one with cards only with --yes (its cards go with it).",
            discussion:
                "Refused when another writer added a card to the column meanwhile. Rules that named it no longer do.")

        @Argument(help: "The board file (or a postgresql:// URL).", completion: .file())
        var board: String

        @Argument(help: "The column: number, title, or start of title.", completion: .custom(Completions.columnNames))
        var column: String

        @Flag(help: "Delete the column with its cards.")
        var yes = false

        func run() throws {
            try change(board) { b in try BoardCommands.deleteColumn(&b, column: column, withCards: yes) }
        }
    }

    struct Limit: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set a column's WIP limit, or remove it with \"none\".")

        @Argument(help: "The board file (or a postgresql:// URL).", completion: .file())
        var board: String

        @Argument(help: "The column: number, title, or start of title.", completion: .custom(Completions.columnNames))
        var column: String

        @Argument(help: ArgumentHelp("The most cards it takes (a whole number above 0), or none.", valueName: "limit"))
        var limit: String

        func run() throws {
            let value: Int?
            if limit.lowercased() == "none" || limit.isEmpty {
                value = nil
            } else if let n = Int(limit) {
                value = n
            } else {
                throw CommandError(
                    .badInput, "the WIP limit \"\(limit)\" is no number; give a whole number above 0, or none")
            }
            try change(board) { b in try BoardCommands.setLimit(&b, column: column, to: value) }
        }
    }
}
