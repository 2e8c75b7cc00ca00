import DragKit
@testable import LanesCore
import Testing
@testable import LanesTerminal

/// The same edits through the terminal (keys, as a person types them) and through the commands
/// (what `lanes add|move|rules` run): the same board after, the same refusals in the same words.
@Suite("One door: terminal and commands agree")
struct OneDoorParityTests {
    /// To do [a0 a1 a2] · Doing [b0 b1] (WIP limit 2) · Done [] accepting only from Doing.
    static func board(_ capacity: CardCapacity = .everything) -> Board {
        var b = Board(columns: sampleBoard().columns, capacity: capacity)
        b.columns[1].wipLimit = 2
        b.acceptRules.setSources(["Doing"], for: "Done")
        return b
    }

    struct Row: Sendable {
        var name: String
        var keys: [(Key, Modifiers)]
        var command: @Sendable (inout Board) throws -> Void
    }

    static func k(_ text: String) -> [(Key, Modifiers)] { text.map { (Key.char($0), Modifiers()) } }
    static let enter: [(Key, Modifiers)] = [(.enter, [])]
    static let clear: [(Key, Modifiers)] = [(.char("u"), [.ctrl])]

    static let rows: [Row] = [
        Row(
            name: "add to a full column (the terminal used to ignore the WIP limit)",
            keys: k("lO") + k("new") + enter,
            command: { b in _ = try BoardCommands.add(&b, column: "Doing", title: "new", top: true) }),
        Row(
            name: "add at the top", keys: k("O") + k("new") + enter,
            command: { b in _ = try BoardCommands.add(&b, column: "To do", title: "new", top: true) }),
        Row(
            name: "add below the last card is the end", keys: k("Ga") + k("  new ") + enter,
            command: { b in _ = try BoardCommands.add(&b, column: "To do", title: "  new ") }),
        Row(
            name: "add to a column a rule guards (adding is never refused by a rule)",
            keys: k("llO") + k("new") + enter,
            command: { b in _ = try BoardCommands.add(&b, column: "Done", title: "new", top: true) }),
        Row(
            name: "move a card the rule allows", keys: k("lL"),
            command: { b in _ = try BoardCommands.move(&b, card: "b0", to: "Done") }),
        Row(
            name: "a rule naming only its own column", keys: k("llF") + clear + k("Done") + enter,
            command: { b in _ = try BoardCommands.setRule(&b, column: "Done", from: ["Done"]) }),
        Row(
            name: "a rule naming another column", keys: k("llF") + clear + k("To do") + enter,
            command: { b in _ = try BoardCommands.setRule(&b, column: "Done", from: ["To do"]) }),
        Row(
            name: "clearing a rule", keys: k("llF") + clear + enter,
            command: { b in _ = try BoardCommands.setRule(&b, column: "Done", from: []) }),
    ]

    @Test(arguments: 0..<rows.count)
    func theTerminalAndTheCommandsAgree(_ i: Int) throws {
        let row = Self.rows[i]
        var d = AppDriver(board: Self.board(), width: 100)
        for (key, mods) in row.keys { d.key(key, mods) }
        var b = Self.board()
        var refusal: String?
        do { try row.command(&b) } catch let e as CommandError { refusal = e.message }
        #expect(titles(d.app.board) == titles(b), "\(row.name): the same cards in the same places")
        #expect(d.app.board.acceptRules == b.acceptRules, "\(row.name): the same rules")
        #expect(d.app.board.columns.map(\.wipLimit) == b.columns.map(\.wipLimit), "\(row.name): the same limits")
        if let refusal {
            let words = refusal
            #expect(d.app.status == words.prefix(1).uppercased() + words.dropFirst(), "\(row.name): the same words")
            #expect(d.app.board == Self.board(), "\(row.name): a refusal changes nothing")
        } else {
            #expect(d.app.board != Self.board() || row.name.contains("clearing"), "\(row.name): the edit was made")
        }
    }

    // MARK: Card fields and columns (lanes edit, remove, column)

    /// The board above with sub-tasks on a1 (the first one done) and a due date on a2.
    static func fieldBoard() -> Board {
        var b = board()
        b.columns[0].cards[1].subtasks = [Subtask("s1", done: true), Subtask("s2")]
        b.columns[0].cards[2].due = "2024-01-31"
        return b
    }

    /// A row whose terminal side may also finish an external edit (what `$EDITOR` hands back).
    struct FieldRow: Sendable {
        var name: String
        var keys: [(Key, Modifiers)]
        var externalEdit: (@Sendable (Card) -> Card)? = nil
        var command: @Sendable (inout Board) throws -> Void
    }

    static func edit(_ card: String, _ set: @escaping @Sendable (inout BoardCommands.CardChanges) -> Void)
        -> @Sendable (inout Board) throws -> Void
    {
        { b in
            var c = BoardCommands.CardChanges()
            set(&c)
            _ = try BoardCommands.editCard(&b, card: card, c)
        }
    }

    static let esc: [(Key, Modifiers)] = [(.escape, [])]

    static let fieldRows: [FieldRow] = [
        FieldRow(
            name: "edit a title", keys: k("e") + clear + k("renamed #t") + enter,
            command: edit("a0") { $0.title = "renamed #t" }),
        FieldRow(
            name: "set a due date", keys: k("@") + clear + k("2025-02-03") + enter,
            command: edit("a0") { $0.due = .some("2025-02-03") }),
        FieldRow(
            name: "a due date that is no date is refused", keys: k("@") + clear + k("soon") + enter,
            command: edit("a0") { $0.due = .some("soon") }),
        FieldRow(
            name: "clear a due date", keys: k("jj@") + clear + enter,
            command: edit("a2") { $0.due = .some(nil) }),
        FieldRow(
            name: "set tags", keys: k("#") + clear + k("#x y") + enter,
            command: edit("a0") { $0.tags = ["x", "y"] }),
        FieldRow(
            name: "mark done", keys: k("x"),
            command: edit("a0") { $0.done = true }),
        FieldRow(
            name: "tick the next sub-task", keys: k("jt"),
            command: edit("a1") { $0.tick = true }),
        FieldRow(
            name: "tick with no sub-task is refused", keys: k("t"),
            command: edit("a0") { $0.tick = true }),
        FieldRow(
            name: "untick a sub-task in the card view", keys: k("j") + enter + [(.char(" "), [])] + esc,
            command: edit("a1") { $0.subtaskDone = [.init(number: 1, done: false)] }),
        FieldRow(
            name: "description and a new sub-task ($EDITOR)", keys: k("j"),
            externalEdit: { c in
                var c = c
                c.descriptionLines = ["why", "how"]
                c.subtasks.append(Subtask("s3"))
                return c
            },
            command: edit("a1") {
                $0.descriptionLines = ["why\nhow"]; $0.addSubtasks = ["s3"]
            }),
        FieldRow(
            name: "delete a card", keys: k("d"),
            command: { b in _ = try BoardCommands.removeCards(&b, cards: ["a0"]) }),
        FieldRow(
            name: "add a column after this one", keys: k("A") + k("Review") + enter,
            command: { b in _ = try BoardCommands.addColumn(&b, title: "Review", position: 2) }),
        FieldRow(
            name: "a column title in use is refused", keys: k("A") + k("doing") + enter,
            command: { b in _ = try BoardCommands.addColumn(&b, title: "doing", position: 2) }),
        FieldRow(
            name: "rename a column", keys: k("R") + clear + k("Backlog") + enter,
            command: { b in _ = try BoardCommands.renameColumn(&b, column: "To do", to: "Backlog") }),
        FieldRow(
            name: "rename a column the rules name (they follow it)", keys: k("lR") + clear + k("Active") + enter,
            command: { b in _ = try BoardCommands.renameColumn(&b, column: "Doing", to: "Active") }),
        FieldRow(
            name: "renaming to another column's title is refused", keys: k("R") + clear + k("DONE") + enter,
            command: { b in _ = try BoardCommands.renameColumn(&b, column: "To do", to: "DONE") }),
        FieldRow(
            name: "move a column right", keys: k(">"),
            command: { b in _ = try BoardCommands.moveColumn(&b, column: "To do", to: 2) }),
        FieldRow(
            name: "move a column left", keys: k("ll<"),
            command: { b in _ = try BoardCommands.moveColumn(&b, column: "Done", to: 2) }),
        FieldRow(
            name: "delete a column with its cards (confirmed)", keys: k("Dy"),
            command: { b in _ = try BoardCommands.deleteColumn(&b, column: "To do", withCards: true) }),
        FieldRow(
            name: "delete an empty column a rule guards", keys: k("llD"),
            command: { b in _ = try BoardCommands.deleteColumn(&b, column: "Done", withCards: false) }),
        FieldRow(
            name: "delete a column another rule names", keys: k("lDy"),
            command: { b in _ = try BoardCommands.deleteColumn(&b, column: "Doing", withCards: true) }),
        FieldRow(
            name: "set a WIP limit", keys: k("W") + clear + k("3") + enter,
            command: { b in _ = try BoardCommands.setLimit(&b, column: "To do", to: 3) }),
        FieldRow(
            name: "a WIP limit of 0 is refused", keys: k("W") + clear + k("0") + enter,
            command: { b in _ = try BoardCommands.setLimit(&b, column: "To do", to: 0) }),
        FieldRow(
            name: "remove a WIP limit", keys: k("lW") + clear + enter,
            command: { b in _ = try BoardCommands.setLimit(&b, column: "Doing", to: nil) }),
    ]

    /// Everything but identities: columns (title, limit, cards' fields) and rules.
    static func shape(_ b: Board) -> String {
        b.columns.map { c in "\(c.title)|\(c.wipLimit.map(String.init) ?? "-")|\(c.cards.map { "\(CardFields($0))" })" }
            .joined(separator: "\n") + "\n" + "\(b.acceptRules)"
    }

    @Test(arguments: 0..<fieldRows.count)
    func cardFieldsAndColumnsAgree(_ i: Int) throws {
        let row = Self.fieldRows[i]
        var d = AppDriver(board: Self.fieldBoard(), width: 100)
        for (key, mods) in row.keys { d.key(key, mods) }
        var refusalShown: String?
        if let externalEdit = row.externalEdit, let sel = d.app.selection {
            let card = d.app.board[sel]
            d.app.finishExternalEdit(card.id, edited: externalEdit(card))
        }
        refusalShown = d.app.status
        var b = Self.fieldBoard()
        var refusal: String?
        do { try row.command(&b) } catch let e as CommandError { refusal = e.message }
        #expect(Self.shape(d.app.board) == Self.shape(b), "\(row.name): the same board")
        if let refusal {
            let words = refusal.prefix(1).uppercased() + refusal.dropFirst()
            #expect(
                d.app.board == Self.fieldBoard() || Self.shape(d.app.board) == Self.shape(Self.fieldBoard()),
                "\(row.name): a refusal changes nothing")
            #expect(
                d.screen().contains(words) || refusalShown == words,
                "\(row.name): the same words: \(words) / \(refusalShown ?? "")")
        } else {
            #expect(Self.shape(b) != Self.shape(Self.fieldBoard()), "\(row.name): the edit was made")
        }
    }

    /// A refused prompt keeps what was typed: the prompt opens again with the text and the words.
    @Test func aRefusedAddKeepsTheTypedTitle() {
        var d = AppDriver(board: Self.board(), width: 100)
        for (key, mods) in Self.k("lO") + Self.k("my precious card") + Self.enter { d.key(key, mods) }
        #expect(d.screen().contains("New card: my precious card"))
        #expect(d.screen().contains("Column \"Doing\" is full (WIP limit 2)"))
        // Raising nothing, the person moves it elsewhere: the text is still there to submit.
        d.key(.escape)
        #expect(d.app.status == "Cancelled")
    }
    /// `x` on a card: a taskell file has no done mark, an Obsidian one has. The rule is the
    /// door's, so the terminal and the commands refuse (or make) the edit alike, in the same words.
    @Test(arguments: [BoardDialect.taskell, .obsidian])
    func theDoneMarkIsTheDialectsToRefuse(_ dialect: BoardDialect) throws {
        var d = AppDriver(board: Self.board(.of(dialect)), width: 100)
        d.key(.char("x"))
        var b = Self.board(.of(dialect))
        let id = b.columns[0].cards[0].id
        var refusal: String?
        do { try BoardCommands.door(&b, .setDone(id, true)) } catch { refusal = error.message }
        #expect(d.app.board == b, "the same board")
        #expect(d.app.board.columns[0].cards[0].done == (dialect == .obsidian))
        if dialect == .taskell {
            let words = try #require(refusal)
            #expect(
                words == "taskell files have no done mark: nothing changed (move the card to a done column instead)")
            #expect(
                d.app.status
                    == "Taskell files have no done mark: nothing changed (move the card to a done column instead)")
            #expect(!d.app.document.history.canUndo, "a refusal records no undo step")
        } else {
            #expect(refusal == nil)
            #expect(d.app.status == "Marked “a0” done")
        }
    }

    /// The card view's `x` asks the same door: on a taskell board it is refused in the same
    /// words and the view stays open on the card; on an Obsidian board the card is marked.
    @Test(arguments: [BoardDialect.taskell, .obsidian])
    func theCardViewsDoneKeyGoesThroughTheDoorToo(_ dialect: BoardDialect) {
        var d = AppDriver(board: Self.board(.of(dialect)), width: 100, height: 30)
        d.key(.enter)
        guard case .detail(let open) = d.app.mode else { Issue.record("enter did not open the card"); return }
        d.key(.char("x"))
        guard case .detail(let after) = d.app.mode else { Issue.record("x closed the card view"); return }
        #expect(after == open)
        #expect(d.app.board.columns[0].cards[0].done == (dialect == .obsidian))
        #expect(
            d.app.status
                == (dialect == .taskell
                    ? "Taskell files have no done mark: nothing changed (move the card to a done column instead)"
                    : "Marked “a0” done"))
        #expect(d.app.document.history.canUndo == (dialect == .obsidian))
    }
}
