import DragKit
import LanesCore

/// An open prompt on the status line: what it is for, by identity, and the line being typed.
///
/// Keys and pastes go to its `LineEditor`; Enter turns the text into an answer: an edit for the
/// door (a card or column by identity, so the answer still means what was on screen when the
/// prompt opened), a filter, a path, or words when there is nothing to do. Whether the edit is
/// allowed is the door's to say; a refused answer reopens the prompt with the text (see
/// `BoardApp.send`).
struct PromptMode: Equatable, Sendable {
    /// What the prompt is for.
    enum Purpose: Equatable, Sendable {
        /// `index`: where the column stood, for the column that takes its place if it vanishes.
        case addCard(column: ColumnID, index: Int, slot: CardSlot)
        case editTitle(SeenCard)
        case addColumn(ColumnSlot)
        case renameColumn(ColumnID)
        case setLimit(ColumnID)
        case setAccepts(ColumnID)
        case setDue(SeenCard)
        case setTags(SeenCard)
        case filter
        case saveCopy

        var label: String {
            switch self {
            case .addCard: "New card: "
            case .editTitle: "Title: "
            case .addColumn: "New column: "
            case .renameColumn: "Column title: "
            case .setLimit: "WIP limit (empty for none): "
            case .setAccepts: "Accepts from (names, commas; empty = any): "
            case .setDue: "Due date (empty clears): "
            case .setTags: "Tags: "
            case .filter: "Filter: "
            case .saveCopy: "Save a copy to: "
            }
        }
    }

    var purpose: Purpose
    var editor: LineEditor

    init(_ purpose: Purpose, text: String = "") {
        self.purpose = purpose
        editor = LineEditor(text)
    }

    var label: String { purpose.label }

    /// What a key did.
    enum Outcome: Equatable, Sendable {
        case editing
        case cancel
        case submit(Answer)
    }

    /// What the typed text asks for.
    enum Answer: Equatable, Sendable {
        /// Send this edit through the door.
        case send(BoardEdit)
        /// Nothing to do; these words say so.
        case nothing(String)
        /// Show only the cards that match this (empty: all).
        case filter(String)
        /// Write the board to this path and quit (nil: no path typed, nothing happens).
        case saveCopy(String?)
        /// Ask again: the prompt stays open with its text and these words above it.
        case again(String)
    }

    /// Takes a pasted text (made one line by the editor).
    mutating func paste(_ text: String) { editor.insert(text) }

    /// Takes a key; Enter answers on `board` as it is now.
    mutating func handle(
        _ key: Key, _ mods: Modifiers, on board: Board,
        newCard: () -> CardID = { CardID.fresh() },
        newColumn: () -> ColumnID = { ColumnID.fresh() }
    ) -> Outcome {
        switch editor.handle(key, mods) {
        case .editing: .editing
        case .cancel: .cancel
        case .submit: .submit(answer(on: board, newCard: newCard, newColumn: newColumn))
        }
    }

    /// The answer the text gives now. A new card or column gets its identity from `newCard` / `newColumn`.
    func answer(
        on board: Board, newCard: () -> CardID = { CardID.fresh() },
        newColumn: () -> ColumnID = { ColumnID.fresh() }
    ) -> Answer {
        // Text comes in as one storable line (see TextRules); every rule is the door's.
        let text = TextRules.oneLine(editor.text).text
        let trimmed = text.trimmingCharacters(in: " \t")
        switch purpose {
        case .addCard(let column, let index, let slot):
            guard !trimmed.isEmpty else { return .nothing("Empty title: nothing added") }
            return .send(.addCard(Card(id: newCard(), title: trimmed), column: column, at: slot, fallbackColumn: index))
        case .editTitle(let seen):
            guard !trimmed.isEmpty else { return .nothing("Empty title: kept the old one") }
            return .send(.setTitle(seen.card.id, trimmed, seen: seen))
        case .addColumn(let slot):
            guard !trimmed.isEmpty else { return .nothing("Empty title: nothing added") }
            return .send(.addColumn(Column(id: newColumn(), title: trimmed), at: slot))
        case .renameColumn(let id):
            guard !trimmed.isEmpty else { return .nothing("Empty title: kept the old one") }
            return .send(.renameColumn(id, trimmed))
        case .setLimit(let id):
            // Not a number above 0: the door says what a limit is (0 stands for "not a number").
            return .send(.setWIPLimit(id, trimmed.isEmpty ? nil : Int(trimmed) ?? 0))
        case .setAccepts(let id):
            return Self.acceptRule(for: id, names: text, on: board)
        case .setDue(let seen):
            return .send(.setDue(seen.card.id, trimmed, seen: seen))
        case .setTags(let seen):
            return .send(.setTags(seen.card.id, trimmed.split(separator: " ").map(String.init), seen: seen))
        case .filter:
            return .filter(trimmed)
        case .saveCopy:
            guard !trimmed.isEmpty else { return .again("Type the path to write the copy to (esc: not now)") }
            return .saveCopy(trimmed)
        }
    }

    // MARK: Accept rules

    /// The accept-rule prompt's starting text: the column's list, names with a comma or a leading quote in quotes.
    static func acceptsText(for id: ColumnID, on board: Board) -> String {
        guard let column = board.column(id), let names = board.acceptRules.sources(for: column.title) else { return "" }
        return names.map { $0.contains(",") || $0.hasPrefix("\"") ? AcceptRules.quoted($0) : $0 }.joined(
            separator: ", ")
    }

    /// A column's accept rule from typed names: separated by commas (a name may be in double
    /// quotes), matched exactly or else ignoring case; none clears the rule. An unknown or
    /// ambiguous name asks again; the rule itself is the door's.
    static func acceptRule(for id: ColumnID, names text: String, on board: Board) -> Answer {
        var sources: [ColumnID] = []
        for raw in splitNames(text) {
            let exact = board.columns.filter { $0.title == raw }
            let folded = exact.isEmpty ? board.columns.filter { $0.title.lowercased() == raw.lowercased() } : exact
            guard let match = folded.first else {
                return .again("No column is called “\(DisplayText.safe(raw))”: the rule is unchanged")
            }
            if Set(folded.map(\.title)).count > 1 {
                return .again(
                    "“\(DisplayText.safe(raw))” could be \(DisplayText.safe(Board.listed(folded.map(\.title)))): write it exactly"
                )
            }
            sources.append(match.id)
        }
        return .send(.setAcceptRule(id, from: sources))
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
                if escaped {
                    current.append(ch); escaped = false
                } else if ch == "\\" {
                    escaped = true
                } else if ch == "\"" {
                    quoted = false
                } else {
                    current.append(ch)
                }
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
