// lanes-bench --pg-fold: what keeping the flow aggregates costs a write (schema migration 6).
//
//   lanes-bench --pg-fold [--pg-fold-big]
//
// One statement of many rows about each card: psql (as the superuser, like --pg-flow) inserts
// moves into `lanes.history`, each card's rows together, for 20 cards × 1,000 rows and 5 cards ×
// 4,000 rows (with --pg-fold-big also 1,000 cards × 1,000 rows, 1,000,000 rows in one statement);
// each is timed with the aggregates' trigger on and off (the difference is the fold), and the
// aggregates are checked to stand for the record. Then the write cost of 500 single-card moves in
// one transaction (500 UPDATE statements as a member), three times each with the trigger on and
// off, alternating.
import Foundation
import LanesCore
import LanesPostgres

enum FoldServerBench {
    static func run(big: Bool) -> [String] {
        let env = ProcessInfo.processInfo.environment
        guard let dir = env["LANES_PG_DIR"], let port = env["LANES_PG_PORT"] else {
            return ["lanes-bench --pg-fold: no server (run it through scripts/pg-test-cluster with)"]
        }
        func psql(_ role: String, _ sql: String) -> String { FlowServerBench.psql(role, dir: dir, port: port, sql) }
        func board(_ name: String, cards: Int) throws -> String {
            var text = ""
            for (c, title) in ["Backlog", "Ready", "Doing", "Review", "Done"].enumerated() {
                text += "## \(title)\n\n"
                for k in stride(from: c, to: cards, by: 5) { text += "- Card \(k)\n" }
                text += "\n"
            }
            let (b, info) = try BoardFormat.parse(text, file: "fold.md")
            let store = try PostgresBoardStore.create(
                url: "postgresql://alice@/lanes?host=\(dir)&port=\(port)&board=\(name)", board: b, info: info)
            defer { store.disconnect() }
            return String(store.boardID)
        }
        func trigger(_ on: Bool) {
            _ = psql("postgres", "ALTER TABLE lanes.history \(on ? "ENABLE" : "DISABLE") TRIGGER history_flow_insert;")
        }
        func ms(_ start: Date) -> Int { Int(Date().timeIntervalSince(start) * 1000) }
        var lines: [String] = []
        do {
            try PostgresBoardStore.setUpSchema(url: "postgresql://lanes_admin@/lanes?host=\(dir)&port=\(port)&board=x")
            var shapes = [(cards: 20, perCard: 1_000), (cards: 5, perCard: 4_000)]
            if big { shapes.append((1_000, 1_000)) }
            lines.append(
                "PostgreSQL flow aggregates, one INSERT of many rows about each card (rows of a card together, times rising):"
            )
            for (cards, perCard) in shapes {
                var cells: [String] = []
                for on in [false, true] {
                    let id = try board("fold-\(getpid())-\(cards)x\(perCard)-\(on)", cards: cards)
                    trigger(on)
                    let start = Date()
                    _ = psql(
                        "postgres",
                        """
                        CREATE TEMP TABLE c AS SELECT row_number() OVER (ORDER BY id) - 1 AS n, id FROM lanes.cards WHERE board_id = \(id);
                        CREATE TEMP TABLE k AS SELECT row_number() OVER (ORDER BY key) - 1 AS n, id, title FROM lanes.columns WHERE board_id = \(id);
                        INSERT INTO lanes.history (board_id, at, role, entity, kind, card_id, column_id, column_title, before, after)
                        SELECT \(id), now() + make_interval(secs => s), 'alice', 'card', 'moved', c.id, t.id, t.title,
                               jsonb_build_object('column_id', f.id), jsonb_build_object('column_id', t.id)
                        FROM generate_series(0, \(cards * perCard - 1)) AS s
                        JOIN c ON c.n = s / \(perCard)
                        JOIN k f ON f.n = (s % \(perCard)) % 5
                        JOIN k t ON t.n = (s % \(perCard) + 1) % 5
                        ORDER BY s;
                        """)
                    let took = ms(start)
                    trigger(true)
                    var note = ""
                    if on {
                        let exact = psql("postgres", "SELECT exact FROM lanes.flow_boards WHERE board_id = \(id);")
                        let (history, _) = try PostgresFlowHistory.read(
                            url:
                                "postgresql://alice@/lanes?host=\(dir)&port=\(port)&board=fold-\(getpid())-\(cards)x\(perCard)-\(on)",
                            now: FlowTime(Date().timeIntervalSince1970) + 10 * 86_400 * 365)
                        note =
                            exact == "t" && history.summary != nil
                            ? " (aggregates exact and read)" : "  AGGREGATES NOT EXACT"
                    }
                    cells.append("\(on ? "with the fold" : "without") \(took) ms\(note)")
                    _ = psql("postgres", "DELETE FROM lanes.history WHERE board_id = \(id);")
                }
                lines.append(
                    "  \(cards) cards × \(perCard) rows = \(cards * perCard) rows: " + cells.joined(separator: ", "))
            }
            // 500 moves, one statement each, in one transaction (as a member would write them).
            let id = try board("fold-\(getpid())-moves", cards: 500)
            let cols = psql(
                "alice", "SELECT string_agg(id::text, ',' ORDER BY key) FROM lanes.columns WHERE board_id = \(id);"
            ).split(separator: ",")
            let cardIDs = psql(
                "alice", "SELECT string_agg(id::text, ',' ORDER BY id) FROM lanes.cards WHERE board_id = \(id);"
            ).split(separator: ",")
            var times: [Bool: [Int]] = [false: [], true: []]
            for round in 0..<6 {
                let on = round % 2 == 1
                trigger(on)
                var sql = "BEGIN;\n"
                for (i, card) in cardIDs.enumerated() {
                    sql +=
                        "UPDATE lanes.cards SET column_id = \(cols[(i + round + 1) % cols.count]), key = 'r\(round)-\(i)' WHERE board_id = \(id) AND id = \(card);\n"
                }
                sql += "COMMIT;\n"
                let start = Date()
                _ = psql("alice", sql)
                times[on, default: []].append(ms(start))
            }
            trigger(true)
            lines.append(
                "  500 single-card moves in one transaction (500 UPDATEs as alice): with the fold \(times[true]!.map(String.init).joined(separator: ", ")) ms; "
                    + "without \(times[false]!.map(String.init).joined(separator: ", ")) ms")
        } catch {
            trigger(true)
            lines.append("lanes-bench --pg-fold: \(error)")
        }
        return lines
    }
}
