import DragKit
import LanesCore

/// What the app asks of the world outside it after handling input.
public enum AppEffect: Hashable, Sendable {
    case quit
    /// Ctrl-Z: hand the terminal back to the shell until `fg`.
    case suspend
    /// Edit a card in `$EDITOR`: the runner writes it out, runs the editor and calls `finishExternalEdit`.
    case editExternally(CardID)
    /// After a failed save, at the quit question: try saving again, then quit if it works.
    case retrySaveAndQuit
    /// After a failed save: write the board to this file, then quit if it works.
    case saveCopyAndQuit(path: String)
    /// After a failed save: quit although the last changes are not stored.
    case quitDiscarding
}
