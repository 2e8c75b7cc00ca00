import DragKit

/// The intent record of one cross-board move: what moves, from where, to where.
///
/// Written whole and synced before the first board write (see `MoveJournal`), so that a
/// process that dies at any moment leaves enough to finish or roll back the move. A card is
/// recognised by its full content: a file board gives no card an identity that outlives a
/// read, so the record holds every field, and the number of cards with that content each
/// board held before the move (`sourceCountBefore`, `targetCountBefore`) tells "already
/// inserted" or "already deleted" from a twin that was there all along.
public struct MoveRecord: Sendable, Equatable {
    /// One card of the move, as it was when the move began.
    public struct Entry: Sendable, Equatable {
        public var card: Card
        public var sourceColumn: String
        /// 0-based, in the source column when the move began.
        public var sourcePosition: Int
        /// Cards with exactly this content in the source board before the move (this one included).
        public var sourceCountBefore: Int
        /// Cards with exactly this content in the target board before the move.
        public var targetCountBefore: Int

        public static func == (a: Entry, b: Entry) -> Bool {
            sameContent(a.card, b.card) && a.sourceColumn == b.sourceColumn && a.sourcePosition == b.sourcePosition
                && a.sourceCountBefore == b.sourceCountBefore && a.targetCountBefore == b.targetCountBefore
        }
    }

    public var id: String
    /// The source board's key: an absolute path, or a database URL without its password.
    public var source: String
    public var target: String
    public var targetColumn: String
    /// 0-based index in the target column where the first card goes.
    public var targetPosition: Int
    public var entries: [Entry]

    /// The record as one JSON line.
    func serialized() -> String {
        func card(_ e: Entry) -> JSONWriter.Value {
            let c = e.card
            return .object([
                ("title", .string(c.title)), ("done", .bool(c.done)), ("due", c.due.map { .string($0) } ?? .null),
                ("description", .array(c.descriptionLines.map { .string($0) })),
                (
                    "subtasks",
                    .array(c.subtasks.map { .object([("title", .string($0.title)), ("done", .bool($0.done))]) })
                ),
                ("extraLines", .array(c.extraLines.map { .string($0) })),
                ("sourceColumn", .string(e.sourceColumn)), ("sourcePosition", .int(e.sourcePosition)),
                ("sourceCountBefore", .int(e.sourceCountBefore)), ("targetCountBefore", .int(e.targetCountBefore)),
            ])
        }
        let value = JSONWriter.Value.object([
            ("lanesMove", .int(1)), ("id", .string(id)), ("source", .string(source)), ("target", .string(target)),
            ("targetColumn", .string(targetColumn)), ("targetPosition", .int(targetPosition)),
            ("cards", .array(entries.map(card))),
        ])
        // One line: the lines after it are the phase marks.
        return JSONWriter.write(value).split(separator: "\n").map { $0.drop(while: { $0 == " " }) }.joined(
            separator: " ") + "\n"
    }

    /// Reads the record's first line; throws when it is not a whole record of this version.
    static func parse(_ text: String, file: String) throws -> MoveRecord {
        let node = try JSONReader.parse(Array(text.utf8), file: file)
        func bad(_ what: String) -> ParseError {
            ParseError(file: file, line: 1, message: "not a Lanes move record: \(what)")
        }
        guard node["lanesMove"]?.number == 1 else { throw bad("no \"lanesMove\": 1") }
        func string(_ n: JSONNode?, _ key: String) throws -> String {
            guard let s = n?[key]?.string else { throw bad("\"\(key)\" missing") }
            return s
        }
        func int(_ n: JSONNode?, _ key: String) throws -> Int {
            guard let d = n?[key]?.number, let i = Int(exactly: d) else { throw bad("\"\(key)\" missing") }
            return i
        }
        func strings(_ n: JSONNode?, _ key: String) throws -> [String] {
            guard case .array(let items)? = n?[key]?.value else { throw bad("\"\(key)\" missing") }
            return try items.map {
                guard let s = $0.string else { throw bad("\"\(key)\" holds a non-string") }; return s
            }
        }
        guard case .array(let cards)? = node["cards"]?.value, !cards.isEmpty else { throw bad("no cards") }
        var entries: [Entry] = []
        for c in cards {
            guard case .array(let subs)? = c["subtasks"]?.value else { throw bad("\"subtasks\" missing") }
            let subtasks = try subs.map { Subtask(try string($0, "title"), done: $0["done"]?.bool ?? false) }
            let card = Card(
                id: CardID.fresh(), title: try string(c, "title"), due: c["due"]?.string,
                descriptionLines: try strings(c, "description"), subtasks: subtasks,
                done: c["done"]?.bool ?? false, extraLines: try strings(c, "extraLines"))
            entries.append(
                Entry(
                    card: card, sourceColumn: try string(c, "sourceColumn"),
                    sourcePosition: try int(c, "sourcePosition"),
                    sourceCountBefore: try int(c, "sourceCountBefore"),
                    targetCountBefore: try int(c, "targetCountBefore")))
        }
        return MoveRecord(
            id: try string(node, "id"), source: try string(node, "source"), target: try string(node, "target"),
            targetColumn: try string(node, "targetColumn"), targetPosition: try int(node, "targetPosition"),
            entries: entries)
    }
}

/// How many cards of `board` have exactly `card`'s content.
func contentCount(of card: Card, in board: Board) -> Int {
    var n = 0
    for column in board.columns { for c in column.cards where sameContent(c, card) { n += 1 } }
    return n
}
