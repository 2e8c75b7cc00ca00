import DragKit

/// Turns a Trello board into a Lanes board.
///
/// Reads Trello's "Export as JSON" (an object with `lists`, `cards`, `checklists`,
/// `labels`) and the REST API's lists-with-cards response (an array of lists, each
/// holding `cards`). Lists, cards, checklists and checklist items are ordered by
/// `pos`; ties and missing `pos` keep the file's order. What maps where:
/// - list `name` → column title; `softLimit` (a positive integer) → WIP limit;
/// - card `name` → title, followed by one ` #tag` per label (the label's name with
///   spaces as `-` and characters a tag cannot hold left out; the colour when the
///   name is empty) — in both dialects, since Lanes reads `#tags` from titles;
/// - `desc` → description lines; `due` → `YYYY-MM-DD` (the date part as Trello
///   writes it, which is UTC);
/// - checklist items → sub-tasks (`state` "complete" → done), the card's
///   checklists one after another; checklist names are not kept;
/// - `closed` lists and cards (archived) are left out unless `includeArchived`.
/// Cards of a list that is left out, or missing, are left out too.
public enum TrelloImport {
    public struct Options: Sendable {
        public var includeArchived: Bool

        public init(includeArchived: Bool = false) {
            self.includeArchived = includeArchived
        }
    }

    /// The board a Trello JSON file describes; malformed JSON or an unexpected shape throws with the line.
    public static func board(from bytes: [UInt8], file: String, options: Options = Options()) throws(ParseError)
        -> Board
    {
        let root = try JSONReader.parse(bytes, file: file)
        var reader = ShapeReader(file: file, options: options)
        if let lists = root.array {
            return try reader.restLists(lists)
        }
        guard root.isObject else {
            throw ParseError(
                file: file, line: root.line,
                message:
                    "expected a Trello export (an object with \"lists\" and \"cards\") or a list of lists; found \(root.kindDescription)"
            )
        }
        return try reader.export(root)
    }

    /// A tag for a label: the name with whitespace as `-` and other characters a tag cannot hold dropped.
    public static func tag(forLabelNamed name: String, color: String?) -> String? {
        var tag = ""
        var pendingDash = false
        for ch in name {
            if ch.isWhitespace {
                pendingDash = !tag.isEmpty
                continue
            }
            guard ch.isLetter || ch.isNumber || ch == "_" || ch == "-" || ch == "/" else { continue }
            if pendingDash { tag.append("-"); pendingDash = false }
            tag.append(ch)
        }
        if !tag.isEmpty { return tag }
        guard let color, !color.isEmpty else { return nil }
        return TrelloImport.tag(forLabelNamed: color, color: nil)
    }

    /// `YYYY-MM-DD` from an ISO 8601 date (`2024-01-31`, or with a time such as `T12:00:00.000Z`),
    /// or nil when it is not a real date and time (`2024-13-45T99:99:99Z` is not).
    public static func day(fromISODate text: String) -> String? {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var n = 0
            for k in from..<from + count {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[k]) else { return nil }
                n = n * 10 + Int(b[k] - UInt8(ascii: "0"))
            }
            return n
        }
        guard b.count >= 10, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year)
        else { return nil }
        if b.count > 10 {
            // The time: THH:MM, optional :SS and .fraction, then Z or ±HH:MM (or nothing).
            guard b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: " "),
                let hour = number(11, 2), hour < 24, b.count > 13, b[13] == UInt8(ascii: ":"),
                let minute = number(14, 2), minute < 60
            else { return nil }
            var k = 16
            if k < b.count, b[k] == UInt8(ascii: ":") {
                guard let second = number(k + 1, 2), second <= 60 else { return nil }
                k += 3
                if k < b.count, b[k] == UInt8(ascii: ".") {
                    k += 1
                    let digits = k
                    while k < b.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(b[k]) { k += 1 }
                    guard k > digits else { return nil }
                }
            }
            if k < b.count {
                if b[k] == UInt8(ascii: "Z") {
                    k += 1
                } else if b[k] == UInt8(ascii: "+") || b[k] == UInt8(ascii: "-") {
                    guard let h = number(k + 1, 2), h < 24, k + 3 < b.count, b[k + 3] == UInt8(ascii: ":"),
                        let m = number(k + 4, 2), m < 60
                    else { return nil }
                    k += 6
                }
            }
            guard k == b.count else { return nil }
        }
        return String(decoding: b[0..<10], as: UTF8.self)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    private struct ShapeReader {
        let file: String
        let options: Options
        var board = Board()

        init(file: String, options: Options) {
            self.file = file
            self.options = options
        }

        func fail(_ node: JSONNode, _ message: String) -> ParseError {
            ParseError(file: file, line: node.line, message: message)
        }

        func objects(_ node: JSONNode?, _ what: String, required: Bool = true, parent: JSONNode) throws(ParseError)
            -> [JSONNode]
        {
            guard let node, !node.isNull else {
                if required { throw fail(parent, "expected \"\(what)\" (an array) in the Trello export") }
                return []
            }
            guard let items = node.array else {
                throw fail(node, "\"\(what)\" must be an array; found \(node.kindDescription)")
            }
            for item in items where !item.isObject {
                throw fail(item, "each entry of \"\(what)\" must be an object; found \(item.kindDescription)")
            }
            return items
        }

        func text(_ node: JSONNode, _ key: String, what: String, required: Bool) throws(ParseError) -> String? {
            guard let value = node[key], !value.isNull else {
                if required { throw fail(node, "\(what) has no \"\(key)\"") }
                return nil
            }
            guard let s = value.string else {
                throw fail(value, "\(what): \"\(key)\" must be a string; found \(value.kindDescription)")
            }
            return s
        }

        func isClosed(_ node: JSONNode, what: String) throws(ParseError) -> Bool {
            guard let value = node["closed"], !value.isNull else { return false }
            guard let b = value.bool else {
                throw fail(value, "\(what): \"closed\" must be true or false; found \(value.kindDescription)")
            }
            return b
        }

        /// Sorts by `pos`; entries without a numeric `pos` go last, and ties keep their order.
        func byPos(_ nodes: [JSONNode], what: String) throws(ParseError) -> [JSONNode] {
            var keyed: [(pos: Double, index: Int, node: JSONNode)] = []
            for (index, node) in nodes.enumerated() {
                var pos = Double.infinity
                if let value = node["pos"], !value.isNull {
                    if let n = value.number ?? value.string.flatMap(Double.init) {
                        pos = n
                    } else {
                        throw fail(value, "\(what): \"pos\" must be a number; found \(value.kindDescription)")
                    }
                }
                keyed.append((pos, index, node))
            }
            keyed.sort { $0.pos != $1.pos ? $0.pos < $1.pos : $0.index < $1.index }
            return keyed.map(\.node)
        }

        func wipLimit(_ list: JSONNode) -> Int? {
            guard let value = list["softLimit"] else { return nil }
            let n: Int? =
                value.string.flatMap { Int($0) }
                ?? value.number.flatMap { $0 == $0.rounded() && $0 < 1e9 ? Int($0) : nil }
            guard let n, n > 0 else { return nil }
            return n
        }

        mutating func export(_ root: JSONNode) throws(ParseError) -> Board {
            let lists = try byPos(objects(root["lists"], "lists", parent: root), what: "list")
            let cards = try objects(root["cards"], "cards", parent: root)
            let checklists = try objects(root["checklists"], "checklists", required: false, parent: root)
            var labelsByID: [String: JSONNode] = [:]
            for label in try objects(root["labels"], "labels", required: false, parent: root) {
                if let id = label["id"]?.string { labelsByID[id] = label }
            }
            var checklistsByCard: [String: [JSONNode]] = [:]
            for checklist in checklists {
                guard let card = try text(checklist, "idCard", what: "checklist", required: true) else { continue }
                checklistsByCard[card, default: []].append(checklist)
            }
            var cardsByList: [String: [JSONNode]] = [:]
            for card in cards {
                guard let list = try text(card, "idList", what: "card", required: true) else { continue }
                cardsByList[list, default: []].append(card)
            }
            var columns: [Column] = []
            for list in lists {
                if !options.includeArchived, try isClosed(list, what: "list") { continue }
                let name = try text(list, "name", what: "list", required: true)!
                let id = try text(list, "id", what: "list", required: true)!
                var column = Column(title: name, wipLimit: wipLimit(list))
                for card in try byPos(cardsByList[id] ?? [], what: "card") {
                    if !options.includeArchived, try isClosed(card, what: "card") { continue }
                    let cardID = try text(card, "id", what: "card", required: false)
                    let lists = cardID.flatMap { checklistsByCard[$0] } ?? []
                    column.cards.append(try makeCard(card, checklists: lists, labelsByID: labelsByID))
                }
                columns.append(column)
            }
            return finish(columns)
        }

        mutating func restLists(_ nodes: [JSONNode]) throws(ParseError) -> Board {
            for node in nodes where !node.isObject {
                throw fail(node, "expected each list to be an object; found \(node.kindDescription)")
            }
            var columns: [Column] = []
            for list in try byPos(nodes, what: "list") {
                if !options.includeArchived, try isClosed(list, what: "list") { continue }
                let name = try text(list, "name", what: "list", required: true)!
                var column = Column(title: name, wipLimit: wipLimit(list))
                for card in try byPos(objects(list["cards"], "cards", required: false, parent: list), what: "card") {
                    if !options.includeArchived, try isClosed(card, what: "card") { continue }
                    let nested = try objects(card["checklists"], "checklists", required: false, parent: card)
                    column.cards.append(try makeCard(card, checklists: nested, labelsByID: [:]))
                }
                columns.append(column)
            }
            return finish(columns)
        }

        mutating func finish(_ columns: [Column]) -> Board {
            // Numbered 1, 2, 3… in board order, as a parse of a board file numbers its cards.
            var board = Board(columns: columns)
            board.makeColumnTitlesUnique()
            var next: UInt64 = 1
            for s in board.columns.indices {
                for i in board.columns[s].cards.indices {
                    board.columns[s].cards[i].id = CardID(next)
                    next += 1
                }
            }
            return board
        }

        func makeCard(_ card: JSONNode, checklists: [JSONNode], labelsByID: [String: JSONNode]) throws(ParseError)
            -> Card
        {
            var title = try text(card, "name", what: "card", required: true)!
            var tags: [String] = []
            var labels: [JSONNode] = []
            if let inline = card["labels"]?.array, !inline.isEmpty {
                labels = inline
            } else if let ids = card["idLabels"]?.array {
                labels = ids.compactMap { $0.string.flatMap { labelsByID[$0] } }
            }
            for label in labels {
                let name = label["name"]?.string ?? ""
                if let tag = TrelloImport.tag(forLabelNamed: name, color: label["color"]?.string), !tags.contains(tag) {
                    tags.append(tag)
                }
            }
            for tag in tags where !Card.tags(in: title).contains(tag) { title += " #" + tag }

            var due: String?
            if let value = card["due"], !value.isNull {
                guard let text = value.string, let day = TrelloImport.day(fromISODate: text) else {
                    throw fail(
                        value,
                        "card \"\(title)\": \"due\" must be a real date in ISO 8601, such as \"2024-01-31T12:00:00.000Z\"; found \(value.string.map { "\"\($0)\"" } ?? value.kindDescription)"
                    )
                }
                due = day
            }

            var description: [String] = []
            if let desc = try text(card, "desc", what: "card \"\(title)\"", required: false) {
                description = desc.replacingCRLF().split(separator: "\n", omittingEmptySubsequences: false).map(
                    String.init)
                while description.last?.allSatisfy(\.isWhitespace) == true { description.removeLast() }
                while description.first?.allSatisfy(\.isWhitespace) == true { description.removeFirst() }
            }

            var subtasks: [Subtask] = []
            for checklist in try byPos(checklists, what: "checklist") {
                let items = try objects(checklist["checkItems"], "checkItems", required: false, parent: checklist)
                for item in try byPos(items, what: "checklist item") {
                    let name = try text(item, "name", what: "checklist item", required: true)!
                    let state = try text(item, "state", what: "checklist item", required: false)
                    subtasks.append(Subtask(name, done: state == "complete"))
                }
            }
            return Card(id: CardID(0), title: title, due: due, descriptionLines: description, subtasks: subtasks)
        }
    }
}

extension String {
    /// `\r\n` and lone `\r` as `\n`.
    func replacingCRLF() -> String {
        guard utf8.contains(0x0D) else { return self }
        return String(map { $0 == "\r\n" || $0 == "\r" ? "\n" : $0 })
    }
}
