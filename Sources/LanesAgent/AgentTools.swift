import DragKit
import Foundation
import LanesCore

/// The tools of `lanes mcp`: what a person does with `lanes` subcommands, for an agent. Every change
/// is built by the subcommands' own functions (`BoardCommands`, `CrossBoardMove` through the host),
/// so it meets the same door and gets the same words; only undo and redo are the agent's own, and
/// they replay only this agent's steps (the door's inverse edits) on the board as it is now.
///
/// Calls are made one at a time (`AgentServer` runs them on one queue); the value is not thread-safe.
public final class AgentTools {
    let host: AgentHost
    let boards: [AgentBoard]
    /// Who the agent is (the client's name from `initialize`), for the words of its edits.
    public var agentName = AgentTools.unnamed
    static let unnamed = "an MCP client"
    private var undoSteps: [AgentStep] = []
    private var redoSteps: [AgentStep] = []

    public init(specs: [String], host: AgentHost) {
        self.host = host
        var seen = Set<String>()
        var boards: [AgentBoard] = []
        for spec in specs {
            let board = AgentBoard(spec: spec, host: host)
            if seen.insert(board.key).inserted { boards.append(board) }
        }
        self.boards = boards
    }

    /// The boards as the server names them (as given on its command line).
    public var boardNames: [String] { boards.map(\.spec) }

    /// The board a resource URI or a tool's `board` names; nil when it is none of the server's.
    public func boardSpec(forURI uri: String) -> String? {
        boards.first { Self.uri(of: $0.spec) == uri }?.spec
    }

    /// A board's resource URI: `lanes-board:` and the board as given, percent-encoded.
    public static func uri(of spec: String) -> String {
        "lanes-board:" + (spec.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? spec)
    }

    /// `lanes show BOARD --json` of the board as stored now (a resource's contents).
    public func readResource(_ spec: String) throws -> String {
        guard let board = boards.first(where: { $0.spec == spec }) else {
            throw AgentInputError("\(spec) is not a board this server was started with")
        }
        let b = try board.current()
        return host.showJSON(b, board.info, board.spec, nil, [])
    }

    /// How many cards a page of read_board has unless `limit` says otherwise, and at most.
    static let pageSize = 100
    static let maxPageSize = 1000

    // MARK: Calls

    /// Runs tool `name`. Bad input (unknown tool or argument, a wrong type, a board the server was
    /// not started with) throws `AgentInputError`; what `lanes` would refuse or not find is the
    /// reply's error, in the words `lanes` prints.
    public func call(_ name: String, _ arguments: [(key: String, value: JSONNode)]) throws(AgentInputError)
        -> ToolReply
    {
        guard let tool = Self.tools.first(where: { $0.name == name }) else {
            throw AgentInputError(
                "no tool named \"\(name)\"; the tools are \(Self.tools.map(\.name).joined(separator: ", "))")
        }
        let args = try ToolArguments(tool: tool, members: arguments)
        do {
            let reply = try run(name, args)
            return tool.json && !reply.isError ? reply : ToolReply(Self.said(reply.text), isError: reply.isError)
        } catch let error as AgentInputError {
            throw error
        } catch {
            return ToolReply(Self.said(host.words(error)), isError: true)
        }
    }

    /// Words as the commands print them: names in straight double quotes, through the terminal
    /// sanitiser (`say` and `errorLine` of `lanes`), so an agent reads what a person reads.
    static func said(_ text: String) -> String {
        TerminalSafe.escape(BoardCommands.straightQuotes(text))
    }

    private func run(_ name: String, _ a: ToolArguments) throws -> ToolReply {
        switch name {
        case "list_boards": return try listBoards()
        case "list_columns":
            let b = try board(a).current()
            return ToolReply(BoardCommands.columns(b))
        case "read_board": return try readBoard(a)
        case "read_card": return try readCard(a)
        case "search_cards": return try search(a)
        case "add_card": return try addCard(a)
        case "edit_card": return try editCard(a, changes: try cardChanges(a))
        case "mark_done":
            var changes = BoardCommands.CardChanges()
            changes.done = try a.bool("done") ?? true
            return try editCard(a, changes: changes)
        case "move_card": return try moveCard(a)
        case "delete_card": return try deleteCard(a)
        case "undo": return replay(undo: true)
        case "redo": return replay(undo: false)
        case "flow_metrics": return ToolReply(try host.metrics(try board(a).spec, try a.strings("agents") ?? []))
        default: throw AgentInputError("no tool named \"\(name)\"")
        }
    }

    /// The board argument: as given on the server's command line, the same file by another path, or
    /// a file name that names one of them; optional when the server has one board.
    private func board(_ a: ToolArguments, _ key: String = "board") throws -> AgentBoard {
        guard let given = try a.string(key) else {
            if boards.count == 1 { return boards[0] }
            throw AgentInputError(
                "\(a.tool.name) needs \"\(key)\": one of \(boards.map { "\"\($0.spec)\"" }.joined(separator: ", "))")
        }
        if let b = boards.first(where: { $0.spec == given }) { return b }
        let k = host.key(given)
        if let b = boards.first(where: { $0.key == k }) { return b }
        let byName = boards.filter { ($0.spec as NSString).lastPathComponent == given }
        if byName.count == 1 { return byName[0] }
        throw AgentInputError(
            "\"\(given)\" is not a board this server was started with; its boards are \(boards.map { "\"\($0.spec)\"" }.joined(separator: ", ")) (nothing was read or changed)"
        )
    }

    private func card(_ a: ToolArguments) throws -> String {
        guard let card = try a.cardName("card") else { throw AgentInputError("\(a.tool.name) needs \"card\"") }
        return card
    }

    // MARK: Reading

    private func listBoards() throws -> ToolReply {
        var list: [JSONWriter.Value] = []
        for board in boards {
            do {
                let b = try board.current()
                list.append(
                    .object([
                        ("board", .string(board.spec)), ("uri", .string(Self.uri(of: board.spec))),
                        ("cards", .int(b.cardCount)),
                        (
                            "columns",
                            .array(
                                b.columns.enumerated().map { s, c in
                                    .object([
                                        ("number", .int(s + 1)), ("title", .string(c.title)),
                                        ("cards", .int(c.cards.count)),
                                        ("wip_limit", c.wipLimit.map { .int($0) } ?? .null),
                                    ])
                                }
                            )
                        ),
                        ("error", .null),
                    ]))
            } catch {
                list.append(
                    .object([
                        ("board", .string(board.spec)), ("uri", .string(Self.uri(of: board.spec))), ("cards", .null),
                        ("columns", .array([])), ("error", .string(host.words(error))),
                    ]))
            }
        }
        return ToolReply(JSONWriter.write(.object([("boards", .array(list))])))
    }

    /// `lanes show --json`'s document with one page of cards (ids `cursor` on, `limit` of them) and
    /// `page`: where it starts and ends, how many cards the board has, and the cursor of the next page.
    private func readBoard(_ a: ToolArguments) throws -> ToolReply {
        let board = try board(a)
        let limit = try a.int("limit") ?? Self.pageSize
        guard (1...Self.maxPageSize).contains(limit) else {
            throw AgentInputError("read_board: \"limit\" is 1 to \(Self.maxPageSize), not \(limit)")
        }
        var start = 1
        if let cursor = try a.string("cursor") {
            guard let n = Int(cursor), n >= 1 else {
                throw AgentInputError(
                    "read_board: \"\(cursor)\" is no cursor read_board gave (its page's next_cursor, a card id)")
            }
            start = n
        }
        let b = try board.current()
        let total = b.cardCount
        let end = min(start + limit, total + 1)
        let shown = start <= total
        let page: JSONWriter.Value = .object([
            ("first_id", shown ? .int(start) : .null), ("last_id", shown ? .int(end - 1) : .null),
            ("total_cards", .int(total)), ("next_cursor", end <= total ? .string(String(end)) : .null),
        ])
        return ToolReply(host.showJSON(b, board.info, board.spec, start..<max(start, end), [("page", page)]))
    }

    /// A card as `lanes show --json` gives it, with its column and position (its number is the id
    /// the other tools take; it changes when cards are added or moved before it).
    private static func cardJSON(
        _ original: Card, number: Int, column: Column, position: Int, board: Board, info: BoardFileInfo,
        boardName: String
    ) -> JSONWriter.Value {
        let card = info.dialect == .obsidian ? BoardExport.interpretedObsidianBody(original) : original
        let lanes = board.acceptRules.swimlanes
        let lane = lanes.flatMap { l in l.placement(of: original).lane.map { l.tags[$0] } }
        let opt: (String?) -> JSONWriter.Value = { $0.map { .string($0) } ?? .null }
        return .object([
            ("board", .string(boardName)), ("id", .int(number)), ("column", .string(column.title)),
            ("position", .int(position)), ("title", .string(card.title)), ("done", .bool(card.done)),
            ("due", opt(card.due)), ("due_date", opt(card.due.flatMap(BoardExport.isoDay))),
            ("tags", .array(card.tags.map { .string($0) })), ("lane", opt(lane)),
            ("description", .array(card.descriptionLines.map { .string($0) })),
            (
                "subtasks",
                .array(card.subtasks.map { .object([("title", .string($0.title)), ("done", .bool($0.done))]) })
            ),
        ])
    }

    private func readCard(_ a: ToolArguments) throws -> ToolReply {
        let board = try board(a)
        let b = try board.current()
        let path = try BoardQuery.card(try card(a), in: b)
        let json = Self.cardJSON(
            b[path], number: BoardQuery.number(of: path, in: b), column: b.columns[path.section],
            position: path.item + 1, board: b, info: board.info, boardName: board.spec)
        return ToolReply(JSONWriter.write(json))
    }

    private func search(_ a: ToolArguments) throws -> ToolReply {
        let text = try a.string("text")?.lowercased()
        let tag = try a.string("tag").map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }?.lowercased()
        let columnQuery = try a.string("column")
        let dueBefore = try a.day("due_before")
        let dueAfter = try a.day("due_after")
        let done = try a.bool("done")
        let scope = try a.string("board") == nil ? boards : [try board(a)]
        var found: [JSONWriter.Value] = []
        for board in scope {
            let b = try board.current()
            let column = try columnQuery.map { q throws(CommandError) in try BoardQuery.column(q, in: b) }
            let info = board.info
            var number = 0
            for (s, col) in b.columns.enumerated() {
                for (i, original) in col.cards.enumerated() {
                    number += 1
                    if let column, column != s { continue }
                    let card = info.dialect == .obsidian ? BoardExport.interpretedObsidianBody(original) : original
                    if let done, card.done != done { continue }
                    if let tag, !card.tags.contains(where: { $0.lowercased() == tag }) { continue }
                    if let text {
                        let haystack = ([card.title] + card.descriptionLines + card.subtasks.map(\.title))
                            .joined(separator: "\n").lowercased()
                        if !haystack.contains(text) { continue }
                    }
                    if dueBefore != nil || dueAfter != nil {
                        guard let day = card.due.flatMap(BoardExport.isoDay) else { continue }
                        if let dueBefore, day >= dueBefore { continue }
                        if let dueAfter, day <= dueAfter { continue }
                    }
                    found.append(
                        Self.cardJSON(
                            original, number: number, column: col, position: i + 1, board: b, info: info,
                            boardName: board.spec))
                }
            }
        }
        return ToolReply(JSONWriter.write(.object([("count", .int(found.count)), ("cards", .array(found))])))
    }

    // MARK: Changing

    /// The note a file board's save carries: what was done, by "agent NAME" (the client's name).
    private func note(_ verb: String) -> WriterNote {
        WriterNote(verb: verb, writer: agentName == Self.unnamed ? "an unnamed agent" : "agent \(agentName)")
    }

    private func record(_ board: AgentBoard, _ label: String, _ outcomes: [EditOutcome]) {
        let inverses = outcomes.reversed().compactMap(\.inverse)
        guard !inverses.isEmpty else { return }
        undoSteps.append(AgentStep(board: board, label: label, edits: inverses))
        redoSteps.removeAll()
    }

    private func merged(_ conflicts: [BoardConflict]) -> String {
        conflicts.map { "\nlanes: merged with a change made meanwhile: \($0.message)" }.joined()
    }

    private func addCard(_ a: ToolArguments) throws -> ToolReply {
        let board = try board(a)
        guard let column = try a.string("column") else { throw AgentInputError("add_card needs \"column\"") }
        guard let title = try a.string("title") else { throw AgentInputError("add_card needs \"title\"") }
        let top = try a.bool("top") ?? false
        let force = try a.bool("force") ?? false
        let (placed, outcomes, conflicts) = try board.change(note("added")) { b in
            try BoardCommands.add(&b, column: column, title: title, top: top, force: force)
        }
        record(board, "add card \"\(title)\"", outcomes)
        return ToolReply(
            "Added card \(placed.number) to \"\(placed.column)\" at position \(placed.position).\(merged(conflicts))")
    }

    private func cardChanges(_ a: ToolArguments) throws -> BoardCommands.CardChanges {
        var c = BoardCommands.CardChanges()
        c.title = try a.string("title")
        if a.isNull("due") { c.due = .some(nil) } else if let due = try a.string("due") { c.due = .some(due) }
        if let tags = try a.strings("tags") { c.tags = tags.flatMap { $0.split(separator: " ").map(String.init) } }
        if let lines = try a.strings("description") { c.descriptionLines = lines }
        c.addSubtasks = try a.strings("add_subtasks") ?? []
        c.subtaskDone =
            (try a.ints("check") ?? []).map { .init(number: $0, done: true) }
            + (try a.ints("uncheck") ?? []).map { .init(number: $0, done: false) }
        c.tick = try a.bool("tick") ?? false
        c.done = try a.bool("done")
        return c
    }

    private func editCard(_ a: ToolArguments, changes: BoardCommands.CardChanges) throws -> ToolReply {
        let board = try board(a)
        let query = try card(a)
        // What the board's storage cannot hold (a taskell board has no done mark) is the door's to
        // refuse: the board knows its capacity (`Board.capacity`).
        let (summary, outcomes, conflicts) = try board.change(note("edited")) { b in
            try BoardCommands.editCard(&b, card: query, changes)
        }
        record(board, "edit card \"\(query)\"", outcomes)
        return ToolReply(summary + merged(conflicts))
    }

    private func moveCard(_ a: ToolArguments) throws -> ToolReply {
        let board = try board(a)
        let query = try card(a)
        guard let column = try a.string("column") else { throw AgentInputError("move_card needs \"column\"") }
        let position = try a.int("position")
        let force = try a.bool("force") ?? false
        if try a.string("to_board") != nil {
            let other = try self.board(a, "to_board")
            if a.has("lane") { throw AgentInputError("move_card takes \"lane\" or \"to_board\", not both") }
            let line = try host.moveToBoard(board.spec, [query], other.spec, column, position, force)
            undoSteps.append(AgentStep(board: board, label: "move to \(other.spec)", edits: [], acrossBoards: true))
            redoSteps.removeAll()
            return ToolReply(line)
        }
        if a.has("lane") {
            let lane = a.isNull("lane") ? nil : try a.string("lane")
            let (line, outcomes, conflicts) = try board.change(note("moved")) { b in
                try Self.moveToLane(&b, card: query, column: column, lane: lane, position: position, force: force)
            }
            record(board, "move card \"\(query)\" to a lane", outcomes)
            return ToolReply(line + merged(conflicts))
        }
        let (placed, outcomes, conflicts) = try board.change(note("moved")) { b in
            try BoardCommands.move(&b, card: query, to: column, position: position, force: force)
        }
        record(board, "move card \"\(placed.title)\"", outcomes)
        let line =
            placed.changed
            ? "Moved \"\(placed.title)\" to \"\(placed.column)\" at position \(placed.position) (now card \(placed.number))."
            : "\"\(placed.title)\" already is at position \(placed.position) of \"\(placed.column)\"; nothing changed."
        return ToolReply(line + merged(conflicts))
    }

    /// A move into a swimlane as well as a column: the terminal's drop on a lane × column cell
    /// (`BoardEdit.moveCardsToLane`), found and placed as `lanes move` finds and places a card.
    static func moveToLane(
        _ board: inout Board, card query: String, column columnQuery: String, lane: String?, position: Int?,
        force: Bool
    ) throws(CommandError) -> String {
        guard let lanes = board.acceptRules.swimlanes else {
            throw CommandError(.badInput, "the board has no swimlanes; lanes swimlanes BOARD --tag TAG sets them")
        }
        let tag = lane.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }.flatMap { $0.isEmpty ? nil : $0 }
        if let tag, lanes.lane(ofTag: tag) == nil {
            throw CommandError(
                .notFound,
                "no lane #\(tag); the lanes are \(lanes.tags.map { "#\($0)" }.joined(separator: ", ")) (or null: No lane)"
            )
        }
        let from = try BoardQuery.card(query, in: board)
        let s = try BoardQuery.column(columnQuery, in: board)
        let card = board[from]
        let target = board.columns[s]
        let others = target.cards.filter { $0.id != card.id }
        if let position, !(1...others.count + 1).contains(position) {
            throw CommandError(
                .badInput, "position \(position) is outside column \"\(target.title)\"; use 1 to \(others.count + 1)")
        }
        let slot: CardSlot =
            position.flatMap { p in p <= others.count ? .before(others[p - 1].id, orIndex: p - 1) : nil } ?? .end
        let outcome = try BoardCommands.door(
            &board, .moveCardsToLane([card.id], to: target.id, at: slot, lane: tag), force: force)
        return BoardCommands.printable(BoardCommands.straightQuotes(outcome.words)) + "."
    }

    private func deleteCard(_ a: ToolArguments) throws -> ToolReply {
        let board = try board(a)
        var cards = try a.strings("cards") ?? []
        if let one = try a.cardName("card") { cards.insert(one, at: 0) }
        guard !cards.isEmpty else { throw AgentInputError("delete_card needs \"card\" (or \"cards\")") }
        guard try a.bool("confirm") == true else {
            return ToolReply(
                "lanes: deleting \(cards.map { "\"\($0)\"" }.joined(separator: ", ")) needs \"confirm\": true; nothing was deleted",
                isError: true)
        }
        let (summary, outcomes, conflicts) = try board.change(note("deleted")) { b in
            try BoardCommands.removeCards(&b, cards: cards)
        }
        record(board, "delete \(cards.count == 1 ? "card \"\(cards[0])\"" : "\(cards.count) cards")", outcomes)
        return ToolReply(summary + merged(conflicts))
    }

    /// Undo (or redo) of this agent's last step: its inverse edits through the door, forced as the
    /// terminal's undo is, on the board as stored now; an edit that no longer applies (the card was
    /// changed or deleted by another writer) is left out in words and nothing else is reverted.
    private func replay(undo: Bool) -> ToolReply {
        guard let step = undo ? undoSteps.popLast() : redoSteps.popLast() else {
            return ToolReply(
                "lanes: nothing to \(undo ? "undo" : "redo"): this agent (\(agentName)) has made no \(undo ? "" : "undone ")edit in this session",
                isError: true)
        }
        if step.acrossBoards {
            return ToolReply(
                "lanes: the last step (\(step.label)) moved cards to another board; undo does not take them back: move_card with to_board moves them back",
                isError: true)
        }
        var refused: [String] = []
        do {
            let (_, outcomes, conflicts) = try step.board.change(note("changed")) { (b: inout Board) throws -> Void in
                for edit in step.edits {
                    do { try BoardCommands.door(&b, edit, force: true) } catch {
                        refused.append((error as? CommandError)?.message ?? "\(error)")
                    }
                }
            }
            let inverses = outcomes.reversed().compactMap(\.inverse)
            if !inverses.isEmpty {
                let again = AgentStep(board: step.board, label: step.label, edits: inverses)
                if undo { redoSteps.append(again) } else { undoSteps.append(again) }
            }
            let said = outcomes.map(\.words).filter { !$0.isEmpty }.map {
                BoardCommands.printable(BoardCommands.straightQuotes($0))
            }
            var text = "\(undo ? "Undid" : "Redid") \(step.label)"
            if outcomes.allSatisfy({ !$0.changed }) { text += ": nothing was as this agent left it, nothing changed" }
            if !said.isEmpty { text += " (\(said.joined(separator: "; ")))" }
            text += "."
            for r in refused { text += "\nlanes: not put back: \(BoardCommands.straightQuotes(r))" }
            return ToolReply(text + merged(conflicts))
        } catch {
            return ToolReply(host.words(error), isError: true)
        }
    }
}
