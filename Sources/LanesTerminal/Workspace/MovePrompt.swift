import DragKit
import LanesCore

/// The `m` prompt: which board and column to move the cards to, typed as `board:column` or
/// `board:column:N` (at 1-based position N; without it, the end), with Tab completion.
///
/// A board is named by its tab's name or the unique start of it (any case); a column as
/// `lanes move` finds one (its title, the start of it, or its number). A board alone means its first column.
struct MovePrompt {
    /// Words that say why an answer cannot be used; the prompt stays open with the text as typed.
    struct Refusal: Error { var words: String }

    var cards: [CrossMove.Seen]
    let from: Int
    /// The boards as they were when the prompt opened (for completion; the move reads them again).
    let boards: [Board]
    let names: [String]
    var editor = LineEditor()

    var label: String {
        let what =
            cards.count == 1
            ? "Move “\(DisplayText.truncate(DisplayText.safe(cards[0].card.title), to: 30))”"
            : "Move \(cards.count) cards"
        return what + " to board:column[:N] (tab completes): "
    }

    /// The boards other than the source whose names start with `text` (any case); an exact name alone when there is one.
    func boardsMatching(_ text: String) -> [Int] {
        let t = text.lowercased()
        let others = names.indices.filter { $0 != from }
        if let exact = others.first(where: { names[$0].lowercased() == t }) { return [exact] }
        return others.filter { names[$0].lowercased().hasPrefix(t) }
    }

    /// The target board and what follows its `:`, when the text names one.
    func split(_ text: String) -> (board: Int, column: String)? {
        // The longest name followed by ":" wins (a name may itself hold a colon).
        let named = names.indices.filter { $0 != from && text.lowercased().hasPrefix(names[$0].lowercased() + ":") }
        if let i = named.max(by: { names[$0].count < names[$1].count }) {
            return (i, String(text.dropFirst(names[i].count + 1)))
        }
        if let colon = text.firstIndex(of: ":") {
            let matches = boardsMatching(String(text[..<colon]))
            if matches.count == 1 { return (matches[0], String(text[text.index(after: colon)...])) }
        }
        return nil
    }

    /// Tab going round several matches: the texts it offers in turn and the one shown now. Any
    /// other key changes the text, and the next Tab completes it afresh.
    var cycle: (texts: [String], shown: Int)?

    mutating func complete() {
        let text = editor.text
        // Tab again on a text Tab put there, with several matches: the next one.
        if let c = cycle, c.texts.indices.contains(c.shown), c.texts[c.shown] == text {
            let next = (c.shown + 1) % c.texts.count
            offer(c.texts, next)
            return
        }
        cycle = nil
        if let (b, rest) = split(text) {
            let titles = boards[b].columns.map(\.title)
            let matches = titles.filter { $0.lowercased().hasPrefix(rest.lowercased()) }
            switch matches.count {
            case 0:
                editor.say(
                    "No column of \(names[b]) starts with “\(DisplayText.safe(rest))”; its columns: \(listed(titles))")
            case 1:
                editor = LineEditor(names[b] + ":" + matches[0])
            default:
                let common = commonPrefix(matches, atLeast: rest)
                if common.count > rest.count {
                    editor = LineEditor(names[b] + ":" + common)
                    editor.say("Columns of \(names[b]): \(listed(matches)) (tab again goes through them)")
                } else {
                    offer(matches.map { names[b] + ":" + $0 }, 0)
                }
            }
            return
        }
        let matches = boardsMatching(text)
        switch matches.count {
        case 0:
            editor.say(
                "No other board starts with “\(DisplayText.safe(text))”; the boards: \(listed(names.indices.filter { $0 != from }.map { names[$0] }))"
            )
        case 1:
            editor = LineEditor(names[matches[0]] + ":")
        default:
            let common = commonPrefix(matches.map { names[$0] }, atLeast: text)
            if common.count > text.count {
                editor = LineEditor(common)
                editor.say("Boards: \(listed(matches.map { names[$0] })) (tab again goes through them)")
            } else {
                offer(matches.map { names[$0] + ":" }, 0)
            }
        }
    }

    /// Puts the `k`th of several completions in the line, and says which of how many it is.
    private mutating func offer(_ texts: [String], _ k: Int) {
        editor = LineEditor(texts[k])
        cycle = (texts, k)
        editor.say("\(k + 1) of \(texts.count): \(listed(texts)) (tab: the next; enter moves the card there)")
    }

    /// A column part ending in `:N` (digits): the column and the position. A column of that board
    /// whose whole title is the text (a title may hold `:2`) is a column, not a position.
    static func position(in rest: String, of board: Board) -> (column: String, position: Int?) {
        guard let colon = rest.lastIndex(of: ":"),
            !board.columns.contains(where: { $0.title.lowercased() == rest.lowercased() })
        else {
            return (rest, nil)
        }
        let digits = rest[rest.index(after: colon)...].trimmingCharacters(in: " ")
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let n = Int(digits) else {
            return (rest, nil)
        }
        return (String(rest[..<colon]).trimmingCharacters(in: " "), n)
    }

    /// The target board, column and position (nil: the end) the text names; a refusal in words when it names none.
    func answer() -> Result<(Int, String, Int?), Refusal> {
        let text = editor.text.trimmingCharacters(in: " ")
        if text.isEmpty { return .failure(Refusal(words: "Type a board (tab completes), then : and a column")) }
        if let (b, rest) = split(text) {
            let (column, position) = Self.position(in: rest.trimmingCharacters(in: " "), of: boards[b])
            if column.isEmpty {
                guard let first = boards[b].columns.first else {
                    return .failure(Refusal(words: "\(names[b]) has no columns"))
                }
                return .success((b, first.title, position))
            }
            // The column as `lanes move` finds it (the move finds it again, the same way), here,
            // while the text is still in the prompt: one that names none, or several, is refused
            // with the prompt left open. The rules of the target (row, WIP limit, accept rule) are
            // its door's, when the move runs; a refusal there opens the prompt again too.
            let board = boards[b]
            // A board not read (yet, or at all) has no columns to check: the move says what it finds.
            if board.columns.isEmpty || (try? BoardQuery.column(column, in: board)) != nil {
                return .success((b, column, position))
            }
            let titles = board.columns.map(\.title)
            let starts = titles.filter { $0.lowercased().hasPrefix(column.lowercased()) }
            if starts.count > 1 {
                return .failure(
                    Refusal(
                        words:
                            "“\(DisplayText.safe(column))” could be \(listed(starts)) on \(names[b]): type more of the column (tab goes through them)"
                    ))
            }
            return .failure(
                Refusal(
                    words:
                        "\(names[b]) has no column “\(DisplayText.safe(column))”; its columns: \(titles.isEmpty ? "none" : listed(titles))"
                ))
        }
        let matches = boardsMatching(text)
        if matches.count == 1 {
            guard let first = boards[matches[0]].columns.first else {
                return .failure(Refusal(words: "\(names[matches[0]]) has no columns"))
            }
            return .success((matches[0], first.title, nil))
        }
        if names.indices.contains(from), text.lowercased().hasPrefix(names[from].lowercased()) {
            return .failure(
                Refusal(
                    words: "The card is already on \(names[from]); move it inside the board with the mouse or H/J/K/L"))
        }
        if matches.isEmpty {
            return .failure(
                Refusal(
                    words:
                        "No board is called “\(DisplayText.safe(text))”; the boards: \(listed(names.indices.filter { $0 != from }.map { names[$0] }))"
                ))
        }
        return .failure(
            Refusal(
                words:
                    "“\(DisplayText.safe(text))” could be \(listed(matches.map { names[$0] })); type more of the name"))
    }

    private func listed(_ items: [String]) -> String {
        items.map { DisplayText.safe($0) }.joined(separator: ", ")
    }

    /// The longest start all of `words` share (any case, spelled as the first), and never shorter than what was typed.
    private func commonPrefix(_ words: [String], atLeast typed: String) -> String {
        guard var prefix = words.first.map(Array.init) else { return typed }
        for w in words.dropFirst() {
            let a = Array(w)
            var n = 0
            while n < prefix.count, n < a.count, String(prefix[n]).lowercased() == String(a[n]).lowercased() { n += 1 }
            prefix = Array(prefix.prefix(n))
        }
        return prefix.count >= typed.count ? String(prefix) : typed
    }

    /// The prompt on the bottom row (reversed, with the cursor), and its note above it.
    func draw(into buf: inout CellBuffer, width: Int, row y: Int) {
        let labelWidth = TextWidth.width(of: label) + 1
        let shown = editor.visible(width: max(1, width - labelWidth - 1))
        buf.fill(x: 0, y: y, width: width, height: 1, style: Style(reverse: true))
        buf.write(" " + label, x: 0, y: y, style: Style(reverse: true), maxX: width)
        buf.write(shown.text, x: labelWidth, y: y, style: Style(reverse: true), maxX: width)
        let cx = labelWidth + shown.cursor
        if cx < width { buf[cx, y] = Cell(buf[cx, y].text.isEmpty ? " " : buf[cx, y].text, style: Style()) }
        buf.cursor = Point(x: min(cx, width - 1), y: y)
        if let note = editor.note, y > 0 {
            buf.fill(x: 0, y: y - 1, width: width, height: 1, style: Style(reverse: true))
            buf.write(
                " " + DisplayText.truncate(note, to: max(0, width - 1)), x: 0, y: y - 1,
                style: Style(bold: true, reverse: true), maxX: width)
        }
    }
}
