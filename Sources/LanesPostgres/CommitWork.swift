import DragKit
import LanesCore

/// One commit's row operations inside its transaction (the board row already locked).
///
/// Every card the diff touches is read once (FOR UPDATE) and judged before anything is written:
/// an operation applies when its row is still at the version this client saw, or when the
/// fields it writes still hold `base`'s values; it is skipped silently when the row already
/// holds what `ours` wants (a replay), and refused with words otherwise.
struct CommitWork {
    let db: PGConnection
    let boardID: Int64
    let seq: Int64
    let me: String
    /// The row of a card as this client last saw it (a lookup: the store's 10k rows are never copied).
    let seenCard: (Int64) -> CardRow?
    let seenColumns: [ColumnRow]
    /// Row ids of base's columns (nil: unknown).
    let baseColumns: [Int64?]
    let diff: BoardDiff
    let base: Board
    let ours: Board

    private(set) var wrote = false
    /// Card ids this commit wrote.
    private(set) var touched = Set<Int64>()
    private(set) var conflicts: [BoardConflict] = []
    /// The board's columns as they are now in the transaction, by key.
    private var dbColumns: [ColumnRow] = []
    /// Row id of each ours column (nil: none could be had).
    private var oursColumns: [Int64?] = []

    init(
        db: PGConnection, boardID: Int64, seq: Int64, me: String, seenCard: @escaping (Int64) -> CardRow?,
        seenColumns: [ColumnRow], baseColumns: [Int64?],
        diff: BoardDiff, base: Board, ours: Board
    ) {
        self.db = db
        self.boardID = boardID
        self.seq = seq
        self.me = me
        self.seenCard = seenCard
        self.seenColumns = seenColumns
        self.baseColumns = baseColumns
        self.diff = diff
        self.base = base
        self.ours = ours
    }

    private var b: String { String(boardID) }
    private var s: String { String(seq) }

    /// The board's columns, locked ($1: the board), read with the board row's lock (one round trip).
    static let columnsForUpdate =
        "SELECT \(RowCodec.columnFields) FROM lanes.columns WHERE board_id = $1 ORDER BY key FOR UPDATE"
    /// The cards a commit touches, locked ($1: the board, $2: `cardIDs`).
    static let cardsForUpdate =
        "SELECT \(Mirror.cardFields) FROM lanes.cards WHERE board_id = $1 AND id = ANY($2::bigint[]) ORDER BY id FOR UPDATE"

    /// The existing cards the diff moves, edits or deletes, in id order.
    static func cardIDs(_ diff: BoardDiff) -> [Int64] {
        var ids = Set<Int64>()
        for p in diff.placements.joined() where p.base != nil { ids.insert(Int64(bitPattern: p.card.id.rawValue)) }
        for e in diff.edits { ids.insert(Int64(bitPattern: e.ours.id.rawValue)) }
        for d in diff.deletions { ids.insert(Int64(bitPattern: d.card.id.rawValue)) }
        return ids.sorted()
    }

    /// Judges and writes the commit, given the rows of `columnsForUpdate` and of `cardsForUpdate`
    /// (nil when `cardIDs` is empty). Writes whose answer nothing here needs are queued
    /// (`PGConnection.later`): they go to the server with the next read or with COMMIT.
    mutating func run(columns r: PGConnection.Rows, cards found: PGConnection.Rows?) throws {
        dbColumns = (0..<r.count).map { RowCodec.columnRow(r, $0) }
        try placeColumns()
        try editColumns()

        let ids = Self.cardIDs(diff)
        var rows: [Int64: CardRow] = [:]
        if let found {
            for i in 0..<found.count { let row = RowCodec.cardRow(found, i); rows[raw(row.card.id)] = row }
        }
        var removedBy: [Int64: String] = [:]
        let missing = ids.filter { rows[$0] == nil }
        if !missing.isEmpty {
            let gone = try db.query(
                "SELECT card_id, removed_by FROM lanes.removals WHERE board_id = $1 AND card_id = ANY($2::bigint[])",
                [b, RowCodec.array(missing.sorted())])
            for i in 0..<gone.count { removedBy[gone.int(i, 0)!] = gone[i, 1] ?? "someone" }
        }

        // Judge everything against the rows as read.
        var contentOK = Set<Int64>()
        /// Cards edited here and by someone else first: the two edits merged field by field (no text lost).
        var mergedContent: [Int64: Card] = [:]
        var resurrect = Set<Int64>()
        for e in diff.edits {
            let id = raw(e.ours.id)
            guard let row = rows[id] else {
                resurrect.insert(id)
                conflicts.append(
                    BoardConflict(
                        kind: .editedAndDeleted, card: e.ours.id,
                        message:
                            "“\(e.ours.title)” was deleted by \(removedBy[id] ?? "someone") while you edited it: kept, with your edit"
                    ))
                continue
            }
            // Content is checked by value: the fields still as base had them (a version moved by a move does not matter).
            if row.card == e.base { contentOK.insert(id); continue }
            if row.card == e.ours { continue }
            // Both edited it: the fields merge as in a file merge (different fields both stand; two
            // titles are both kept), so neither writer's text is lost.
            let (merged, collision) = CardMerge.merge(base: e.base, ours: e.ours, theirs: row.card)
            if merged != row.card {
                mergedContent[id] = merged
                contentOK.insert(id)
            }
            if let collision {
                conflicts.append(
                    BoardConflict(
                        kind: .editedTwice, card: e.ours.id,
                        message: "“\(merged.title)” was edited here and by \(row.changedBy): \(collision)"))
            }
        }

        for (d, baseColumn) in diff.deletions {
            let id = raw(d.id)
            guard let row = rows[id] else { continue }  // already gone (by someone else, or a replay)
            if row.card == d && inBaseColumn(row, baseColumn) {
                db.later("INSERT INTO lanes.card_deletions (board_id, id) VALUES ($1, $2)", [b, String(id)])
                db.later(
                    """
                    INSERT INTO lanes.removals (board_id, card_id, seq) VALUES ($1, $2, $3)
                    ON CONFLICT (board_id, card_id) DO UPDATE SET seq = EXCLUDED.seq
                    """, [b, String(id), s])
                touched.insert(id)
                wrote = true
            } else {
                conflicts.append(
                    BoardConflict(
                        kind: .refused, card: d.id,
                        message: row.card != d
                            ? "“\(row.card.title)” was edited by \(row.changedBy): it stays"
                            : "“\(row.card.title)” was moved to \(columnTitle(row.column)) by \(row.changedBy): it stays"
                    ))
            }
        }

        // Placements, column by column, last card first so each card's following neighbour is final.
        for (j, list) in diff.placements.enumerated() {
            for p in list.reversed() {
                let id = raw(p.card.id)
                guard let target = targetColumn(j, card: p.card) else { continue }
                if p.base == nil {
                    try insert(p, into: target)
                    continue
                }
                guard let row = rows[id] else {
                    if resurrect.contains(id) {
                        try insert(p, into: target)
                    } else if removedBy[id] != me {
                        conflicts.append(
                            BoardConflict(
                                kind: .refused, card: p.card.id,
                                message: "“\(p.card.title)” was deleted by \(removedBy[id] ?? "someone")"))
                    }
                    continue
                }
                if inBaseColumn(row, p.baseColumn) && (unchangedSinceSeen(row) || placementAsSeen(row)) {
                    try move(id, p, into: target)
                } else if row.column == target && row.changedBy == me {
                    continue  // a replay: it is there already
                } else {
                    conflicts.append(
                        BoardConflict(
                            kind: .refused, card: p.card.id,
                            message: "“\(row.card.title)” was moved to \(columnTitle(row.column)) by \(row.changedBy)"))
                }
            }
        }

        for e in diff.edits where contentOK.contains(raw(e.ours.id)) {
            let c = mergedContent[raw(e.ours.id)] ?? e.ours
            db.later(
                """
                UPDATE lanes.cards SET title = $3, due = $4, description = $5, subtasks = $6, done = $7, extra_lines = $8,
                    version = version + 1, seq = $9
                WHERE board_id = $1 AND id = $2
                """,
                [
                    b, String(raw(c.id)), c.title, c.due, RowCodec.lines(c.descriptionLines),
                    RowCodec.subtasks(c.subtasks),
                    c.done ? "t" : "f", RowCodec.lines(c.extraLines), s,
                ])
            touched.insert(raw(c.id))
            wrote = true
        }
        // Edited here, deleted elsewhere, not moved: back where ours has it.
        let placed = Set(diff.placements.joined().map { raw($0.card.id) })
        for id in resurrect.sorted() where !placed.contains(id) {
            guard let at = ours.indexPath(for: CardID(UInt64(bitPattern: id))),
                let target = targetColumn(at.section, card: ours[at])
            else { continue }
            try insert(BoardDiff.Placement(card: ours[at], column: at.section, index: at.item, base: nil), into: target)
        }

        try deleteColumns()
        try saveRules()
    }

    // MARK: Cards

    private func raw(_ id: CardID) -> Int64 { Int64(bitPattern: id.rawValue) }

    private func unchangedSinceSeen(_ row: CardRow) -> Bool {
        guard let seen = seenCard(raw(row.card.id)) else { return false }
        return seen.version == row.version
    }

    /// Whether the row is still in the column base had the card in (when that column's row is known).
    private func inBaseColumn(_ row: CardRow, _ baseColumn: Int?) -> Bool {
        guard let b = baseColumn, baseColumns.indices.contains(b), let id = baseColumns[b] else { return true }
        return row.column == id
    }

    private func placementAsSeen(_ row: CardRow) -> Bool {
        guard let seen = seenCard(raw(row.card.id)) else { return false }
        return seen.column == row.column && seen.key == row.key
    }

    private func columnTitle(_ id: Int64) -> String {
        "“" + (dbColumns.first { $0.id == id }?.title ?? "another column") + "”"
    }

    /// The row id a card of ours column `j` goes to: its own, or the first column when its column was deleted elsewhere.
    private mutating func targetColumn(_ j: Int, card: Card) -> Int64? {
        if let id = oursColumns[j] { return id }
        guard let first = dbColumns.first else {
            conflicts.append(
                BoardConflict(
                    kind: .refused, card: card.id, message: "“\(card.title)” has no column to go to: the board has none"
                ))
            return nil
        }
        conflicts.append(
            BoardConflict(
                kind: .columnDeletedWithChanges, card: card.id,
                message:
                    "“\(card.title)” went to “\(first.title)”: its column “\(ours.columns[j].title)” was deleted elsewhere"
            ))
        return first.id
    }

    /// A key placing card `p` in `column` before the first card that follows it in ours and is
    /// there now. When hand-written keys leave no room there, the column's cards get fresh keys first.
    private mutating func key(for p: BoardDiff.Placement, in column: Int64) throws -> String {
        if let k = try keyIfRoom(for: p, in: column) { return k }
        try freshCardKeys(in: column, all: false)
        if let k = try keyIfRoom(for: p, in: column) { return k }
        // Its neighbours are cards keyed by hand elsewhere since: the whole column, in its order.
        try freshCardKeys(in: column, all: true)
        return try keyIfRoom(for: p, in: column) ?? OrderKey.between(nil, nil)!
    }

    /// Cards of `column` keyed afresh, in the order they are shown (key, then id): those still where
    /// this client last saw them (column and key); the others, placed or re-keyed by another writer
    /// since, keep their keys and the fresh keys fit between them. With `all`, or when hand-written
    /// keys of those leave no room between them, every card of the column. A new key is no change
    /// of place: versions stay, so no other writer's move judged against them is refused.
    private mutating func freshCardKeys(in column: Int64, all: Bool) throws {
        let r = try db.query(
            "SELECT id, key FROM lanes.cards WHERE board_id = $1 AND column_id = $2 ORDER BY key, id",
            [b, String(column)])
        let rows = (0..<r.count).map { (id: r.int($0, 0)!, key: r[$0, 1] ?? "") }
        let asSeen = rows.map { row in
            all || seenCard(row.id).map { $0.column == column && $0.key == row.key } ?? false
        }
        var ids: [Int64] = []
        var keys: [String] = []
        if let fresh = Self.keys(for: asSeen, around: rows.map(\.key)) {
            for (i, key) in fresh.enumerated() where asSeen[i] {
                ids.append(rows[i].id)
                keys.append(key)
            }
        } else {
            ids = rows.map(\.id)
            keys = OrderKey.spread(rows.count)
        }
        // The unique index on (board, column, key) is checked row by row: when a fresh key is
        // another row's old one, the rows pass through keys no row holds (a byte above the digits, the id).
        let old = Set(rows.map(\.key))
        if keys.contains(where: old.contains) {
            db.later(
                "UPDATE lanes.cards SET key = chr(127) || id::text WHERE board_id = $1 AND id = ANY($2::bigint[])",
                [b, RowCodec.array(ids)])
        }
        db.later(
            """
            UPDATE lanes.cards c SET key = u.key, seq = $4
            FROM unnest($2::bigint[], $3::text[]) AS u(id, key) WHERE c.board_id = $1 AND c.id = u.id
            """, [b, RowCodec.array(ids), RowCodec.array(keys), s])
        touched.formUnion(ids)
        wrote = true
    }

    /// Keys in order for a column whose rows have `keys` (in order): a fresh one for each row
    /// `free` names, spread between the kept keys of the others; nil when two kept keys leave no
    /// room for the rows between them.
    static func keys(for free: [Bool], around keys: [String]) -> [String]? {
        var out = keys
        var i = 0
        while i < keys.count {
            guard free[i] else { i += 1; continue }
            var end = i
            while end < keys.count && free[end] { end += 1 }
            let lower = i > 0 ? keys[i - 1] : nil
            let upper = end < keys.count ? keys[end] : nil
            guard let run = spread(end - i, lower, upper) else { return nil }
            out.replaceSubrange(i..<end, with: run)
            i = end
        }
        return out
    }

    /// `count` keys in order strictly between `lower` and `upper` (nil: no bound), or nil when none fit.
    private static func spread(_ count: Int, _ lower: String?, _ upper: String?) -> [String]? {
        if count == 0 { return [] }
        if lower == nil && upper == nil { return OrderKey.spread(count) }
        guard let middle = OrderKey.between(lower, upper) else { return nil }
        let below = count / 2
        guard let left = spread(below, lower, middle), let right = spread(count - below - 1, middle, upper) else {
            return nil
        }
        return left + [middle] + right
    }

    /// The key before which card `p` goes in `column` (the first of the up to 16 cards that follow it
    /// in ours that is there now) and the greatest key below it: one statement, one round trip.
    private func keyIfRoom(for p: BoardDiff.Placement, in column: Int64) throws -> String? {
        let id = String(raw(p.card.id))
        let following = ours.columns[p.column].cards.dropFirst(p.index + 1).prefix(16).map { raw($0.id) }
        let r = try db.query(
            """
            WITH anchor AS (
                SELECT key FROM lanes.cards WHERE board_id = $1 AND id = ANY($2::bigint[]) AND column_id = $3
                ORDER BY array_position($2::bigint[], id) LIMIT 1)
            SELECT (SELECT key FROM anchor),
                (SELECT max(key) FROM lanes.cards WHERE column_id = $3 AND id <> $4
                    AND ((SELECT key FROM anchor) IS NULL OR key < (SELECT key FROM anchor)))
            """, [b, RowCodec.array(following), String(column), id])
        return OrderKey.between(r[0, 1], r[0, 0])
    }

    private mutating func insert(_ p: BoardDiff.Placement, into column: Int64) throws {
        let c = p.card
        let id = raw(c.id)
        let k = try key(for: p, in: column)
        let r = try db.query(
            """
            INSERT INTO lanes.cards (board_id, id, column_id, key, title, due, description, subtasks, done, extra_lines, seq)
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) ON CONFLICT (board_id, id) DO NOTHING RETURNING id
            """,
            [
                b, String(id), String(column), k, c.title, c.due, RowCodec.lines(c.descriptionLines),
                RowCodec.subtasks(c.subtasks), c.done ? "t" : "f", RowCodec.lines(c.extraLines), s,
            ])
        guard r.count == 1 else { return }  // there already: a replay
        try db.query("INSERT INTO lanes.removal_deletions (board_id, card_id) VALUES ($1, $2)", [b, String(id)])
        touched.insert(id)
        wrote = true
    }

    private mutating func move(_ id: Int64, _ p: BoardDiff.Placement, into column: Int64) throws {
        let k = try key(for: p, in: column)
        db.later(
            """
            UPDATE lanes.cards SET column_id = $3, key = $4, version = version + 1, seq = $5
            WHERE board_id = $1 AND id = $2
            """, [b, String(id), String(column), k, s])
        touched.insert(id)
        wrote = true
    }

    // MARK: Columns

    /// Maps ours' columns to rows, inserting new ones and re-keying moved ones (right to left).
    private mutating func placeColumns() throws {
        let present = Set(dbColumns.map(\.id))
        oursColumns = diff.columns.map { plan in
            plan.baseIndex.flatMap { baseColumns.indices.contains($0) ? baseColumns[$0] : nil }.flatMap {
                present.contains($0) ? $0 : nil
            }
        }
        for j in ours.columns.indices.reversed() {
            let plan = diff.columns[j]
            let isNew = plan.baseIndex == nil
            guard isNew || (plan.moved && oursColumns[j] != nil) else { continue }
            let me = oursColumns[j]
            var anchor: String?, anchorID: Int64?
            for k in (j + 1)..<ours.columns.count {
                if let a = oursColumns[k], let row = dbColumns.first(where: { $0.id == a }) {
                    (anchor, anchorID) = (row.key, a); break
                }
            }
            func lower() -> String? {
                dbColumns.filter { row in
                    row.id != me && (anchor.map { row.key.utf8.lexicographicallyPrecedes($0.utf8) } ?? true)
                }.last?.key
            }
            var found = OrderKey.between(lower(), anchor)
            if found == nil, let at = dbColumns.firstIndex(where: { $0.id == anchorID }) {
                // Hand-written keys leave no room: every column keyed afresh, in the order shown.
                let keys = OrderKey.spread(dbColumns.count)
                for (k, row) in dbColumns.enumerated() {
                    try db.query(
                        "UPDATE lanes.columns SET key = $2, seq = $3 WHERE id = $1", [String(row.id), keys[k], s])
                    dbColumns[k].key = keys[k]
                }
                anchor = dbColumns[at].key
                found = OrderKey.between(lower(), anchor)
            }
            let key = found ?? OrderKey.between(lower(), nil)!
            if let me, let at = dbColumns.firstIndex(where: { $0.id == me }) {
                // Only its place changes here; title, limit and notes are judged by editColumns.
                try db.query("UPDATE lanes.columns SET key = $2, seq = $3 WHERE id = $1", [String(me), key, s])
                var row = dbColumns.remove(at: at)
                row.key = key
                let to = dbColumns.firstIndex { key.utf8.lexicographicallyPrecedes($0.key.utf8) } ?? dbColumns.count
                dbColumns.insert(row, at: to)
                wrote = true
                continue
            } else {
                let c = ours.columns[j]
                let id = try db.query(
                    """
                    INSERT INTO lanes.columns (board_id, key, title, wip_limit, extra_lines, seq) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id
                    """, [b, key, c.title, c.wipLimit.map(String.init), RowCodec.lines(c.extraLines), s]
                ).int(0, 0)!
                oursColumns[j] = id
            }
            let c = ours.columns[j]
            let row = ColumnRow(
                id: oursColumns[j]!, key: key, title: c.title, wipLimit: c.wipLimit, extraLines: c.extraLines,
                version: 0, changedBy: self.me)
            let at = dbColumns.firstIndex { key.utf8.lexicographicallyPrecedes($0.key.utf8) } ?? dbColumns.count
            dbColumns.insert(row, at: at)
            wrote = true
        }
    }

    /// Title, WIP limit and extra lines: each field that ours changed and nobody else did first.
    private mutating func editColumns() throws {
        for (j, plan) in diff.columns.enumerated() where plan.edited {
            guard let bi = plan.baseIndex, let id = oursColumns[j], let row = dbColumns.first(where: { $0.id == id })
            else { continue }
            let old = base.columns[bi], new = ours.columns[j]
            let seen = seenColumns.first { $0.id == id }
            let untouched = seen?.version == row.version
            var title = row.title, wip = row.wipLimit, extra = row.extraLines
            var changed = false
            if new.title != old.title && row.title != new.title {
                if untouched || row.title == old.title {
                    title = new.title; changed = true
                } else {
                    conflicts.append(
                        BoardConflict(
                            kind: .refused,
                            message:
                                "Column “\(old.title)” was renamed to “\(row.title)” by \(row.changedBy) first: “\(new.title)” was not saved"
                        ))
                }
            }
            if new.wipLimit != old.wipLimit && row.wipLimit != new.wipLimit {
                if untouched || row.wipLimit == old.wipLimit {
                    wip = new.wipLimit; changed = true
                } else {
                    conflicts.append(
                        BoardConflict(
                            kind: .refused,
                            message:
                                "The WIP limit of “\(row.title)” was set to \(row.wipLimit.map(String.init) ?? "none") by \(row.changedBy) first"
                        ))
                }
            }
            if new.extraLines != old.extraLines && row.extraLines != new.extraLines {
                if untouched || row.extraLines == old.extraLines {
                    extra = new.extraLines; changed = true
                } else {
                    conflicts.append(
                        BoardConflict(
                            kind: .refused,
                            message: "The notes of column “\(row.title)” were changed by \(row.changedBy) first"))
                }
            }
            guard changed else { continue }
            try db.query(
                """
                UPDATE lanes.columns SET title = $2, wip_limit = $3, extra_lines = $4, version = version + 1, seq = $5
                WHERE id = $1
                """, [String(id), title, wip.map(String.init), RowCodec.lines(extra), s])
            if let i = dbColumns.firstIndex(where: { $0.id == id }) { dbColumns[i].title = title }
            wrote = true
        }
    }

    /// Deletes the columns ours deleted, unless cards are still in them (put there elsewhere).
    private mutating func deleteColumns() throws {
        for bi in diff.deletedColumns {
            guard baseColumns.indices.contains(bi), let id = baseColumns[bi], dbColumns.contains(where: { $0.id == id })
            else { continue }
            let left =
                try db.query("SELECT count(*) FROM lanes.cards WHERE column_id = $1", [String(id)]).int(0, 0) ?? 0
            if left == 0 {
                try db.query(
                    "INSERT INTO lanes.column_deletions (board_id, id) VALUES ($1, $2)", [String(boardID), String(id)])
                dbColumns.removeAll { $0.id == id }
                wrote = true
            } else {
                conflicts.append(
                    BoardConflict(
                        kind: .columnDeletedWithChanges,
                        message:
                            "Column “\(base.columns[bi].title)” kept: it holds \(left) card\(left == 1 ? "" : "s") put there elsewhere"
                    ))
            }
        }
    }

    private mutating func saveRules() throws {
        guard diff.rulesChanged else { return }
        let r = try db.query("SELECT accept_rules, changed_by FROM lanes.boards WHERE id = $1", [b])
        let stored = r[0, 0] ?? ""
        let old = base.acceptRules.serialized(), new = ours.acceptRules.serialized()
        if stored == new { return }
        guard stored == old else {
            conflicts.append(
                BoardConflict(
                    kind: .refused,
                    message: "The accept rules were changed by \(r[0, 1] ?? "someone") first: yours were not saved"))
            return
        }
        try db.query("UPDATE lanes.boards SET accept_rules = $2 WHERE id = $1", [b, new])
        wrote = true
    }
}
