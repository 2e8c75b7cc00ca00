/// What a one-line value of a board (title, due, description line, sub-task, column name) may
/// hold, and the one rule every door into the model applies.
///
/// A board file is line-based: a value can hold neither NUL (the parser refuses the file) nor a
/// line break. Breaks are every kind a program might treat as one: LF, CR, CR LF (one Swift
/// `Character`), NEL U+0085, LINE SEPARATOR U+2028 and PARAGRAPH SEPARATOR U+2029. VT and FF
/// are not breaks for Lanes' parser, taskell or Markdown, so they stay text (shown as `^K`, `^L`).
/// Interactive doors and imports replace (a break becomes a space, a NUL is dropped) and say so
/// with `Changes.words`; the command line refuses with `problem(in:)`.
public enum TextRules {
    /// What `oneLine` changed, to be told to the user.
    public struct Changes: Hashable, Sendable {
        public var lineBreaks = 0
        public var nulBytes = 0

        public init(lineBreaks: Int = 0, nulBytes: Int = 0) {
            self.lineBreaks = lineBreaks
            self.nulBytes = nulBytes
        }

        public var isEmpty: Bool { lineBreaks == 0 && nulBytes == 0 }

        public static func + (a: Changes, b: Changes) -> Changes {
            Changes(lineBreaks: a.lineBreaks + b.lineBreaks, nulBytes: a.nulBytes + b.nulBytes)
        }

        public static func += (a: inout Changes, b: Changes) { a = a + b }

        /// "2 line breaks became spaces and 1 NUL byte was removed"; nil when nothing changed.
        public var words: String? {
            var parts: [String] = []
            if lineBreaks == 1 { parts.append("1 line break became a space") }
            if lineBreaks > 1 { parts.append("\(lineBreaks) line breaks became spaces") }
            if nulBytes == 1 { parts.append("1 NUL byte was removed") }
            if nulBytes > 1 { parts.append("\(nulBytes) NUL bytes were removed") }
            return parts.isEmpty ? nil : parts.joined(separator: " and ")
        }
    }

    /// Something a one-line value cannot hold: what, and at which character (1-based).
    public struct Problem: Hashable, Sendable, CustomStringConvertible {
        public var what: String
        public var character: Int
        public var description: String { "\(what) at character \(character)" }
    }

    /// The name of a line break scalar, or nil when `scalar` is none.
    public static func breakName(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x0A: "a line break (LF)"
        case 0x0D: "a line break (CR)"
        case 0x85: "a line break (NEL, U+0085)"
        case 0x2028: "a line break (LINE SEPARATOR, U+2028)"
        case 0x2029: "a line break (PARAGRAPH SEPARATOR, U+2029)"
        default: nil
        }
    }

    /// Whether a value needs no change (the fast path: one scan of the UTF-8 bytes).
    public static func isOneLine(_ text: String) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for b in text.utf8 {
            if b == 0x00 || b == 0x0A || b == 0x0D { return false }
            if previous == 0xC2 && b == 0x85 { return false }
            if beforePrevious == 0xE2 && previous == 0x80 && (b == 0xA8 || b == 0xA9) { return false }
            beforePrevious = previous
            previous = b
        }
        return true
    }

    /// The first NUL or line break in a value; nil when it can be stored as is.
    public static func problem(in text: String) -> Problem? {
        guard !isOneLine(text) else { return nil }
        for (n, ch) in text.enumerated() {
            for scalar in ch.unicodeScalars {
                if scalar.value == 0 { return Problem(what: "a NUL byte", character: n + 1) }
                if ch == "\r\n" { return Problem(what: "a line break (CR LF)", character: n + 1) }
                if let name = breakName(scalar) { return Problem(what: name, character: n + 1) }
            }
        }
        return nil
    }

    /// The value as one storable line: each break (CR LF counted once) becomes a space, NULs are dropped.
    public static func oneLine(_ text: String) -> (text: String, changes: Changes) {
        guard !isOneLine(text) else { return (text, Changes()) }
        let (pieces, nulBytes) = split(text)
        return (pieces.joined(separator: " "), Changes(lineBreaks: pieces.count - 1, nulBytes: nulBytes))
    }

    /// Multi-line text (a description) as storable lines: split at every break, NULs dropped.
    public static func lines(_ text: String) -> (lines: [String], changes: Changes) {
        let (pieces, nulBytes) = split(text)
        return (pieces, Changes(nulBytes: nulBytes))
    }

    /// The text split at every kind of line break (CR LF counted once), without its NULs.
    private static func split(_ text: String) -> (pieces: [String], nulBytes: Int) {
        var pieces: [String] = []
        var current = String.UnicodeScalarView()
        var nulBytes = 0
        var afterCR = false
        for scalar in text.unicodeScalars {
            defer { afterCR = scalar.value == 0x0D }
            if scalar.value == 0 { nulBytes += 1; continue }
            if scalar.value == 0x0A && afterCR { continue }
            if breakName(scalar) != nil {
                pieces.append(String(current))
                current = String.UnicodeScalarView()
                continue
            }
            current.append(scalar)
        }
        pieces.append(String(current))
        return (pieces, nulBytes)
    }

    /// A card with every field made storable; description lines holding breaks become several lines.
    public static func storable(_ card: Card) -> (card: Card, changes: Changes) {
        var c = card
        var changes = Changes()
        func fix(_ s: inout String) {
            let r = oneLine(s)
            s = r.text
            changes += r.changes
        }
        fix(&c.title)
        if var due = c.due { fix(&due); c.due = due }
        var description: [String] = []
        for line in c.descriptionLines {
            let r = lines(line)
            description += r.lines
            changes += r.changes
            changes.lineBreaks += r.lines.count - 1
        }
        c.descriptionLines = description
        for i in c.subtasks.indices { fix(&c.subtasks[i].title) }
        for i in c.extraLines.indices { fix(&c.extraLines[i]) }
        return (c, changes)
    }

    /// A board with every column title and card made storable (an import's door).
    public static func storable(_ board: Board) -> (board: Board, changes: Changes) {
        var b = board
        var changes = Changes()
        for s in b.columns.indices {
            let r = oneLine(b.columns[s].title)
            b.columns[s].title = r.text
            changes += r.changes
            for i in b.columns[s].cards.indices {
                let c = storable(b.columns[s].cards[i])
                b.columns[s].cards[i] = c.card
                changes += c.changes
            }
        }
        return (b, changes)
    }

    /// The last guard of every writer: what the parser refuses (NUL, CR, LF) never reaches a file.
    /// A NUL is written as U+2400 (␀), CR and LF as spaces. Everything else is written as is, so an
    /// unchanged file is still written back byte for byte.
    static func writable(_ line: String) -> String {
        let isBad = { (b: UInt8) in b == 0x0A || b == 0x0D || b == 0x00 }
        // Scanning the contiguous bytes directly: the generic UTF8View walk was 8 % of a save.
        let bad =
            line.utf8.withContiguousStorageIfAvailable { $0.contains(where: isBad) } ?? line.utf8.contains(where: isBad)
        guard bad else { return line }
        var out = String.UnicodeScalarView()
        var afterCR = false
        for scalar in line.unicodeScalars {
            defer { afterCR = scalar.value == 0x0D }
            switch scalar.value {
            case 0: out.append("\u{2400}")
            case 0x0A where afterCR: continue
            case 0x0A, 0x0D: out.append(" ")
            default: out.append(scalar)
            }
        }
        return String(out)
    }
}
