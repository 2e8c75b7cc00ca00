// lanes-bench --pg-flow: flow metrics of a PostgreSQL board with 1,000,000 history rows.
//
//   lanes-bench --pg-flow [--pg-flow-rows 1000000] [--pg-flow-cards 1000]
//
// A board of 1,000 cards in five columns is copied in by alice (its columns and cards recorded as
// added), then the superuser (postgres: the cards' row-level security is forced even for the
// schema's owner) adds history rows with psql,
// generated on the server, until the board has 1,000,000: card moves to a neighbouring column (nine
// in ten) and title edits, one every 30 s from 2025-01-01 (the board's creation is dated then too),
// by alice, bob and carol in turn (so who finished each card changes from row to row),
// then VACUUMed as autovacuum does a table that grew over months (the flow read is an index-only
// scan, which skips the table only for pages vacuumed since their rows came). Measured: reading the history into metrics
// as `lanes metrics postgresql://…` does, from the aggregates the server's triggers keep (schema migrations 5, 6; median of
// 3; target ≤ 1 s), and from every history row, with the two results compared. Twice: a board whose columns were set once,
// and one whose columns changed partway (renamed at a third of the rows; a column added and another reordered at two
// thirds; "Review" moved after "Done" at five sixths, so what is done changes), the aggregates exact for both (migration 6).
import Foundation
import LanesCore
import LanesPostgres
#if canImport(Glibc)
    import Glibc
#endif

enum FlowServerBench {
    static let targetMs = 1_000.0

    /// Runs psql as `role` with `sql` on its standard input; stops the benchmark when it fails.
    static func psql(_ role: String, dir: String, port: String, _ sql: String) -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/psql")
        p.arguments = [
            "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", dir, "-p", port, "-U", role, "-d", "lanes",
        ]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        p.standardInput = input
        p.standardOutput = output
        p.standardError = errors
        do { try p.run() } catch {
            FileHandle.standardError.write(Data("lanes-bench --pg-flow: cannot run psql: \(error)\n".utf8))
            exit(1)
        }
        input.fileHandleForWriting.write(Data(sql.utf8))
        input.fileHandleForWriting.closeFile()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            FileHandle.standardError.write(
                Data("lanes-bench --pg-flow: psql failed: \(String(decoding: err, as: UTF8.self))\n".utf8))
            exit(1)
        }
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Both shapes: columns set once, and columns changed partway (a rename at a third of the rows;
    /// a column added and another reordered at two thirds; "Review" moved after "Done" at five
    /// sixths, so by default it is done from then on, and "Done" in progress).
    static func run(rows: Int, cards: Int, keep: String? = nil) -> [String] {
        run(rows: rows, cards: cards, keep: keep, columnsChange: false)
            + run(rows: rows, cards: cards, keep: keep.map { $0 + "-columns" }, columnsChange: true)
    }

    static func run(rows: Int, cards: Int, keep: String?, columnsChange: Bool) -> [String] {
        let env = ProcessInfo.processInfo.environment
        guard let dir = env["LANES_PG_DIR"], let port = env["LANES_PG_PORT"] else {
            return ["lanes-bench --pg-flow: no server (run it through scripts/pg-test-cluster with)"]
        }
        let name = keep ?? "flow-\(getpid())\(columnsChange ? "-columns" : "")"
        let url = "postgresql://alice@/lanes?host=\(dir)&port=\(port)&board=\(name)"
        let shape = columnsChange ? "columns renamed, added and reordered partway" : "columns set once"
        var lines: [String] = []
        do {
            try PostgresBoardStore.setUpSchema(url: "postgresql://lanes_admin@/lanes?host=\(dir)&port=\(port)&board=x")
            var text = ""
            for (c, title) in ["Backlog", "Ready", "Doing", "Review", "Done"].enumerated() {
                text += "## \(title)\n\n"
                for k in stride(from: c, to: cards, by: 5) {
                    text += "- Card \(k): \(["fix", "add", "write", "check"][k % 4]) the thing\n"
                }
                text += "\n"
            }
            let (board, info) = try BoardFormat.parse(text, file: "flow.md")
            let made = keep.flatMap { _ in try? PostgresBoardStore.open(url: url) } != nil
            let store =
                made
                ? try PostgresBoardStore.open(url: url)
                : try PostgresBoardStore.create(url: url, board: board, info: info)
            let id = String(store.boardID)
            store.disconnect()
            let start = Date()
            if made,
                let have = Int(
                    psql("postgres", dir: dir, port: port, "SELECT count(*) FROM lanes.history WHERE board_id = \(id);")
                ), have >= rows
            {
                lines.append(
                    "PostgreSQL flow metrics, \(shape): a \(cards)-card board with \(have) history rows (kept from an earlier run: board \(name))"
                )
                return lines + measure(url: url)
            }
            let existing =
                Int(
                    psql("postgres", dir: dir, port: port, "SELECT count(*) FROM lanes.history WHERE board_id = \(id);")
                ) ?? 0
            let add = max(0, rows - existing)
            // Card k moves from column (step mod 5) to the next, so most rows are moves between neighbours.
            func moves(_ from: Int, _ to: Int) -> String {
                guard from <= to else { return "" }
                return """
                    INSERT INTO lanes.history (board_id, at, role, entity, kind, card_id, column_id, column_title, before, after)
                    SELECT \(id), timestamptz '2025-01-01 00:00:00+00' + make_interval(secs => s * 30),
                           (ARRAY['alice', 'bob', 'carol'])[1 + s % 3], 'card',
                           CASE WHEN s % 10 = 9 THEN 'edited' ELSE 'moved' END,
                           c.id, t.id, t.title,
                           CASE WHEN s % 10 = 9 THEN jsonb_build_object('title', 'Card ' || c.n || ' before ' || s)
                                ELSE jsonb_build_object('column_id', f.id, 'column_title', f.title, 'key', 'a') END,
                           CASE WHEN s % 10 = 9 THEN jsonb_build_object('title', 'Card ' || c.n || ' edit ' || s)
                                ELSE jsonb_build_object('column_id', t.id, 'key', 'b') END
                    FROM generate_series(\(from), \(to)) AS s
                    JOIN c ON c.n = s % \(cards)
                    JOIN k f ON f.n = (s / \(cards)) % 5
                    JOIN k t ON t.n = (s / \(cards) + 1) % 5;
                    """
            }
            // A change of the columns between rows `s` and `s + 1`: made on the table with its
            // triggers off (they would date it now), and recorded as its triggers record it, dated then.
            func columns(at s: Int, _ change: String, _ record: String) -> String {
                """
                BEGIN;
                SET LOCAL session_replication_role = replica;
                \(change)
                COMMIT;
                INSERT INTO lanes.history (board_id, at, role, entity, kind, column_id, column_title, before, after)
                SELECT \(id), timestamptz '2025-01-01 00:00:00+00' + make_interval(secs => \(s) * 30 + 15), 'alice', 'column', r.kind, r.column_id,
                       r.title, r.before, r.after
                FROM (\(record)) AS r (kind, column_id, title, before, after);
                """
            }
            var generate = moves(1, add)
            if columnsChange {
                let (a, b, c) = (add / 3, 2 * add / 3, 5 * add / 6)
                generate =
                    moves(1, a)
                    + columns(
                        at: a,
                        "UPDATE lanes.columns SET title = 'In progress' WHERE id = (SELECT id FROM k WHERE n = 2);",
                        "SELECT 'edited', id, 'In progress', jsonb_build_object('title', title), jsonb_build_object('title', 'In progress') FROM k WHERE n = 2"
                    )
                    + moves(a + 1, b)
                    + columns(
                        at: b,
                        """
                        INSERT INTO lanes.columns (board_id, key, title, seq) SELECT \(id), key || 'm', 'Blocked', 1 FROM k WHERE n = 2;
                        UPDATE lanes.columns SET key = (SELECT key FROM k WHERE n = 3) || 'm' WHERE id = (SELECT id FROM k WHERE n = 1);
                        """,
                        """
                        SELECT 'added', x.id, x.title, NULL::jsonb, jsonb_build_object('title', x.title, 'key', x.key)
                            FROM lanes.columns x WHERE x.board_id = \(id) AND x.title = 'Blocked'
                        UNION ALL
                        SELECT 'moved', k.id, k.title, jsonb_build_object('key', k.key), jsonb_build_object('key', (SELECT key FROM k WHERE n = 3) || 'm')
                            FROM k WHERE n = 1
                        """)
                    + moves(b + 1, c)
                    + columns(
                        at: c,
                        "UPDATE lanes.columns SET key = (SELECT key FROM k WHERE n = 4) || 'm' WHERE id = (SELECT id FROM k WHERE n = 3);",
                        """
                        SELECT 'moved', k.id, k.title, jsonb_build_object('key', k.key), jsonb_build_object('key', (SELECT key FROM k WHERE n = 4) || 'm')
                            FROM k WHERE n = 3
                        """)
                    + moves(c + 1, add)
            }
            _ = psql(
                "postgres", dir: dir, port: port,
                """
                UPDATE lanes.history SET at = timestamptz '2025-01-01 00:00:00+00' WHERE board_id = \(id);
                CREATE TEMP TABLE c AS SELECT row_number() OVER (ORDER BY id) - 1 AS n, id FROM lanes.cards WHERE board_id = \(id);
                CREATE TEMP TABLE k AS SELECT row_number() OVER (ORDER BY key) - 1 AS n, id, title, key FROM lanes.columns WHERE board_id = \(id);
                \(generate)
                VACUUM (ANALYZE) lanes.history;
                """)
            let total =
                Int(
                    psql("postgres", dir: dir, port: port, "SELECT count(*) FROM lanes.history WHERE board_id = \(id);")
                ) ?? 0
            lines.append(
                "PostgreSQL flow metrics, \(shape): a \(cards)-card board with \(total) history rows (\(add) added by psql in \(Int(Date().timeIntervalSince(start) * 1000)) ms)"
            )
            lines += measure(url: url)
            if keep == nil {
                _ = psql("postgres", dir: dir, port: port, "DELETE FROM lanes.history WHERE board_id = \(id);")
            }
        } catch {
            lines.append("lanes-bench --pg-flow: \(error)")
        }
        return lines
    }

    /// Reads the board's history into metrics three times from the server's aggregates (schema
    /// migration 5) and three times from every history row; the medians, and a digest of each
    /// path's results (equal digests: equal results).
    static func measure(url: String) -> [String] {
        var lines: [String] = []
        do {
            let now = FlowTime(Date().timeIntervalSince1970)
            var digests: [String] = []
            var medians: [Double] = []
            for whole in [false, true] {
                var times: [Double] = []
                var report: FlowReport?
                var read = ""
                for _ in 0..<3 {
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let (history, setting) = try PostgresFlowHistory.read(url: url, now: now, summary: !whole)
                    report = FlowMetrics.compute(history, options: FlowOptions(columns: setting, now: now))
                    times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
                    read =
                        history.summary.map { s in
                            "aggregates of \(s.cards.count) cards, \(s.cards.reduce(0) { $0 + $1.moves.count + $1.stints.count + $1.presence.count }) card-column rows, \(s.days.count) day-column rows, \(s.epochs.count) sets of columns"
                        }
                        ?? "\(history.events.count) events\(whole ? "" : "  MISSED: the aggregates were not used")"
                }
                let median = times.sorted()[1]
                medians.append(median)
                guard let r = report else { continue }
                // FNV-1a over every cycle time and day of flow: equal digests, equal results.
                var h: UInt64 = 0xcbf2_9ce4_8422_2325
                let text =
                    r.cycle.map { "\($0.title)|\($0.started)|\($0.finished)|\($0.by ?? "-")" }.joined(separator: ";")
                    + r.cfd.map { d in "\(d.day):" + d.counts.map { "\($0.title)=\($0.cards)" }.joined(separator: ",") }
                    .joined(separator: ";")
                    + r.aging.map { "\($0.title)|\($0.column)|\($0.started)" }.sorted().joined(separator: ";")
                    + r.cards.sorted { $0.key < $1.key }.map {
                        "\($0.key):" + $0.value.timeIn.map { "\($0.column)=\($0.seconds)" }.joined(separator: ",")
                    }.joined(separator: ";")
                for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
                digests.append(String(h, radix: 16))
                lines.append(
                    "  \(whole ? "every history row" : "server's aggregates") (\(read)): p50/p85/p95 \(r.percentiles.p50 ?? -1)/\(r.percentiles.p85 ?? -1)/\(r.percentiles.p95 ?? -1) s, \(r.aging.count) aging, \(r.percentiles.count) finished, \(r.cfd.count) days of flow, digest \(String(h, radix: 16))"
                )
                lines.append(
                    "    read into metrics: median of 3 \(Int(median)) ms (runs \(times.map { String(Int($0)) }.joined(separator: ", ")) ms)"
                        + (whole ? "" : "; target ≤ \(Int(targetMs)) ms\(median <= targetMs ? "" : "  MISSED")"))
            }
            if digests.count == 2 {
                lines.append("  the two paths' results: \(digests[0] == digests[1] ? "identical" : "DIFFERENT")")
            }
        } catch {
            lines.append("lanes-bench --pg-flow: \(error)")
        }
        return lines
    }
}
