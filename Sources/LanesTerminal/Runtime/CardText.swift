import DragKit
import LanesCore

/// One card as a small Markdown file for `$EDITOR`, and back, keeping what the editor left alone.
///
/// The file is the card line (`- [ ] title`, `- [x] title` where the board keeps done marks,
/// `- title` in taskell), then taskell-style details (`    @ due`, `    > description`,
/// `    * [ ] sub-task`), then the card's other lines exactly as the board file holds them.
/// Reading it back, the card's own lines (the original's extra lines, when the file still ends
/// with them) are kept as they were; other lines after the details become extra lines, or,
/// on a board that cannot keep them (taskell), an error naming the line.
public enum CardText {
    public static func render(_ card: Card, storesDoneMark: Bool = true) -> String {
        var out = storesDoneMark ? (card.done ? "- [x] " : "- [ ] ") : "- "
        out += oneLine(card.title) + "\n"
        if let due = card.due { out += "    @ " + oneLine(due) + "\n" }
        for line in card.descriptionLines { out += "    > " + oneLine(line) + "\n" }
        for sub in card.subtasks { out += (sub.done ? "    * [x] " : "    * [ ] ") + oneLine(sub.title) + "\n" }
        for line in card.extraLines { out += line + "\n" }
        return out
    }

    /// The text on one line (a card's fields never hold line breaks; this keeps the file's lines its own).
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }

    /// The card the text describes; `original` is the card as it was (its identity and kept lines).
    public static func parse(_ text: String, original: Card, storesDoneMark: Bool = true) throws -> Card {
        var lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { line -> String in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        var n = 0
        while n < lines.count && lines[n].isEmpty { n += 1 }
        // A `## ` heading above the card (how Lanes once wrote this file) is allowed.
        if n < lines.count, lines[n].hasPrefix("## ") {
            n += 1
            while n < lines.count && lines[n].isEmpty { n += 1 }
        }
        func fail(_ k: Int, _ message: String) -> ParseError {
            ParseError(file: "card", line: k + 1, message: message)
        }
        guard n < lines.count, lines[n].hasPrefix("- ") || lines[n] == "-" else {
            throw fail(n, "expected the card line (\"- title\") first")
        }
        var card = original
        let head = lines[n].count > 2 ? String(lines[n].dropFirst(2)) : ""
        card.done = false
        if storesDoneMark, head.count >= 3, head.hasPrefix("["), Array(head)[2] == "]",
            head.count == 3 || Array(head)[3] == " "
        {
            let mark = Array(head)[1]
            card.done = mark != " "
            card.title = String(head.dropFirst(head.count == 3 ? 3 : 4))
        } else {
            card.title = head
            card.done = storesDoneMark ? false : original.done
        }
        n += 1
        // The original's kept lines, when the file still ends with them, stay its kept lines.
        var end = lines.count
        let kept = original.extraLines
        if !kept.isEmpty, end - n >= kept.count, Array(lines[(end - kept.count)...]) == kept {
            end -= kept.count
        }
        var due: String?
        var description: [String] = []
        var subtasks: [Subtask] = []
        var stage = 0
        while n < end {
            let line = lines[n]
            if stage == 0, line.hasPrefix("    @ ") {
                due = String(line.dropFirst(6)); stage = 1
            } else if stage <= 2, line.hasPrefix("    > ") || line == "    >" {
                description.append(String(line.dropFirst(line == "    >" ? 5 : 6))); stage = 2
            } else if line.hasPrefix("    * [ ] ") || line.hasPrefix("    * [x] ") || line.hasPrefix("    * [X] ") {
                subtasks.append(Subtask(String(line.dropFirst(10)), done: !line.hasPrefix("    * [ ] "))); stage = 3
            } else {
                break
            }
            n += 1
        }
        var extra = Array(lines[n..<end])
        if end < lines.count {
            extra += kept
        }
        if !storesDoneMark, let k = extra.firstIndex(where: { !$0.isEmpty }) {
            throw fail(
                n + k,
                "a taskell card holds only \"    @ \" due, \"    > \" description and \"    * [ ] \" sub-task lines after its title; found \"\(extra[k])\""
            )
        }
        if !storesDoneMark { extra = [] }
        card.due = due
        card.descriptionLines = description
        card.subtasks = subtasks
        card.extraLines = extra
        return card
    }
}
