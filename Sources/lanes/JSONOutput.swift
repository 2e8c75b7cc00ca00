import ArgumentParser
import Foundation
import LanesCore
import LanesPostgres
import LanesTerminal

// `--format json` (and `--json`) of the read commands: one documented shape per command, keys in
// a fixed order, a `schema_version` first (README, "JSON output"; DECISIONS 41.1). Errors of those
// commands come as JSON on stderr with a code from a small fixed set (`JSONErrors`).

/// The JSON interface's version: one number for every command's output and for the error object.
/// Any change of a shape (a key added, removed, renamed or retyped) raises it.
enum JSONSchema {
    static let version = 2
}

/// How a read command prints: as text (the default) or as JSON.
enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// `--format text|json` and its short form `--json`, for the read commands.
struct FormatOptions: ParsableArguments {
    @Option(help: "The output format: text or json (README, \"JSON output\", gives each command's shape).")
    var format: OutputFormat?

    @Flag(help: "The same as --format json.")
    var json = false

    var isJSON: Bool { json || format == .json }

    func validate() throws {
        if json && format == .text { throw ValidationError("--json and --format text ask for two formats; give one") }
    }

    /// Refuses JSON for a command's setting form, which prints a sentence, not a document.
    func refuseJSON(with option: String) throws {
        if isJSON { throw ValidationError("--format json is for reading; it does not go with \(option)") }
    }
}

/// The JSON documents of the read commands.
enum JSONOutput {
    typealias J = JSONWriter.Value

    /// Writes a document to stdout, the same bytes to a terminal, a pipe or a file: the writer escapes
    /// every control character in a string, and `safe` the bidi controls, so nothing a card holds acts
    /// on a terminal and the text stays JSON (the terminal sanitiser's `\u{…}` would not be).
    static func write(_ members: [(String, J)]) {
        let text = safe(JSONWriter.write(.object([("schema_version", .int(JSONSchema.version))] + members)))
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// JSON text with the bidi embedding, override and isolate controls (U+202A…U+202E, U+2066…U+2069)
    /// written as `\uXXXX` escapes; they occur only inside strings, where that escape is the same text.
    static func safe(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: isBidiControl) else { return json }
        var out = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if isBidiControl(scalar) {
                out.append(contentsOf: ("\\u" + String(scalar.value, radix: 16, uppercase: true)).unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    static func isBidiControl(_ s: Unicode.Scalar) -> Bool {
        (0x202A...0x202E).contains(s.value) || (0x2066...0x2069).contains(s.value)
    }

    /// The board as the commands name it: a file as given, a URL without its password.
    static func boardName(_ spec: String) -> String {
        BoardLocation.isURL(spec) ? PostgresURL.withoutPasswords(spec) : spec
    }

    static func optional(_ text: String?) -> J { text.map { .string($0) } ?? .null }

    /// `lanes show --json`: the board, cards numbered as `lanes show` numbers them (the ids the other commands take).
    /// `only`: the cards whose ids are in it (a page of `lanes mcp`'s read_board); the others are left out.
    static func show(_ board: Board, info: BoardFileInfo, spec: String, only: Range<Int>? = nil) -> [(String, J)] {
        let lanes = board.acceptRules.swimlanes
        var number = 0
        let columns: [J] = board.columns.enumerated().map { s, column in
            // The column's cards have the ids first ..< first + count; only those in `only` are written.
            let first = number + 1
            number += column.cards.count
            let lo = only.map { min(max($0.lowerBound - first, 0), column.cards.count) } ?? 0
            let hi = only.map { max(min($0.upperBound - first, column.cards.count), lo) } ?? column.cards.count
            var id = first + lo - 1
            let cards: [J] = column.cards[lo..<hi].map { original in
                id += 1
                let card = info.dialect == .obsidian ? BoardExport.interpretedObsidianBody(original) : original
                let lane = lanes.flatMap { l in l.placement(of: original).lane.map { l.tags[$0] } }
                return .object([
                    ("id", .int(id)),
                    ("title", .string(card.title)),
                    ("done", .bool(card.done)),
                    ("due", optional(card.due)),
                    ("due_date", optional(card.due.flatMap(BoardExport.isoDay))),
                    ("tags", .array(card.tags.map { .string($0) })),
                    ("lane", optional(lane)),
                    ("description", .array(card.descriptionLines.map { .string($0) })),
                    (
                        "subtasks",
                        .array(card.subtasks.map { .object([("title", .string($0.title)), ("done", .bool($0.done))]) })
                    ),
                ])
            }
            return .object([
                ("number", .int(s + 1)),
                ("title", .string(column.title)),
                ("wip_limit", column.wipLimit.map { .int($0) } ?? .null),
                ("cards", .array(cards)),
            ])
        }
        return [
            ("board", .string(boardName(spec))),
            ("dialect", .string(info.dialect == .taskell ? "taskell" : "obsidian")),
            ("swimlanes", .array((lanes?.tags ?? []).map { .string($0) })),
            ("columns", .array(columns)),
        ]
    }

    /// `lanes columns --json`.
    static func columns(_ board: Board, spec: String) -> [(String, J)] {
        [
            ("board", .string(boardName(spec))),
            (
                "columns",
                .array(
                    board.columns.enumerated().map { s, column in
                        .object([
                            ("number", .int(s + 1)),
                            ("title", .string(column.title)),
                            ("card_count", .int(column.cards.count)),
                            ("wip_limit", column.wipLimit.map { .int($0) } ?? .null),
                        ])
                    })
            ),
        ]
    }

    /// `lanes swimlanes --json`: the lanes in order with their card counts, and the cards in no lane.
    static func swimlanes(_ board: Board, spec: String) -> [(String, J)] {
        let lanes = board.acceptRules.swimlanes
        var counts = [Int](repeating: 0, count: (lanes?.count ?? 0) + 1)
        for column in board.columns {
            for card in column.cards { counts[lanes?.placement(of: card).lane ?? counts.count - 1] += 1 }
        }
        return [
            ("board", .string(boardName(spec))),
            (
                "lanes",
                .array(
                    (lanes?.tags ?? []).enumerated().map { l, tag in
                        .object([("number", .int(l + 1)), ("tag", .string(tag)), ("card_count", .int(counts[l]))])
                    })
            ),
            ("no_lane_card_count", .int(counts[counts.count - 1])),
        ]
    }

    /// `lanes rules --json`: each rule (a column and the columns it takes cards from), then the names
    /// the rules give that match no column.
    static func rules(_ board: Board, spec: String) -> [(String, J)] {
        [
            ("board", .string(boardName(spec))),
            (
                "rules",
                .array(
                    board.acceptRules.rules.map { r in
                        .object([("column", .string(r.column)), ("from", .array(r.sources.map { .string($0) }))])
                    })
            ),
            ("unknown_columns", .array(board.unknownRuleColumns.map { .string($0) })),
        ]
    }

    /// `lanes flow --json`: the setting, and what each column counts as.
    static func flow(_ board: Board, spec: String) -> [(String, J)] {
        let setting = board.acceptRules.flow
        let stages = Flow.stages(board, setting)
        let names: [FlowStage: String] = [.notStarted: "not_started", .inProgress: "in_progress", .done: "done"]
        return [
            ("board", .string(boardName(spec))),
            ("started", optional(setting.started)),
            ("done", optional(setting.done)),
            (
                "columns",
                .array(
                    zip(board.columns, stages).enumerated().map { s, pair in
                        .object([
                            ("number", .int(s + 1)), ("title", .string(pair.0.title)),
                            ("stage", .string(names[pair.1]!)),
                        ])
                    })
            ),
        ]
    }

    /// `lanes metrics --json`: FlowOutput's document with `schema_version` first, and the forecast's
    /// keys that are there only sometimes (`reason`, `how_many`, `when`) always there (null when absent).
    static func metrics(_ document: String) -> [(String, J)] {
        guard let node = try? JSONReader.parse(Array(document.utf8), file: "metrics"),
            case .object(let members) = node.value
        else {
            // FlowOutput writes JSON; a failure here is a bug to see, not a document to hide.
            fatalError("lanes metrics wrote JSON that does not read back")
        }
        return members.map { key, value in
            guard key == "forecast", case .object(let f) = value.value else { return (key, converted(value)) }
            var fields: [(String, J)] = []
            for name in ["trials", "seed", "sample_days", "available", "reason", "how_many", "when"] {
                fields.append((name, f.last(where: { $0.key == name }).map { converted($0.value) } ?? .null))
            }
            return (key, .object(fields))
        }
    }

    /// A read JSON value as a value to write (numbers kept as written).
    static func converted(_ node: JSONNode) -> J {
        switch node.value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let text): .number(text)
        case .string(let s): .string(s)
        case .array(let items): .array(items.map(converted))
        case .object(let members): .object(members.map { ($0.key, converted($0.value)) })
        }
    }

    /// `lanes workspace list --json`.
    static func workspaces(folder: String, names: [String]) -> [(String, J)] {
        [("folder", .string(folder)), ("workspaces", .array(names.map { .string($0) }))]
    }

    /// `lanes workspace show NAME --json`.
    static func workspace(name: String, file: String, boards: [String]) -> [(String, J)] {
        [
            ("workspace", .string(name)), ("file", .string(file)),
            ("boards", .array(boards.map { .string(PostgresURL.withoutPasswords($0)) })),
        ]
    }

    /// `lanes restore URL --list --json`: the latest recorded changes (`entries` newest first), in
    /// the order the text lists them: oldest of them first.
    static func history(_ entries: [HistoryEntry], board: String) -> [(String, J)] {
        [
            ("board", .string(board)),
            (
                "changes",
                .array(
                    entries.reversed().map { e in
                        .object([
                            ("id", .int(Int(e.id))),
                            ("at", .string(e.at)),
                            ("role", .string(e.role)),
                            ("entity", .string(e.entity)),
                            ("kind", .string(e.kind)),
                            ("subject", .string(e.subject)),
                            ("column", optional(e.columnTitle)),
                            ("detail", .string(e.detail)),
                        ])
                    })
            ),
        ]
    }

    /// `lanes keys --json`.
    static func keys(_ keymap: Keymap) -> [(String, J)] {
        [
            (
                "actions",
                .array(
                    Action.allCases.map { action in
                        .object([
                            ("action", .string(action.rawValue)),
                            ("keys", .array(keymap.keys(for: action).map { .string($0.description) })),
                            ("summary", .string(action.summary)),
                        ])
                    })
            )
        ]
    }
}

/// The stable codes of errors said as JSON, each with one exit status (README, "JSON output").
enum ErrorCode: String, CaseIterable {
    /// No such file, board, card, column, workspace or history: 1.
    case notFound = "not_found"
    /// It is there but cannot be read (permissions, a folder, being written by another program): 1.
    case unreadable
    /// The PostgreSQL server cannot be reached or failed the request: 1.
    case server
    /// A malformed board file, a value that is no date, an ambiguous name: 2.
    case badInput = "bad_input"
    /// The command line is not understood (an unknown option, a missing argument, options that do not go together): 2.
    case usage
    /// Not allowed: the server refused this role, the board was deleted or access revoked, a read-only board: 2.
    case refused
}

/// An error of a command with the JSON code it is reported with (a server's error, mapped where it is caught).
struct CodedError: Error {
    var error: CommandError
    var code: ErrorCode
}

/// Errors as JSON on stderr, for the read commands asked for JSON.
enum JSONErrors {
    /// The read commands that take `--format json`: their errors follow the format asked for.
    static let commands: Set<String> = [
        "show", "columns", "swimlanes", "rules", "flow", "metrics", "keys", "workspace", "restore",
    ]

    /// Whether the command line asks one of those commands for JSON (`--json`, `--format json`,
    /// `--format=json`; for metrics also `-f json`), before any `--`.
    static func requested(_ words: [String]) -> Bool {
        guard let first = words.first, commands.contains(first) else { return false }
        let options = words.prefix(while: { $0 != "--" })
        for (i, w) in options.enumerated() {
            if w == "--json" || w == "--format=json" { return true }
            if (w == "--format" || (first == "metrics" && w == "-f")) && i + 1 < options.count
                && options[options.startIndex + i + 1] == "json"
            {
                return true
            }
        }
        return false
    }

    /// The code an error is reported with; consistent with its exit status.
    static func code(_ error: any Error, status: Int32) -> ErrorCode {
        switch error {
        case let e as CodedError: return e.code
        case is LanesCore.ParseError: return .badInput
        case let e as CommandError: return e.kind == .notFound ? .notFound : .badInput
        case StorageError.notFound: return .notFound
        case StorageError.readOnly: return .refused
        case StorageError.exists: return .badInput
        case is StorageError: return .unreadable
        default:
            if let code = PostgresCLI.code(for: error) { return code }
            return status == 1 ? .notFound : .usage
        }
    }

    /// Writes `{"schema_version", "error": {"code", "message", "exit_status", "notes"}}` to stderr.
    /// The message is the plain one's words exactly (what stderr says without --json).
    static func write(code: ErrorCode, message: String, status: Int32, notes: [String]) {
        let plain = { (line: String) in TerminalSafe.escape(BoardCommands.straightQuotes(line)) }
        let document = JSONWriter.write(
            .object([
                ("schema_version", .int(JSONSchema.version)),
                (
                    "error",
                    .object([
                        ("code", .string(code.rawValue)),
                        ("message", .string(plain(message))),
                        ("exit_status", .int(Int(status))),
                        ("notes", .array(notes.map { .string(plain($0)) })),
                    ])
                ),
            ]))
        FileHandle.standardError.write(Data(document.utf8))
    }
}

extension CodedError: CustomStringConvertible {
    /// The error's words, as the command error alone would say them (a tab that failed to open shows these).
    var description: String { error.message }
}
