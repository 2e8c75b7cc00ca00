import LanesCore

/// A one-line text editor: cursor keys, Home/End, Backspace/Delete, Ctrl-U/K/W/A/E, wide characters.
///
/// Text comes in through `TextRules.oneLine` (a line break becomes a space, a NUL is dropped) and
/// stops at `maxCharacters`; `note` says what was changed or refused. Drawing (`visible`) measures
/// only the characters around the cursor, so a key costs the same at 10 or 1,000,000 characters
/// (a longer text than the limit can still arrive from a file and be edited).
public struct LineEditor: Hashable, Sendable {
    /// The most characters typing or pasting makes a prompt hold; a paste that would pass it is refused whole.
    public static let maxCharacters = 10_000

    public private(set) var characters: [Character]
    /// Index in `characters` where typing goes.
    public private(set) var cursor: Int
    /// What the last insertion changed or refused, in words; nil when it went in as given.
    public private(set) var note: String?

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    /// The text's first `limit` characters (what a status line can show of a long text).
    public func prefix(_ limit: Int) -> String { String(characters.prefix(limit)) }

    /// The cursor's column in cells from the start of the text.
    public var cursorColumn: Int { characters[..<cursor].reduce(0) { $0 + Self.cells($1) } }

    public enum Outcome: Hashable, Sendable { case editing, submit, cancel }

    /// Inserts typed or pasted text at the cursor, made one storable line.
    public mutating func insert(_ s: String) {
        let (clean, changes) = TextRules.oneLine(s)
        var words = changes.words
        let added = Array(clean)
        let room = Self.maxCharacters - characters.count
        if added.count > max(0, room) {
            let what = added.count == 1 ? "Not typed" : "Paste refused (\(added.count) characters)"
            note =
                "\(what): a prompt holds at most \(Self.maxCharacters) characters; longer text belongs in the description (E edits in $EDITOR)"
            return
        }
        characters.insert(contentsOf: added, at: cursor)
        cursor += added.count
        if let w = words { words = "Pasted text: \(w) (a title or name is one line)" }
        note = words
    }

    /// Puts words above the prompt (why its answer was refused); the text stays as typed.
    public mutating func say(_ words: String) { note = words }

    /// Applies a key; Enter submits, Esc cancels.
    public mutating func handle(_ key: Key, _ mods: Modifiers) -> Outcome {
        if mods.contains(.ctrl), case .char(let c) = key {
            switch c {
            case "u": characters.removeSubrange(0..<cursor); cursor = 0
            case "k": characters.removeSubrange(cursor...)
            case "a": cursor = 0
            case "e": cursor = characters.count
            case "w":
                var i = cursor
                while i > 0 && characters[i - 1] == " " { i -= 1 }
                while i > 0 && characters[i - 1] != " " { i -= 1 }
                characters.removeSubrange(i..<cursor)
                cursor = i
            default: break
            }
            return .editing
        }
        switch key {
        case .enter: return .submit
        case .escape: return .cancel
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .char(let c):
            if !mods.contains(.alt) { insert(String(c)) }
        case .tab:
            insert(" ")
        default: break
        }
        return .editing
    }

    /// The slice of text to show in `width` cells so the cursor stays visible, and the cursor's column in it.
    ///
    /// The text before the cursor is shown as far as it fits (the cursor at the right edge once the
    /// text is longer than the field); only characters within `width` cells of the cursor are measured.
    public func visible(width: Int) -> (text: String, cursor: Int) {
        guard width > 1 else { return ("", 0) }
        // The character under the cursor (or the cell after the end) must fit too.
        let under = cursor < characters.count ? Self.cells(characters[cursor]) : 1
        var start = cursor
        var before = 0
        while start > 0 {
            let w = Self.cells(characters[start - 1])
            if before + w + under > width { break }
            before += w
            start -= 1
        }
        var shown = ""
        var used = 0
        var i = start
        while i < characters.count {
            let piece = DisplayText.safe(String(characters[i]))
            let w = TextWidth.width(of: piece)
            if used + w > width { break }
            shown += piece
            used += w
            i += 1
        }
        return (shown, before)
    }

    /// Cells a character takes on screen, control characters as their placeholder.
    static func cells(_ ch: Character) -> Int {
        CellBuffer.isPlain(ch) ? TextWidth.width(of: ch) : TextWidth.width(of: DisplayText.safe(String(ch)))
    }
}
