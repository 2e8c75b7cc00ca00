import LanesCore
import LanesPostgres

/// Where a board named on the command line lives: a Markdown file, or a PostgreSQL URL.
enum BoardLocation {
    static func isURL(_ spec: String) -> Bool { PostgresBoardStore.isURL(spec) }

    /// The board's storage, for commands that change it (the board must exist).
    /// Cross-board moves a dead process left on this board are finished first.
    static func storage(_ spec: String) throws -> any BoardStore {
        CrossBoardCommand.recoverPending(touching: [spec])
        return try openStorage(spec)
    }

    /// The board's storage, without looking for unfinished moves.
    static func openStorage(_ spec: String) throws -> any BoardStore {
        if isURL(spec) { return try openDatabase(spec) }
        return FileBoardStore.unread(spec)
    }

    /// The board and how its file is laid out (a database board keeps its file's dialect and parts).
    static func read(_ spec: String) throws -> (board: Board, info: BoardFileInfo) {
        CrossBoardCommand.recoverPending(touching: [spec])
        if isURL(spec) {
            return try PostgresCLI.reporting {
                let store = try PostgresCLI.open(url: spec)
                return (try store.load(), store.fileInfo)
            }
        }
        return try FileBoardStore.load(spec)
    }

    /// The database store; server errors become command errors (1, or 2 for a permission).
    static func openDatabase(_ url: String) throws -> PostgresBoardStore {
        try PostgresCLI.reporting { try PostgresCLI.open(url: url) }
    }
}
