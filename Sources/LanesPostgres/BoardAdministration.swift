import DragKit
import Foundation
import LanesCore

/// One change as the server recorded it in `lanes.history`.
public struct HistoryEntry: Sendable, Equatable {
    public var id: Int64
    /// Server time, as PostgreSQL prints it (the session's time zone).
    public var at: String
    public var role: String
    /// `board`, `column`, `card` or `member`.
    public var entity: String
    /// `added`, `moved`, `reordered`, `edited`, `deleted`, `created`, `renamed`, `handed over`, `granted`, `changed`, `revoked`.
    public var kind: String
    /// The card's title (as it was then, or its last known one), the column's, or the member's role.
    public var subject: String
    /// The column the card was in, as it was called then.
    public var columnTitle: String?
    /// Fields changed, as `field: before → after` where that says more than the kind.
    public var detail: String

    /// One line for `lanes restore --list`.
    public var line: String {
        var s = "\(at)  \(role)  \(entity) \(kind)"
        if !subject.isEmpty { s += " “\(subject)”" }
        if let columnTitle, entity == "card" { s += kind == "moved" ? " to “\(columnTitle)”" : " in “\(columnTitle)”" }
        if !detail.isEmpty { s += ": " + detail }
        return s
    }
}

/// What `restore` did.
public struct RestoreOutcome: Sendable {
    /// Recorded changes after the time that were undone.
    public var undone: Int
    /// The roles that had made them, by name.
    public var roles: [String]
    public var outcome: CommitOutcome
}

extension PostgresBoardStore {
    // MARK: Owner's commands (each one statement: one transaction)

    /// Renames the board (its owner only); the store then follows the new name.
    public func rename(to newName: String) throws {
        guard !newName.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw CommandError(.badInput, "a board's name cannot be empty")
        }
        try withConnection { db in
            do {
                let r = try db.query(
                    "UPDATE lanes.boards SET name = $2 WHERE id = $1 RETURNING id", [String(boardID), newName])
                guard r.count == 1 else { throw gone(db) }
            } catch let e as PostgresError where e.sqlState == "23505" {
                throw CommandError(
                    .badInput, "a board named “\(newName)” already exists at \(url.display); pick another name")
            } catch let e as PostgresError where e.sqlState == "42501" {
                throw CommandError(.badInput, "role \(db.user) may not rename board “\(url.board)”: \(Self.reason(e))")
            }
        }
    }

    /// Deletes the board with every column and card (its owner only). The server keeps the
    /// board's history (readable by the database's administrator, no longer by members).
    public func delete() throws {
        try withConnection { db in
            // (counted by a SELECT: a rule-rewritten INSERT's RETURNING rows are not described to libpq)
            let r = try db.query(
                "WITH d AS (INSERT INTO lanes.board_deletions (id) VALUES ($1) RETURNING 1) SELECT count(*) FROM d",
                [String(boardID)], big: true)
            guard r.int(0, 0) == 0 else { return }
            let owner = try db.query("SELECT owner FROM lanes.boards WHERE id = $1", [String(boardID)])
            guard let o = owner[0, 0] else { throw gone(db) }
            throw CommandError(
                .badInput, "role \(db.user) may not delete board “\(url.board)”: only its owner (\(o)) may")
        }
    }

    /// Makes `newOwner` the board's owner (its owner only); the old owner stays a member who may grant.
    public func handOver(to newOwner: String) throws {
        try withConnection { db in
            guard try db.query("SELECT 1 FROM pg_roles WHERE rolname = $1", [newOwner]).count == 1 else {
                throw CommandError(.notFound, "no role “\(newOwner)” in \(url.display)")
            }
            do {
                let r = try db.query(
                    "UPDATE lanes.boards SET owner = $2 WHERE id = $1 RETURNING id", [String(boardID), newOwner])
                guard r.count == 1 else { throw gone(db) }
            } catch let e as PostgresError where e.sqlState == "42501" {
                throw CommandError(
                    .badInput, "role \(db.user) may not hand board “\(url.board)” over: \(Self.reason(e))")
            }
        }
    }

    /// The role that owns the board.
    public func owner() throws -> String {
        try withConnection { db in
            guard let o = try db.query("SELECT owner FROM lanes.boards WHERE id = $1", [String(boardID)])[0, 0] else {
                throw gone(db)
            }
            return o
        }
    }

    static func reason(_ e: PostgresError) -> String {
        let m = e.message.replacingOccurrences(of: "ERROR:  ", with: "")
        return m.components(separatedBy: " CONTEXT:").first ?? m
    }

    // MARK: History

    /// The last `limit` changes of the board, newest first, as the server recorded them.
    public func history(limit: Int = 20) throws -> [HistoryEntry] {
        try withConnection { db in
            // The last rows first (MATERIALIZED: whatever the table's statistics, the limit comes
            // before any join), then one index lookup per row for a title.
            let r = try db.query(
                """
                WITH h AS MATERIALIZED (SELECT * FROM lanes.history WHERE board_id = $1 ORDER BY id DESC LIMIT $2)
                SELECT h.id, h.at, h.role, h.entity, h.kind, h.column_title,
                       coalesce(h.after ->> 'title', h.before ->> 'title', c.title,
                                (SELECT coalesce(p.after ->> 'title', p.before ->> 'title') FROM lanes.history p
                                 WHERE p.board_id = h.board_id AND p.card_id = h.card_id AND p.id < h.id
                                   AND (p.after ? 'title' OR p.before ? 'title') ORDER BY p.id DESC LIMIT 1),
                                h.after ->> 'role', h.before ->> 'role', ''),
                       h.before, h.after
                FROM h LEFT JOIN lanes.cards c ON c.board_id = h.board_id AND c.id = h.card_id
                ORDER BY h.id DESC
                """, [String(boardID), String(limit)])
            return (0..<r.count).map { i in
                HistoryEntry(
                    id: r.int(i, 0)!, at: r[i, 1] ?? "", role: r[i, 2] ?? "", entity: r[i, 3] ?? "",
                    kind: r[i, 4] ?? "", subject: r[i, 6] ?? "", columnTitle: r[i, 5],
                    detail: Self.detail(kind: r[i, 4] ?? "", before: r[i, 7], after: r[i, 8]))
            }
        }
    }

    /// `field: before → after` for edits and renames; the role and what it may for members.
    static func detail(kind: String, before: String?, after: String?) -> String {
        let b = before.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
        let a = after.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
        func show(_ v: Any?) -> String {
            switch v {
            case nil, is NSNull: return "(none)"
            case let s as String:
                let one = s.replacingOccurrences(of: "\n", with: " ⏎ ")
                return "“" + (one.count > 40 ? String(one.prefix(39)) + "…" : one) + "”"
            case let n as NSNumber: return n.stringValue
            default: return "\(v!)"
            }
        }
        switch kind {
        case "edited", "renamed", "handed over":
            return Set(a.keys).union(b.keys).sorted().map {
                "\($0.replacingOccurrences(of: "_", with: " ")) \(show(b[$0])) → \(show(a[$0]))"
            }
            .joined(separator: ", ")
        case "moved":
            return (b["column_title"] as? String).map { "from “\($0)”" } ?? ""
        case "restored":
            return (a["to"] as? String).map { "to \($0)" } ?? ""
        case "granted", "changed":
            return (a["owner"] as? Bool == true ? "owner" : a["can_grant"] as? Bool == true ? "may grant" : "")
        default:
            return ""
        }
    }

    /// Brings the board back as it was at `time` (any text PostgreSQL reads as a timestamptz):
    /// the changes recorded after it are undone, newest first, and the result is committed as
    /// one more change, recorded like any other. Cards keep their identities.
    public func restore(at time: String) throws -> RestoreOutcome {
        let current = try load()
        let (events, created, when) = try withConnection {
            db -> ([(String, String, Int64?, Int64?, String?, String?, String)], String?, String) in
            let when: String
            do {
                when = try db.query("SELECT $1::timestamptz::text", [time])[0, 0] ?? time
            } catch let e as PostgresError where e.sqlState.hasPrefix("22") {
                throw CommandError(
                    .badInput,
                    "cannot read “\(time)” as a time: \(Self.reason(e)) (write it as --list shows times, e.g. 2026-11-25 17:03:12+00)"
                )
            }
            let r = try db.query(
                """
                SELECT entity, kind, card_id, column_id, before, after, role FROM lanes.history
                WHERE board_id = $1 AND at > $2::timestamptz AND entity IN ('card', 'column', 'board')
                ORDER BY id DESC
                """, [String(boardID), when])
            let made = try db.query(
                "SELECT min(at)::text FROM lanes.history WHERE board_id = $1 AND kind = 'created' AND at > $2::timestamptz",
                [String(boardID), when])[0, 0]
            return (
                (0..<r.count).map {
                    (r[$0, 0]!, r[$0, 1]!, r.int($0, 2), r.int($0, 3), r[$0, 4], r[$0, 5], r[$0, 6] ?? "")
                }, made, when
            )
        }
        if let created {
            throw CommandError(
                .badInput, "board “\(url.board)” did not exist yet at \(time): it was created at \(created)")
        }
        var columns: [Int64: ColumnRow] = [:]
        for c in mirror.columns { columns[c.id] = c }
        var cards = mirror.cards
        var rules = mirror.rulesText
        func object(_ s: String?) -> [String: Any] {
            s.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
        }
        func text(_ v: Any?) -> String? { v as? String }
        for (entity, kind, cardID, columnID, beforeText, _, _) in events {
            let before = object(beforeText)
            switch (entity, kind) {
            case ("card", "added"):
                if let id = cardID { cards[id] = nil }
            case ("card", "deleted"):
                guard let id = cardID, let col = columnID else { continue }
                var card = Card(id: CardID(UInt64(bitPattern: id)), title: text(before["title"]) ?? "")
                card.due = text(before["due"])
                card.descriptionLines = RowCodec.lines(text(before["description"]))
                card.subtasks = RowCodec.subtasks(text(before["subtasks"]))
                card.done = before["done"] as? Bool ?? false
                card.extraLines = RowCodec.lines(text(before["extra_lines"]))
                cards[id] = CardRow(card: card, column: col, key: text(before["key"]) ?? "", version: 0, changedBy: "")
            case ("card", "moved"), ("card", "reordered"):
                guard let id = cardID, var row = cards[id] else { continue }
                if let c = (before["column_id"] as? NSNumber)?.int64Value { row.column = c }
                if let k = text(before["key"]) { row.key = k }
                cards[id] = row
            case ("card", "edited"):
                guard let id = cardID, var row = cards[id] else { continue }
                for (field, value) in before {
                    switch field {
                    case "title": row.card.title = text(value) ?? ""
                    case "due": row.card.due = text(value)
                    case "description": row.card.descriptionLines = RowCodec.lines(text(value))
                    case "subtasks": row.card.subtasks = RowCodec.subtasks(text(value))
                    case "done": row.card.done = value as? Bool ?? false
                    case "extra_lines": row.card.extraLines = RowCodec.lines(text(value))
                    default: break
                    }
                }
                cards[id] = row
            case ("column", "added"):
                if let id = columnID { columns[id] = nil }
            case ("column", "deleted"):
                guard let id = columnID else { continue }
                columns[id] = ColumnRow(
                    id: id, key: text(before["key"]) ?? "", title: text(before["title"]) ?? "",
                    wipLimit: (before["wip_limit"] as? NSNumber)?.intValue,
                    extraLines: RowCodec.lines(text(before["extra_lines"])), version: 0, changedBy: "")
            case ("column", "moved"):
                guard let id = columnID, var row = columns[id], let k = text(before["key"]) else { continue }
                row.key = k
                columns[id] = row
            case ("column", "edited"):
                guard let id = columnID, var row = columns[id] else { continue }
                if before.keys.contains("title") { row.title = text(before["title"]) ?? "" }
                if before.keys.contains("wip_limit") { row.wipLimit = (before["wip_limit"] as? NSNumber)?.intValue }
                if before.keys.contains("extra_lines") { row.extraLines = RowCodec.lines(text(before["extra_lines"])) }
                columns[id] = row
            case ("board", "edited"):
                if before.keys.contains("accept_rules") { rules = text(before["accept_rules"]) ?? "" }
            default:
                break
            }
        }
        var past = Mirror()
        let ordered = columns.values.sorted {
            $0.key != $1.key ? $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) : $0.id < $1.id
        }
        let placed = cards.values.filter { columns[$0.column] != nil }
        past.reset(version: 0, columns: ordered, cards: Array(placed))
        // The board as it was, made from the history's rows (a reader's work: no edit changes it).
        let board = Board(
            columns: past.board().columns,
            acceptRules: (try? AcceptRules.parse(Array(rules.utf8), file: "\(url.display) accept rules"))
                ?? current.acceptRules)
        let id = String(boardID)
        let outcome = try commit(base: current, ours: board) { db in
            try db.query("SELECT lanes.record_restore($1, $2::timestamptz)", [id, when])
        }
        let undone = events.filter { $0.0 != "board" || $0.1 == "edited" }.count
        return RestoreOutcome(undone: undone, roles: Array(Set(events.map(\.6))).sorted(), outcome: outcome)
    }
}

extension PostgresBoardStore {
    /// What the board's history takes on the server: rows, their bytes (row data, as stored),
    /// and the whole history table's bytes with its indexes (every board's).
    public func historyFootprint() throws -> (rows: Int, rowBytes: Int, tableRows: Int, tableBytes: Int) {
        try withConnection { db in
            let r = try db.query(
                """
                SELECT count(*), coalesce(sum(pg_column_size(h.*)), 0),
                       (SELECT count(*) FROM lanes.history), pg_total_relation_size('lanes.history')
                FROM lanes.history h WHERE board_id = $1
                """, [String(boardID)])
            return (Int(r.int(0, 0)!), Int(r.int(0, 1)!), Int(r.int(0, 2)!), Int(r.int(0, 3)!))
        }
    }
}
