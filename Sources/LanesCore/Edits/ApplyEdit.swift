import DragKit

/// The one door: every change to a board, from the terminal, the commands or undo, is applied here.
extension Board {
    /// The board with `edit` applied, the edit that reverses it and the words to show; or the
    /// words of a refusal (nothing changed). Every rule lives here once: text, WIP limits,
    /// accept rules, unique column titles, and what a card or column that vanished means.
    ///
    /// `force` lifts the WIP limits and accept rules (`lanes add --force`, and undo and redo,
    /// which put back what was there). What the board's storage cannot keep of a card
    /// (`capacity`: a taskell file has no done mark) is refused, or kept in a form it can hold.
    public func applying(_ edit: BoardEdit, force: Bool = false) throws(EditRefusal) -> EditOutcome {
        var door = EditDoor(board: self, force: force)
        return try door.apply(edit)
    }

    /// Why the rules refuse `count` cards coming into `target` from the columns `sources`
    /// (moves inside `target` are always allowed); nil when they may come. The drag engine
    /// asks it while a card hovers, and the door when the card lands.
    public func moveRefusal(into target: Int, from sources: [Int]) -> EditRefusal? {
        guard columns.indices.contains(target) else {
            return EditRefusal(.missingColumn, "the column is gone (deleted elsewhere)")
        }
        let column = columns[target]
        let incoming = sources.filter { $0 != target }
        guard !incoming.isEmpty else { return nil }
        if let allowed = allowedSources(of: target) {
            for s in incoming where !allowed.contains(s) {
                let names = (acceptRules.sources(for: column.title) ?? []).map { name in
                    "\"\(name)\"" + (columns.contains { $0.title == name } ? "" : " (no such column)")
                }
                let from = columns.indices.contains(s) ? columns[s].title : "?"
                return EditRefusal(
                    .acceptRule,
                    "column \"\(column.title)\" accepts cards only from \(Board.listed(names)), not from \"\(from)\"")
            }
        }
        if let limit = column.wipLimit, column.cards.count + incoming.count > limit {
            return EditRefusal(.full, "column \"\(column.title)\" is full (WIP limit \(limit))")
        }
        return nil
    }

    /// A card with its place now (for undo of a move or a delete).
    func placed(_ path: ItemPath, excluding moving: Set<CardID> = []) -> PlacedCard {
        let cards = columns[path.section].cards
        var next: CardID?
        var i = path.item + 1
        while i < cards.count {
            if !moving.contains(cards[i].id) { next = cards[i].id; break }
            i += 1
        }
        return PlacedCard(
            card: cards[path.item], column: columns[path.section].id, columnIndex: path.section,
            before: next, position: path.item)
    }
}

/// The working state of one application of an edit.
struct EditDoor {
    var board: Board
    let force: Bool

    typealias Outcome = EditOutcome

    func q(_ s: String) -> String { "“\(s)”" }

    func refuse(_ reason: EditRefusal.Reason, _ words: String) -> EditRefusal { EditRefusal(reason, words) }

    // MARK: Rules of text

    /// A card title: trimmed, not empty, one line.
    func cardTitle(_ raw: String) throws(EditRefusal) -> String {
        let title = raw.trimmingSpaces()
        guard !title.isEmpty else { throw refuse(.text, "the card title is empty") }
        if let problem = TextRules.problem(in: title) {
            throw refuse(.text, "the card title holds \(problem); a title is one line of text")
        }
        return title
    }

    /// A column title: trimmed, not empty, one line, unique (case ignored) except for `except`.
    func columnTitle(_ raw: String, except: Int?, refused: String) throws(EditRefusal) -> String {
        let title = raw.trimmingSpaces()
        guard !title.isEmpty else { throw refuse(.text, "the column title is empty") }
        if let problem = TextRules.problem(in: title) {
            throw refuse(.text, "the column title holds \(problem); a title is one line of text")
        }
        if let clash = board.columnTitleClash(title, except: except) {
            throw refuse(.name, refused + ColumnNameError(title: title, existing: clash).description)
        }
        return title
    }

    // MARK: Finding

    func column(_ id: ColumnID) throws(EditRefusal) -> Int {
        guard let s = board.index(of: id) else {
            throw refuse(.missingColumn, "the column is gone (deleted elsewhere)")
        }
        return s
    }

    /// The index in column `s` a slot means (cards `moving` already taken out).
    func index(of slot: CardSlot, in s: Int) -> Int {
        let cards = board.columns[s].cards
        func find(_ id: CardID) -> Int? {
            guard let p = board.indexPath(for: id), p.section == s else { return nil }
            return p.item
        }
        switch slot {
        case .top: return 0
        case .end: return cards.count
        case .index(let i): return min(max(0, i), cards.count)
        case .before(let id, let i): return find(id) ?? min(max(0, i), cards.count)
        case .after(let id, let i): return find(id).map { $0 + 1 } ?? min(max(0, i), cards.count)
        }
    }

    /// The column a placement lands in: its own, else the one now at its index, else the first.
    func landing(_ id: ColumnID, index: Int) -> (section: Int, moved: Bool)? {
        if let s = board.index(of: id) { return (s, false) }
        guard !board.columns.isEmpty else { return nil }
        return (board.columns.indices.contains(index) ? index : 0, true)
    }

    mutating func insert(_ card: Card, in s: Int, at i: Int) {
        board.insertItem(card, at: ItemPath(section: s, item: min(max(0, i), board.columns[s].cards.count)))
    }

    // MARK: Applying

    mutating func apply(_ edit: BoardEdit) throws(EditRefusal) -> Outcome {
        switch edit {
        case .addCard(var card, let column, let slot, let fallback):
            card.title = try cardTitle(card.title)
            card = try fitted(card)
            if board.indexPath(for: card.id) != nil { card.id = CardID.fresh() }
            guard let (s, moved) = landing(column, index: fallback) else {
                throw refuse(.missingColumn, "the board has no column to add the card to")
            }
            if !force, let limit = board.columns[s].wipLimit, board.columns[s].cards.count >= limit {
                throw refuse(.full, "column \"\(board.columns[s].title)\" is full (WIP limit \(limit))")
            }
            insert(card, in: s, at: moved ? board.columns[s].cards.count : index(of: slot, in: s))
            let name = board.columns[s].title
            let words =
                moved ? "Its column was deleted elsewhere: added the card to \(q(name))" : "Added a card to \(name)"
            return Outcome(board: board, inverse: .removeCards([card]), words: words, focus: .card(card.id))

        case .setTitle(let id, let raw, let seen):
            let title = try cardTitle(raw)
            return try change(id, seen: seen, words: "Title changed") { $0.title = title }

        case .setDue(let id, let raw, let seen):
            let due = raw?.trimmingSpaces() ?? ""
            if !due.isEmpty {
                do { _ = try DueDate(parsing: due) } catch { throw refuse(.text, "Not set: " + error.description) }
                if let problem = TextRules.problem(in: due) { throw refuse(.text, "the due date holds \(problem)") }
            }
            return try change(id, seen: seen, words: due.isEmpty ? "Due date cleared" : "Due \(due)") {
                $0.due = due.isEmpty ? nil : due
            }

        case .setTags(let id, let tags, let seen):
            let tags = tags.map { $0.hasPrefix("#") ? String($0.dropFirst()) : $0 }.filter { !$0.isEmpty }
            for t in tags where t.contains(" ") || TextRules.problem(in: t) != nil {
                throw refuse(.text, "a tag is one word: \(q(t))")
            }
            return try change(
                id, seen: seen,
                words: tags.isEmpty ? "Tags cleared" : "Tagged " + tags.map { "#" + $0 }.joined(separator: " ")
            ) {
                $0.title = Card.retagged(title: $0.title, tags: tags)
            }

        case .setDone(let id, let done):
            if done && !board.capacity.doneMark { throw refuse(.format, Self.noDoneMark) }
            let title = board.indexPath(for: id).map { q(board[$0].title) } ?? "the card"
            return try change(id, seen: nil, words: done ? "Marked \(title) done" : "Marked \(title) not done") {
                $0.done = done
            }

        case .setSubtaskDone(let id, let i, let done):
            guard let path = board.indexPath(for: id) else {
                throw refuse(.missingCard, "the card is gone (deleted elsewhere)")
            }
            let subs = board[path].subtasks
            guard subs.indices.contains(i) else { throw refuse(.missingCard, "This card has no such sub-task") }
            return try change(
                id, seen: nil,
                words: (done ? "Ticked " : "Unticked ") + "\(q(subs[i].title)) (\(i + 1) of \(subs.count))"
            ) {
                $0.subtasks[i].done = done
            }

        case .tickSubtask(let id):
            guard let path = board.indexPath(for: id) else {
                throw refuse(.missingCard, "the card is gone (deleted elsewhere)")
            }
            let subs = board[path].subtasks
            guard !subs.isEmpty else { throw refuse(.missingCard, "This card has no sub-tasks") }
            if let i = subs.firstIndex(where: { !$0.done }) {
                return try change(id, seen: nil, words: "Ticked \(q(subs[i].title)) (\(i + 1) of \(subs.count))") {
                    $0.subtasks[i].done = true
                }
            }
            return try change(id, seen: nil, words: "Unticked all \(subs.count) sub-tasks") { c in
                for i in c.subtasks.indices { c.subtasks[i].done = false }
            }

        case .replaceCard(let edited, let seen):
            var (card, changes) = TextRules.storable(edited)
            card = try fitted(card)
            let words = "Card updated" + (changes.words.map { ": \($0) (each field of a card is one line)" } ?? "")
            return try change(edited.id, seen: seen, words: words) { c in
                c.title = card.title; c.due = card.due; c.descriptionLines = card.descriptionLines
                c.subtasks = card.subtasks; c.done = card.done; c.extraLines = card.extraLines
            }

        case .moveCards(let ids, let to, let slot):
            return try move(ids, to: to, slot: slot)

        case .moveCardsToLane(let ids, let to, let slot, let lane):
            return try moveToLane(ids, to: to, slot: slot, lane: lane)

        case .receiveCards(let cards, let to, let position, let from, let name):
            return try receive(cards, into: to, position: position, from: from, board: name)

        case .sendCards(let ids, let name):
            return try send(ids, toBoard: name)

        case .deleteCards(let ids, let seen):
            var removed: [PlacedCard] = []
            var kept: [String] = []
            let seenByID = Dictionary((seen ?? []).map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let moving = Set(ids)
            var paths: [ItemPath] = []
            for id in ids {
                guard let p = board.indexPath(for: id) else { continue }
                if let s = seenByID[id], CardFields(s) != CardFields(board[p]) {
                    kept.append(q(board[p].title)); continue
                }
                paths.append(p)
            }
            guard !paths.isEmpty || !kept.isEmpty else {
                throw refuse(.missingCard, "the card is gone (deleted elsewhere)")
            }
            for p in paths { removed.append(board.placed(p, excluding: moving)) }
            for p in paths.sorted(by: { ($0.section, $0.item) > ($1.section, $1.item) }) { board.deleteItem(at: p) }
            var words = removed.count == 1 ? "Deleted \(q(removed[0].card.title))" : "Deleted \(removed.count) cards"
            if !kept.isEmpty {
                words =
                    (removed.isEmpty ? "" : words + "; ")
                    + "kept \(Board.listed(kept, or: "and")): changed elsewhere meanwhile"
            }
            return Outcome(
                board: board, inverse: removed.isEmpty ? nil : .restoreCards(removed), words: words, focus: nil)

        case .addColumn(var column, let slot):
            column.title = try columnTitle(column.title, except: nil, refused: "Not added: ")
            if board.index(of: column.id) != nil { column.id = .fresh() }
            let at: Int
            switch slot {
            case .index(let i): at = i
            case .after(let id, let i): at = board.index(of: id).map { $0 + 1 } ?? i
            }
            board.columns.insert(column, at: min(max(0, at), board.columns.count))
            return Outcome(
                board: board, inverse: .removeEmptyColumn(column.id), words: "Added column \(q(column.title))",
                focus: .column(column.id))

        case .renameColumn(let id, let raw):
            let s = try column(id)
            let title = try columnTitle(raw, except: s, refused: "Not renamed: ")
            let before = fields(s)
            guard board.columns[s].title != title else {
                return Outcome(
                    board: board, inverse: nil, words: "The column already is \(q(title))", focus: .column(id))
            }
            board.renameColumn(at: s, to: title)
            return Outcome(
                board: board, inverse: .revertColumn(id, from: fields(s), to: before),
                words: "Renamed the column to \(q(title))", focus: .column(id))

        case .moveColumn(let id, let to):
            let s = try column(id)
            let t = min(max(0, to), board.columns.count - 1)
            guard s != t else {
                return Outcome(board: board, inverse: nil, words: "The column stays where it is", focus: .column(id))
            }
            board.moveColumn(from: s, to: t)
            return Outcome(
                board: board, inverse: .moveColumn(id, to: s), words: "Moved column \(q(board.columns[t].title))",
                focus: .column(id))

        case .deleteColumn(let id, let seen):
            let s = try column(id)
            let column = board.columns[s]
            if let seen {
                let agreed = Set(seen)
                let others = column.cards.filter { !agreed.contains($0.id) }.count
                if others > 0 {
                    throw refuse(
                        .changedElsewhere,
                        "Not deleted: \(others == 1 ? "a card was" : "\(others) cards were") added to \(q(column.title)) elsewhere meanwhile"
                    )
                }
            }
            let rule = board.acceptRules.sources(for: column.title)
            let mentions = board.columns.compactMap { c -> RuleMention? in
                guard c.id != id, let sources = board.acceptRules.sources(for: c.title), sources.contains(column.title)
                else { return nil }
                return RuleMention(column: c.id, sources: sources)
            }
            let opened = board.removeColumn(at: s)
            var words = "Deleted column \(q(column.title))"
            if !opened.isEmpty {
                words +=
                    "; \(Board.listed(opened, or: "and")) now \(opened.count == 1 ? "accepts" : "accept") from any column"
            }
            return Outcome(
                board: board, inverse: .restoreColumn(column, at: s, rule: rule, mentions: mentions), words: words,
                focus: nil)

        case .setWIPLimit(let id, let limit):
            let s = try column(id)
            if let limit, limit <= 0 { throw refuse(.number, "A WIP limit is a whole number above 0") }
            let before = fields(s)
            let name = board.columns[s].title
            let words =
                limit.map { "\(name) takes at most \($0) card\($0 == 1 ? "" : "s")" } ?? "\(name) has no WIP limit"
            guard board.columns[s].wipLimit != limit else {
                return Outcome(board: board, inverse: nil, words: words, focus: .column(id))
            }
            board.columns[s].wipLimit = limit
            return Outcome(
                board: board, inverse: .revertColumn(id, from: fields(s), to: before), words: words, focus: .column(id))

        case .setAcceptRule(let id, let from):
            let s = try column(id)
            let title = board.columns[s].title
            var sources: [String] = []
            for c in from {
                guard let i = board.index(of: c) else {
                    throw refuse(.missingColumn, "a column it would accept from is gone (deleted elsewhere)")
                }
                let name = board.columns[i].title
                if i != s && !sources.contains(name) { sources.append(name) }
            }
            if !from.isEmpty && sources.isEmpty {
                throw refuse(.name, "a column always takes its own cards; name another column to accept from")
            }
            let words =
                sources.isEmpty
                ? "\(title) accepts from any column" : "\(title) accepts only from \(Board.listed(sources))"
            let before = fields(s)
            guard (board.acceptRules.sources(for: title) ?? []) != sources else {
                return Outcome(
                    board: board, inverse: nil, words: "\(title) already " + words.dropFirst(title.count + 1),
                    focus: .column(id))
            }
            board.acceptRules.setSources(sources, for: title)
            return Outcome(
                board: board, inverse: .revertColumn(id, from: fields(s), to: before), words: words, focus: .column(id))

        case .setSwimlanes(let lanes):
            let before = board.acceptRules.swimlanes
            let words = SwimlaneQuery.summary(of: lanes, on: board)
            guard before != lanes else { return Outcome(board: board, inverse: nil, words: words, focus: nil) }
            board.acceptRules.swimlanes = lanes
            return Outcome(board: board, inverse: .setSwimlanes(before), words: words, focus: nil)

        case .setFlow(let setting):
            let before = board.acceptRules.flow
            func index(_ title: String?) throws(EditRefusal) -> Int? {
                guard let title else { return nil }
                guard let i = board.columns.firstIndex(where: { $0.title == title }) else {
                    if force { return nil }
                    throw refuse(.missingColumn, "no column \(q(title)) (deleted or renamed elsewhere)")
                }
                return i
            }
            let started = try index(setting.started), done = try index(setting.done)
            if !force, let s = started, let d = done, s > d {
                throw refuse(
                    .number,
                    "--started \"\(setting.started!)\" is right of --done \"\(setting.done!)\"; started must come first"
                )
            }
            guard before != setting else { return Outcome(board: board, inverse: nil, words: "", focus: nil) }
            board.acceptRules.flow = setting
            return Outcome(board: board, inverse: .setFlow(before), words: "", focus: nil)

        case .revertCard(let id, let from, let to):
            guard let p = board.indexPath(for: id) else {
                return Outcome(
                    board: board, inverse: nil,
                    words: "\(q(to.title)) is gone (deleted elsewhere): nothing to put back", focus: nil)
            }
            let now = CardFields(board[p])
            var result = now
            func take<T: Equatable>(_ key: WritableKeyPath<CardFields, T>) {
                if now[keyPath: key] == from[keyPath: key] { result[keyPath: key] = to[keyPath: key] }
            }
            take(\.title); take(\.due); take(\.descriptionLines); take(\.subtasks); take(\.done); take(\.extraLines)
            guard result != now else {
                return Outcome(
                    board: board, inverse: nil, words: "\(q(now.title)) was changed elsewhere since: left as it is",
                    focus: .card(id))
            }
            var card = board[p]
            result.write(to: &card)
            board[p] = card
            return Outcome(board: board, inverse: .revertCard(id, from: result, to: now), words: "", focus: .card(id))

        case .restoreCards(let placements):
            var restored: [Card] = []
            var elsewhere: [String] = []
            for pc in placements where board.indexPath(for: pc.card.id) == nil {
                guard let (s, moved) = landing(pc.column, index: pc.columnIndex) else { continue }
                let at =
                    moved
                    ? board.columns[s].cards.count
                    : pc.before.flatMap { b in board.indexPath(for: b).flatMap { $0.section == s ? $0.item : nil } }
                        ?? pc.position
                insert(pc.card, in: s, at: at)
                restored.append(pc.card)
                if moved { elsewhere.append(board.columns[s].title) }
            }
            guard !restored.isEmpty else {
                return Outcome(board: board, inverse: nil, words: "Nothing to put back", focus: nil)
            }
            var words = ""
            if !elsewhere.isEmpty { words = "Its column was deleted elsewhere: put back in \(q(elsewhere[0]))" }
            return Outcome(board: board, inverse: .removeCards(restored), words: words, focus: .card(restored[0].id))

        case .placeCards(let placements, let expected):
            var undo: [PlacedCard] = []
            var undoIn: [ColumnID] = []
            var first: CardID?
            let moving = Set(placements.map(\.card.id))
            for (k, pc) in placements.enumerated() {
                guard let p = board.indexPath(for: pc.card.id), k < expected.count,
                    board.columns[p.section].id == expected[k], let s = board.index(of: pc.column)
                else { continue }
                undo.append(board.placed(p, excluding: moving))
                undoIn.append(pc.column)
                board.deleteItem(at: p)
                let at =
                    pc.before.flatMap { b in board.indexPath(for: b).flatMap { $0.section == s ? $0.item : nil } }
                    ?? pc.position
                insert(undo.last!.card, in: s, at: at)
                first = first ?? pc.card.id
            }
            guard !undo.isEmpty else {
                return Outcome(
                    board: board, inverse: nil, words: "The cards were moved elsewhere since: left where they are",
                    focus: nil)
            }
            return Outcome(
                board: board, inverse: .placeCards(undo.reversed(), expectedIn: undoIn.reversed()), words: "",
                focus: first.map { .card($0) })

        case .removeCards(let cards):
            var removed: [PlacedCard] = []
            var kept: [String] = []
            let moving = Set(cards.map(\.id))
            var paths: [ItemPath] = []
            for card in cards {
                guard let p = board.indexPath(for: card.id) else { continue }
                if CardFields(board[p]) != CardFields(card) { kept.append(q(board[p].title)); continue }
                paths.append(p)
            }
            for p in paths { removed.append(board.placed(p, excluding: moving)) }
            for p in paths.sorted(by: { ($0.section, $0.item) > ($1.section, $1.item) }) { board.deleteItem(at: p) }
            let words = kept.isEmpty ? "" : "Kept \(Board.listed(kept, or: "and")): changed elsewhere since"
            return Outcome(
                board: board, inverse: removed.isEmpty ? nil : .restoreCards(removed), words: words, focus: nil)

        case .revertColumn(let id, let from, let to):
            guard let s = board.index(of: id) else {
                return Outcome(
                    board: board, inverse: nil,
                    words: "Column \(q(to.title)) is gone (deleted elsewhere): nothing to put back", focus: nil)
            }
            let now = fields(s)
            if now.wipLimit == from.wipLimit { board.columns[s].wipLimit = to.wipLimit }
            if now.rule == from.rule { board.acceptRules.setSources(to.rule, for: now.title) }
            if now.title == from.title, board.columnTitleClash(to.title, except: s) == nil {
                board.renameColumn(at: s, to: to.title)
            }
            let after = fields(s)
            guard after != now else {
                return Outcome(
                    board: board, inverse: nil,
                    words: "Column \(q(now.title)) was changed elsewhere since: left as it is", focus: .column(id))
            }
            return Outcome(
                board: board, inverse: .revertColumn(id, from: after, to: now), words: "", focus: .column(id))

        case .restoreColumn(var column, let at, let rule, let mentions):
            guard board.index(of: column.id) == nil else {
                return Outcome(board: board, inverse: nil, words: "", focus: nil)
            }
            column.cards = CardList(column.cards.filter { board.indexPath(for: $0.id) == nil })
            var title = column.title
            var n = 2
            while board.columnTitleClash(title) != nil { title = "\(column.title) \(n)"; n += 1 }
            column.title = title
            let s = min(max(0, at), board.columns.count)
            board.columns.insert(column, at: s)
            if let rule {
                board.acceptRules.setSources(rule.filter { r in board.columns.contains { $0.title == r } }, for: title)
            }
            for m in mentions {
                guard let i = board.index(of: m.column) else { continue }
                let name = board.columns[i].title
                let left = m.sources.filter { $0 != title }
                let current = board.acceptRules.sources(for: name)
                if current == nil || current! == left { board.acceptRules.setSources(m.sources, for: name) }
            }
            return Outcome(
                board: board, inverse: .deleteColumn(column.id, seen: column.cards.map(\.id)), words: "",
                focus: .column(column.id))

        case .removeEmptyColumn(let id):
            guard let s = board.index(of: id) else {
                return Outcome(board: board, inverse: nil, words: "The column is gone already", focus: nil)
            }
            let column = board.columns[s]
            guard column.cards.isEmpty else {
                return Outcome(
                    board: board, inverse: nil, words: "Kept column \(q(column.title)): cards were put in it elsewhere",
                    focus: .column(id))
            }
            let rule = board.acceptRules.sources(for: column.title)
            let mentions = board.columns.compactMap { c -> RuleMention? in
                guard c.id != id, let sources = board.acceptRules.sources(for: c.title), sources.contains(column.title)
                else { return nil }
                return RuleMention(column: c.id, sources: sources)
            }
            board.removeColumn(at: s)
            return Outcome(
                board: board, inverse: .restoreColumn(column, at: s, rule: rule, mentions: mentions), words: "",
                focus: nil)

        case .group(let edits):
            var inverses: [BoardEdit] = []
            var words: [String] = []
            var focus: Outcome.Focus?
            for e in edits {
                let o = try apply(e)
                if let i = o.inverse { inverses.insert(i, at: 0) }
                if !o.words.isEmpty { words.append(o.words) }
                focus = o.focus ?? focus
            }
            return Outcome(
                board: board, inverse: inverses.isEmpty ? nil : .group(inverses), words: words.joined(separator: "; "),
                focus: focus)
        }
    }

    static let noDoneMark = "taskell files have no done mark: nothing changed (move the card to a done column instead)"

    /// `card` as this board's storage can keep it: a done mark it has no place for is refused
    /// (the card stays as it was, wherever it is); lines it would not keep become description lines.
    func fitted(_ card: Card) throws(EditRefusal) -> Card {
        var card = card
        if card.done && !board.capacity.doneMark {
            throw refuse(
                .format,
                "\(q(card.title)) is marked done and taskell files have no done mark: nothing changed (mark it not done first)"
            )
        }
        if !card.extraLines.isEmpty && !board.capacity.extraLines {
            let kept = card.extraLines.map { $0.trimmingSpaces() }.filter { !$0.isEmpty }
            card.extraLines = []
            card.descriptionLines += kept
        }
        return card
    }

    func fields(_ s: Int) -> ColumnFields {
        let c = board.columns[s]
        return ColumnFields(title: c.title, wipLimit: c.wipLimit, rule: board.acceptRules.sources(for: c.title))
    }

    /// A change to one card's fields; a card deleted meanwhile comes back with the change when the
    /// edit carries what was seen (an edit beats a delete), and is refused in words otherwise.
    mutating func change(_ id: CardID, seen: SeenCard?, words: String, _ body: (inout Card) throws(EditRefusal) -> Void)
        throws(EditRefusal) -> Outcome
    {
        guard let p = board.indexPath(for: id) else {
            guard let seen else { throw refuse(.missingCard, "the card is gone (deleted elsewhere)") }
            var card = seen.card
            try body(&card)
            guard let (s, moved) = landing(seen.column, index: seen.columnIndex) else {
                throw refuse(.missingColumn, "the board has no column to bring the card back to")
            }
            insert(card, in: s, at: moved ? board.columns[s].cards.count : seen.position)
            return Outcome(
                board: board, inverse: .removeCards([card]),
                words:
                    "\(q(seen.card.title)) was deleted elsewhere: brought back in \(q(board.columns[s].title)) with your change",
                focus: .card(card.id))
        }
        var card = board[p]
        let before = CardFields(card)
        try body(&card)
        let after = CardFields(card)
        guard after != before else { return Outcome(board: board, inverse: nil, words: words, focus: .card(id)) }
        board[p] = card
        return Outcome(board: board, inverse: .revertCard(id, from: after, to: before), words: words, focus: .card(id))
    }

    mutating func move(_ ids: [CardID], to: ColumnID, slot: CardSlot) throws(EditRefusal) -> Outcome {
        let t = try column(to)
        let found = ids.compactMap { id in board.indexPath(for: id).map { (id, $0) } }
        guard !found.isEmpty else { throw refuse(.missingCard, "the card is gone (deleted elsewhere)") }
        if !force, let refusal = board.moveRefusal(into: t, from: found.map(\.1.section)) { throw refusal }
        let moving = Set(found.map(\.0))
        let before = board
        let placements = found.map { board.placed($0.1, excluding: moving) }
        var cards: [Card] = []
        for (_, p) in found.sorted(by: { ($0.1.section, $0.1.item) > ($1.1.section, $1.1.item) }) {
            cards.append(board[p])
            board.deleteItem(at: p)
        }
        let byID = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        // A slot next to a moving card means next to where that card stood (by its non-moving neighbour).
        var slot = slot
        switch slot {
        case .before(let id, let i) where moving.contains(id):
            slot = placements.first { $0.card.id == id }?.before.map { .before($0, orIndex: i) } ?? .end
        case .after(let id, let i) where moving.contains(id):
            slot = .index(i)
        default: break
        }
        var at = index(of: slot, in: t)
        for (id, _) in found {
            insert(byID[id]!, in: t, at: at)
            at += 1
        }
        let name = board.columns[t].title
        guard board != before else {
            return Outcome(
                board: board, inverse: nil, words: "Already there; nothing changed", focus: .card(found[0].0))
        }
        let words =
            found.count == 1
            ? "Moved \(q(byID[found[0].0]!.title)) to \(q(name))" : "Moved \(found.count) cards to \(q(name))"
        return Outcome(
            board: board, inverse: .placeCards(placements, expectedIn: placements.map { _ in to }), words: words,
            focus: .card(found[0].0))
    }
}

extension CardFields {
    func write(to card: inout Card) {
        card.title = title
        card.due = due
        card.descriptionLines = descriptionLines
        card.subtasks = subtasks
        card.done = done
        card.extraLines = extraLines
    }
}
