import Foundation
@testable import LanesCore
import Synchronization
@testable import LanesPostgres
#if canImport(Glibc)
    import Glibc
#endif

/// The PostgreSQL server the tests run against: `LANES_PG_*` from the environment (make test,
/// scripts/pg-test-cluster with), or a throwaway cluster started here through
/// scripts/pg-test-cluster and stopped when the test process exits.
///
/// Not installed is a failure, not a skip: the tests say what to install.
struct TestServer: Sendable {
    let dir: String
    let port: String
    /// `postgresql://ROLE@/lanes?host=DIR&port=PORT` for a role.
    func url(_ role: String, board: String) -> String {
        "postgresql://\(role)@/lanes?host=\(dir)&port=\(port)&board=\(board)"
    }
    func conninfo(_ role: String, database: String = "lanes") -> String {
        "postgresql://\(role)@/\(database)?host=\(dir)&port=\(port)"
    }

    static let repo: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let shared: Result<TestServer, TestServerError> = start()

    /// The server, or a thrown error saying why there is none.
    static func get() throws -> TestServer { try shared.get() }

    private static func start() -> Result<TestServer, TestServerError> {
        let env = ProcessInfo.processInfo.environment
        if let dir = env["LANES_PG_DIR"], let port = env["LANES_PG_PORT"] {
            return migrated(TestServer(dir: dir, port: port))
        }
        return startCluster().flatMap { server in
            startedCluster.withLock { $0 = server.dir }
            atexit {
                if let dir = startedCluster.withLock({ $0 }) {
                    _ = TestServer.run([TestServer.repo + "/scripts/pg-test-cluster", "stop", dir])
                }
            }
            return migrated(server)
        }
    }

    /// A server of the caller's own, for a test that restarts it: a restart of the shared one would
    /// cut the connections of the suites running beside it. `stop()` it when done.
    static func startOwn() throws -> TestServer {
        try startCluster().flatMap(migrated).get()
    }

    /// Stops a server from `startOwn`.
    func stop() {
        TestServer.run([TestServer.repo + "/scripts/pg-test-cluster", "stop", dir])
    }

    private static func startCluster() -> Result<TestServer, TestServerError> {
        let (status, out) = run([repo + "/scripts/pg-test-cluster", "start"])
        guard status == 0 else {
            return .failure(
                TestServerError(
                    message:
                        "scripts/pg-test-cluster start failed (status \(status)); PostgreSQL tests need Debian's postgresql and libpq-dev packages: \(out)"
                ))
        }
        var values: [String: String] = [:]
        for line in out.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...]).trimmingCharacters(
                in: CharacterSet(charactersIn: "'"))
        }
        guard let dir = values["LANES_PG_DIR"], let port = values["LANES_PG_PORT"] else {
            return .failure(TestServerError(message: "pg-test-cluster printed no LANES_PG_DIR/PORT: \(out)"))
        }
        return .success(TestServer(dir: dir, port: port))
    }

    /// The schema, set up once by the administrator role (team roles may not create schemas).
    private static func migrated(_ server: TestServer) -> Result<TestServer, TestServerError> {
        do {
            let admin = try PGConnection(conninfo: server.conninfo("lanes_admin"), displayName: "admin")
            try Schema.migrate(admin)
        } catch {
            return .failure(TestServerError(message: "cannot set up the Lanes schema: \(error)"))
        }
        return .success(server)
    }

    /// Runs a program; returns its status and its stdout and stderr together (through a temp file:
    /// a server the program starts must not hold a pipe of ours open).
    @discardableResult
    static func run(_ argv: [String]) -> (Int32, String) {
        let out = NSTemporaryDirectory() + "lanes-pg-run-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { unlink(out) }
        let quoted = argv.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let shell = ["/bin/sh", "-c", quoted + " </dev/null >'\(out)' 2>&1"]
        var pid: pid_t = 0
        let cArgs = shell.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, cArgs, environ) == 0 else { return (127, "cannot run \(argv[0])") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        return ((status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f), text)
    }

    /// pg_ctl restart (fast): every connection is cut.
    func restart() throws {
        let (status, out) = TestServer.run([TestServer.repo + "/scripts/pg-test-cluster", "restart", dir])
        guard status == 0 else { throw TestServerError(message: "restart failed: \(out)") }
    }

    /// A synchronous streaming standby of this server (`pg-test-cluster standby`): nothing this
    /// server acknowledges is missing there. `stop()` it when done.
    func startStandby() throws -> TestServer {
        let (status, out) = TestServer.run([TestServer.repo + "/scripts/pg-test-cluster", "standby", dir])
        var values: [String: String] = [:]
        for line in out.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...]).trimmingCharacters(
                in: CharacterSet(charactersIn: "'"))
        }
        guard status == 0, let dir = values["LANES_PG_STANDBY_DIR"], let port = values["LANES_PG_STANDBY_PORT"] else {
            throw TestServerError(message: "pg-test-cluster standby failed (status \(status)): \(out)")
        }
        return TestServer(dir: dir, port: port)
    }

    /// pg_ctl stop -m immediate: the server dies as a crashed primary does (its folder kept).
    func crash() throws {
        let (status, out) = TestServer.run([TestServer.repo + "/scripts/pg-test-cluster", "crash", dir])
        guard status == 0 else { throw TestServerError(message: "crash failed: \(out)") }
    }

    /// Promotes this standby and waits until it takes writes.
    func promote() throws {
        let (status, out) = TestServer.run([TestServer.repo + "/scripts/pg-test-cluster", "promote", dir])
        guard status == 0 else { throw TestServerError(message: "promote failed: \(out)") }
    }

    /// A raw connection as `role` (for plain SQL, like psql).
    func connect(_ role: String, database: String = "lanes") throws -> PGConnection {
        try PGConnection(conninfo: conninfo(role, database: database), displayName: role)
    }

    /// A board name no other test uses.
    static func boardName(_ stem: String) -> String {
        "\(stem)-\(UInt32.random(in: 0...UInt32.max))"
    }
}

struct TestServerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

private let startedCluster = Mutex<String?>(nil)

/// A taskell board with three columns, for copying in.
let taskellBoard = """
    ## To do

    - Fix login
        @ 2024-01-31
        > The login form rejects valid passwords.
        > Second line.
        * [x] Reproduce
        * [ ] Fix
    - Write docs
    - Plan release #ops

    ## Doing

    - Review PR
    - Deploy staging

    ## Done

    - Set up CI

    """

/// An Obsidian Kanban board: frontmatter, done marks, a Complete lane, settings.
let obsidianBoard = """
    ---

    kanban-plugin: board

    ---

    ## Backlog

    - [ ] Buy milk @{2024-02-01}
    - [ ] Call Anna


    ## Done

    **Complete**
    - [x] Pay rent
    - [x] Book flights




    %% kanban:settings
    ```
    {"kanban-plugin":"board"}
    ```
    %%
    """

/// Titles per column, in order.
func titles(_ board: Board) -> [[String]] { board.columns.map { $0.cards.map(\.title) } }

/// Moves the card titled `title` to column `column` at `index` (nil: the end).
func moved(_ board: Board, _ title: String, to column: Int, at index: Int? = nil) -> Board {
    var b = board
    guard
        let from = b.columns.indices.lazy.compactMap({ s in
            b.columns[s].cards.firstIndex { $0.title == title }.map { (s, $0) }
        }).first
    else {
        preconditionFailure("no card \(title)")
    }
    let card = b.columns[from.0].cards.remove(at: from.1)
    b.columns[column].cards.insert(card, at: min(index ?? b.columns[column].cards.count, b.columns[column].cards.count))
    return b
}
