import Foundation
@testable import LanesCore
import Testing
@testable import LanesPostgres

/// Migration 6 on a database that lived at migration 5: a board written by members' raw SQL as a
/// migration-5 client could (cards moved, a column renamed, one added, a card deleted, dated over
/// days by the administrator), upgraded in place; its aggregates are then the record's report.
@Suite("Flow: a migration-5 database upgraded to the aggregates of migration 6", .serialized)
struct FlowUpgradeTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    @Test(
        "a board whose columns changed after its cards, written under migration 5, reads from the aggregates after the upgrade, as the record reads"
    )
    func upgradeInPlace() throws {
        let superuser = try server.connect("postgres", database: "postgres")
        let db = "up6_\(UInt32.random(in: 0...UInt32.max))"
        try superuser.query("CREATE DATABASE \(db) OWNER lanes_admin")
        defer { _ = try? superuser.query("DROP DATABASE \(db) WITH (FORCE)") }
        let admin = try server.connect("lanes_admin", database: db)
        defer { admin.close() }
        try Schema.migrate(admin, through: 5)
        #expect(try Schema.currentVersion(admin) == 5)

        let alice = try server.connect("alice", database: db)
        defer { alice.close() }
        try alice.query("INSERT INTO lanes.boards (name, version) VALUES ('team', 0)")
        let id = try #require(try alice.query("SELECT currval('lanes.board_ids')")[0, 0])
        try alice.query("UPDATE lanes.boards SET version = 1, accept_rules = '' WHERE id = $1", [id])
        var columns: [String] = []
        for (i, title) in ["Backlog", "Doing", "Done"].enumerated() {
            columns.append(
                try #require(
                    try alice.query(
                        "INSERT INTO lanes.columns (board_id, key, title, seq) VALUES ($1, $2, $3, 1) RETURNING id",
                        [id, "k\(i)", title])[0, 0]))
        }
        var cards: [String] = []
        for j in 0..<8 {
            let card = String(Int64(j + 1) * 1_000_003)
            try alice.query(
                "INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ($1, $2, $3, $4, $5, 1)",
                [id, card, columns[0], "c\(j)", "Task \(j)"])
            cards.append(card)
        }
        func move(_ card: Int, to column: String) throws {
            try alice.query(
                "UPDATE lanes.cards SET column_id = $1 WHERE board_id = $2 AND id = $3", [column, id, cards[card]])
        }
        // Cards start and finish; then the middle column is renamed, a Review column is added
        // before Done, and work goes on through it; a card is deleted, one goes back from Done.
        for c in 0..<6 { try move(c, to: columns[1]) }
        for c in 0..<3 { try move(c, to: columns[2]) }
        try alice.query(
            "UPDATE lanes.columns SET title = 'In progress' WHERE board_id = $1 AND id = $2", [id, columns[1]])
        let review = try #require(
            try alice.query(
                "INSERT INTO lanes.columns (board_id, key, title, seq) VALUES ($1, 'k1m', 'Review', 1) RETURNING id",
                [id])[0, 0])
        for c in 3..<6 { try move(c, to: review) }
        try move(3, to: columns[2])
        try move(4, to: columns[2])
        try move(6, to: columns[1])
        try alice.query("DELETE FROM lanes.cards WHERE board_id = $1 AND id = $2", [id, cards[7]])
        try move(0, to: review)
        // The administrator dates the record over days, in its own order (the aggregates are folded again).
        let dated = try admin.query(
            """
            UPDATE lanes.history SET at = timestamptz '2026-03-02 09:00:00+00' + id * interval '7 hours 13 minutes'
            WHERE board_id = $1 RETURNING id
            """, [id])
        #expect(dated.count >= 8 + 3 + 6 + 3 + 3 + 5 + 1)
        let last = try #require(
            try admin.query(
                "SELECT floor(extract(epoch FROM max(at)))::bigint FROM lanes.history WHERE board_id = $1", [id]
            ).int(0, 0))

        // The path every open takes: connect, migrate.
        try Schema.migrate(admin)
        #expect(try Schema.currentVersion(admin) == Schema.latest)
        let epochs = try admin.query("SELECT count(DISTINCT epoch) FROM lanes.flow_moves WHERE board_id = $1", [id])
            .int(0, 0)
        #expect((epochs ?? 0) >= 2, "the moves were kept per column set")

        let url = "postgresql://alice@/\(db)?host=\(server.dir)&port=\(server.port)&board=team"
        let settings = [
            FlowColumns(), FlowColumns(started: "In progress", done: "Done"), FlowColumns(started: "Review"),
            FlowColumns(done: "Review"),
        ]
        for now in [last, last + 5 * 86_400] {
            let (folded, _) = try PostgresFlowHistory.read(url: url, now: now)
            let (whole, _) = try PostgresFlowHistory.read(url: url, now: now, summary: false)
            #expect(folded.summary != nil, "the upgraded aggregates were used")
            #expect(whole.summary == nil && !whole.events.isEmpty)
            for setting in settings {
                let options = FlowOptions(columns: setting, since: nil, now: now, seed: 5, trials: 200)
                let report = FlowMetrics.compute(folded, options: options)
                #expect(report.cycle.count >= 2, "cards finished in \(setting)")
                #expect(
                    FlowAggregateTests.rendering(folded, options) == FlowAggregateTests.rendering(whole, options),
                    "\(setting), now \(now)")
            }
        }
    }
}
