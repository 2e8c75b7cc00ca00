import DragKit
import LanesCore

/// Accept rules in the app: the prompt that sets a column's rule.
extension BoardApp {
    /// The prompt's starting text: the column's list, names with a comma or a leading quote in quotes.
    func acceptsPromptText(for section: Int) -> String {
        guard board.columns.indices.contains(section),
              let names = board.acceptRules.sources(for: board.columns[section].title) else { return "" }
        return names.map { $0.contains(",") || $0.hasPrefix("\"") ? AcceptRules.quoted($0) : $0 }.joined(separator: ", ")
    }

    /// Sets a column's accept rule from the prompt's text: column names separated by commas
    /// (a name may be in double quotes), matched exactly or else ignoring case; empty clears the rule.
    /// An unknown or ambiguous name changes nothing and says so.
    mutating func setAccepts(_ section: Int, _ text: String) {
        guard board.columns.indices.contains(section) else { return }
        let title = board.columns[section].title
        var sources: [String] = []
        for raw in BoardApp.splitNames(text) {
            let exact = board.columns.filter { $0.title == raw }
            let folded = exact.isEmpty ? board.columns.filter { $0.title.lowercased() == raw.lowercased() } : exact
            guard let match = folded.first else {
                status = "No column is called “\(DisplayText.safe(raw))”: the rule is unchanged"
                return
            }
            if Set(folded.map(\.title)).count > 1 {
                status = "“\(DisplayText.safe(raw))” could be \(DisplayText.safe(Board.listed(folded.map(\.title)))): write it exactly"
                return
            }
            if match.title != title && !sources.contains(match.title) { sources.append(match.title) }
        }
        if sources.isEmpty && !BoardApp.splitNames(text).isEmpty {
            status = "A column always takes its own cards: name another column, or leave it empty for any"
            return
        }
        let shown = DisplayText.safe(title)
        guard (board.acceptRules.sources(for: title) ?? []) != sources else {
            status = sources.isEmpty ? "\(shown) already accepts from any column" : "\(shown) already accepts only from \(DisplayText.safe(Board.listed(sources)))"
            return
        }
        document.perform(sources.isEmpty ? "clear accept rule" : "set accept rule") { $0.acceptRules.setSources(sources, for: title) }
        status = sources.isEmpty ? "\(shown) accepts from any column"
            : "\(shown) accepts only from \(DisplayText.safe(Board.listed(sources)))"
        changed()
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
