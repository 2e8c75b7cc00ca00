import ArgumentParser
import Foundation
import LanesCore
import LanesPostgres

/// `lanes copy SOURCE DEST`: a board from a file or URL to a file or URL.
struct Copy: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Copy a board between files and PostgreSQL (postgresql://USER@HOST:PORT/DB?board=NAME).",
        discussion: """
            SOURCE and DEST are each a board file or a PostgreSQL URL. Copying to a URL creates the board (and, on first use, the Lanes schema in that database) with the copying role as its owner; every card gets a new identity. Copying from a URL writes the board in the dialect it was copied in with (or --dialect). An existing DEST (file or board) is refused unless --replace; replacing a board keeps its members and shows the new content on every open screen. The URL's password, if any, is never printed; libpq's environment (PGPASSWORD, PGSSLMODE…) and ~/.pgpass apply.
            """
    )

    @Argument(help: "The board to copy: a file or a URL.")
    var source: String

    @Argument(help: "Where to copy it: a file or a URL.")
    var dest: String

    @Flag(help: "Overwrite an existing destination board or file.")
    var replace = false

    @Option(help: "The Markdown dialect of a file written (default: the board's own).")
    var dialect: Import.Dialect?

    func run() throws {
        try PostgresCLI.reporting {
            var (board, info) = try PostgresCLI.read(source)
            if let dialect, dialect.value != info.dialect { info = BoardFileInfo(dialect: dialect.value) }
            if PostgresBoardStore.isURL(dest) {
                let store = try PostgresBoardStore.create(url: dest, board: board, info: info, replace: replace)
                board = try store.load()
                emit("Copied \(board.cardCount) cards in \(board.columns.count) columns to \(store.displayName).\n")
            } else {
                try PostgresCLI.write(board, info: info, to: dest, replace: replace)
                emit("Copied \(board.cardCount) cards in \(board.columns.count) columns to \(dest).\n")
            }
        }
    }
}

/// `lanes grant URL ROLE`: a role may read and change a board.
struct Grant: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give a PostgreSQL role access to a board in PostgreSQL.",
        discussion: """
            Only the board's owner (the role that created it) and members granted with --can-grant may grant. The server enforces access with row-level security: a role without a grant reads and changes nothing of the board, with Lanes or with psql. The role must exist (CREATE ROLE); Lanes never creates roles or stores passwords.
            """
    )

    @Argument(help: "The board's URL (postgresql://USER@HOST:PORT/DB?board=NAME).")
    var url: String

    @Argument(help: "The PostgreSQL role to give access.")
    var role: String

    @Flag(help: "Let the role grant and revoke access too.")
    var canGrant = false

    func run() throws {
        try PostgresCLI.reporting {
            let store = try PostgresBoardStore.open(url: url)
            try store.grant(role: role, canGrant: canGrant)
            emit("Role \(role) may now read and change board “\(store.url.board)”\(canGrant ? ", and grant access" : "").\n")
        }
    }
}

/// `lanes revoke URL ROLE`: the role loses access to a board.
struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a PostgreSQL role's access to a board in PostgreSQL away.",
        discussion: "Only the board's owner and members granted with --can-grant may revoke; the owner's own access cannot be revoked."
    )

    @Argument(help: "The board's URL (postgresql://USER@HOST:PORT/DB?board=NAME).")
    var url: String

    @Argument(help: "The PostgreSQL role to take access from.")
    var role: String

    func run() throws {
        try PostgresCLI.reporting {
            let store = try PostgresBoardStore.open(url: url)
            try store.revoke(role: role)
            emit("Role \(role) no longer has access to board “\(store.url.board)”.\n")
        }
    }
}

enum PostgresCLI {
    /// Runs `body`, turning database errors into `CommandError`s (status 1; access refused: 2).
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw commandError(for: error) ?? error
        }
    }

    /// A database error as the command error it is reported as; nil for other errors.
    static func commandError(for error: any Error) -> CommandError? {
        switch error {
        case let e as StorageUnavailable: return CommandError(.notFound, e.description)
        case let e as PostgresError: return CommandError(e.sqlState == "42501" ? .badInput : .notFound, e.message)
        default: return nil
        }
    }

    /// A board and its file parts from a file or a URL.
    static func read(_ source: String) throws -> (Board, BoardFileInfo) {
        try BoardLocation.read(source)
    }

    /// Writes a board file and its accept rules beside it, atomically.
    static func write(_ board: Board, info: BoardFileInfo, to path: String, replace: Bool) throws {
        try BoardStore.write(board, info: info, to: path, replace: replace)
    }
}
