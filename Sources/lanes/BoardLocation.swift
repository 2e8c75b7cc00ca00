import LanesCore

/// Where a board named on the command line lives: a Markdown file, or a PostgreSQL URL.
enum BoardLocation {
    static func isURL(_ spec: String) -> Bool {
        spec.hasPrefix("postgresql://") || spec.hasPrefix("postgres://")
    }

    /// The board's storage, for commands that change it (the board must exist).
    static func storage(_ spec: String) throws -> any BoardStorage {
        if isURL(spec) { return try openDatabase(spec) }
        return BoardStore.unread(spec)
    }

    /// The board and how its file is laid out (a database board reads as a fresh taskell file).
    static func read(_ spec: String) throws -> (board: Board, info: BoardFileInfo) {
        if isURL(spec) { return (try openDatabase(spec).load(), BoardFileInfo(dialect: .taskell)) }
        return try BoardStore.load(spec)
    }

    private static func openDatabase(_ url: String) throws -> any BoardStorage {
        throw CommandError(.badInput, "PostgreSQL boards are not built into this lanes")
    }
}
