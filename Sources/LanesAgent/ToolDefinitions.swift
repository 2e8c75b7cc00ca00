import Foundation
import LanesCore

/// A tool's name, what it does, and its arguments with their JSON types.
struct ToolDefinition: Sendable {
    enum Kind: String, Sendable {
        case string, integer, boolean, strings, integers, cardName, nullableString

        var schema: [(String, JSONWriter.Value)] {
            let string: JSONWriter.Value = .object([("type", .string("string"))])
            let integer: JSONWriter.Value = .object([("type", .string("integer"))])
            switch self {
            case .string: return [("type", .string("string"))]
            case .integer: return [("type", .string("integer"))]
            case .boolean: return [("type", .string("boolean"))]
            case .strings: return [("type", .string("array")), ("items", string)]
            case .integers: return [("type", .string("array")), ("items", integer)]
            case .cardName: return [("type", .array([.string("string"), .string("integer")]))]
            case .nullableString: return [("type", .array([.string("string"), .string("null")]))]
            }
        }

        var words: String {
            switch self {
            case .string: "a string"
            case .integer: "a whole number"
            case .boolean: "true or false"
            case .strings: "a list of strings"
            case .integers: "a list of whole numbers"
            case .cardName: "a card number or a title (a string)"
            case .nullableString: "a string or null"
            }
        }
    }

    struct Argument: Sendable {
        var name: String
        var kind: Kind
        var help: String
        var required = false
    }

    var name: String
    var help: String
    var arguments: [Argument]
    var readOnly = false
    var destructive = false
    /// The reply is a JSON document (written as the commands' `--json`), not words.
    var json = false

    /// The tool as `tools/list` describes it: name, description, input schema (JSON Schema), annotations.
    var listed: JSONWriter.Value {
        let properties: [(String, JSONWriter.Value)] = arguments.map { a in
            (a.name, .object(a.kind.schema + [("description", .string(a.help))]))
        }
        return .object([
            ("name", .string(name)), ("description", .string(help)),
            (
                "inputSchema",
                .object([
                    ("type", .string("object")), ("properties", .object(properties)),
                    ("required", .array(arguments.filter(\.required).map { .string($0.name) })),
                    ("additionalProperties", .bool(false)),
                ])
            ),
            ("annotations", .object([("readOnlyHint", .bool(readOnly)), ("destructiveHint", .bool(destructive))])),
        ])
    }
}

extension AgentTools {
    private static let boardHelp =
        "The board: as the server was started with it (list_boards names them); may be left out when the server has one board."
    private static let cardHelp =
        "The card: its number as read_board numbers it, its exact title, or the unique start of its title (case ignored)."

    static let tools: [ToolDefinition] = [
        ToolDefinition(
            name: "list_boards",
            help: "The boards this server serves, each with its columns (number, title, cards, WIP limit).",
            arguments: [], readOnly: true, json: true),
        ToolDefinition(
            name: "list_columns",
            help: "A board's columns as lanes columns prints them: NUMBER<TAB>TITLE<TAB>CARDS[/LIMIT].",
            arguments: [.init(name: "board", kind: .string, help: boardHelp)], readOnly: true),
        ToolDefinition(
            name: "read_board",
            help:
                "The board as lanes show --json gives it, its cards a page at a time (100 unless limit says otherwise): every column, and the page's cards in theirs, each with its id (the number the other tools take). page says the ids shown, the board's card count, and next_cursor for the next page (null at the end).",
            arguments: [
                .init(name: "board", kind: .string, help: boardHelp),
                .init(
                    name: "cursor", kind: .string,
                    help: "Where the page starts: the next_cursor of the page before (default: the first card)."),
                .init(name: "limit", kind: .integer, help: "How many cards the page has, 1 to 1000 (default 100)."),
            ], readOnly: true, json: true),
        ToolDefinition(
            name: "read_card",
            help: "One card: its id, column, position, title, done, due, tags, lane, description, sub-tasks.",
            arguments: [
                .init(name: "board", kind: .string, help: boardHelp),
                .init(name: "card", kind: .cardName, help: cardHelp, required: true),
            ], readOnly: true, json: true),
        ToolDefinition(
            name: "search_cards",
            help: "Cards matching every condition given (none: every card), on one board or all of them.",
            arguments: [
                .init(name: "board", kind: .string, help: "One board to search (default: every board of the server)."),
                .init(name: "text", kind: .string, help: "Text in the title, description or sub-tasks (case ignored)."),
                .init(name: "tag", kind: .string, help: "A #tag the title carries (with or without #, case ignored)."),
                .init(name: "column", kind: .string, help: "The column: number, title, or start of title."),
                .init(name: "due_before", kind: .string, help: "Due before this day (YYYY-MM-DD)."),
                .init(name: "due_after", kind: .string, help: "Due after this day (YYYY-MM-DD)."),
                .init(name: "done", kind: .boolean, help: "Only done (true) or not done (false) cards."),
            ], readOnly: true, json: true),
        ToolDefinition(
            name: "add_card", help: "Add a card at the end of a column (or at the top), as lanes add does.",
            arguments: [
                .init(name: "board", kind: .string, help: boardHelp),
                .init(
                    name: "column", kind: .string, help: "The column: number, title, or start of title.", required: true
                ),
                .init(
                    name: "title", kind: .string, help: "The card's title (its #tags are part of it).", required: true),
                .init(name: "top", kind: .boolean, help: "Put it first in the column."),
                .init(name: "force", kind: .boolean, help: "Add even when the column is at its WIP limit."),
            ]),
        ToolDefinition(
            name: "edit_card",
            help:
                "Change a card's fields, as lanes edit does: each one given is one edit, all or nothing; a refusal says why.",
            arguments: [
                .init(name: "board", kind: .string, help: boardHelp),
                .init(name: "card", kind: .cardName, help: cardHelp, required: true),
                .init(name: "title", kind: .string, help: "The new title."),
                .init(name: "tags", kind: .strings, help: "The title's #tags replaced by these ([] removes them)."),
                .init(name: "due", kind: .nullableString, help: "The due date (YYYY-MM-DD); null or \"\" clears it."),
                .init(name: "description", kind: .strings, help: "The description's lines ([] clears it)."),
                .init(name: "add_subtasks", kind: .strings, help: "Sub-tasks added at the end, not done."),
                .init(name: "check", kind: .integers, help: "Sub-tasks to tick, by 1-based number."),
                .init(name: "uncheck", kind: .integers, help: "Sub-tasks to untick, by 1-based number."),
                .init(
                    name: "tick", kind: .boolean,
                    help: "Tick the first open sub-task, or untick all when every one is done."),
                .init(
                    name: "done", kind: .boolean, help: "Mark done or not done (a taskell board has no done mark)."),
            ]),
        ToolDefinition(
            name: "move_card",
            help:
                "Move a card to a column (at the end or a position), into a swimlane, or to another of the server's boards (crash-safe, as lanes move --to-board). Refused in words by a full column or an accept rule unless force.",
            arguments: [
                .init(name: "board", kind: .string, help: boardHelp),
                .init(name: "card", kind: .cardName, help: cardHelp, required: true),
                .init(
                    name: "column", kind: .string,
                    help: "The column (on to_board when given): number, title, or start of title.", required: true),
                .init(
                    name: "position", kind: .integer,
                    help: "1-based position in the column, not counting the card (default: the end)."),
                .init(name: "lane", kind: .nullableString, help: "The swimlane's tag (null: No lane)."),
                .init(name: "to_board", kind: .string, help: "Another board of this server to move the card to."),
                .init(
                    name: "force", kind: .boolean,
                    help: "Move even into a full column or one whose accept rule does not name the card's column."),
            ]),
        ToolDefinition(
            name: "mark_done", help: "Mark a card done (or, with done: false, not done).",
            arguments: [
                .init(name: "board", kind: .string, help: boardHelp),
                .init(name: "card", kind: .cardName, help: cardHelp, required: true),
                .init(name: "done", kind: .boolean, help: "false marks it not done (default: true)."),
            ]),
        ToolDefinition(
            name: "delete_card",
            help: "Delete cards, only with confirm: true (a card changed elsewhere meanwhile is kept).",
            arguments: [
                .init(name: "board", kind: .string, help: boardHelp),
                .init(name: "card", kind: .cardName, help: cardHelp),
                .init(name: "cards", kind: .strings, help: "Several cards deleted together."),
                .init(name: "confirm", kind: .boolean, help: "Must be true: the deletion is meant.", required: true),
            ], destructive: true),
        ToolDefinition(
            name: "undo",
            help:
                "Undo this agent's last edit on the board as it is now: what other writers changed meanwhile stays.",
            arguments: []),
        ToolDefinition(name: "redo", help: "Redo the edit this agent last undid.", arguments: []),
        ToolDefinition(
            name: "flow_metrics",
            help:
                "Flow metrics from the board's history, as lanes metrics --json gives them (cycle time, throughput, aging, forecast, who finished the cards).",
            arguments: [
                .init(name: "board", kind: .string, help: boardHelp),
                .init(
                    name: "agents", kind: .strings,
                    help:
                        "Git authors who are agents, as lanes metrics --agent names them: shell patterns for \"Name <email>\", the name or the email. A PostgreSQL server says who its agents are itself."
                ),
            ], readOnly: true, json: true),
    ]
}

/// A tool call's arguments, checked against the tool's definition: an unknown name or a wrong type
/// is bad input, in words.
struct ToolArguments {
    let tool: ToolDefinition
    let values: [String: JSONNode]

    init(tool: ToolDefinition, members: [(key: String, value: JSONNode)]) throws(AgentInputError) {
        self.tool = tool
        var values: [String: JSONNode] = [:]
        for (name, value) in members {
            guard let a = tool.arguments.first(where: { $0.name == name }) else {
                let known = tool.arguments.map(\.name)
                throw AgentInputError(
                    "\(tool.name) has no argument \"\(name)\"; "
                        + (known.isEmpty ? "it takes none" : "its arguments are \(known.joined(separator: ", "))"))
            }
            guard values[name] == nil else { throw AgentInputError("\(tool.name): \"\(name)\" is given twice") }
            if !Self.fits(value, a.kind) {
                throw AgentInputError("\(tool.name): \"\(name)\" must be \(a.kind.words), not \(Self.describe(value))")
            }
            values[name] = value
        }
        self.values = values
        for a in tool.arguments where a.required && values[a.name] == nil {
            if tool.name == "delete_card" && a.name == "confirm" { continue }  // said as the tool's refusal
            throw AgentInputError("\(tool.name) needs \"\(a.name)\" (\(a.kind.words))")
        }
    }

    static func fits(_ node: JSONNode, _ kind: ToolDefinition.Kind) -> Bool {
        switch (kind, node.value) {
        case (.string, .string), (.boolean, .bool), (.nullableString, .string), (.nullableString, .null),
            (.cardName, .string):
            return true
        case (.integer, _), (.cardName, _): return wholeNumber(node) != nil
        case (.strings, .array(let items)): return items.allSatisfy { $0.string != nil }
        case (.integers, .array(let items)): return items.allSatisfy { wholeNumber($0) != nil }
        default: return false
        }
    }

    /// A JSON number that is a whole number a board can hold (1, 1.0, 1e2), else nil.
    static func wholeNumber(_ node: JSONNode) -> Int? {
        guard let d = node.number, d.rounded() == d, abs(d) < 1e15 else { return nil }
        return Int(d)
    }

    static func describe(_ node: JSONNode) -> String {
        switch node.value {
        case .null: "null"
        case .bool(let b): "\(b)"
        case .number(let text): "the number \(text)"
        case .string(let s): "the string \"\(s)\""
        case .array: "a list"
        case .object: "an object"
        }
    }

    func has(_ name: String) -> Bool { values[name] != nil }
    func isNull(_ name: String) -> Bool { values[name]?.isNull ?? false }
    func string(_ name: String) throws(AgentInputError) -> String? { values[name]?.string }
    func bool(_ name: String) throws(AgentInputError) -> Bool? { values[name]?.bool }
    func int(_ name: String) throws(AgentInputError) -> Int? { values[name].flatMap(Self.wholeNumber) }
    func strings(_ name: String) throws(AgentInputError) -> [String]? { values[name]?.array?.compactMap(\.string) }
    func ints(_ name: String) throws(AgentInputError) -> [Int]? { values[name]?.array?.compactMap(Self.wholeNumber) }
    func cardName(_ name: String) throws(AgentInputError) -> String? {
        guard let v = values[name] else { return nil }
        return v.string ?? Self.wholeNumber(v).map(String.init)
    }
    /// A day argument: YYYY-MM-DD.
    func day(_ name: String) throws(AgentInputError) -> String? {
        guard let s = values[name]?.string else { return nil }
        guard let iso = BoardExport.isoDay(s) else {
            throw AgentInputError("\(tool.name): \"\(name)\" must be a day as YYYY-MM-DD, not \"\(s)\"")
        }
        return iso
    }
}
