import DragKit
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
import Synchronization

/// How a cell looks: colours and attributes, independent of curses.
///
/// Packed into 16 bits so a `Cell` is a plain value: buffers copy, clear and compare
/// with memory operations, never with reference counting.
public struct Style: Hashable, Sendable {
    /// The eight basic terminal colours, plus the terminal's default.
    public enum Color: UInt8, Hashable, Sendable {
        case `default`, black, red, green, yellow, blue, magenta, cyan, white
    }

    /// fg in bits 0–3, bg in bits 4–7, then bold, dim, reverse, underline.
    private var bits: UInt16

    public init(
        fg: Color = .default, bg: Color = .default, bold: Bool = false, dim: Bool = false,
        reverse: Bool = false, underline: Bool = false
    ) {
        bits =
            UInt16(fg.rawValue) | UInt16(bg.rawValue) << 4
            | (bold ? Self.boldBit : 0) | (dim ? Self.dimBit : 0)
            | (reverse ? Self.reverseBit : 0) | (underline ? Self.underlineBit : 0)
    }

    private static let boldBit: UInt16 = 1 << 8, dimBit: UInt16 = 1 << 9
    private static let reverseBit: UInt16 = 1 << 10, underlineBit: UInt16 = 1 << 11

    public var fg: Color {
        get { Color(rawValue: UInt8(bits & 0xF)) ?? .default }
        set { bits = bits & ~0xF | UInt16(newValue.rawValue) }
    }
    public var bg: Color {
        get { Color(rawValue: UInt8(bits >> 4 & 0xF)) ?? .default }
        set { bits = bits & ~0xF0 | UInt16(newValue.rawValue) << 4 }
    }
    public var bold: Bool {
        get { bits & Self.boldBit != 0 }
        set { set(Self.boldBit, newValue) }
    }
    public var dim: Bool {
        get { bits & Self.dimBit != 0 }
        set { set(Self.dimBit, newValue) }
    }
    public var reverse: Bool {
        get { bits & Self.reverseBit != 0 }
        set { set(Self.reverseBit, newValue) }
    }
    public var underline: Bool {
        get { bits & Self.underlineBit != 0 }
        set { set(Self.underlineBit, newValue) }
    }

    private mutating func set(_ bit: UInt16, _ on: Bool) { bits = on ? bits | bit : bits & ~bit }

    public static let plain = Style()
}

/// One terminal cell: a grapheme of width 1 or 2, or the right half of a wide one.
///
/// The grapheme is a number: a single code point is its own value, a longer grapheme
/// (emoji sequences, combining marks) an index into a process-wide table, and 0 the
/// right half of a wide character.
public struct Cell: Hashable, Sendable {
    /// The grapheme's number (see the type's summary).
    public private(set) var glyph: UInt32
    public var style: Style

    public init(_ text: String = " ", style: Style = .plain) {
        glyph = Glyphs.number(of: text)
        self.style = style
    }

    public init(_ ch: Character, style: Style = .plain) {
        let scalars = ch.unicodeScalars
        glyph = scalars.count == 1 ? scalars.first!.value : Glyphs.number(of: String(ch))
        self.style = style
    }

    /// A cell showing one code point; `value` must not be 0.
    @inline(__always)
    public init(scalar value: UInt32, style: Style = .plain) {
        glyph = value
        self.style = style
    }

    public static let blank = Cell(scalar: 0x20)
    public static let continuation = Cell(scalar: 0)

    /// The text shown; empty for the continuation half of a wide character.
    public var text: String { Glyphs.text(of: glyph) }
    public var isContinuation: Bool { glyph == 0 }
    /// The code point, when the grapheme is a single one (most cells).
    public var scalar: Unicode.Scalar? { glyph < Glyphs.firstShared ? Unicode.Scalar(glyph) : nil }
}

/// The process-wide numbering of graphemes longer than one code point.
///
/// Append-only: a number, once given, always means the same grapheme, so buffers made at
/// different times compare cell by cell. Few distinct long graphemes ever appear.
enum Glyphs {
    static let firstShared: UInt32 = 0x110000

    private struct Table {
        var texts: [String] = []
        var numbers: [String: UInt32] = [:]
    }

    private static let table = Mutex(Table())

    static func number(of text: String) -> UInt32 {
        var it = text.unicodeScalars.makeIterator()
        guard let first = it.next() else { return 0 }
        if it.next() == nil { return first.value }
        return table.withLock { table in
            if let n = table.numbers[text] { return n }
            let n = firstShared + UInt32(table.texts.count)
            table.texts.append(text)
            table.numbers[text] = n
            return n
        }
    }

    static func text(of glyph: UInt32) -> String {
        if glyph == 0 { return "" }
        if glyph < 0x80 { return CellBuffer.asciiText[Int(glyph)] }
        if glyph < firstShared { return Unicode.Scalar(glyph).map { String(Character($0)) } ?? "\u{FFFD}" }
        let i = Int(glyph - firstShared)
        return table.withLock { $0.texts.indices.contains(i) ? $0.texts[i] : "\u{FFFD}" }
    }
}

/// A grid of cells that views draw into; the only thing the curses backend reads.
///
/// Text written here is made safe: control characters become visible
/// placeholders (`^[`, `␛`-free), so nothing a card contains reaches the
/// terminal as a control sequence.
public struct CellBuffer: Hashable, Sendable {
    public private(set) var width: Int
    public private(set) var height: Int
    public private(set) var cells: [Cell]
    /// Where the terminal's real cursor should rest after this buffer is shown: on the focused
    /// card or the drop marker, as screen readers and braille displays (BRLTTY) expect. Nil hides it.
    public var cursor: Point?

    public init(width: Int, height: Int) {
        self.width = max(0, width)
        self.height = max(0, height)
        self.cells = Array(repeating: .blank, count: self.width * self.height)
    }

    public subscript(x: Int, y: Int) -> Cell {
        get { cells[y * width + x] }
        set { cells[y * width + x] = newValue }
    }

    public func contains(x: Int, y: Int) -> Bool { x >= 0 && y >= 0 && x < width && y < height }

    public mutating func clear() {
        cursor = nil
        cells.withUnsafeMutableBufferPointer { $0.update(repeating: .blank) }
    }

    /// Fills a rectangle (clipped to the buffer) with one character and style.
    public mutating func fill(
        x: Int, y: Int, width w: Int, height h: Int, with ch: Character = " ", style: Style = .plain
    ) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        let cell = Cell(ch, style: style)
        let w = width
        cells.withUnsafeMutableBufferPointer { p in
            for yy in y0..<y1 {
                for xx in x0..<x1 { CellBuffer.put(cell, at: yy * w + xx, x: xx, width: w, in: p) }
            }
        }
    }

    /// Changes the style of existing cells in a rectangle, keeping their text.
    public mutating func restyle(x: Int, y: Int, width w: Int, height h: Int, _ change: (inout Style) -> Void) {
        let x0 = max(0, x), y0 = max(0, y), x1 = min(width, x + w), y1 = min(height, y + h)
        guard x0 < x1, y0 < y1 else { return }
        for yy in y0..<y1 {
            for xx in x0..<x1 { change(&cells[yy * width + xx].style) }
        }
    }

    /// Writes text from (x, y) with no wrapping, clipped at `maxX` (exclusive, default the buffer's width).
    /// Returns the column after the last cell written.
    @discardableResult
    public mutating func write(_ text: some StringProtocol, x: Int, y: Int, style: Style = .plain, maxX: Int? = nil)
        -> Int
    {
        let limit = min(maxX ?? width, width)
        var cx = x
        guard y >= 0, y < height else { return x }
        // Printable ASCII (most card text): one cell per byte, no grapheme breaking, nothing to make safe.
        let w = width
        let done: Int?? = text.utf8.withContiguousStorageIfAvailable { bytes -> Int? in
            for b in bytes where b < 0x20 || b >= 0x7F { return nil }
            return cells.withUnsafeMutableBufferPointer { p in
                for b in bytes {
                    if cx + 1 > limit { return cx }
                    if cx >= 0 {
                        CellBuffer.put(Cell(scalar: UInt32(b), style: style), at: y * w + cx, x: cx, width: w, in: p)
                    }
                    cx += 1
                }
                return cx
            }
        }
        if let end = done ?? nil { return end }
        cx = x
        for ch in text {
            if CellBuffer.isPlain(ch) {
                if !place(ch, style: style, cx: &cx, y: y, limit: limit) { return cx }
                continue
            }
            for piece in CellBuffer.safePieces(ch) where !place(piece, style: style, cx: &cx, y: y, limit: limit) {
                return cx
            }
        }
        return cx
    }

    /// Writes `count` copies of a character of width 1 (box rules, blanks) from (x, y), clipped
    /// like `write`; the same cells as writing `String(repeating: ch, count: count)`, without
    /// building or measuring that string. Returns the column after the last cell.
    @discardableResult
    public mutating func write(
        repeating ch: Character, count: Int, x: Int, y: Int, style: Style = .plain,
        maxX: Int? = nil
    ) -> Int {
        guard CellBuffer.isPlain(ch), TextWidth.width(of: ch) == 1 else {
            return write(String(repeating: ch, count: max(0, count)), x: x, y: y, style: style, maxX: maxX)
        }
        let limit = min(maxX ?? width, width)
        guard y >= 0, y < height, count > 0 else { return x }
        let cell = Cell(ch, style: style)
        let w = width
        var cx = x
        return cells.withUnsafeMutableBufferPointer { p in
            for _ in 0..<count {
                if cx + 1 > limit { return cx }
                if cx >= 0 { CellBuffer.put(cell, at: y * w + cx, x: cx, width: w, in: p) }
                cx += 1
            }
            return cx
        }
    }

    /// Puts one safe grapheme at `cx` and advances it; false when it does not fit before `limit`.
    @inline(__always)
    private mutating func place(_ piece: Character, style: Style, cx: inout Int, y: Int, limit: Int) -> Bool {
        let w = TextWidth.width(of: piece)
        if w == 0 { return true }
        if cx + w > limit { return false }
        if cx >= 0 {
            put(Cell(piece, style: style), x: cx, y: y)
            if w == 2, cx + 1 < width { put(Cell(scalar: 0, style: style), x: cx + 1, y: y) }
        }
        cx += w
        return true
    }

    /// The one-character strings of the ASCII range, made once.
    static let asciiText: [String] = (0..<128).map { String(UnicodeScalar(UInt8($0))) }

    /// Whether a grapheme passes through `safePieces` unchanged (no control characters, not a lone bidi control).
    @inline(__always)
    static func isPlain(_ ch: Character) -> Bool {
        var count = 0
        var first: UInt32 = 0
        for s in ch.unicodeScalars {
            let v = s.value
            if isControl(v) { return false }
            if count == 0 { first = v }
            count += 1
        }
        if count == 1, (0x202A...0x202E).contains(first) || (0x2066...0x2069).contains(first) { return false }
        return count > 0
    }

    /// Places a cell, repairing wide characters it cuts in half.
    private mutating func put(_ cell: Cell, x: Int, y: Int) {
        let w = width
        cells.withUnsafeMutableBufferPointer { CellBuffer.put(cell, at: y * w + x, x: x, width: w, in: $0) }
    }

    /// `put` on the cells' storage (index `i` is cell x of its row), so loops over many cells
    /// neither copy cells out of the array nor check its uniqueness per cell.
    @inline(__always)
    private static func put(_ cell: Cell, at i: Int, x: Int, width: Int, in p: UnsafeMutableBufferPointer<Cell>) {
        if p[i].isContinuation, x > 0 { p[i - 1] = Cell(scalar: 0x20, style: p[i - 1].style) }
        if x + 1 < width, p[i + 1].isContinuation, !cell.isContinuation {
            p[i + 1] = Cell(scalar: 0x20, style: p[i + 1].style)
        }
        p[i] = cell
    }

    /// C0 controls, DEL and C1 controls: what must never reach the terminal as itself.
    @inline(__always)
    static func isControl(_ v: UInt32) -> Bool { v < 0x20 || v == 0x7F || (v >= 0x80 && v < 0xA0) }

    /// A character as safe displayable pieces: control characters become `^X`
    /// or `<U+XXXX>`-style placeholders; everything else passes unchanged.
    public static func safePieces(_ ch: Character) -> [Character] {
        guard let first = ch.unicodeScalars.first else { return [] }
        let v = first.value
        guard ch.unicodeScalars.contains(where: { isControl($0.value) }) else {
            // Lone format/bidi controls are invisible but harmless to the terminal; keep them out anyway.
            if ch.unicodeScalars.count == 1,
                [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069].contains(v)
            {
                return ["�"]
            }
            return [ch]
        }
        var out: [Character] = []
        for s in ch.unicodeScalars {
            let sv = s.value
            if sv < 0x20 {
                out += ["^", Character(Unicode.Scalar(sv + 0x40)!)]
            } else if sv == 0x7F {
                out += ["^", "?"]
            } else if sv >= 0x80 && sv < 0xA0 {
                out.append("�")
            } else {
                out.append(Character(s))
            }
        }
        return out
    }

    /// The buffer as plain text, one line per row, trailing spaces trimmed: what tests compare.
    public var text: String {
        var lines: [String] = []
        lines.reserveCapacity(height)
        for y in 0..<height {
            var line = ""
            for x in 0..<width {
                line += self[x, y].text
            }
            while line.hasSuffix(" ") { line.removeLast() }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The changes that turn `old` into this buffer, as runs of cells per row (minimal diff).
    public func diff(from old: CellBuffer) -> [CellRun] {
        guard old.width == width, old.height == height else {
            return (0..<height).map { y in CellRun(x: 0, y: y, cells: Array(cells[(y * width)..<((y + 1) * width)])) }
        }
        var runs: [CellRun] = []
        let w = self.width, h = self.height
        // Compared in place in both storages: no cell is copied unless it changed.
        cells.withUnsafeBufferPointer { new in
            old.cells.withUnsafeBufferPointer { was in
                for y in 0..<h {
                    var x = 0
                    let base = y * w
                    while x < w {
                        if new[base + x] == was[base + x] { x += 1; continue }
                        var start = x
                        // A changed continuation cell is repainted through its wide character.
                        if new[base + start].isContinuation, start > 0 { start -= 1 }
                        var end = x + 1
                        while end < w, new[base + end] != was[base + end] { end += 1 }
                        if end < w, new[base + end].isContinuation { end += 1 }
                        runs.append(CellRun(x: start, y: y, cells: Array(new[(base + start)..<(base + end)])))
                        x = end
                    }
                }
            }
        }
        return runs
    }
}

/// A horizontal run of changed cells.
public struct CellRun: Hashable, Sendable {
    public var x: Int
    public var y: Int
    public var cells: [Cell]
}
