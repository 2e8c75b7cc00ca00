import LanesCore

/// Which cards a filter matches: every word must appear in the title, description or
/// sub-tasks (case-insensitive); a word starting with `#` must be one of the card's tags.
public enum CardFilter {
    public static func matches(_ card: Card, _ query: String) -> Bool {
        let words = query.lowercased().split(separator: " ")
        guard !words.isEmpty else { return true }
        let tags = Set(card.tags.map { $0.lowercased() })
        let text = ([card.title] + card.descriptionLines + card.subtasks.map(\.title)).joined(separator: "\n")
            .lowercased()
        return words.allSatisfy { w in
            w.hasPrefix("#") && w.count > 1 ? tags.contains(String(w.dropFirst())) : text.contains(w)
        }
    }
}
