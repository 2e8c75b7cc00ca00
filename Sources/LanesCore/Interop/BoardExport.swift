import DragKit

/// Writing a board out in another form: JSON, or the Markdown of either dialect.
public enum BoardExport {
    /// What `lanes export --format` writes.
    public enum Format: String, CaseIterable, Sendable {
        /// The documented JSON shape (see `json(_:info:)`).
        case json
        /// The board in its own file's dialect and style.
        case markdown
        case taskell
        case obsidian
    }

    /// The board in `format`; a conversion between dialects writes the target's standard style.
    public static func text(_ board: Board, info: BoardFileInfo, format: Format) -> String {
        switch format {
        case .json: json(board, info: info)
        case .markdown: BoardFormat.serialize(board, info: info)
        case .taskell: markdown(board, info: info, as: .taskell)
        case .obsidian: markdown(board, info: info, as: .obsidian)
        }
    }

    /// The board's Markdown in `dialect`; the file's own style when it already is that dialect.
    ///
    /// Obsidian card bodies become taskell descriptions and sub-tasks (see
    /// `interpretedObsidianBody`); Obsidian's done marks and lane lines such as
    /// `**Complete**` have no taskell form and are dropped.
    public static func markdown(_ board: Board, info: BoardFileInfo, as dialect: BoardDialect) -> String {
        if info.dialect == dialect { return BoardFormat.serialize(board, info: info) }
        var converted = board
        if info.dialect == .obsidian {
            for s in converted.columns.indices {
                converted.columns[s].extraLines = []
                for i in converted.columns[s].cards.indices {
                    converted.columns[s].cards[i] = interpretedObsidianBody(converted.columns[s].cards[i])
                    converted.columns[s].cards[i].done = false
                }
            }
        }
        return BoardFormat.serialize(converted, as: dialect)
    }

    /// An Obsidian card with its indented body read as description and sub-tasks.
    ///
    /// The Obsidian reader keeps a card's continuation lines verbatim in `extraLines`.
    /// Here `- [ ] `/`- [x] ` lines (after any indentation) become sub-tasks, other lines
    /// description lines with one indentation level (a tab or up to four spaces) removed;
    /// blank lines at either end of the description are dropped. A card that already
    /// has a description or sub-tasks is returned unchanged.
    public static func interpretedObsidianBody(_ card: Card) -> Card {
        guard card.descriptionLines.isEmpty, card.subtasks.isEmpty, !card.extraLines.isEmpty else { return card }
        var result = card
        result.extraLines = []
        for line in card.extraLines {
            let trimmed = line.drop(while: { $0 == " " || $0 == "\t" })
            if let rest = dropPrefix(trimmed, "- [ ] ") ?? dropPrefix(trimmed, "* [ ] ") {
                result.subtasks.append(Subtask(String(rest), done: false))
            } else if let rest = dropPrefix(trimmed, "- [x] ") ?? dropPrefix(trimmed, "- [X] ")
                ?? dropPrefix(trimmed, "* [x] ") ?? dropPrefix(trimmed, "* [X] ")
            {
                result.subtasks.append(Subtask(String(rest), done: true))
            } else {
                result.descriptionLines.append(unindented(line))
            }
        }
        while result.descriptionLines.last?.allSatisfy(\.isWhitespace) == true { result.descriptionLines.removeLast() }
        while result.descriptionLines.first?.allSatisfy(\.isWhitespace) == true {
            result.descriptionLines.removeFirst()
        }
        return result
    }

    private static func dropPrefix(_ text: Substring, _ prefix: String) -> Substring? {
        text.hasPrefix(prefix) ? text.dropFirst(prefix.count) : nil
    }

    private static func unindented(_ line: String) -> String {
        if line.hasPrefix("\t") { return String(line.dropFirst()) }
        let spaces = line.prefix(4).prefix(while: { $0 == " " }).count
        return String(line.dropFirst(spaces))
    }

    /// `YYYY-MM-DD` for a due date written `2024-01-31`, `2024/1/31` or `2024-1-31` (a time after a space or `T` is ignored); nil otherwise.
    public static func isoDay(_ due: String) -> String? {
        let datePart = due.prefix(while: { $0 != " " && $0 != "T" })
        let parts = datePart.split(separator: datePart.contains("/") ? "/" : "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, (1...2).contains(parts[1].count), (1...2).contains(parts[2].count),
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
            (1...12).contains(m), (1...31).contains(d)
        else { return nil }
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(y)-\(two(m))-\(two(d))"
    }

    /// The board as JSON, in this shape (keys always present, in this order):
    ///
    ///     { "version": 1, "dialect": "taskell" | "obsidian",
    ///       "columns": [ { "number": 1, "title": "…", "wipLimit": 3 | null,
    ///         "cards": [ { "id": 1, "title": "…", "done": false,
    ///           "due": "as written" | null, "dueDate": "YYYY-MM-DD" | null,
    ///           "tags": ["…"], "description": "line\nline",
    ///           "subtasks": [ { "title": "…", "done": false } ] } ] } ] }
    ///
    /// `id` is the card's number as `lanes show` prints it; `description` is "" when
    /// there is none. Obsidian card bodies are read as in `interpretedObsidianBody`.
    public static func json(_ board: Board, info: BoardFileInfo) -> String {
        var number = 0
        var columns: [JSONWriter.Value] = []
        for (s, column) in board.columns.enumerated() {
            var cards: [JSONWriter.Value] = []
            for original in column.cards {
                number += 1
                let card = info.dialect == .obsidian ? interpretedObsidianBody(original) : original
                cards.append(
                    .object([
                        ("id", .int(number)),
                        ("title", .string(card.title)),
                        ("done", .bool(card.done)),
                        ("due", card.due.map { .string($0) } ?? .null),
                        ("dueDate", card.due.flatMap(isoDay).map { .string($0) } ?? .null),
                        ("tags", .array(card.tags.map { .string($0) })),
                        ("description", .string(card.descriptionLines.joined(separator: "\n"))),
                        (
                            "subtasks",
                            .array(
                                card.subtasks.map { .object([("title", .string($0.title)), ("done", .bool($0.done))]) })
                        ),
                    ]))
            }
            columns.append(
                .object([
                    ("number", .int(s + 1)),
                    ("title", .string(column.title)),
                    ("wipLimit", column.wipLimit.map { .int($0) } ?? .null),
                    ("cards", .array(cards)),
                ]))
        }
        return JSONWriter.write(
            .object([
                ("version", .int(1)),
                ("dialect", .string(info.dialect == .taskell ? "taskell" : "obsidian")),
                ("columns", .array(columns)),
            ]))
    }
}
