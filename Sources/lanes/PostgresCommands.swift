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

    @Argument(help: "The board to copy: a file or a URL.", completion: .file())
    var source: String

    @Argument(help: "Where to copy it: a file or a URL.", completion: .file())
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
            emit(
                "Role \(role) may now read and change board \"\(store.url.board)\"\(canGrant ? ", and grant access" : "").\n"
            )
        }
    }
}

/// `lanes revoke URL ROLE`: the role loses access to a board.
struct Revoke: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Take a PostgreSQL role's access to a board in PostgreSQL away.",
        discussion:
            "Only the board's owner and members granted with --can-grant may revoke; the owner's own access cannot be revoked."
    )

    @Argument(help: "The board's URL (postgresql://USER@HOST:PORT/DB?board=NAME).")
    var url: String

    @Argument(help: "The PostgreSQL role to take access from.")
    var role: String

    func run() throws {
        try PostgresCLI.reporting {
            let store = try PostgresBoardStore.open(url: url)
            try store.revoke(role: role)
            emit("Role \(role) no longer has access to board \"\(store.url.board)\".\n")
        }
    }
}

/// `lanes rename URL NAME`: the board's owner renames it.
struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Rename a board in PostgreSQL (its owner only).",
        discussion:
            "Members' open screens say the board was renamed and stop showing changes; they open it again under the new name. A name another board has is refused."
    )

    @Argument(help: "The board's URL (postgresql://USER@HOST:PORT/DB?board=NAME).")
    var url: String

    @Argument(help: "The board's new name.")
    var name: String

    func run() throws {
        try PostgresCLI.reporting {
            let store = try PostgresBoardStore.open(url: url)
            try store.rename(to: name)
            emit("Board \"\(store.url.board)\" is now called \"\(name)\".\n")
        }
    }
}

/// `lanes delete URL --yes`: the board's owner deletes it.
struct Delete: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Delete a board in PostgreSQL with all its columns and cards (its owner only).",
        discussion:
            "Asks for --yes. Members' open screens say the board was deleted and offer to save what they show as a file. The server keeps the board's history (for the database's administrator); copy the board to a file first to keep it: lanes copy URL FILE."
    )

    @Argument(help: "The board's URL (postgresql://USER@HOST:PORT/DB?board=NAME).")
    var url: String

    @Flag(help: "Really delete the board.")
    var yes = false

    func run() throws {
        try PostgresCLI.reporting {
            let store = try PostgresBoardStore.open(url: url)
            let board = try store.load()
            guard yes else {
                throw CommandError(
                    .badInput,
                    "deleting board \"\(store.url.board)\" removes its \(board.cardCount) cards in \(board.columns.count) columns for everyone; add --yes to do it"
                )
            }
            try store.delete()
            emit("Deleted board \"\(store.url.board)\" (\(board.cardCount) cards in \(board.columns.count) columns).\n")
        }
    }
}

/// `lanes hand-over URL ROLE`: the board's owner makes another role its owner.
struct HandOver: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hand-over",
        abstract: "Make another PostgreSQL role the owner of a board (its owner only).",
        discussion:
            "The new owner may rename, delete and hand the board over; the old owner stays a member who may grant and revoke."
    )

    @Argument(help: "The board's URL (postgresql://USER@HOST:PORT/DB?board=NAME).")
    var url: String

    @Argument(help: "The PostgreSQL role to become the owner.")
    var role: String

    func run() throws {
        try PostgresCLI.reporting {
            let store = try PostgresBoardStore.open(url: url)
            if try store.owner() == role {
                emit("Role \(role) already owns board \"\(store.url.board)\".\n")
                return
            }
            try store.handOver(to: role)
            emit("Role \(role) now owns board \"\(store.url.board)\"; \(store.role) stays a member who may grant.\n")
        }
    }
}

/// `lanes restore URL --list` / `--at TIME`: the server's history of a board, and going back in it.
struct Restore: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List a PostgreSQL board's recorded changes, or bring it back as it was at a time.",
        discussion: """
            The server records every change to a board's cards, columns and rules (who, when, what), and no member can rewrite that record. --list prints the latest changes, newest first. --at TIME undoes every change made after TIME (a time as --list prints it, or any timestamp PostgreSQL reads, e.g. '2026-11-25 17:03:12+00' or 'yesterday') and saves the result as one more change, itself recorded; cards keep their identities. Any member may restore.
            """
    )

    @Argument(help: "The board's URL (postgresql://USER@HOST:PORT/DB?board=NAME).")
    var url: String

    @Flag(help: "List the latest changes: when, who, what.")
    var list = false

    @Option(help: "How many changes --list prints.")
    var limit = 20

    @Option(help: "Bring the board back as it was at this time.")
    var at: String?

    @OptionGroup var output: FormatOptions

    func validate() throws {
        guard list != (at != nil) else { throw ValidationError("give either --list or --at TIME") }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
        if at != nil { try output.refuseJSON(with: "--at") }
    }

    func run() throws {
        try PostgresCLI.reporting {
            let store = try PostgresCLI.open(url: url)
            if list {
                let entries = try store.history(limit: limit)
                if output.isJSON {
                    return JSONOutput.write(JSONOutput.history(entries, board: store.url.board))
                }
                if entries.isEmpty { emit("No changes recorded for board \"\(store.url.board)\".\n") }
                for e in entries.reversed() { emit(e.line + "\n") }
                return
            }
            let done = try store.restore(at: at!)
            let board = done.outcome.board
            if done.undone == 0 {
                emit("Board \"\(store.url.board)\" has not changed since \(at!): nothing to restore.\n")
                return
            }
            emit(
                "Restored board \"\(store.url.board)\" as it was at \(at!): undid \(done.undone) change\(done.undone == 1 ? "" : "s") by \(done.roles.joined(separator: ", ")); \(board.cardCount) cards in \(board.columns.count) columns. The restore is recorded too.\n"
            )
            for c in done.outcome.conflicts { emit("  not restored: \(c.message)\n") }
        }
    }
}

enum PostgresCLI {
    /// Runs `body`, turning database errors into command errors (status 1; access refused: 2), with
    /// the code `--json` reports them with.
    static func reporting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            guard let mapped = commandError(for: error) else { throw error }
            throw CodedError(error: mapped, code: code(for: error) ?? .server)
        }
    }

    /// Opens an existing board; a role without a grant on it is refused (`refused` under --json,
    /// status 2 as before), a URL that is no URL is bad input.
    static func open(url: String) throws -> PostgresBoardStore {
        _ = try PostgresURL(url)
        do {
            return try PostgresBoardStore.open(url: url)
        } catch let e as CommandError where e.kind == .badInput {
            throw CodedError(error: e, code: .refused)
        }
    }

    /// SQLSTATEs of a server that refused this role what it asked: no privilege (42501), a session
    /// that may only read (25006).
    static let refusals: Set<String> = ["42501", "25006"]

    /// The JSON error code of a database error; nil for other errors.
    static func code(for error: any Error) -> ErrorCode? {
        switch error {
        case is StorageUnavailable: return .server
        case is BoardGone: return .refused
        case let e as PostgresError: return refusals.contains(e.sqlState) ? .refused : .server
        default: return nil
        }
    }

    /// A database error as the command error it is reported as; nil for other errors.
    static func commandError(for error: any Error) -> CommandError? {
        switch error {
        case let e as StorageUnavailable: return CommandError(.notFound, e.description)
        case let e as BoardGone: return CommandError(.badInput, e.message)
        case let e as PostgresError:
            return CommandError(refusals.contains(e.sqlState) ? .badInput : .notFound, e.message)
        default: return nil
        }
    }

    /// A board and its file parts from a file or a URL.
    static func read(_ source: String) throws -> (Board, BoardFileInfo) {
        try BoardLocation.read(source)
    }

    /// Writes a board file and its accept rules beside it, atomically.
    static func write(_ board: Board, info: BoardFileInfo, to path: String, replace: Bool) throws {
        try FileBoardStore.write(board, info: info, to: path, replace: replace)
    }
}
