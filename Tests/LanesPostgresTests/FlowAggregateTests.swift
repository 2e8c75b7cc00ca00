import DragKit
import Foundation
@testable import LanesCore
import SeededRandom
import Testing
@testable import LanesPostgres

/// The server's flow aggregates (schema migrations 5 and 6) against the whole record: random histories
/// written by two roles through the store and by a member's raw SQL (moves, edits, deletes, a card
/// deleted and added again with its id, several changes in one transaction), with times the
/// administrator sets (forwards, equal, backwards) or the server's own; the report from the
/// aggregates must be the report from every history row, under several column meanings, "now"s and
/// windows, the cards' time in each column included.
@Suite("Flow: the server's aggregates give the whole record's report", .serialized)
struct FlowAggregateTests {
    let server: TestServer

    init() throws {
        server = try TestServer.get()
    }

    static let columns = ["Backlog", "Ready", "Doing", "Review", "Done"]

    /// Runs a random script; returns the board's URL for alice, its id, and the last moment written.
    /// `stampTimes`: the administrator dates each step's rows (the aggregates are folded again);
    /// else they keep the server's times (folded as they were written). `columnChange`: a step
    /// renames, adds, deletes or reorders a column at random steps (by the store or raw SQL).
    func runScript(seed: UInt64, steps: Int, stampTimes: Bool, columnChange: Bool) throws -> (
        url: String, board: Int64, last: Int64
    ) {
        var rng = SplitMix64(seed: seed)
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        let name = TestServer.boardName("flowagg")
        var text = ""
        var n = 0
        for (c, title) in Self.columns.enumerated() {
            text += "## \(title)\n\n"
            for _ in 0..<(c == 4 ? 1 : 3 - c / 2) {
                n += 1
                text += "- Task \(n)\n"
            }
            text += "\n"
        }
        let (board0, info) = try BoardFormat.parse(text, file: "start.md")
        let url = server.url("alice", board: name)
        let alice = try PostgresBoardStore.create(url: url, board: board0, info: info)
        defer { alice.disconnect() }
        try alice.grant(role: "bob")
        let bob = try PostgresBoardStore.open(url: server.url("bob", board: name))
        defer { bob.disconnect() }
        let raw = try server.connect("bob")
        defer { raw.close() }
        let admin = try server.connect("lanes_admin")
        defer { admin.close() }
        let b = String(alice.boardID)
        var time = FlowDate.parse("2026-03-01T09:00:00Z")!
        var seen: Int64 = 0
        func stamp() throws {
            guard stampTimes else { return }
            switch int(6) {
            case 0: time -= Int64(1 + int(7_200))  // dated before the step before (a clock set back)
            case 1: break  // the same second
            default: time += Int64(60 + int(2 * 86_400))
            }
            let r = try admin.query(
                "UPDATE lanes.history SET at = to_timestamp($1) WHERE board_id = $2 AND id > $3 RETURNING id",
                [String(time), b, String(seen)])
            for i in 0..<r.count { seen = max(seen, r.int(i, 0) ?? seen) }
        }
        try stamp()
        var gone: [Int64] = []
        var nextRaw: Int64 = 900_000
        func cardIDs() throws -> Set<Int64> {
            let r = try raw.query("SELECT id FROM lanes.cards WHERE board_id = $1", [b])
            return Set((0..<r.count).compactMap { r.int($0, 0) })
        }
        func columnIDs() throws -> [Int64] {
            let r = try raw.query("SELECT id FROM lanes.columns WHERE board_id = $1 ORDER BY key", [b])
            return (0..<r.count).compactMap { r.int($0, 0) }
        }
        for k in 0..<steps {
            let before = try cardIDs()
            if columnChange && int(4) == 0 {
                // The columns change between card moves: renamed, added, deleted, reordered, by the
                // store or by raw SQL (some with a card move in the same transaction).
                let cols = try columnIDs()
                switch int(7) {
                case 0, 1:
                    let base = try alice.load()
                    var ours = base
                    let c = int(ours.columns.count)
                    ours.columns[c].title =
                        Self.columns.contains(ours.columns[c].title) && int(2) == 0
                        ? ours.columns[c].title + " now"
                        : Self.columns[int(Self.columns.count)] + (int(2) == 0 ? "" : " \(k)")
                    if ours.columns.contains(where: { $0.id != ours.columns[c].id && $0.title == ours.columns[c].title }
                    ) {
                        ours.columns[c].title += " \(k)"
                    }
                    _ = try alice.commit(base: base, ours: ours)
                case 2:
                    let base = try alice.load()
                    var ours = base
                    ours.columns.insert(Column(title: "Extra \(k)"), at: int(ours.columns.count + 1))
                    _ = try alice.commit(base: base, ours: ours)
                case 3 where cols.count > 3:
                    // A column deleted, its cards first moved to another (raw SQL, one transaction).
                    let gone = 1 + int(cols.count - 1)
                    try raw.query("BEGIN")
                    try raw.query(
                        "UPDATE lanes.cards SET column_id = $1, key = 'zx' || id WHERE board_id = $2 AND column_id = $3",
                        [String(cols[int(gone)]), b, String(cols[gone])])
                    try raw.query(
                        "INSERT INTO lanes.column_deletions (board_id, id) VALUES ($1, $2)", [b, String(cols[gone])])
                    try raw.query("COMMIT")
                case 4:
                    let base = try alice.load()
                    var ours = base
                    let c = ours.columns.remove(at: int(ours.columns.count))
                    ours.columns.insert(c, at: int(ours.columns.count + 1))
                    _ = try alice.commit(base: base, ours: ours)
                case 5:
                    // Renamed and a card moved in one raw transaction.
                    let ids = Array(try cardIDs()).sorted()
                    try raw.query("BEGIN")
                    try raw.query(
                        "UPDATE lanes.columns SET title = title || ' (raw \(k))' WHERE board_id = $1 AND id = $2",
                        [b, String(cols[int(cols.count)])])
                    if !ids.isEmpty {
                        nextRaw += 1
                        try raw.query(
                            "UPDATE lanes.cards SET column_id = $1, key = $4 WHERE board_id = $2 AND id = $3",
                            [String(cols[int(cols.count)]), b, String(ids[int(ids.count)]), "zy\(nextRaw)"])
                    }
                    try raw.query("COMMIT")
                default:
                    // Reordered by raw SQL: a column's key set before the first's.
                    try raw.query(
                        "UPDATE lanes.columns SET key = $1 WHERE board_id = $2 AND id = $3",
                        ["0\(k)", b, String(cols[int(cols.count)])])
                }
            } else if int(3) == 0 {
                // Raw SQL as bob: one to three changes in one transaction.
                let cols = try columnIDs()
                try raw.query("BEGIN")
                for _ in 0..<(1 + int(3)) {
                    let ids = Array(try cardIDs()).sorted()
                    let op = int(10)
                    if op < 5, !ids.isEmpty {
                        nextRaw += 1
                        try raw.query(
                            "UPDATE lanes.cards SET column_id = $1, key = $4 WHERE board_id = $2 AND id = $3",
                            [String(cols[int(cols.count)]), b, String(ids[int(ids.count)]), "zy\(nextRaw)"])
                    } else if op < 6, !ids.isEmpty {
                        try raw.query(
                            "UPDATE lanes.cards SET title = title || ' raw' WHERE board_id = $1 AND id = $2",
                            [b, String(ids[int(ids.count)])])
                    } else if op < 8, !ids.isEmpty {
                        try raw.query(
                            "INSERT INTO lanes.card_deletions (board_id, id) VALUES ($1, $2)",
                            [b, String(ids[int(ids.count)])])
                    } else {
                        // A card added, or one deleted before added again with its id.
                        let id: Int64
                        if !gone.isEmpty && int(2) == 0 {
                            id = gone.remove(at: int(gone.count))
                        } else {
                            nextRaw += 1
                            id = nextRaw
                        }
                        try raw.query(
                            "INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ($1, $2, $3, $4, $5, 1)",
                            [b, String(id), String(cols[int(cols.count)]), "zz\(id)", "Raw \(id)"])
                    }
                }
                try raw.query("COMMIT")
            } else {
                let store = int(2) == 0 ? alice : bob
                let base = try store.load()
                var ours = base
                let all = ours.columns.indices.flatMap { c in ours.columns[c].cards.indices.map { (c, $0) } }
                let op = int(10)
                if op < 2 || all.isEmpty {
                    n += 1
                    let c = int(2) == 0 ? 0 : int(ours.columns.count)
                    ours.columns[c].cards.insert(
                        Card(id: CardID.fresh(), title: "Task \(n)"), at: int(ours.columns[c].cards.count + 1))
                } else if op < 7 {
                    let (c, p) = all[int(all.count)]
                    let card = ours.columns[c].cards.remove(at: p)
                    var to = int(ours.columns.count)
                    if to == c { to = (c + 1) % ours.columns.count }
                    ours.columns[to].cards.insert(card, at: int(ours.columns[to].cards.count + 1))
                } else if op < 8 {
                    let (c, p) = all[int(all.count)]
                    ours.columns[c].cards.remove(at: p)
                } else {
                    let (c, p) = all[int(all.count)]
                    ours.columns[c].cards[p].title += " edited"
                }
                let outcome = try store.commit(base: base, ours: ours)
                #expect(outcome.conflicts.isEmpty, "step \(k): \(outcome.conflicts)")
            }
            gone += before.subtracting(try cardIDs()).sorted()
            try stamp()
        }
        let last =
            try admin.query(
                "SELECT floor(extract(epoch FROM max(at)))::bigint FROM lanes.history WHERE board_id = $1", [b]
            ).int(0, 0) ?? time
        return (url, alice.boardID, last)
    }

    /// Every output of the report that a reader sees: the JSON, each card's time in each column, the columns' meanings.
    static func rendering(_ history: FlowHistory, _ options: FlowOptions) -> String {
        let r = FlowMetrics.compute(history, options: options)
        let json = FlowOutput.json(FlowOutput.Input(board: "b", history: history, report: r))
        let cards = r.cards.sorted { $0.key < $1.key }.map { key, c in
            "\(key) \(c.appeared) \(c.started.map(String.init) ?? "-") \(c.finished.map(String.init) ?? "-") "
                + c.timeIn.map { "\($0.column)=\($0.seconds)" }.joined(separator: ",")
        }.joined(separator: "\n")
        let columns = r.columns.map { "\($0.title):\($0.stage.name)" }.joined(separator: ",")
        return json + "\n" + cards + "\n" + columns + "\n"
            + r.aging.map { "\($0.card) \($0.over.map(String.init) ?? "-")" }.joined(separator: ",")
    }

    func compare(url: String, last: Int64, expectSummary: Bool, seed: UInt64) throws {
        let settings = [
            FlowColumns(), FlowColumns(started: "Ready", done: "Review"), FlowColumns(started: "Doing", done: "Done"),
            FlowColumns(started: "Backlog"), FlowColumns(done: "Ready"),
        ]
        for now in [last, last + 3 * 86_400 + 1_234] {
            let (folded, _) = try PostgresFlowHistory.read(url: url, now: now)
            let (whole, _) = try PostgresFlowHistory.read(url: url, now: now, summary: false)
            if (folded.summary != nil) != expectSummary {
                let admin = try server.connect("lanes_admin")
                defer { admin.close() }
                let r = try admin.query(
                    "SELECT f::text FROM lanes.flow_boards f WHERE board_id = (SELECT board_id FROM lanes.board_names WHERE name = $1)",
                    [try PostgresURL(url).board])
                Issue.record(
                    "seed \(seed): the aggregates \(expectSummary ? "were not used" : "were used"); flow_boards: \(r.count > 0 ? r[0, 0] ?? "" : "none"), now \(now)"
                )
            }
            #expect(whole.summary == nil && !whole.events.isEmpty)
            for setting in settings {
                for since in [nil, last - 2 * 86_400] as [FlowTime?] {
                    let options = FlowOptions(columns: setting, since: since, now: now, seed: seed, trials: 200)
                    let a = Self.rendering(folded, options), w = Self.rendering(whole, options)
                    #expect(a == w, "seed \(seed), \(setting), since \(since.map(String.init) ?? "-"), now \(now)")
                    if a != w {
                        let al = a.split(separator: "\n"), wl = w.split(separator: "\n")
                        for (x, y) in zip(al, wl) where x != y {
                            Issue.record(
                                "first difference:\n aggregates: \(x.prefix(600))\n whole:      \(y.prefix(600))")
                            break
                        }
                        return
                    }
                }
            }
        }
        // A "now" before the last event (a column row that changes no column gives none): the
        // aggregates cannot say, the record is read.
        let (whole, _) = try PostgresFlowHistory.read(url: url, now: last, summary: false)
        let lastEvent = try #require(whole.events.last?.time)
        let (early, _) = try PostgresFlowHistory.read(url: url, now: lastEvent - 1)
        #expect(early.summary == nil)
        let (atLast, _) = try PostgresFlowHistory.read(url: url, now: lastEvent)
        #expect(atLast.summary != nil)
    }

    @Test(
        "random histories, times set by the administrator (forwards, equal, backwards): aggregates = whole record",
        arguments: Array(UInt64(1)...UInt64(12)))
    func stamped(seed: UInt64) throws {
        let (url, _, last) = try runScript(seed: seed, steps: 40, stampTimes: true, columnChange: false)
        try compare(url: url, last: last, expectSummary: true, seed: seed)
    }

    @Test(
        "random histories at the server's own times, folded as written (no refold): aggregates = whole record",
        arguments: Array(UInt64(101)...UInt64(106)))
    func asWritten(seed: UInt64) throws {
        let (url, _, last) = try runScript(seed: seed, steps: 40, stampTimes: false, columnChange: false)
        try compare(url: url, last: last, expectSummary: true, seed: seed)
    }

    @Test(
        "columns renamed, added, deleted and reordered between card moves (times set by the administrator): aggregates = whole record",
        arguments: Array(UInt64(201)...UInt64(208)))
    func columnsChanged(seed: UInt64) throws {
        let (url, _, last) = try runScript(seed: seed, steps: 50, stampTimes: true, columnChange: true)
        try compare(url: url, last: last, expectSummary: true, seed: seed)
    }

    @Test(
        "columns changed between card moves at the server's own times, folded as written: aggregates = whole record",
        arguments: Array(UInt64(301)...UInt64(304)))
    func columnsChangedAsWritten(seed: UInt64) throws {
        let (url, _, last) = try runScript(seed: seed, steps: 50, stampTimes: false, columnChange: true)
        try compare(url: url, last: last, expectSummary: true, seed: seed)
    }

    /// Many rows about each card in one statement (the fold groups them by card in memory): the
    /// same random rows written by the administrator once as one INSERT and once row by row, on two
    /// boards alike; the aggregates must be the same rows, and give the whole record's report.
    @Test(
        "many rows about each card in one statement fold as they do one row at a time",
        arguments: [401, 402, 403] as [UInt64])
    func oneStatement(seed: UInt64) throws {
        var rng = SplitMix64(seed: seed)
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        let admin = try server.connect("lanes_admin")
        defer { admin.close() }
        // The rows: cards moved, edited, deleted and added again, columns renamed and moved between them.
        var script: [(kind: String, entity: String, card: Int, column: Int, title: String?)] = []
        var live = Set(0..<6), renames = 0
        for step in 0..<600 {
            let card = int(6)
            switch int(20) {
            case 0:
                renames += 1
                script.append(("edited", "column", 0, int(4), "Renamed \(renames)"))
            case 1:
                script.append(("moved", "column", 0, int(4), "\(int(4))m\(step)"))
            case 2 where live.contains(card):
                script.append(("deleted", "card", card, 0, nil))
                live.remove(card)
            case 3:
                script.append(("edited", "card", card, int(4), "Card \(card) at \(step)"))
            default:
                if live.contains(card) {
                    script.append(("moved", "card", card, int(4), nil))
                } else {
                    script.append(("added", "card", card, int(4), "Card \(card) again at \(step)"))
                    live.insert(card)
                }
            }
        }
        let later = script.map { _ in int(3) > 0 }  // the row after a minute (else at the same second)
        var dumps: [[String]] = []
        for oneStatement in [true, false] {
            let name = TestServer.boardName("flowstmt")
            let (board0, info) = try BoardFormat.parse("## A\n\n## B\n\n## C\n\n## D\n\n", file: "s.md")
            let url = server.url("alice", board: name)
            let alice = try PostgresBoardStore.create(url: url, board: board0, info: info)
            defer { alice.disconnect() }
            let b = String(alice.boardID)
            try admin.query("UPDATE lanes.history SET at = to_timestamp(1771000000) WHERE board_id = $1", [b])
            let raw = try server.connect("alice")
            defer { raw.close() }
            let cols = try raw.query("SELECT id, key FROM lanes.columns WHERE board_id = $1 ORDER BY key", [b])
            try #require(cols.count == 4)
            let colID = (0..<4).map { cols.int($0, 0) ?? 0 }
            let key = (0..<4).map { cols[$0, 1] ?? "" }
            // The cards' first appearance, then the script; times rise by a minute, some rows at the same second.
            var values: [String] = []
            var t = 1_772_000_000
            for c in 0..<6 {
                values.append(
                    "('card', 'added', \(c + 1), \(colID[c % 4]), to_timestamp(\(t)), NULL::jsonb, jsonb_build_object('title', 'Card \(c)'))"
                )
            }
            for (i, r) in script.enumerated() {
                if later[i] { t += 60 }
                switch (r.entity, r.kind) {
                case ("column", "edited"):
                    values.append(
                        "('column', 'edited', NULL, \(colID[r.column]), to_timestamp(\(t)), NULL, jsonb_build_object('title', '\(r.title!)'))"
                    )
                case ("column", "moved"):
                    let to = key[Int(String(r.title!.prefix(1)))!] + r.title!.dropFirst()
                    values.append(
                        "('column', 'moved', NULL, \(colID[r.column]), to_timestamp(\(t)), NULL, jsonb_build_object('key', '\(to)'))"
                    )
                case ("card", "deleted"):
                    values.append(
                        "('card', 'deleted', \(r.card + 1), NULL, to_timestamp(\(t)), jsonb_build_object('title', 'gone \(i)'), NULL)"
                    )
                default:
                    let after = r.title.map { "jsonb_build_object('title', '\($0)')" } ?? "NULL"
                    values.append(
                        "('card', '\(r.kind)', \(r.card + 1), \(colID[r.column]), to_timestamp(\(t)), NULL, \(after))")
                }
            }
            func insert(_ rows: [String]) throws {
                try admin.query(
                    """
                    INSERT INTO lanes.history (board_id, role, entity, kind, card_id, column_id, at, before, after)
                    SELECT \(b), 'alice', v.entity, v.kind, v.card::bigint, v.col::bigint, v.at::timestamptz, v.before::jsonb, v.after::jsonb
                    FROM (VALUES \(rows.joined(separator: ", "))) AS v (entity, kind, card, col, at, before, after)
                    """)
            }
            if oneStatement {
                try insert(values)
                let f = try admin.query("SELECT folded_rows, exact FROM lanes.flow_boards WHERE board_id = $1", [b])
                #expect(
                    f.int(0, 0) ?? 0 > 600 && f[0, 1] == "t",
                    "one statement folded: \(f.count > 0 ? "\(f[0, 0] ?? "") \(f[0, 1] ?? "")" : "none")")
            } else {
                for v in values { try insert([v]) }
            }
            // The aggregates, with column ids and history ids as places (the two boards have their own).
            let ids = "{" + colID.map(String.init).joined(separator: ",") + "}"
            func rank(_ column: String) -> String {
                "(SELECT count(*) FROM lanes.history h WHERE h.board_id = f.board_id AND h.id <= f.\(column))"
            }
            var dump: [String] = []
            for query in [
                "SELECT card_id, title, gone_title, array_position($2::bigint[], column_id), gone, appeared, \(rank("appeared_row")), entered, appeared_epoch, epoch FROM lanes.flow_cards f",
                "SELECT card_id, epoch, array_position($2::bigint[], from_column), array_position($2::bigint[], to_column), first_at, last_at FROM lanes.flow_moves f",
                "SELECT card_id, array_position($2::bigint[], column_id), \(rank("first_row")), seconds FROM lanes.flow_stints f",
                "SELECT day, array_position($2::bigint[], column_id), delta FROM lanes.flow_days f",
                "SELECT card_id, epoch, array_position($2::bigint[], column_id) FROM lanes.flow_presence f",
                "SELECT exact, last_at, last_event, card_rows, card_events, epoch, epoch_at FROM lanes.flow_boards f",
            ] {
                let r = try admin.query(
                    "SELECT x::text FROM (\(query) WHERE f.board_id = $1) x", query.contains("$2") ? [b, ids] : [b])
                dump.append((0..<r.count).map { r[$0, 0] ?? "" }.sorted().joined(separator: "\n"))
            }
            dumps.append(dump)
            #expect(
                dump[0].split(separator: "\n").count == 6 && dump[4].split(separator: "\n").count > 3,
                "cards and presence rows: \(dump[0]) \(dump[4])")
            // The board's columns as the rows leave them (the reader checks them against the board), set by alice.
            let final = try raw.query(
                """
                SELECT c.id, (SELECT after ->> 'title' FROM lanes.history h WHERE h.board_id = c.board_id AND h.column_id = c.id
                              AND h.entity = 'column' AND h.after ? 'title' ORDER BY h.id DESC LIMIT 1),
                             (SELECT after ->> 'key' FROM lanes.history h WHERE h.board_id = c.board_id AND h.column_id = c.id
                              AND h.entity = 'column' AND h.after ? 'key' ORDER BY h.id DESC LIMIT 1)
                FROM lanes.columns c WHERE c.board_id = $1
                """, [b])
            for i in 0..<final.count {
                try raw.query(
                    "UPDATE lanes.columns SET title = $1, key = $2 WHERE board_id = $3 AND id = $4",
                    [final[i, 1]!, final[i, 2]!, b, String(final.int(i, 0)!)])
            }
            let last = try admin.query(
                "SELECT floor(extract(epoch FROM max(at)))::bigint FROM lanes.history WHERE board_id = $1", [b]
            ).int(0, 0)!
            try compare(url: url, last: last, expectSummary: true, seed: seed)
        }
        #expect(dumps[0].count == dumps[1].count)
        for (a, w) in zip(dumps[0], dumps[1]) { #expect(a == w) }
    }

    @Test("a deleted board's aggregates go with it, and a refold of its history does not bring them back")
    func deletedBoard() throws {
        let (url, board, _) = try runScript(seed: 11, steps: 12, stampTimes: false, columnChange: true)
        let admin = try server.connect("lanes_admin")
        defer { admin.close() }
        let tables = ["flow_boards", "flow_cards", "flow_moves", "flow_stints", "flow_days", "flow_presence"]
        func counts() throws -> [Int64] {
            try tables.map {
                try admin.query("SELECT count(*) FROM lanes.\($0) WHERE board_id = $1", [String(board)]).int(0, 0) ?? -1
            }
        }
        let before = try counts()
        #expect(before[0] == 1 && before[1] > 5 && before[2] > 5, "the board has aggregates: \(before)")
        let store = try PostgresBoardStore.open(url: url)
        try store.delete()
        store.disconnect()
        #expect(try counts() == [0, 0, 0, 0, 0, 0])
        // The owner rewrites the deleted board's history (a refold): still none.
        try admin.query("UPDATE lanes.history SET at = at WHERE board_id = $1 AND entity = 'card'", [String(board)])
        #expect(try counts() == [0, 0, 0, 0, 0, 0])
    }

    @Test("the migration's backfill folds a board's existing history to the same aggregates as its triggers did")
    func backfill() throws {
        let (url, board, last) = try runScript(seed: 7, steps: 30, stampTimes: true, columnChange: false)
        let admin = try server.connect("lanes_admin")
        defer { admin.close() }
        let tables = ["flow_boards", "flow_cards", "flow_moves", "flow_stints", "flow_days", "flow_presence"]
        func dump() throws -> [String] {
            try tables.map { t in
                let r = try admin.query(
                    "SELECT f::text FROM lanes.\(t) f WHERE board_id = $1 ORDER BY f::text", [String(board)])
                return (0..<r.count).map { r[$0, 0] ?? "" }.joined(separator: "\n")
            }
        }
        let kept = try dump()
        #expect(kept[1].split(separator: "\n").count > 5, "the board has folded cards")
        for t in tables { try admin.query("DELETE FROM lanes.\(t) WHERE board_id = $1", [String(board)]) }
        #expect(try dump().allSatisfy(\.isEmpty))
        try admin.query(Schema.flowBackfill)
        #expect(try dump() == kept)
        try compare(url: url, last: last, expectSummary: true, seed: 7)
    }
}
