import DragKit

/// Finding a card or a column from what a user typed.
///
/// Card numbers are 1-based positions in file order, counting column by column
/// from the top (what `lanes show` prints); they change when cards are added or
/// moved before them. A query is matched in tiers, and the first tier with any
/// match decides — one match is the answer, several are ambiguous:
/// 1. the number (all digits) or the exact title;
/// 2. the title, ignoring case;
/// 3. the start of the title, ignoring case.
/// So a card titled "12" and card number 12 being different cards is ambiguous.
/// Columns match the same way, with their 1-based number as `lanes columns` prints it.
public enum BoardQuery {
    /// The card number `lanes show` prints for a position.
    public static func number(of path: ItemPath, in board: Board) -> Int {
        board.columns[..<path.section].reduce(0) { $0 + $1.cards.count } + path.item + 1
    }

    /// The position of card number `n`, or nil when there is none.
    public static func path(ofNumber n: Int, in board: Board) -> ItemPath? {
        guard n >= 1 else { return nil }
        var left = n - 1
        for (s, column) in board.columns.enumerated() {
            if left < column.cards.count { return ItemPath(section: s, item: left) }
            left -= column.cards.count
        }
        return nil
    }

    public static func card(_ query: String, in board: Board) throws(CommandError) -> ItemPath {
        guard !query.isEmpty else {
            throw CommandError(.badInput, "the card to find is empty; give its number or (the start of) its title")
        }
        // The tiers of `tiers`, each a pass over the titles read in place (at 10,000 cards, building
        // every path and copying every card to read its title took 1.4 ms of a `lanes mcp` move).
        func matching(_ test: (String) -> Bool) -> [ItemPath] {
            var found: [ItemPath] = []
            for (s, column) in board.columns.enumerated() {
                for i in column.cards.offsets(whereTitle: test) { found.append(ItemPath(section: s, item: i)) }
            }
            return found
        }
        var matches = matching { $0 == query }
        if isNumber(query), let numbered = Int(query).flatMap({ path(ofNumber: $0, in: board) }),
            !matches.contains(numbered)
        {
            matches.insert(numbered, at: 0)
        }
        if matches.isEmpty {
            let folded = query.lowercased()
            matches = matching { $0.lowercased() == folded }
            if matches.isEmpty { matches = matching { $0.lowercased().hasPrefix(folded) } }
        }
        switch matches.count {
        case 1: return matches[0]
        case 0:
            throw CommandError(.notFound, "no card matches \"\(query)\"; lanes show lists the cards and their numbers")
        default:
            let list = matches.prefix(5).map {
                "\(number(of: $0, in: board)) \"\(board[$0].title)\" (in \(board.columns[$0.section].title))"
            }
            let more = matches.count > 5 ? ", …" : ""
            throw CommandError(
                .badInput,
                "\"\(query)\" matches \(matches.count) cards: \(list.joined(separator: ", "))\(more); give the card's number or more of its title"
            )
        }
    }

    /// The index of a column.
    public static func column(_ query: String, in board: Board) throws(CommandError) -> Int {
        guard !query.isEmpty else {
            throw CommandError(.badInput, "the column to find is empty; give its number or (the start of) its title")
        }
        let numbered =
            isNumber(query) ? Int(query).flatMap { board.columns.indices.contains($0 - 1) ? $0 - 1 : nil } : nil
        let matches = tiers(
            query, candidates: Array(board.columns.indices), title: { board.columns[$0].title }, numbered: numbered)
        switch matches.count {
        case 1: return matches[0]
        case 0:
            let titles = board.columns.map { "\"\($0.title)\"" }.joined(separator: ", ")
            // How to make one, for a title (a number names a place, not a column to make).
            let make = isNumber(query) ? "" : "; lanes column add BOARD \"\(query)\" adds it"
            throw CommandError(
                .notFound,
                "no column matches \"\(query)\"; the columns are \(titles.isEmpty ? "(none)" : titles)\(make)")
        default:
            let list = matches.map { "\($0 + 1) \"\(board.columns[$0].title)\"" }.joined(separator: ", ")
            throw CommandError(
                .badInput,
                "\"\(query)\" matches \(matches.count) columns: \(list); give the column's number or more of its title")
        }
    }

    private static func isNumber(_ text: String) -> Bool {
        !text.isEmpty && text.count <= 18 && text.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func tiers<T: Equatable>(_ query: String, candidates: [T], title: (T) -> String, numbered: T?) -> [T]
    {
        var exact = candidates.filter { title($0) == query }
        if let numbered, !exact.contains(numbered) { exact.insert(numbered, at: 0) }
        if !exact.isEmpty { return exact }
        let folded = query.lowercased()
        let sameIgnoringCase = candidates.filter { title($0).lowercased() == folded }
        if !sameIgnoringCase.isEmpty { return sameIgnoringCase }
        return candidates.filter { title($0).lowercased().hasPrefix(folded) }
    }
}
