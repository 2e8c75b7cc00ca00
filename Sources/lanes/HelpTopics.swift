import Foundation
import LanesCore
import LanesTerminal

/// One block of a help topic: what `lanes help TOPIC` prints and what scripts/gen-man turns into the man page.
enum HelpBlock {
    /// A paragraph, wrapped to the width.
    case text(String)
    /// A term and what it means (a file, a variable, a status).
    case item(String, String)
    /// Lines shown as they are: a command to type, a file's lines.
    case example(String)
    /// One key binding from the keymap.
    case key(keys: [String], action: String, summary: String)
}

/// A subject `lanes help TOPIC` explains; the man page has one section per topic, in this order.
struct HelpTopic {
    var name: String
    /// Other names `lanes help` accepts ("many writers", "postgres").
    var aliases: [String] = []
    /// The man page's section heading.
    var section: String
    var summary: String
    var blocks: [HelpBlock]

    static func named(_ word: String) -> HelpTopic? {
        let key = word.lowercased().replacingOccurrences(of: " ", with: "-").replacingOccurrences(of: "_", with: "-")
        return all.first { $0.name == key || $0.aliases.contains(key) }
    }

    static var all: [HelpTopic] {
        [tour, keys(Keymap()), files, manyWriters, git, postgresql, environment]
    }

    // MARK: the topics

    /// Five lines a newcomer reads first: `lanes help` starts with them, before the reference.
    static let tourLines = [
        "Open:  lanes plan.md opens a board (made from the starter board when missing); q quits.",
        "Drag:  press on a card with the mouse, move it, release it where it belongs.",
        "Keys:  ? shows them all; a adds a card, e edits it, d deletes it, u undoes.",
        "Git:   commit the board file; lanes git-setup plan.md makes git merge it card by card.",
        "Team:  lanes copy plan.md postgresql://… puts it on a team server (lanes help postgresql).",
    ]

    static let tour = HelpTopic(
        name: "tour", aliases: ["start", "first-steps"], section: "FIRST STEPS",
        summary: "Lanes in five lines: open, drag, keys, share with git, team server",
        blocks: [.example(tourLines.joined(separator: "\n"))])

    static func keys(_ keymap: Keymap) -> HelpTopic {
        var blocks: [HelpBlock] = [
            .text(
                "Every drag has a keyboard way. The keys below are the defaults; ? in the app shows the ones in force.")
        ]
        for action in Action.allCases {
            let keys = keymap.keys(for: action).map(\.description)
            guard !keys.isEmpty else { continue }
            blocks.append(.key(keys: keys, action: action.rawValue, summary: action.summary))
        }
        blocks += [
            .text(
                "A lifted card (space) moves with the arrow keys; left and right skip columns that would refuse it, and flip pages. Enter or space drops it, esc puts it back."
            ),
            .text(
                "Enter (or a click on the selected card) opens the whole card: title, column, due date, tags, the full description and the sub-tasks. There up and down choose a sub-task, space ticks it, page keys, home and end scroll, e, @, #, x and E work on the card, and esc, enter or q close. The help (?) scrolls the same way."
            ),
            .text(
                "Every prompt holds one line of at most 10,000 characters: a pasted line break becomes a space and a NUL byte is dropped, and the line above the prompt says so; a longer paste is refused whole. Longer text belongs in the description (E)."
            ),
            .text(
                "The mouse: press on a card, drag it across columns and release it where it belongs; a marker shows where it will land and a column that refuses says why. Releasing outside every column, or esc, puts it back. A click selects a card; a click on the selected card opens it. Ctrl-click (or alt-click) marks cards: dragging a marked card carries all of them. The wheel scrolls the column under the pointer; ◀ and ▶ in the header flip pages. Hold a dragged card at the board's left or right edge to flip the page, or near a column's top or bottom to scroll it. Press on a column's title and drag it to move the column."
            ),
            .text(
                "lanes keys lists the actions with their default keys, for scripts (lanes keys --help). Keys are changed in the config file (lanes help files): \"bind KEY ACTION\" and \"unbind KEY\", one per line. ACTION is a name in parentheses above; lanes keys lists them. KEY is a character (x, X, ?), a name (enter, esc, space, tab, backspace, up, down, left, right, home, end, pageup, pagedown, insert, delete, f1 to f12), or one of those with ctrl-, alt- or shift- before it."
            ),
        ]
        return HelpTopic(
            name: "keys", aliases: ["key", "mouse", "bindings"], section: "KEYS",
            summary: "keys, the mouse, and how to change the bindings", blocks: blocks)
    }

    static let files = HelpTopic(
        name: "files", aliases: ["file", "format"], section: "FILES",
        summary: "the board file's format, and every file Lanes reads or writes",
        blocks: [
            .text(
                "A board is a plain Markdown file in the dialect of taskell or of the Obsidian Kanban plugin. Lanes detects the dialect and keeps it, and leaves lines it does not interpret as they were. In taskell's dialect:"
            ),
            .example(
                """
                ## To do

                - Write the parser
                    @ 2026-12-01
                    > A description line
                    * [ ] a sub-task
                    * [x] a done sub-task
                """),
            .text(
                "\"## \" starts a column, \"- \" a card; indented lines add a due date (@), description lines (>) and sub-tasks. A heading ending in \" (3)\" sets a WIP limit. A file Lanes cannot parse is never overwritten: it says FILE:LINE: what was expected, and exits. Saves are atomic (a temporary file in the same folder, fsync, rename), keep the file's mode and owner, and go through symlinks."
            ),
            .item(
                "BOARD",
                "The board (default: lanes.md in the current folder, created from the starter board when missing)."),
            .item(
                ".BOARD.lanes",
                "Beside the board: its accept rules, one per line, e.g. accept \"Done\" from \"Review\" \"Doing\" (Done then takes cards only from Review and Doing). A column without a rule accepts from every column; a card can always move inside its own column. Set with F in the app or lanes rules; # starts a comment, and comments are kept."
            ),
            .item(
                ".BOARD.lanes-saving",
                "The whole new board, kept beside a hard-linked board while it is written in place; removed once the write is done."
            ),
            .item(
                "$XDG_CONFIG_HOME/lanes/config",
                "Default ~/.config/lanes/config. One setting per line: bind KEY ACTION, unbind KEY, set view compact (one line per card) or set view cards; # starts a comment. A bad line stops Lanes with FILE:LINE: what is wrong."
            ),
            .item(
                "$XDG_STATE_HOME/lanes/recovery/",
                "Default ~/.local/state/lanes/recovery/. Where the board goes when Lanes must end (SIGTERM, SIGHUP) with changes it could not save; the next start of that board names the copy."
            ),
        ])

    static let manyWriters = HelpTopic(
        name: "many-writers", aliases: ["writers", "many", "sharing"], section: "MANY WRITERS",
        summary: "several people and tools changing one board at once",
        blocks: [
            .text(
                "A board is a plain file so that other tools can change it, and Lanes expects them to. Open the same board in two panes, run lanes add or lanes move beside an open board, edit it in Obsidian or pull it with git: every change lands and nothing is reverted."
            ),
            .text(
                "Each save merges card by card with whatever was saved meanwhile (moves, new and deleted cards, edits of any field, columns, WIP limits and accept rules). An open board takes in others' changes within a second, even in the middle of a drag or a prompt, and says so (\"2 cards changed elsewhere\"). Where two writers really collide (one card edited two ways, moved to two places, edited here and deleted there) a fixed rule keeps all text: an edit beats a delete, two titles are both kept joined by \" ⟷ \", and the status line says what happened. Undo and redo reverse only your own actions."
            ),
            .text(
                "If a save cannot be made (a read-only board, a full disk), q asks before quitting: retry, save a copy, or discard. SIGTERM and SIGHUP leave a recovery copy (lanes help files)."
            ),
        ])

    static let git = HelpTopic(
        name: "git", section: "GIT",
        summary: "boards in git repositories: the merge driver",
        blocks: [
            .text(
                "Register Lanes as git's merge driver for a board once per clone, and git pull merges the board card by card instead of line by line, never with conflict markers:"
            ),
            .example("lanes git-setup board.md"),
            .text(
                "It adds \"/board.md merge=lanes\" to the repository's .gitattributes (commit it, so others get it) and sets merge.lanes.driver in .git/config to this lanes' absolute path followed by merge %O %A %B %P. Running it again changes nothing; run it again after moving lanes."
            ),
            .example("lanes git-setup --check"),
            .text(
                "says whether the registered program still exists and which boards are registered, in words (exit status 1 when the driver cannot run). When the registered program is gone, the driver itself says so on git's output instead of merging, and git leaves the board as a conflict: run lanes git-setup again, then git checkout -m BOARD to merge it again."
            ),
            .text(
                "A collision resolved by the merge rule (one card edited two ways) makes the driver exit with status 1, so git asks you to review the file as for any conflict; the file is a valid board, both texts kept. Accept rules (.BOARD.lanes) are merged by git's ordinary line merge."
            ),
        ])

    static let postgresql = HelpTopic(
        name: "postgresql", aliases: ["postgres", "pg", "database", "team"], section: "POSTGRESQL",
        summary: "team boards in a PostgreSQL database",
        blocks: [
            .text(
                "Everywhere a board file is accepted, a URL is too: postgresql://USER@HOST:PORT/DB?board=NAME. Lanes takes board out and hands the rest to libpq, so PG* variables, ~/.pgpass and sslmode work as usual; Lanes never stores or prints a password."
            ),
            .example(
                """
                lanes copy board.md "postgresql://alice@db.example/lanes?board=team"
                lanes grant "postgresql://alice@db.example/lanes?board=team" bob
                lanes "postgresql://bob@db.example/lanes?board=team"
                """),
            .text(
                "lanes copy to a URL creates the board with the copying role as its owner. The first board in a database also creates the Lanes schema, which needs the CREATE privilege on the database (GRANT CREATE ON DATABASE lanes TO alice, by the database's owner); later boards do not. lanes grant URL ROLE lets an existing role read and change the board; with --can-grant it may also grant and revoke. lanes revoke URL ROLE takes access away. The server enforces access with row-level security: a role without a grant reads nothing of the board, not even with psql."
            ),
            .text(
                "Every open screen shows every change within a fraction of a second. Every change is one transaction checked against the versions its writer saw: when two people move one card at once, one wins and the other's screen says where it went. When the server restarts or the network drops, the status says \"Offline, reconnecting…\", and what was done meanwhile is saved once it is back."
            ),
            .text(
                "Behind PgBouncer: point the URL at the pooler. Lanes keeps nothing in a server session (unnamed statements, SET LOCAL), so session and transaction pooling both work. In transaction pooling add listen=PORT (or listen=HOST:PORT, HOST a name or a socket folder) naming the PostgreSQL server itself: an open screen keeps one connection there for LISTEN only, with the URL's role, database and settings, and sends every query through the pool. A command (add, move, show…) never LISTENs. Without listen=, a screen behind transaction pooling does not hear others' changes."
            ),
            .example(
                """
                lanes "postgresql://bob@db.example:6432/lanes?listen=5432&board=team"
                """),
            .text(
                "Across a failover: list every server, primary first, with target_session_attrs=read-write; when the primary dies a screen says \"Offline, reconnecting…\" and carries on with the promoted standby by itself. Only a synchronous standby (synchronous_standby_names) keeps every change Lanes reported saved."
            ),
            .example(
                """
                lanes "postgresql://bob@db1.example,db2.example/lanes?target_session_attrs=read-write&board=team"
                """),
            .text(
                "Never a hang: a statement waits at most 10 s for a lock (a commit at most 12 s for its board behind other writers) and runs at most 120 s; a server or pooler that sends nothing for 15 s is given up. Each is said in words (exit status 1), and a screen keeps the change and saves it once the server answers."
            ),
        ])

    static let environment = HelpTopic(
        name: "environment", aliases: ["env", "variables"], section: "ENVIRONMENT",
        summary: "the environment variables Lanes reads",
        blocks: [
            .item("VISUAL, EDITOR", "The editor for E (edit the whole card), the first that is set; default vi."),
            .item(
                "TERM", "Lanes works with xterm, tmux and screen terminal types, with SGR, X10 and urxvt mouse reports."
            ),
            .item(
                "XDG_CONFIG_HOME, XDG_STATE_HOME", "Where the config file and recovery copies are (lanes help files)."),
            .item(
                "PGHOST, PGPORT, PGUSER, PGPASSWORD, PGSSLMODE…",
                "libpq's variables, for PostgreSQL boards (lanes help postgresql)."),
        ])

    // MARK: rendering

    /// The topic as plain text, wrapped to `width` columns.
    func plainText(width: Int = 80) -> String {
        var out = "\(section) — \(summary)\n"
        var keyRows: [(String, String)] = []
        func flushKeys() {
            guard !keyRows.isEmpty else { return }
            let column = min(16, keyRows.map(\.0.count).max() ?? 0)
            out += "\n"
            for (keys, text) in keyRows {
                let pad = keys.count < column ? String(repeating: " ", count: column - keys.count) : ""
                let lines = HelpTopic.wrap(text, width: width - column - 4)
                out += "  \(keys)\(pad)  \(lines.first ?? "")\n"
                for line in lines.dropFirst() { out += String(repeating: " ", count: column + 4) + line + "\n" }
            }
            keyRows = []
        }
        for block in blocks {
            if case .key(let keys, let action, let summary) = block {
                keyRows.append((keys.joined(separator: " "), "\(summary) (\(action))"))
                continue
            }
            flushKeys()
            out += "\n"
            switch block {
            case .text(let text):
                out += HelpTopic.wrap(text, width: width).map { $0 + "\n" }.joined()
            case .item(let term, let text):
                out += "  \(term)\n" + HelpTopic.wrap(text, width: width - 6).map { "      " + $0 + "\n" }.joined()
            case .example(let lines):
                out += lines.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 + "\n" }
                    .joined()
            case .key:
                break
            }
        }
        flushKeys()
        return out
    }

    /// The topic for scripts/gen-man, as a JSON object.
    var jsonObject: [String: Any] {
        let rendered: [[String: Any]] = blocks.map { block in
            switch block {
            case .text(let text): return ["kind": "text", "text": text]
            case .item(let term, let text): return ["kind": "item", "term": term, "text": text]
            case .example(let text): return ["kind": "example", "text": text]
            case .key(let keys, let action, let summary):
                return ["kind": "key", "keys": keys, "action": action, "summary": summary]
            }
        }
        return ["name": name, "aliases": aliases, "section": section, "summary": summary, "blocks": rendered]
    }

    /// Words of `text` in lines of at most `width` characters (a longer word gets a line of its own).
    static func wrap(_ text: String, width: Int) -> [String] {
        var lines: [String] = [], line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty && line.count + 1 + word.count > max(20, width) {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }
}

/// `lanes help [TOPIC|SUBCOMMAND]`: topics are answered here, subcommands by the argument parser's own help.
enum HelpCommand {
    /// What `lanes help …` prints and its exit status; nil when the words name a subcommand (the parser's help answers).
    static func answer(_ words: [String], width: Int) -> (text: String, toStderr: Bool, status: Int32)? {
        if words == ["--topics-json"] {
            let topics = HelpTopic.all.map(\.jsonObject)
            let data =
                (try? JSONSerialization.data(
                    withJSONObject: ["topics": topics], options: [.prettyPrinted, .sortedKeys])) ?? Data()
            return (String(decoding: data, as: UTF8.self) + "\n", false, 0)
        }
        if words.isEmpty {
            // The tour first, then the reference (the parser's help: usage, options, subcommands).
            let tour = HelpTopic.tourLines.map { $0 + "\n" }.joined()
            return (tour + "\n" + Lanes.helpMessage(columns: width) + "\n", false, 0)
        }
        let commands = Lanes.configuration.subcommands.map { $0._commandName }
        let joined = words.joined(separator: " ")
        // A topic's own name first (lanes help keys is the keys topic; lanes keys --help the subcommand's),
        // then a subcommand's help, which is the parser's own, then the topics' other names.
        guard let first = words.first,
            HelpTopic.all.contains(where: { $0.name == joined.lowercased() }) || !commands.contains(first)
        else {
            return nil
        }
        if let topic = HelpTopic.named(joined) {
            return (topic.plainText(width: width), false, 0)
        }
        let names = HelpTopic.all.flatMap { [$0.name] + $0.aliases } + commands
        let guess =
            Spelling.suggestion(for: joined.lowercased(), among: names).map { " Did you mean `lanes help \($0)`?" }
            ?? ""
        return ("lanes: no help topic or subcommand \"\(joined)\".\(guess)\n\n" + listing(), true, 2)
    }

    /// The topics, one a line, for `lanes help` and `lanes --help`.
    static func listing() -> String {
        "Help topics (lanes help TOPIC, or man lanes):\n"
            + HelpTopic.all.map {
                "  " + $0.name.padding(toLength: 14, withPad: " ", startingAt: 0) + $0.summary + "\n"
            }.joined()
    }
}
