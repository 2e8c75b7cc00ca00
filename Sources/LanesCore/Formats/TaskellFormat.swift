import DragKit

/// Reads taskell's Markdown, accepting what taskell's own parser accepts.
///
/// taskell allows blank lines before and after a `## ` heading only: a blank
/// line ends a list's tasks, so a card or detail after one is an error.
/// Card details come in a fixed order: `@` due, `>` description lines, `*` sub-tasks.
struct TaskellParser {
    private let source: Source

    init(_ source: Source) {
        self.source = source
    }

    private enum Stage: Int, Comparable {
        case title, due, description, subtasks
        static func < (a: Stage, b: Stage) -> Bool { a.rawValue < b.rawValue }
    }

    func parse() throws(ParseError) -> (board: Board, info: BoardFileInfo) {
        var info = BoardFileInfo(dialect: .taskell)
        info.lineEnding = source.table.lineEnding
        info.hasByteOrderMark = source.table.hasByteOrderMark
        info.endsWithNewline = source.table.endsWithNewline

        var raws: [RawColumn] = []
        var current: RawColumn?
        var card: Card?
        var stage = Stage.title
        var blanks = 0
        var nextID: UInt64 = 1
        var cards: CardList = []
        // The open card's details, set on it when it closes (appending through the card's
        // accessors copies what it holds each time: quadratic in a card's lines).
        var description: [String] = []
        var subtasks: [Subtask] = []
        // The cards' titles, many to an allocation (see `TitleSlabs`).
        var titles = TitleSlabs()

        func closeCard() {
            if var done = card.take() {
                if !description.isEmpty || !subtasks.isEmpty {
                    done.setParsedDetails(descriptionLines: description, subtasks: subtasks, extraLines: [])
                    description = []
                    subtasks = []
                }
                cards.append(done)
            }
            card = nil
        }
        func closeColumn() {
            closeCard()
            if var column = current {
                column.column.cards = cards
                column.trailingBlanks = blanks
                raws.append(column)
            }
            cards = []
            current = nil
        }

        for n in 0..<source.count {
            if source.isBlank(n) {
                blanks += 1
                continue
            }
            let first = source.byte(n, 0)!
            if first == UInt8(ascii: "#") && source.line(n, hasPrefix: "## ") {
                if current == nil {
                    info.preamble = Array(repeating: "", count: blanks)
                } else {
                    closeColumn()
                }
                let (title, limit) = splitWIPLimit(source.text(n, from: 3))
                current = RawColumn(title: title, wipLimit: limit)
                blanks = 0
                continue
            }
            guard current != nil else { throw beforeAnyColumn(n) }
            if blanks > 0 && card != nil {
                throw source.error(
                    n,
                    "after a blank line only a \"## \" column heading may follow; taskell allows no blank lines between cards or their details; \(source.found(n))"
                )
            }
            if first == UInt8(ascii: "-") && source.byte(n, 1) == UInt8(ascii: " ") {
                closeCard()
                if cards.isEmpty { current!.leadingBlanks = blanks }
                card = Card(id: CardID(nextID), titleText: source.title(n, from: 2, in: &titles))
                nextID += 1
                stage = .title
                blanks = 0
                continue
            }
            if first == UInt8(ascii: " ") || first == UInt8(ascii: "\t") {
                try detail(n, card: &card, stage: &stage, description: &description, subtasks: &subtasks)
                continue
            }
            throw source.error(
                n, "expected \"## \" column heading, \"- \" card or an indented card detail; \(source.found(n))")
        }
        if let pending = source.table.pendingError { throw pending }
        if current == nil {
            info.preamble = Array(repeating: "", count: blanks)
        } else {
            closeColumn()
        }
        let board = assemble(raws, into: &info)
        return (board, info)
    }

    /// Lines from `n` on that start with `prefix`: a card's detail lines of one kind, reserved at the
    /// first (growing by doubling copied them and took twice the fresh memory: page faults).
    private func run(from n: Int, prefix: StaticString) -> Int {
        var k = n
        while k < source.count && source.line(k, hasPrefix: prefix) { k += 1 }
        return k - n
    }

    private func beforeAnyColumn(_ n: Int) -> ParseError {
        if n == 0 && source.line(n, equals: "---") {
            return source.error(
                n,
                "YAML frontmatter without a \"kanban-plugin:\" key; expected an Obsidian Kanban board, or a taskell board starting with a \"## \" column heading"
            )
        }
        if source.line(n, hasPrefix: "- ") {
            return source.error(
                n, "card before any column; expected a \"## \" column heading first; \(source.found(n))")
        }
        if source.line(n, hasPrefix: "    ") {
            return source.error(
                n, "card detail before any column; expected a \"## \" column heading first; \(source.found(n))")
        }
        return source.error(n, "expected \"## \" column heading; \(source.found(n))")
    }

    private func detail(
        _ n: Int, card: inout Card?, stage: inout Stage,
        description: inout [String], subtasks: inout [Subtask]
    ) throws(ParseError) {
        var k = 0
        while let b = source.byte(n, k), b == UInt8(ascii: " ") || b == UInt8(ascii: "\t") { k += 1 }
        if k == source.length(n) {
            throw source.error(n, "line holds only whitespace; expected an empty line or content")
        }
        if source.byte(n, 0) == UInt8(ascii: "\t") {
            throw source.error(n, "tab indentation; taskell indents card details with 4 spaces; \(source.found(n))")
        }
        guard source.line(n, hasPrefix: "    ") else {
            throw source.error(n, "expected 4-space indentation for a card detail; \(source.found(n))")
        }
        guard card != nil else {
            throw source.error(n, "card detail with no card above it; expected a \"- \" card first; \(source.found(n))")
        }
        if source.line(n, hasPrefix: "    @ ") {
            if stage == .due {
                throw source.error(n, "second due date for one card; \(source.found(n))")
            }
            if stage > .due {
                throw source.error(
                    n,
                    "due date after the description or sub-tasks; taskell expects \"    @ \" right after the card line; \(source.found(n))"
                )
            }
            card!.due = source.text(n, from: 6)
            stage = .due
        } else if source.line(n, hasPrefix: "    > ") {
            if stage > .description {
                throw source.error(
                    n,
                    "description after sub-tasks; taskell expects \"    > \" lines before \"    * \" sub-tasks; \(source.found(n))"
                )
            }
            if description.isEmpty { description.reserveCapacity(run(from: n, prefix: "    > ")) }
            description.append(source.text(n, from: 6))
            stage = .description
        } else if source.line(n, hasPrefix: "    * [ ] ") || source.line(n, hasPrefix: "    * [x] ") {
            if subtasks.isEmpty { subtasks.reserveCapacity(run(from: n, prefix: "    * [")) }
            subtasks.append(Subtask(source.text(n, from: 10), done: source.byte(n, 7) == UInt8(ascii: "x")))
            stage = .subtasks
        } else {
            throw source.error(
                n,
                "expected a card detail: \"    @ \" due date, \"    > \" description or \"    * [ ] \"/\"    * [x] \" sub-task; \(source.found(n))"
            )
        }
    }
}
