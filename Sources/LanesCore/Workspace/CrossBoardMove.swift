import DragKit

/// Moves cards from one board to another so that no crash loses or doubles them.
///
/// Two stores, two writes, no transaction spanning them: the protocol (DECISIONS.md, "#27
/// cross-board move") is an intent record in `MoveJournal`, synced before the first write;
/// then the target's commit inserts the cards; an `inserted` mark; then the source's commit
/// deletes them; then the record goes. Both writes are ordinary `BoardStore.commit`s, so
/// what other writers do to either board meanwhile is merged, never overwritten. `recover`
/// finishes a record whose mover died (or rolls it back when the target never got the cards).
public enum CrossBoardMove {
    /// A board taking part in a move: its storage and the key that names it in records.
    public struct Endpoint {
        /// An absolute path with links resolved, or a database URL without its password.
        public var key: String
        public var storage: any BoardStore

        public init(key: String, storage: any BoardStore) {
            self.key = key
            self.storage = storage
        }
    }

    /// The points between the writes, where a test can stop the mover as a crash would.
    public enum Step: Int, Sendable, CaseIterable {
        /// The intent record is on disk; no board was written.
        case recorded = 1
        /// The target's commit returned; the `inserted` mark is not written yet.
        case inserted = 2
        /// The `inserted` mark is on disk; the source still holds the cards.
        case marked = 3
        /// The source's commit returned; the record is still there.
        case deleted = 4
    }

    /// What a move did.
    public struct Outcome: Sendable {
        public var titles: [String]
        public var targetColumn: String
        /// 1-based position of the first moved card in the target column.
        public var position: Int
        /// Collisions with other writers, resolved by the merge rule.
        public var conflicts: [BoardConflict]
        /// Cards edited on the source by someone else while they moved: they stay there, with the edit,
        /// and their copies were taken out of the target again.
        public var keptOnSource: [String]
        /// Which of the cards asked for (by index) `keptOnSource` names.
        public var keptOnSourceIndices: [Int]

        public init(
            titles: [String], targetColumn: String, position: Int, conflicts: [BoardConflict], keptOnSource: [String],
            keptOnSourceIndices: [Int] = []
        ) {
            self.titles = titles
            self.targetColumn = targetColumn
            self.position = position
            self.conflicts = conflicts
            self.keptOnSource = keptOnSource
            self.keptOnSourceIndices = keptOnSourceIndices
        }
    }

    /// Moves the cards `queries` names (as `lanes move` finds cards) from `source` to `column` of `target`,
    /// at 1-based `position` (default: the end). Refuses in words, changing nothing, when the target is
    /// the source, either board cannot be written or the column is missing; the target's rules
    /// (position, WIP limit, accept rule; the last two lifted by `force`) are its door's:
    /// `BoardEdit.receiveCards` there and `BoardEdit.sendCards` on the source, one edit per board.
    ///
    /// `step` is called at each `Step`; a test throws from it to stop the mover there (the record stays).
    public static func move(
        cards queries: [String], from source: Endpoint, to target: Endpoint, column: String,
        position: Int? = nil, force: Bool = false, journal: MoveJournal,
        step: (Step) throws -> Void = { _ in }
    ) throws -> Outcome {
        try move(
            selecting: { board in try queries.map { try BoardQuery.card($0, in: board) } },
            from: source, to: target, column: column, position: position, force: force, journal: journal, step: step)
    }

    /// Moves the cards `select` picks out of the source board as read under the move's locks (the
    /// terminal picks the cards it shows by content: `paths(of:in:)`); otherwise as `move(cards:…)`.
    public static func move(
        selecting select: (Board) throws -> [ItemPath], from source: Endpoint, to target: Endpoint,
        column: String, position: Int? = nil, force: Bool = false, journal: MoveJournal,
        step: (Step) throws -> Void = { _ in }
    ) throws -> Outcome {
        guard source.key != target.key else {
            throw CommandError(
                .badInput,
                "the card is already on \(target.storage.displayName); to move it inside that board, leave out --to-board"
            )
        }
        for end in [source, target] {
            if let file = end.storage as? FileBoardStore, file.isReadOnly {
                throw StorageError.readOnly(path: file.path)
            }
        }
        let locks = try journal.lockBoards([source.key, target.key])
        defer { withExtendedLifetime(locks) {} }
        let sourceBoard = try source.storage.load()
        let targetBoard = try target.storage.load()
        var paths: [ItemPath] = []
        for path in try select(sourceBoard) where !paths.contains(path) { paths.append(path) }
        guard !paths.isEmpty else { throw CommandError(.badInput, "name a card to move") }
        let s = try BoardQuery.column(column, in: targetBoard)
        let targetColumn = targetBoard.columns[s]
        // Each board's half goes through its door, which holds the rules (position, WIP limit, accept rule).
        let copies = paths.map { p -> Card in
            var c = sourceBoard[p]; c.id = CardID.fresh(); return c
        }
        let arrive = BoardEdit.receiveCards(
            copies, to: targetColumn.id, position: position,
            from: paths.map { sourceBoard.columns[$0.section].title },
            board: target.storage.displayName)
        let leave = BoardEdit.sendCards(paths.map { sourceBoard[$0].id }, toBoard: target.storage.displayName)
        let withCards: Board
        let without: Board
        do { withCards = try targetBoard.applying(arrive, force: force).board } catch {
            throw CommandError(refused: error, of: arrive)
        }
        do { without = try sourceBoard.applying(leave).board } catch { throw CommandError(refused: error, of: leave) }
        let index = withCards.indexPath(for: copies[0].id)?.item ?? 0
        let entries = paths.map { p in
            MoveRecord.Entry(
                card: sourceBoard[p], sourceColumn: sourceBoard.columns[p.section].title, sourcePosition: p.item,
                sourceCountBefore: contentCount(of: sourceBoard[p], in: sourceBoard),
                targetCountBefore: contentCount(of: sourceBoard[p], in: targetBoard))
        }
        let record = MoveRecord(
            id: MoveJournal.newID(), source: source.key, target: target.key,
            targetColumn: targetColumn.title, targetPosition: index, entries: entries)

        // 1. The intent, durable before any board is touched.
        let handle = try journal.write(record)
        do { try step(.recorded) } catch { handle.release(); throw error }

        // 2. Into the target.
        var conflicts: [BoardConflict] = []
        let inserted: Board
        do {
            let outcome = try target.storage.commit(base: targetBoard, ours: withCards)
            inserted = outcome.board
            conflicts += outcome.conflicts
        } catch {
            // Did it land anyway (a connection lost after the server committed)? Ask the target again.
            if let now = try? target.storage.load() {
                if !entries.contains(where: { contentCount(of: $0.card, in: now) > $0.targetCountBefore }) {
                    try? handle.clear()  // nothing was written: the cards stay where they are
                    throw error
                }
            }
            handle.release()
            throw CommandError(
                .notFound,
                "\(error) The move is recorded in \(handle.path); the next lanes command on either board finishes or rolls it back."
            )
        }
        do { try step(.inserted) } catch { handle.release(); throw error }
        do { try handle.mark(.inserted) } catch { handle.release(); throw error }
        do { try step(.marked) } catch { handle.release(); throw error }

        // 3. Out of the source, merged with what others did there since we read it.
        let deleted: CommitOutcome
        do {
            deleted = try source.storage.commit(base: sourceBoard, ours: without)
        } catch {
            handle.release()
            throw CommandError(
                .notFound,
                "\(error) The cards are on \(target.storage.displayName) now; the next lanes command on either board takes them out of \(source.storage.displayName) (the move is recorded in \(handle.path))."
            )
        }
        // An edit made on the source meanwhile beats our delete: that card stays there, so its copy leaves the target.
        let editedIDs = Set(deleted.conflicts.filter { $0.kind == .editedAndDeleted }.compactMap(\.card))
        conflicts += deleted.conflicts.filter { $0.kind != .editedAndDeleted }
        let withdrawn = paths.indices.filter { editedIDs.contains(sourceBoard[paths[$0]].id) }
        do { try step(.deleted) } catch { handle.release(); throw error }
        if !withdrawn.isEmpty {
            do {
                try handle.mark(.withdrawing, entries: withdrawn)
                let present = withdrawn.map { copies[$0].id }.filter { inserted.indexPath(for: $0) != nil }
                if !present.isEmpty {
                    let back = try inserted.applying(.sendCards(present, toBoard: source.storage.displayName)).board
                    conflicts += try target.storage.commit(base: inserted, ours: back).conflicts
                }
            } catch {
                handle.release()
                throw error
            }
        }
        try handle.clear()
        return Outcome(
            titles: entries.map(\.card.title), targetColumn: targetColumn.title, position: index + 1,
            conflicts: conflicts, keptOnSource: withdrawn.map { entries[$0].card.title }, keptOnSourceIndices: withdrawn
        )
    }

    /// Where `cards` (as a screen shows them) are in `board` as stored: each by its content, the
    /// copy nearest its column and row when several are alike. A card changed or gone meanwhile is
    /// refused in words, so a move never takes a card the user did not see.
    public static func paths(of cards: [(card: Card, column: String, row: Int)], in board: Board) throws -> [ItemPath] {
        var taken: [ItemPath] = []
        for seen in cards {
            var best: (ItemPath, Int)?
            for (s, column) in board.columns.enumerated() {
                for (i, c) in column.cards.enumerated() where sameContent(c, seen.card) {
                    let p = ItemPath(section: s, item: i)
                    if taken.contains(p) { continue }
                    let distance = (column.title == seen.column ? 0 : 1_000_000) + abs(i - seen.row)
                    if best == nil || distance < best!.1 { best = (p, distance) }
                }
            }
            guard let (p, _) = best else {
                throw CommandError(
                    .notFound,
                    "“\(TerminalSafe.escape(seen.card.title, keepLayout: false))” changed or went away on its board meanwhile; nothing was moved"
                )
            }
            taken.append(p)
        }
        return taken
    }

    // MARK: Recovery

    /// What recovery did with one record.
    public struct Recovered: Sendable, CustomStringConvertible {
        public enum Result: Sendable { case finished, rolledBack, withdrawn, leftPending }
        public var result: Result
        public var description: String
    }

    /// Finishes or rolls back every record of a dead mover that names a board in `keys` (all records when nil).
    ///
    /// Safe at any moment and any number of times, also while a move runs (a live mover's record is locked)
    /// and after a recovery that itself died. `open` gives the storage of a key; a board that cannot be
    /// opened (a database down) leaves its record for next time, said in the result.
    public static func recover(
        journal: MoveJournal, touching keys: Set<String>? = nil,
        open: (String) throws -> any BoardStore
    ) -> [Recovered] {
        let (pending, unreadable) = journal.takePending()
        var results = unreadable.map {
            Recovered(result: .leftPending, description: "cannot read the move record \($0); it is left there")
        }
        for p in pending {
            let r = p.record
            if let keys, !keys.contains(r.source) && !keys.contains(r.target) { p.handle.release(); continue }
            do {
                let locks = try journal.lockBoards([r.source, r.target])
                defer { withExtendedLifetime(locks) {} }
                results.append(try finish(p, source: try open(r.source), target: try open(r.target)))
            } catch {
                p.handle.release()
                results.append(
                    Recovered(
                        result: .leftPending,
                        description:
                            "the move of \(quoted(r)) from \(r.source) to \(r.target) is not finished yet: \(error)"))
            }
        }
        return results
    }

    private static func quoted(_ r: MoveRecord) -> String {
        Board.listed(r.entries.map { "“\(TerminalSafe.escape($0.card.title, keepLayout: false))”" }, or: "and")
    }

    private static func finish(_ p: MoveJournal.Pending, source: any BoardStore, target: any BoardStore) throws
        -> Recovered
    {
        let r = p.record
        if let withdraw = p.withdrawing {
            let board = try target.load()
            var ours = board
            for k in withdraw where r.entries.indices.contains(k) {
                let e = r.entries[k]
                if contentCount(of: e.card, in: ours) > e.targetCountBefore {
                    remove(e.card, near: r.targetColumn, r.targetPosition + k, from: &ours)
                }
            }
            if ours != board { _ = try target.commit(base: board, ours: ours) }
            try p.handle.clear()
            return Recovered(
                result: .withdrawn,
                description:
                    "finished an interrupted move of \(quoted(r)): edited meanwhile on \(r.source), so it stays there")
        }
        let targetBoard = try target.load()
        let landed =
            p.marks.contains(.inserted)
            || r.entries.contains { contentCount(of: $0.card, in: targetBoard) > $0.targetCountBefore }
        guard landed else {
            try p.handle.clear()
            return Recovered(
                result: .rolledBack,
                description: "rolled back an interrupted move of \(quoted(r)): it stays on \(r.source)")
        }
        let board = try source.load()
        var ours = board
        // Cards of one content: as many leave as the move took, minus those already gone.
        var groups: [[Int]] = []
        for i in r.entries.indices {
            if let g = groups.firstIndex(where: { sameContent(r.entries[$0[0]].card, r.entries[i].card) }) {
                groups[g].append(i)
            } else {
                groups.append([i])
            }
        }
        for g in groups {
            let e = r.entries[g[0]]
            let stay = e.sourceCountBefore - g.count
            let excess = min(g.count, contentCount(of: e.card, in: ours) - stay)
            for k in g.prefix(max(0, excess)) {
                remove(r.entries[k].card, near: r.entries[k].sourceColumn, r.entries[k].sourcePosition, from: &ours)
            }
        }
        if ours != board { _ = try source.commit(base: board, ours: ours) }
        try p.handle.clear()
        return Recovered(
            result: .finished,
            description: "finished an interrupted move of \(quoted(r)) from \(r.source) to \(r.target)")
    }

    /// Removes the card with `card`'s content nearest to `position` of column `title` (else anywhere).
    private static func remove(_ card: Card, near title: String, _ position: Int, from board: inout Board) {
        var best: (distance: Int, path: ItemPath)?
        for (s, column) in board.columns.enumerated() {
            for (i, c) in column.cards.enumerated() where sameContent(c, card) {
                let d = column.title == title ? abs(i - position) : 1_000_000 + s
                if best == nil || d < best!.distance { best = (d, ItemPath(section: s, item: i)) }
            }
        }
        if let at = best?.path { board.columns[at.section].cards.remove(at: at.item) }
    }
}
