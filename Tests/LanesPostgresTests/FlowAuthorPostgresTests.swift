import DragKit
import Foundation
@testable import LanesCore
import SeededRandom
import Testing
@testable import LanesPostgres

/// Who finished each card on a PostgreSQL board: the history rows' roles, folded into the
/// aggregates (migration 9), agents being the members of role `lanes_agents` the administrator
/// made (directly or through another role); the aggregates and the whole record agree.
@Suite("Flow: cards finished by agent roles and by members, on the server", .serialized)
struct FlowAuthorPostgresTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
        try Self.makeRoles(server)
    }

    /// `lanes_agents`, `flow_agent` (a member of it) and `flow_agent_nested` (a member through `flow_bots`).
    static func makeRoles(_ server: TestServer) throws {
        let su = try server.connect("postgres", database: "postgres")
        defer { su.close() }
        for (role, login) in [
            ("lanes_agents", false), ("flow_bots", false), ("flow_agent", true), ("flow_agent_nested", true),
        ] {
            try su.query(
                """
                DO $$ BEGIN CREATE ROLE \(role) \(login ? "LOGIN" : "NOLOGIN");
                EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$
                """)
        }
        try su.query("GRANT lanes_agents TO flow_agent")
        try su.query("GRANT lanes_agents TO flow_bots")
        try su.query("GRANT flow_bots TO flow_agent_nested")
    }

    static func move(_ store: PostgresBoardStore, _ title: String, to column: String) throws {
        let base = try store.load()
        var ours = base
        for c in ours.columns.indices {
            if let p = ours.columns[c].cards.firstIndex(where: { $0.title == title }) {
                let card = ours.columns[c].cards.remove(at: p)
                let to = try #require(ours.columns.firstIndex { $0.title == column })
                ours.columns[to].cards.append(card)
                break
            }
        }
        let outcome = try store.commit(base: base, ours: ours)
        #expect(outcome.conflicts.isEmpty)
    }

    /// A board alice owns, with bob and the two agents as members; their stores.
    func board(_ stem: String, cards: [String]) throws -> (url: String, stores: [String: PostgresBoardStore]) {
        let name = TestServer.boardName(stem)
        let text = "## To do\n\n" + cards.map { "- \($0)\n" }.joined() + "\n## Doing\n\n## Done\n"
        let (b, info) = try BoardFormat.parse(text, file: "s.md")
        let url = server.url("alice", board: name)
        let alice = try PostgresBoardStore.create(url: url, board: b, info: info)
        var stores = ["alice": alice]
        for role in ["bob", "flow_agent", "flow_agent_nested"] {
            try alice.grant(role: role)
            stores[role] = try PostgresBoardStore.open(url: server.url(role, board: name))
        }
        return (url, stores)
    }

    @Test(
        "a member's and two agents' finishes (one through another role), the last finish counting, from the aggregates and from the record"
    )
    func exact() throws {
        let (url, s) = try board("flowby", cards: ["A", "B", "C", "D", "E"])
        defer { for store in s.values { store.disconnect() } }
        try Self.move(s["bob"]!, "A", to: "Done")
        try Self.move(s["flow_agent"]!, "B", to: "Doing")
        try Self.move(s["flow_agent"]!, "B", to: "Done")
        try Self.move(s["flow_agent_nested"]!, "C", to: "Done")
        try Self.move(s["bob"]!, "B", to: "Doing")  // reopened by bob…
        try Self.move(s["flow_agent"]!, "B", to: "Done")  // …finished again by the agent
        try Self.move(s["alice"]!, "D", to: "Done")
        try Self.move(s["flow_agent"]!, "D", to: "To do")  // taken out of Done: not finished
        try Self.move(s["bob"]!, "E", to: "Done")
        let now = FlowTime(Date().timeIntervalSince1970) + 60
        let (folded, _) = try PostgresFlowHistory.read(url: url, now: now)
        let (whole, _) = try PostgresFlowHistory.read(url: url, now: now, summary: false)
        #expect(folded.summary != nil && whole.summary == nil)
        for h in [folded, whole] {
            #expect(h.agents?.named == true && h.agents?.isAgent("flow_agent_nested") == true)
            #expect(h.agents?.isAgent("bob") == false && h.agents?.isAgent("postgres") == false)
            let r = FlowMetrics.compute(h, options: FlowOptions(now: now, agents: h.agents!))
            let by = Dictionary(uniqueKeysWithValues: r.cycle.map { ($0.title, $0.by) })
            #expect(by == ["A": "bob", "B": "flow_agent", "C": "flow_agent_nested", "E": "bob"])
            let f = r.finishedBy
            #expect(f.agentsNamed && f.agents.count == 2 && f.people.count == 2 && f.unattributed == 0)
            #expect(f.authors.map(\.author) == ["bob", "flow_agent", "flow_agent_nested"])
            #expect(f.authors.map(\.agent) == [false, true, true])
        }
        let options = FlowOptions(now: now, seed: 3, trials: 100, agents: folded.agents!)
        #expect(FlowAggregateTests.rendering(folded, options) == FlowAggregateTests.rendering(whole, options))
    }

    @Test(
        "two roles moving cards in random order, several in one second: the split is what each did",
        arguments: Array(UInt64(1)...4))
    func interleaved(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        let cards = (1...6).map { "Card \($0)" }
        let (url, s) = try board("flowmix", cards: cards)
        defer { for store in s.values { store.disconnect() } }
        let roles = ["bob", "flow_agent"], columns = ["To do", "Doing", "Done"]
        var column = [Int](repeating: 0, count: cards.count)
        var finisher: [String?] = Array(repeating: nil, count: cards.count)
        for _ in 0..<30 {
            let who = roles[int(2)], card = int(cards.count)
            var to = int(3)
            if to == column[card] { to = (to + 1) % 3 }
            try Self.move(s[who]!, cards[card], to: columns[to])
            if to == 2 { finisher[card] = who }
            column[card] = to
        }
        var want: [String: Int] = [:]
        for i in cards.indices where column[i] == 2 { want[finisher[i]!, default: 0] += 1 }
        let now = FlowTime(Date().timeIntervalSince1970) + 60
        for summary in [true, false] {
            let (h, _) = try PostgresFlowHistory.read(url: url, now: now, summary: summary)
            #expect((h.summary != nil) == summary)
            let f = FlowMetrics.compute(h, options: FlowOptions(now: now, agents: h.agents!)).finishedBy
            #expect(f.agents.count == want["flow_agent", default: 0], "seed \(seed)")
            #expect(f.people.count == want["bob", default: 0], "seed \(seed)")
            var got: [String: Int] = [:]
            for a in f.authors { got[a.author] = a.cycle.count }
            #expect(got == want, "seed \(seed), summary \(summary)")
        }
    }

    @Test("a server without role lanes_agents: every role a person, the text and a note say so")
    func noAgentRole() throws {
        let own = try TestServer.startOwn()  // roles are the cluster's: this one has no lanes_agents
        defer { own.stop() }
        let name = TestServer.boardName("flownone")
        let (b, info) = try BoardFormat.parse("## To do\n\n- A\n- B\n\n## Done\n", file: "s.md")
        let url = own.url("alice", board: name)
        let alice = try PostgresBoardStore.create(url: url, board: b, info: info)
        defer { alice.disconnect() }
        try alice.grant(role: "bob")
        let bob = try PostgresBoardStore.open(url: own.url("bob", board: name))
        defer { bob.disconnect() }
        try Self.move(bob, "A", to: "Done")
        let now = FlowTime(Date().timeIntervalSince1970) + 60
        let (h, _) = try PostgresFlowHistory.read(url: url, now: now)
        #expect(h.agents?.named == false)
        #expect(
            h.notes.contains(
                "the server has no role lanes_agents, so every role counts as a person: an administrator marks agents with CREATE ROLE lanes_agents NOLOGIN; GRANT lanes_agents TO ROLE"
            ))
        let r = FlowMetrics.compute(h, options: FlowOptions(now: now, agents: h.agents!))
        #expect(
            !r.finishedBy.agentsNamed && r.finishedBy.people.count == 1 && r.finishedBy.authors.map(\.author) == ["bob"]
        )
        let text = FlowOutput.text(.init(board: name, history: h, report: r), chart: nil)
        #expect(
            text.contains(
                "Finished by people: 1 (p50 0 d) · agents: none named (the server has no role lanes_agents)\n"))
    }

    @Test(
        "a migration-8 database upgraded in place: its moves get their roles, the index its role, the split the record's"
    )
    func upgrade() throws {
        let superuser = try server.connect("postgres", database: "postgres")
        defer { superuser.close() }
        let db = "up9_\(UInt32.random(in: 0...UInt32.max))"
        try superuser.query("CREATE DATABASE \(db) OWNER lanes_admin")
        defer { _ = try? superuser.query("DROP DATABASE \(db) WITH (FORCE)") }
        let admin = try server.connect("lanes_admin", database: db)
        defer { admin.close() }
        try Schema.migrate(admin, through: 8)
        #expect(try Schema.currentVersion(admin) == 8)
        #expect(
            try admin.query(
                "SELECT 1 FROM pg_attribute WHERE attrelid = 'lanes.flow_moves'::regclass AND attname = 'last_by'"
            ).count == 0)
        // Written under migration 8 by alice (the owner), bob and the agent, with raw SQL as a
        // migration-8 client could.
        let alice = try server.connect("alice", database: db)
        defer { alice.close() }
        try alice.query("INSERT INTO lanes.boards (name, version) VALUES ('team', 0)")
        let id = try #require(try alice.query("SELECT currval('lanes.board_ids')")[0, 0])
        try alice.query("UPDATE lanes.boards SET version = 1 WHERE id = $1", [id])
        for role in ["bob", "flow_agent"] {
            try alice.query("INSERT INTO lanes.members (board_id, role) VALUES ($1, $2)", [id, role])
        }
        var columns: [String] = []
        for (i, title) in ["To do", "Doing", "Done"].enumerated() {
            columns.append(
                try #require(
                    try alice.query(
                        "INSERT INTO lanes.columns (board_id, key, title, seq) VALUES ($1, $2, $3, 1) RETURNING id",
                        [id, "k\(i)", title])[0, 0]))
        }
        for j in 0..<4 {
            try alice.query(
                "INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ($1, $2, $3, $4, $5, 1)",
                [id, String(j + 1), columns[0], "c\(j)", "Task \(j)"])
        }
        let bob = try server.connect("bob", database: db), agent = try server.connect("flow_agent", database: db)
        defer {
            bob.close()
            agent.close()
        }
        func move(_ who: PGConnection, _ card: Int, to column: Int) throws {
            try who.query(
                "UPDATE lanes.cards SET column_id = $1 WHERE board_id = $2 AND id = $3",
                [columns[column], id, String(card)])
        }
        try move(bob, 1, to: 2)
        try move(agent, 2, to: 1)
        try move(agent, 2, to: 2)
        try move(agent, 3, to: 2)
        try move(bob, 3, to: 1)
        try move(bob, 3, to: 2)  // the agent's finish, reopened and finished again by bob
        try move(agent, 4, to: 2)
        try move(bob, 4, to: 0)  // not finished

        try Schema.migrate(admin)
        #expect(try Schema.currentVersion(admin) == Schema.latest)
        let index = try admin.query(
            "SELECT indexdef FROM pg_indexes WHERE schemaname = 'lanes' AND indexname = 'history_card_flow'")
        #expect(index[0, 0]?.contains("INCLUDE (at, card_id, column_id, role)") == true, "\(index[0, 0] ?? "")")
        let finishes = try admin.query(
            """
            SELECT m.card_id, m.last_by FROM lanes.flow_moves m
            WHERE m.board_id = $1 AND m.to_column = $2 ORDER BY m.card_id, m.last_row
            """, [id, columns[2]])
        #expect(
            (0..<finishes.count).map { "\(finishes[$0, 0] ?? "") \(finishes[$0, 1] ?? "")" }
                == ["1 bob", "2 flow_agent", "3 flow_agent", "3 bob", "4 flow_agent"])
        let url = "postgresql://alice@/\(db)?host=\(server.dir)&port=\(server.port)&board=team"
        let now = FlowTime(Date().timeIntervalSince1970) + 60
        let (folded, _) = try PostgresFlowHistory.read(url: url, now: now)
        let (whole, _) = try PostgresFlowHistory.read(url: url, now: now, summary: false)
        #expect(folded.summary != nil, "the upgraded aggregates were used")
        for h in [folded, whole] {
            let r = FlowMetrics.compute(h, options: FlowOptions(now: now, agents: h.agents!))
            #expect(
                Dictionary(uniqueKeysWithValues: r.cycle.map { ($0.title, $0.by) }) == [
                    "Task 0": "bob", "Task 1": "flow_agent", "Task 2": "bob",
                ])
            #expect(r.finishedBy.agents.count == 1 && r.finishedBy.people.count == 2)
        }
    }
}
