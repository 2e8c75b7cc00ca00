import Foundation
import LanesCore

#if canImport(Glibc)
    import Glibc
#endif

/// `lanes mcp`: a Model Context Protocol server on stdin and stdout (JSON-RPC 2.0, one message a
/// line), serving the boards it was started with as tools (`AgentTools`) and as resources that
/// notify subscribed clients when anyone changes the board. Lanes' own JSON reader and writer, no
/// SDK (DECISIONS 41.3: the official Swift SDK links FoundationNetworking, and with it libcurl, into
/// `lanes`). Requests are answered one at a time, in order; bad input gets a JSON-RPC error in words
/// and the server goes on.
public final class AgentServer: @unchecked Sendable {
    /// The protocol revisions this server speaks; a client asking for another gets the newest.
    public static let protocolVersions = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]

    let tools: AgentTools
    let version: String
    private let output: Int32
    private let writeLock = NSLock()
    let subscriptions = Subscriptions()
    /// Opens a board's storage for the watcher (`run`'s `watch`); nil: subscriptions open nothing here.
    var openForWatching: (@Sendable (String) throws -> any BoardStore)?

    public init(tools: AgentTools, version: String, output: Int32 = STDOUT_FILENO) {
        self.tools = tools
        self.version = version
        self.output = output
    }

    /// Serves until `input` ends. `watch` opens a board's storage for watching only.
    public static func run(
        specs: [String], host: AgentHost, watch: @escaping @Sendable (String) throws -> any BoardStore,
        version: String, input: Int32 = STDIN_FILENO
    ) {
        let server = AgentServer(tools: AgentTools(specs: specs, host: host), version: version)
        server.openForWatching = watch
        let watcher = BoardWatcher(specs: server.tools.boardNames, open: watch, subscriptions: server.subscriptions) {
            uri in
            server.send(
                .object([
                    ("jsonrpc", .string("2.0")), ("method", .string("notifications/resources/updated")),
                    ("params", .object([("uri", .string(uri))])),
                ]))
        }
        watcher.start()
        server.serve(input: input)
        watcher.stop()
    }

    /// Reads messages, one a line, until end of input.
    public func serve(input: Int32) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            pending += buffer[..<n]
            var start = 0
            while let nl = pending[start...].firstIndex(of: 0x0A) {
                var line = Array(pending[start..<nl])
                if line.last == 0x0D { line.removeLast() }
                start = nl + 1
                if !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { handle(line) }
            }
            pending.removeFirst(start)
        }
        if !pending.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { handle(pending) }
    }

    // MARK: Messages

    typealias J = JSONWriter.Value

    /// JSON-RPC's error codes, and MCP's for a resource that is not there.
    enum Code: Int {
        case parse = -32700, invalidRequest = -32600, methodNotFound = -32601, invalidParams = -32602
        case internalError = -32603, resourceNotFound = -32002
    }

    struct Failure: Error {
        var code: Code
        var message: String
        init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }
    }

    /// Answers one message (a line): a response for a request, nothing for a notification.
    public func handle(_ line: [UInt8]) {
        let message: JSONNode
        do {
            message = try JSONReader.parse(line, file: "message")
        } catch {
            return respond(id: .null, error: Failure(.parse, "not JSON: \(error.message) (a message is one line)"))
        }
        if case .array = message.value {
            return respond(
                id: .null, error: Failure(.invalidRequest, "batches are not taken: send one message a line"))
        }
        guard message.isObject else {
            return respond(
                id: .null, error: Failure(.invalidRequest, "a message is a JSON object, not \(message.kindDescription)")
            )
        }
        let rawID = message["id"]
        var id: J = .null
        switch rawID?.value {
        case .string(let s)?: id = .string(s)
        case .number(let text)?: id = .number(text)
        case nil, .null?: break
        default:
            return respond(
                id: .null,
                error: Failure(.invalidRequest, "an id is a string or a number, not \(rawID!.kindDescription)"))
        }
        guard let method = message["method"]?.string else {
            // A response to a request this server never sends: there is nothing to answer it with.
            if message["result"] != nil || message["error"] != nil { return }
            return respond(id: id, error: Failure(.invalidRequest, "the message has no \"method\" (a string)"))
        }
        guard message["jsonrpc"]?.string == "2.0" else {
            return respond(id: id, error: Failure(.invalidRequest, "\"jsonrpc\" must be \"2.0\""))
        }
        let params = message["params"]
        if let params, !params.isObject {
            return respond(
                id: id, error: Failure(.invalidParams, "\"params\" is an object, not \(params.kindDescription)"))
        }
        guard rawID != nil, !(rawID?.isNull ?? true) else {
            return notification(method)
        }
        do {
            respond(id: id, result: try request(method, params ?? JSONNode(.object([]), line: 1)))
        } catch let failure as Failure {
            respond(id: id, error: failure)
        } catch {
            respond(id: id, error: Failure(.internalError, "\(error)"))
        }
    }

    private func notification(_ method: String) {
        switch method {
        case "notifications/initialized", "notifications/cancelled", "notifications/roots/list_changed": return
        default:
            // Notifications get no answer (JSON-RPC); an unknown one is said where a person can see it.
            FileHandle.standardError.write(Data("lanes mcp: ignored the notification \(method)\n".utf8))
        }
    }

    private func request(_ method: String, _ params: JSONNode) throws -> J {
        switch method {
        case "initialize":
            if let name = params["clientInfo"]?["name"]?.string, !name.isEmpty { tools.agentName = name }
            let asked = params["protocolVersion"]?.string ?? ""
            return .object([
                ("protocolVersion", .string(Self.protocolVersions.contains(asked) ? asked : Self.protocolVersions[0])),
                (
                    "capabilities",
                    .object([
                        ("tools", .object([("listChanged", .bool(false))])),
                        ("resources", .object([("subscribe", .bool(true)), ("listChanged", .bool(false))])),
                    ])
                ),
                ("serverInfo", .object([("name", .string("lanes")), ("version", .string(version))])),
                (
                    "instructions",
                    .string(
                        "Kanban boards of Lanes. Every change meets the rules the lanes command meets (WIP limits, accept rules, what the board's file can hold) and a refusal is the tool's error, in the words lanes prints. undo reverts only this agent's own edits."
                    )
                ),
            ])
        case "ping":
            return .object([])
        case "tools/list":
            return .object([("tools", .array(AgentTools.tools.map(\.listed)))])
        case "tools/call":
            guard let name = params["name"]?.string else {
                throw Failure(.invalidParams, "tools/call needs \"name\", the tool's name (a string)")
            }
            var arguments: [(key: String, value: JSONNode)] = []
            if let given = params["arguments"], !given.isNull {
                guard case .object(let members) = given.value else {
                    throw Failure(.invalidParams, "\"arguments\" is an object, not \(given.kindDescription)")
                }
                arguments = members
            }
            do {
                let reply = try tools.call(name, arguments)
                return .object([
                    ("content", .array([.object([("type", .string("text")), ("text", .string(reply.text))])])),
                    ("isError", .bool(reply.isError)),
                ])
            } catch {
                throw Failure(.invalidParams, error.message)
            }
        case "resources/list":
            return .object([
                (
                    "resources",
                    .array(
                        tools.boardNames.map {
                            .object([
                                ("uri", .string(AgentTools.uri(of: $0))), ("name", .string($0)),
                                ("description", .string("The board as lanes show --json gives it.")),
                                ("mimeType", .string("application/json")),
                            ])
                        })
                )
            ])
        case "resources/templates/list":
            return .object([("resourceTemplates", .array([]))])
        case "resources/read":
            let spec = try board(params)
            do {
                let text = try tools.readResource(spec)
                return .object([
                    (
                        "contents",
                        .array([
                            .object([
                                ("uri", .string(AgentTools.uri(of: spec))), ("mimeType", .string("application/json")),
                                ("text", .string(text)),
                            ])
                        ])
                    )
                ])
            } catch {
                throw Failure(.internalError, tools.host.words(error))
            }
        case "resources/subscribe":
            // The board is read now, before the answer, and handed to the watcher as its base: a
            // change made right after the client hears back is a change from that base, never missed.
            let spec = try board(params)
            let uri = AgentTools.uri(of: spec)
            var store: (any BoardStore)?
            if !subscriptions.contains(uri), let open = openForWatching, let s = try? open(spec), (try? s.load()) != nil
            {
                store = s
            }
            subscriptions.add(uri, store: store)
            return .object([])
        case "resources/unsubscribe":
            subscriptions.remove(AgentTools.uri(of: try board(params)))
            return .object([])
        default:
            throw Failure(.methodNotFound, "no method \"\(method)\" here: lanes mcp serves tools and resources")
        }
    }

    /// The board a resource request's `uri` names.
    private func board(_ params: JSONNode) throws -> String {
        guard let uri = params["uri"]?.string else { throw Failure(.invalidParams, "\"uri\" (a string) is missing") }
        guard let spec = tools.boardSpec(forURI: uri) else {
            throw Failure(
                .resourceNotFound,
                "\(uri) is no board of this server; resources/list names them (nothing was read)")
        }
        return spec
    }

    // MARK: Writing

    private func respond(id: J, result: J) {
        send(.object([("jsonrpc", .string("2.0")), ("id", id), ("result", result)]))
    }

    private func respond(id: J, error: Failure) {
        send(
            .object([
                ("jsonrpc", .string("2.0")), ("id", id),
                ("error", .object([("code", .int(error.code.rawValue)), ("message", .string(error.message))])),
            ]))
    }

    /// Writes one message and its line end, whole, before any other (the watcher's thread sends too).
    func send(_ message: J) {
        let bytes = Array((JSONWriter.compact(message) + "\n").utf8)
        writeLock.lock()
        defer { writeLock.unlock() }
        var done = 0
        while done < bytes.count {
            let n = bytes[done...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }  // the client is gone; reading stdin ends the server
            done += n
        }
    }
}

/// The resource URIs the client subscribed to, and the stores read at subscription for the watcher
/// to take (a store is used by one thread at a time: handed over, never shared).
final class Subscriptions: @unchecked Sendable {
    private let lock = NSLock()
    private var uris = Set<String>()
    private var handed: [String: any BoardStore] = [:]

    func add(_ uri: String, store: (any BoardStore)? = nil) {
        lock.withLock {
            uris.insert(uri)
            if let store { handed[uri] = store }
        }
    }
    func remove(_ uri: String) {
        lock.withLock {
            uris.remove(uri)
            handed[uri] = nil
        }
    }
    func contains(_ uri: String) -> Bool { lock.withLock { uris.contains(uri) } }
    /// The store read when `uri` was subscribed to, once.
    func takeStore(_ uri: String) -> (any BoardStore)? { lock.withLock { handed.removeValue(forKey: uri) } }
}

/// Watches the subscribed boards for any writer's change (this agent's too) on a thread of its own,
/// with a store per board of its own: `BoardStore.refresh` (a stat for a file, the LISTEN socket
/// for PostgreSQL), woken by the store's change descriptor or every quarter second, and tells
/// `changed` the URI of each that changed. A board nobody subscribed to is not opened.
final class BoardWatcher: @unchecked Sendable {
    private let specs: [String]
    private let open: @Sendable (String) throws -> any BoardStore
    private let subscriptions: Subscriptions
    private let changed: @Sendable (String) -> Void
    private let lock = NSLock()
    private var stopped = false

    init(
        specs: [String], open: @escaping @Sendable (String) throws -> any BoardStore, subscriptions: Subscriptions,
        changed: @escaping @Sendable (String) -> Void
    ) {
        self.specs = specs
        self.open = open
        self.subscriptions = subscriptions
        self.changed = changed
    }

    func start() {
        let thread = Thread { [self] in loop() }
        thread.name = "lanes.mcp.watch"
        thread.start()
    }

    func stop() { lock.withLock { stopped = true } }

    private var isStopped: Bool { lock.withLock { stopped } }

    private func loop() {
        var stores: [String: any BoardStore] = [:]
        while !isStopped {
            var fds: [pollfd] = []
            for spec in specs {
                let uri = AgentTools.uri(of: spec)
                // A board no client watches is not read (at 10,000 cards a read after each of the
                // agent's own saves cost a core ~8 ms); a subscription opens it, and its first read is the base.
                guard subscriptions.contains(uri) else {
                    stores[spec] = nil  // subscribed again later: read again then
                    continue
                }
                if let handed = subscriptions.takeStore(uri) { stores[spec] = handed }
                guard let store = stores[spec] else {
                    // Opened (and read) once; a board that cannot be read now is tried again next round.
                    if let s = try? open(spec), (try? s.load()) != nil { stores[spec] = s }
                    continue
                }
                if let fd = store.changeDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
                // An error (the board gone, the server down) is the next tool call's to say; watching goes on.
                if (try? store.refresh()) != nil { changed(uri) }
            }
            _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 250) }
        }
    }
}
