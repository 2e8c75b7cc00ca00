import DragKit
import LanesCore

/// The filter (`/`): cards that do not match are dimmed, and up/down jump between matches.
/// Set by its prompt, cleared by esc (after the marks) or an empty answer.
struct FilterMode: Equatable, Sendable {
    var query = ""

    var isOn: Bool { !query.isEmpty }

    func matches(_ card: Card) -> Bool { CardFilter.matches(card, query) }

    /// Takes the prompt's answer; the words say how many cards match and how to move between them.
    mutating func set(_ text: String, on board: Board, keymap: Keymap) -> String {
        query = text
        guard isOn else { return "Filter cleared" }
        let matching = board.columns.reduce(0) { n, c in n + c.cards.filter(matches).count }
        var how = ["others dimmed"]
        if let down = keymap.keys(for: .down).first, let up = keymap.keys(for: .up).first {
            how.append("\(down)/\(up) jump between matches")
        }
        if let esc = keymap.keys(for: .cancel).first { how.append("\(esc) clears") }
        return "Filter “\(DisplayText.safe(text))”: \(matching) matching (\(how.joined(separator: "; ")))"
    }

    /// Clears the filter; the words, or nil when there was none.
    mutating func clear() -> String? {
        guard isOn else { return nil }
        query = ""
        return "Filter cleared"
    }

    /// Where the selection goes in a column of `cards` from `current` by `delta` rows, or to
    /// `absolute` (0 the first, `Int.max` the last): with a filter on, the nearest matching
    /// card in the direction of travel; the selection stays when none is that way.
    func landing<Cards: RandomAccessCollection<Card>>(in cards: Cards, from current: Int, delta: Int, absolute: Int?)
        -> Int
    where Cards.Index == Int {
        let count = cards.count
        var i = min(max(0, absolute ?? (current + delta)), count - 1)
        guard isOn else { return i }
        let step = absolute == Int.max || delta > 0 ? 1 : (absolute == 0 ? 1 : -1)
        var j = absolute == 0 ? 0 : i
        while j >= 0 && j < count && !matches(cards[j]) { j += step }
        if j >= 0 && j < count { i = j } else if absolute == nil { i = current }
        return i
    }
}
