import DragKit

/// The Markdown flavour a board file is written in.
public enum BoardDialect: Hashable, Sendable {
    /// taskell: `## List`, `- Task`, `    @ due`, `    > description`, `    * [ ] sub-task`.
    case taskell
    /// Obsidian Kanban: frontmatter with `kanban-plugin`, `## Lane`, `- [ ] card`, settings block.
    case obsidian
}

/// How lines end in a board file.
public enum LineEnding: Hashable, Sendable {
    case lf
    case crlf

    var text: String { self == .lf ? "\n" : "\r\n" }
}

/// A board file that cannot be read: where, and what was expected.
public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based.
    public var line: Int
    public var message: String

    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`
    public var description: String { "\(file):\(line): \(message)" }
}

/// Blank lines between the parts of a board, as the file writes them.
public struct BoardLayout: Hashable, Sendable {
    /// After a column heading, before its first card or extra line.
    public var blankLinesAfterHeading: Int
    /// Between two cards of a column.
    public var blankLinesBetweenCards: Int
    /// After a column's last line, before the next column heading.
    public var blankLinesBetweenColumns: Int
    /// After the last column, before the archive, the settings or the end of the file.
    public var blankLinesAfterColumns: Int

    public init(
        blankLinesAfterHeading: Int, blankLinesBetweenCards: Int,
        blankLinesBetweenColumns: Int, blankLinesAfterColumns: Int
    ) {
        self.blankLinesAfterHeading = blankLinesAfterHeading
        self.blankLinesBetweenCards = blankLinesBetweenCards
        self.blankLinesBetweenColumns = blankLinesBetweenColumns
        self.blankLinesAfterColumns = blankLinesAfterColumns
    }

    /// How the tool that owns the dialect writes a new file.
    public static func standard(for dialect: BoardDialect) -> BoardLayout {
        switch dialect {
        case .taskell:
            BoardLayout(
                blankLinesAfterHeading: 1, blankLinesBetweenCards: 0,
                blankLinesBetweenColumns: 1, blankLinesAfterColumns: 0)
        case .obsidian:
            BoardLayout(
                blankLinesAfterHeading: 1, blankLinesBetweenCards: 0,
                blankLinesBetweenColumns: 2, blankLinesAfterColumns: 4)
        }
    }
}

/// Everything a file holds that the Board model does not: dialect, frontmatter, settings, archive, etc.
///
/// Saving a board with the info it was loaded with reproduces the file byte
/// for byte when nothing changed. Spacing that differs from the file's usual
/// layout is remembered per column (by title) and per card identity, so it
/// follows a moved card or column and stays put when others change.
public struct BoardFileInfo: Hashable, Sendable {
    public var dialect: BoardDialect
    public var lineEnding: LineEnding
    /// The file starts with a UTF-8 byte order mark (EF BB BF).
    public var hasByteOrderMark: Bool
    public var endsWithNewline: Bool
    /// Obsidian: the YAML frontmatter lines, both `---` delimiters included.
    public var frontmatter: [String]
    /// Lines after the frontmatter and before the first column heading, verbatim.
    public var preamble: [String]
    /// Obsidian: from the `***` line before `## Archive` up to the settings block, verbatim.
    public var archive: [String]
    /// Obsidian: the `%% kanban:settings` block, from that line to its closing `%%`.
    public var settings: [String]
    /// Lines after the settings block, verbatim.
    public var epilogue: [String]
    public var layout: BoardLayout

    /// Spacing of a column where it differs from `layout`, keyed by the column's title and
    /// occurrence, so it stays with that column when others are added, moved or deleted.
    var columnSpacing: [ColumnKey: ColumnSpacing] = [:]
    /// Blank lines before a card (not first in its column) where it differs from `layout`.
    var blankLinesBeforeCard: [CardID: Int] = [:]
    /// Obsidian list markers other than their lane's style, such as `- ` or `* [X] `.
    var cardMarkers: [CardID: CardMarker] = [:]
    /// Obsidian: how the file's first card is written (bullet, check box); a lane's style where
    /// `columnSpacing` names none, so a card added to a new or empty lane matches the file.
    var cardStyle: CardStyle = .standard
    /// The first lane heading's marker (`## `, `# `, …); other levels are kept in `columnSpacing`.
    var headingPrefix = "## "
    /// Obsidian: the card that was written directly above the archive or settings block, where
    /// Markdown reads that line as part of it; any other card there gets a blank line after it.
    var cardJoinedToTail: CardID?
    /// What could not be read but is kept as written (an unusual settings block, …), `file:line: words`.
    public var readingNotes: [String] = []

    /// The info of a new, empty file in the dialect's standard style.
    public init(dialect: BoardDialect) {
        self.dialect = dialect
        self.lineEnding = .lf
        self.hasByteOrderMark = false
        self.layout = .standard(for: dialect)
        self.archive = []
        self.epilogue = []
        switch dialect {
        case .taskell:
            self.endsWithNewline = true
            self.frontmatter = []
            self.preamble = []
            self.settings = []
        case .obsidian:
            // What Obsidian Kanban writes for a new board.
            self.endsWithNewline = false
            self.frontmatter = ["---", "", "kanban-plugin: board", "", "---"]
            self.preamble = [""]
            self.settings = ["%% kanban:settings", "```", #"{"kanban-plugin":"board"}"#, "```", "%%"]
        }
    }
}

/// A column as file spacing knows it: its title and which column of that title it is (0 for the first).
struct ColumnKey: Hashable, Sendable {
    var title: String
    var occurrence: Int

    /// The key of each column of a board, in order.
    static func keys(of columns: [Column]) -> [ColumnKey] {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(columns.count)
        return columns.map { column in
            let k = seen[column.title, default: 0]
            seen[column.title] = k + 1
            return ColumnKey(title: column.title, occurrence: k)
        }
    }
}

/// Per-column spacing and style that differ from the file's layout.
struct ColumnSpacing: Hashable, Sendable {
    var afterHeading: Int?
    var afterColumn: Int?
    /// A column read with nothing under its heading (not the last): the blank lines between its
    /// heading and the next, where they are not the usual after-heading and between-columns
    /// lines. Written as they were while it stays empty; once it has cards, it is spaced as usual.
    var emptyBlanks: Int?
    /// The heading's marker (`# `, `### `) where it is not the file's `headingPrefix`.
    var heading: String?
    /// Obsidian: the lane's card style where it is not the file's `cardStyle`.
    var cardStyle: CardStyle?
    /// Obsidian: the lines from where Markdown ends the lane's list of cards to the next lane
    /// (an unindented HTML comment under a card, a paragraph, another list, an archive or settings
    /// block followed by more lanes), kept verbatim; the plugin shows no card in them.
    var afterList: [String]?
    /// The card `afterList` stood under when read; any other card there gets a blank line before
    /// them when their first line would continue its paragraph (a lazy continuation line).
    var cardAboveAfterList: CardID?
}

/// How a lane writes its cards: the bullet (`- `, `* `, `1. `) and whether a check box follows.
struct CardStyle: Hashable, Sendable {
    var bullet: String
    var checkBox: Bool

    /// What Obsidian Kanban writes: `- [ ] `.
    static let standard = CardStyle(bullet: "- ", checkBox: true)

    /// Which list a card of this style belongs to: its bullet (`-`, `*`, `+`) or ordered delimiter
    /// (`.`, `)`); a card of another kind starts a new list, which the plugin does not read.
    var listKind: UInt8 {
        for b in bullet.utf8 where b != UInt8(ascii: " ") && !(b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9")) {
            return b
        }
        return 0
    }

    /// The marker of a card of this style.
    func text(done: Bool) -> String {
        checkBox || done ? bullet + (done ? "[x] " : "[ ] ") : bullet
    }
}

/// A card's list marker as written, and whether it marks the card done.
struct CardMarker: Hashable, Sendable {
    var text: String
    var done: Bool
    /// Where the check character is in `text` (a byte offset), when there is a check box.
    var checkAt: Int?

    /// The lane style this marker shows.
    var style: CardStyle {
        let bulletLength = checkAt.map { $0 - 1 } ?? text.utf8.count
        return CardStyle(bullet: text.utf8Prefix(bulletLength), checkBox: checkAt != nil)
    }

    /// The marker for a card now `done`: the same text, the check character alone changed.
    func marking(done: Bool) -> String {
        if done == self.done { return text }
        guard let at = checkAt else { return style.text(done: done) }
        var bytes = Array(text.utf8)
        bytes[at] = done ? UInt8(ascii: "x") : UInt8(ascii: " ")
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Column {
    /// Obsidian: the lane holds a `**Complete**` line, so cards moved into it are checked.
    public var marksCardsComplete: Bool { extraLines.contains("**Complete**") }
}

/// Reading and writing board files in taskell's and Obsidian Kanban's Markdown.
///
/// Both dialects accept LF or CRLF line endings (one kind per file, kept on
/// save) and a leading byte order mark (kept on save). Control characters
/// other than tab, a carriage return not before a line feed, and invalid
/// UTF-8 are errors.
public enum BoardFormat {
    /// Parses bytes (UTF-8 validated here); `file` is only for messages. Assigns fresh card IDs 1...n.
    public static func parse(_ bytes: [UInt8], file: String) throws(ParseError) -> (board: Board, info: BoardFileInfo) {
        let table = LineTable(bytes, file: file)
        let source = Source(bytes: bytes, table: table, file: file)
        var read: (board: Board, info: BoardFileInfo)
        switch try detectDialect(source) {
        case .taskell: read = try TaskellParser(source).parse()
        case .obsidian: read = try ObsidianParser(source).parse()
        }
        read.board.capacity = .of(read.info.dialect)
        return read
    }

    /// Parses text; see `parse(_:file:)` for bytes.
    public static func parse(_ text: String, file: String) throws(ParseError) -> (board: Board, info: BoardFileInfo) {
        try parse(Array(text.utf8), file: file)
    }

    /// The file text for a board, keeping the dialect and everything else `info` holds.
    public static func serialize(_ board: Board, info: BoardFileInfo) -> String {
        serialize(board, info: info, cache: nil)
    }

    /// As above, taking the text of unchanged chunks of cards from `cache` (and keeping the rest there).
    static func serialize(_ board: Board, info: BoardFileInfo, cache: CardTextCache?) -> String {
        var writer = BoardWriter(info: info, cache: cache)
        writer.write(board)
        return writer.finish()
    }

    /// Obsidian boards whose cards are checked by reading the written file back before it is saved
    /// (`changedReading`): those with lines after a lane's list, or of at most this many cards.
    static let readBackCardLimit = 20_000

    /// Why `bytes`, written for `board`, would not read back as its cards (a lane's list emptied so
    /// that lines after it become its first list, a card that joins the lines after a list), or nil
    /// when it reads back as written or is not checked. Obsidian only: its lanes hold verbatim
    /// lines (`afterList`) whose reading depends on the cards around them; taskell has none.
    static func changedReading(_ bytes: [UInt8], board: Board, info: BoardFileInfo) -> String? {
        guard info.dialect == .obsidian else { return nil }
        let verbatimAfterLists = info.columnSpacing.values.contains { $0.afterList != nil }
        guard verbatimAfterLists || board.cardCount <= readBackCardLimit else { return nil }
        guard let back = try? parse(bytes, file: "check") else { return "it would not read back as a board" }
        for (k, column) in board.columns.enumerated() {
            guard k < back.board.columns.count else { return "lane “\(column.title)” would be lost" }
            let got = back.board.columns[k].cards.map(\.title)
            let want = column.cards.map(\.title)
            if got == want { continue }
            if let extra = got.first(where: { !want.contains($0) }) {
                return "lines after the list of lane “\(column.title)” would read as a card (“\(extra)”)"
            }
            if let lost = want.first(where: { !got.contains($0) }) {
                return "card “\(lost)” of lane “\(column.title)” would no longer read as a card"
            }
            return "the cards of lane “\(column.title)” would read in another order"
        }
        return back.board.columns.count == board.columns.count ? nil : "it would read with other lanes"
    }

    /// A fresh file in that dialect, in the style its tool writes.
    public static func serialize(_ board: Board, as dialect: BoardDialect) -> String {
        serialize(board, info: BoardFileInfo(dialect: dialect))
    }

    /// Obsidian when the file opens with YAML frontmatter holding `kanban-plugin:`, else taskell.
    static func detectDialect(_ source: Source) throws(ParseError) -> BoardDialect {
        let table = source.table
        guard table.count > 0, source.line(0, equals: "---") else { return .taskell }
        var i = 1
        while i < table.count {
            if source.line(i, equals: "---") { return .taskell }
            if source.line(i, hasPrefix: "kanban-plugin:") { return .obsidian }
            i += 1
        }
        if let pending = table.pendingError { throw pending }
        return .taskell
    }
}
