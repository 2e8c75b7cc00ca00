import DragKit
import LanesCore

/// Accept rules in the app: the prompt that sets a column's rule.
extension BoardApp {
    /// The prompt's starting text: the column's list, names with a comma or a leading quote in quotes.
    func acceptsPromptText(for id: ColumnID) -> String {
        guard let column = board.column(id), let names = board.acceptRules.sources(for: column.title) else { return "" }
        return names.map { $0.contains(",") || $0.hasPrefix("\"") ? AcceptRules.quoted($0) : $0 }.joined(separator: ", ")
    }

    /// Sets a column's accept rule from the prompt's text: column names separated by commas
    /// (a name may be in double quotes), matched exactly or else ignoring case; empty clears the rule.
    /// The names are read here (an unknown or ambiguous one reopens the prompt with words); the
    /// rule itself is the door's.
    mutating func setAccepts(_ id: ColumnID, _ asked: (Prompt, LineEditor)) {
        let text = TextRules.oneLine(asked.1.text).text
        var sources: [ColumnID] = []
        func again(_ words: String) {
            status = words
            var editor = asked.1
            editor.say(words)
            mode = .prompt(asked.0, editor)
        }
        for raw in BoardApp.splitNames(text) {
            let exact = board.columns.filter { $0.title == raw }
            let folded = exact.isEmpty ? board.columns.filter { $0.title.lowercased() == raw.lowercased() } : exact
            guard let match = folded.first else {
                return again("No column is called “\(DisplayText.safe(raw))”: the rule is unchanged")
            }
            if Set(folded.map(\.title)).count > 1 {
                return again("“\(DisplayText.safe(raw))” could be \(DisplayText.safe(Board.listed(folded.map(\.title)))): write it exactly")
            }
            sources.append(match.id)
        }
        send(.setAcceptRule(id, from: sources), from: asked)
    }

    /// `Review, "A, B", Doing` → [Review, A, B, Doing]; blanks around names and empty items are dropped.
    static func splitNames(_ text: String) -> [String] {
        var names: [String] = []
        var current = ""
        var quoted = false, wasQuoted = false, escaped = false
        func finish() {
            let name = wasQuoted ? current : current.trimmingCharacters(in: " \t")
            if !name.isEmpty { names.append(name) }
            current = ""
            wasQuoted = false
        }
        for ch in text {
            if quoted {
                if escaped { current.append(ch); escaped = false }
                else if ch == "\\" { escaped = true }
                else if ch == "\"" { quoted = false }
                else { current.append(ch) }
            } else if ch == "\"" && current.allSatisfy({ $0 == " " || $0 == "\t" }) {
                current = ""
                quoted = true
                wasQuoted = true
            } else if ch == "," {
                finish()
            } else if !(wasQuoted && (ch == " " || ch == "\t")) {
                current.append(ch)
            }
        }
        finish()
        return names
    }
}
