import DragKit
import LanesCore

/// A question on the status line that waits for one key.
enum ConfirmMode: Equatable, Sendable {
    /// Delete a column with cards: the column and the cards the question named (another card put
    /// there meanwhile makes the door refuse the deletion).
    case deleteColumn(ColumnID, seen: [CardID])
    /// Quitting while the last changes are not stored; the words say why.
    case quitUnsaved(String)

    /// What the app does after the answer.
    enum Outcome: Equatable, Sendable {
        /// Not an answer: the question stays.
        case stay
        /// Back to the board with these words.
        case close(String)
        /// Back to the board; send this edit through the door.
        case send(BoardEdit)
        /// Back to the board (with these words, if any) and ask the world for this.
        case effect(AppEffect, String?)
        /// Ask the world for this while the question stays on screen.
        case effectAndStay(AppEffect)
        /// Open this prompt instead.
        case prompt(PromptMode)
    }

    /// Takes a key. `copyPath` is where "save a copy" suggests writing.
    func answer(_ key: Key, copyPath: String) -> Outcome {
        switch self {
        case .deleteColumn(let id, let seen):
            if case .char("y") = key { return .send(.deleteColumn(id, seen: seen)) }
            return .close("Kept the column")
        case .quitUnsaved(let why):
            switch key {
            case .char("r"): return .effect(.retrySaveAndQuit, "Saving again…")
            case .char("s"): return .prompt(PromptMode(.saveCopy, text: copyPath))
            case .char("d"): return .effectAndStay(.quitDiscarding)
            case .escape, .char("n"): return .close("Not quitting. NOT SAVED: \(DisplayText.safe(why))")
            default: return .stay
            }
        }
    }

    /// The question's words on `board` (nil when its column is gone: the status line shows what it had).
    func words(on board: Board) -> String? {
        switch self {
        case .deleteColumn(let id, let seen):
            guard let column = board.column(id) else { return nil }
            return "Delete column “\(column.title)” and its \(seen.count) cards? y/n"
        case .quitUnsaved(let why):
            return Self.quitQuestion(why)
        }
    }

    static func quitQuestion(_ why: String) -> String {
        "NOT SAVED — r retry · s save a copy · d quit, discard · esc stay — \(DisplayText.safe(why))"
    }
}
