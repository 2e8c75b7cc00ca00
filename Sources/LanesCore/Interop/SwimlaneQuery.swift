import DragKit

/// What `lanes swimlanes` and `lanes show` on a board with swimlanes do, apart from argument parsing.
public enum SwimlaneQuery {
    /// The lanes `--tag` options name, in the order given (a leading `#` is dropped).
    public static func lanes(fromOptions tags: [String]) throws(CommandError) -> Swimlanes {
        let tags = tags.map { $0.hasPrefix("#") && $0.count > 1 ? String($0.dropFirst()) : $0 }
        do throws(Swimlanes.Problem) {
            return try Swimlanes(tags)
        } catch {
            throw CommandError(.badInput, "--tag: \(error.description)")
        }
    }

    /// One line per lane: `NUMBER<TAB>#TAG<TAB>CARDS`, then `<TAB>No lane<TAB>CARDS` when it has cards;
    /// a sentence when the board has no swimlanes.
    public static func list(_ board: Board) -> String {
        guard let lanes = board.acceptRules.swimlanes else {
            return "No swimlanes: the board shows as columns. lanes swimlanes BOARD --tag TAG … sets them.\n"
        }
        let counts = laneCounts(board, lanes)
        var out = ""
        for (l, tag) in lanes.tags.enumerated() {
            out += "\(l + 1)\t#\(BoardCommands.printable(tag))\t\(cards(counts[l]))\n"
        }
        if counts[lanes.count] > 0 { out += "\tNo lane\t\(cards(counts[lanes.count]))\n" }
        return out
    }

    /// Sets (or with nil removes) the board's swimlanes, through the door; returns a one-line summary.
    public static func set(_ board: inout Board, _ lanes: Swimlanes?) throws(CommandError) -> String {
        try BoardCommands.door(&board, .setSwimlanes(lanes)).words
    }

    /// What the board's swimlanes `lanes` hold: one line.
    static func summary(of lanes: Swimlanes?, on board: Board) -> String {
        guard let lanes else { return "No swimlanes: the board shows as columns." }
        let counts = laneCounts(board, lanes)
        let named = lanes.tags.enumerated().map {
            "#\(BoardCommands.printable($0.element)) (\(cards(counts[$0.offset])))"
        }
        return "Swimlanes: \(named.joined(separator: ", ")); No lane (\(cards(counts[lanes.count])))."
    }

    /// The board lane by lane, each lane column by column, cards numbered as `lanes show` numbers them.
    ///
    ///     Lane 1: #frontend (2 cards)
    ///       To do (1 card)
    ///         1. Fix the login form #frontend
    ///       Done (1 card)
    ///         4. Ship it #frontend #backend   (also in #backend)
    ///
    /// "No lane" comes last, only when it has cards; an empty cell says `(no cards)`.
    public static func show(_ board: Board, lanes: Swimlanes, info: BoardFileInfo, details: Bool = false) -> String {
        let cells = lanes.cells(of: board)
        var firstNumber: [Int] = []
        var n = 0
        for column in board.columns {
            firstNumber.append(n + 1)
            n += column.cards.count
        }
        let width = String(board.cardCount).count
        var out = ""
        for l in 0...lanes.count {
            let count = cells[l].reduce(0) { $0 + $1.count }
            if l == lanes.count && count == 0 { break }
            if l > 0 { out += "\n" }
            out +=
                l < lanes.count
                ? "Lane \(l + 1): #\(BoardCommands.printable(lanes.tags[l])) (\(cards(count)))\n"
                : "No lane (\(cards(count)))\n"
            for (s, column) in board.columns.enumerated() {
                out += "  \(BoardCommands.printable(column.title)) (\(cards(cells[l][s].count)))\n"
                if cells[l][s].isEmpty { out += "    (no cards)\n" }
                for i in cells[l][s] {
                    let original = column.cards[i]
                    let card = info.dialect == .obsidian ? BoardExport.interpretedObsidianBody(original) : original
                    let label = String(firstNumber[s] + i)
                    out += "    " + String(repeating: " ", count: width - label.count) + label + ". "
                    if card.done { out += "[x] " }
                    out += BoardCommands.printable(card.title)
                    if let due = card.due { out += "   due \(BoardCommands.printable(due))" }
                    if !card.subtasks.isEmpty {
                        out += "   sub-tasks \(card.subtasks.filter(\.done).count)/\(card.subtasks.count)"
                    }
                    let also = lanes.placement(of: original).alsoIn
                    if !also.isEmpty {
                        out +=
                            "   (also in "
                            + also.map { "#" + BoardCommands.printable(lanes.tags[$0]) }
                            .joined(separator: ", ") + ")"
                    }
                    out += "\n"
                    guard details else { continue }
                    let indent = String(repeating: " ", count: width + 8)
                    for line in card.descriptionLines { out += indent + "> " + BoardCommands.printable(line) + "\n" }
                    for sub in card.subtasks {
                        out += indent + (sub.done ? "[x] " : "[ ] ") + BoardCommands.printable(sub.title) + "\n"
                    }
                }
            }
        }
        if board.columns.isEmpty { out += "(no columns)\n" }
        return out
    }

    /// Cards per lane, "No lane" last.
    private static func laneCounts(_ board: Board, _ lanes: Swimlanes) -> [Int] {
        var counts = [Int](repeating: 0, count: lanes.count + 1)
        for column in board.columns {
            for card in column.cards { counts[lanes.placement(of: card).lane ?? lanes.count] += 1 }
        }
        return counts
    }

    private static func cards(_ n: Int) -> String { n == 1 ? "1 card" : "\(n) cards" }
}
