import Foundation
import LanesCore
import MCP

#if canImport(Glibc)
    import Glibc
#endif

/// `lanes mcp`: a Model Context Protocol server over stdin and stdout (the official Swift SDK),
/// serving the boards it was started with as tools (`AgentTools`) and as resources that notify
/// subscribed clients when anyone changes the board.
public enum AgentServer {
    /// Serves until stdin ends. `watch` opens a board's storage for watching only (no recovery, no change).
    public static func run(
        specs: [String], host: AgentHost, watch: @escaping @Sendable (String) throws -> any BoardStore,
        version: String
    ) async throws {
        let agent = AgentQueue(AgentTools(specs: specs, host: host))
        let names = agent.tools.boardNames
        let server = Server(
            name: "lanes", version: version,
            instructions:
                "Kanban boards of Lanes. Every change goes through the same rules as the lanes command (WIP limits, accept rules) and is refused in its words; undo reverts only this agent's own edits.",
            capabilities: .init(resources: .init(subscribe: true, listChanged: false), tools: .init(listChanged: false))
        )
        let subscriptions = Subscriptions()
        await register(on: server, agent: agent, names: names, subscriptions: subscriptions)
        let watcher = BoardWatcher(specs: names, open: watch, subscriptions: subscriptions) { uri in
            Task { try? await server.notify(ResourceUpdatedNotification.message(.init(uri: uri))) }
        }
        watcher.start()
        try await server.start(transport: StdioTransport()) { client, _ in
            let name = client.name
            await agent.run { $0.agentName = name.isEmpty ? "an MCP client" : name }
        }
        await server.waitUntilCompleted()
        watcher.stop()
    }

    static func register(on server: Server, agent: AgentQueue, names: [String], subscriptions: Subscriptions) async {
        await server.withMethodHandler(ListTools.self) { _ in
            ListTools.Result(tools: AgentTools.tools.map(\.tool))
        }
        await server.withMethodHandler(CallTool.self) { params in
            let name = params.name
            let arguments = params.arguments ?? [:]
            let result = await agent.run { tools in
                Result { () throws(AgentInputError) in try tools.call(name, arguments) }
            }
            switch result {
            case .success(let reply):
                return CallTool.Result(
                    content: [.text(text: reply.text, annotations: nil, _meta: nil)], isError: reply.isError)
            case .failure(let error):
                throw MCPError.invalidParams(error.message)
            }
        }
        await server.withMethodHandler(ListResources.self) { _ in
            ListResources.Result(
                resources: names.map {
                    Resource(
                        name: $0, uri: AgentTools.uri(of: $0), description: "The board as lanes show --json gives it.",
                        mimeType: "application/json")
                })
        }
        await server.withMethodHandler(ReadResource.self) { params in
            let uri = params.uri
            let result = await agent.run { tools -> Result<String, MCPError> in
                guard let spec = tools.boardSpec(forURI: uri) else {
                    return .failure(MCPError.invalidParams("\(uri) is no board of this server"))
                }
                do { return .success(try tools.readResource(spec)) } catch {
                    return .failure(MCPError.internalError(tools.host.words(error)))
                }
            }
            let text = try result.get()
            return ReadResource.Result(contents: [.text(text, uri: uri, mimeType: "application/json")])
        }
        await server.withMethodHandler(ResourceSubscribe.self) { params in
            guard names.contains(where: { AgentTools.uri(of: $0) == params.uri }) else {
                throw MCPError.invalidParams("\(params.uri) is no board of this server")
            }
            subscriptions.add(params.uri)
            return Empty()
        }
        await server.withMethodHandler(ResourceUnsubscribe.self) { params in
            subscriptions.remove(params.uri)
            return Empty()
        }
    }
}

/// The agent's tools behind one serial queue: tool calls run one at a time, in arrival order, off
/// the Swift concurrency pool (they block on files, locks and the database).
final class AgentQueue: @unchecked Sendable {
    let tools: AgentTools
    private let queue = DispatchQueue(label: "lanes.mcp.tools")

    init(_ tools: AgentTools) { self.tools = tools }

    func run<T: Sendable>(_ body: @escaping @Sendable (AgentTools) -> T) async -> T {
        await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: body(self.tools)) }
        }
    }
}

/// The resource URIs a client subscribed to.
final class Subscriptions: @unchecked Sendable {
    private let lock = NSLock()
    private var uris = Set<String>()

    func add(_ uri: String) { lock.withLock { _ = uris.insert(uri) } }
    func remove(_ uri: String) { lock.withLock { _ = uris.remove(uri) } }
    func contains(_ uri: String) -> Bool { lock.withLock { uris.contains(uri) } }
}

/// Watches the boards for any writer's change (this agent's too) on a thread of its own, with a
/// store per board of its own: `BoardStore.refresh` (a stat and inotify for a file, LISTEN for
/// PostgreSQL), woken by the store's change descriptor or every quarter second, and tells
/// `changed` the URI of each subscribed board that changed.
final class BoardWatcher: @unchecked Sendable {
    private let specs: [String]
    private let open: @Sendable (String) throws -> any BoardStore
    private let subscriptions: Subscriptions
    private let changed: @Sendable (String) -> Void
    private let lock = NSLock()
    private var stopped = false
    private var thread: Thread?

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
        self.thread = thread
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
                guard let store = stores[spec] else {
                    // Opened (and read) once; a board that cannot be read now is tried again next round.
                    if let s = try? open(spec), (try? s.load()) != nil { stores[spec] = s }
                    continue
                }
                if let fd = store.changeDescriptor { fds.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
                // An error (the board gone, the server down) is the next tool call's to say; watching goes on.
                if (try? store.refresh()) != nil, subscriptions.contains(uri) { changed(uri) }
            }
            _ = fds.withUnsafeMutableBufferPointer { poll($0.baseAddress, nfds_t($0.count), 250) }
        }
    }
}
