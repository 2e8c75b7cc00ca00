/// The lines of a file as byte ranges, after one pass that checks encoding and line endings.
///
/// Checking stops at the first bad line: `pendingError` describes it and the
/// table holds only the lines before it, so a parser can report an earlier
/// structural error first and throw this one when it reaches the end.
///
/// Only where each line starts is stored (4 bytes a line; 8 MB for a million two-line
/// cards, where two `Int` arrays of starts and ends took 32 MB): a line ends where the next
/// starts, less the file's one line ending. Files of 4 GiB or more are refused.
struct LineTable {
    /// Where each line's content starts, then where a line after the last would start.
    private var offsets: [UInt32] = []
    /// Whether the last line has no line ending (the file does not end with one).
    private var lastIsOpen = false
    private(set) var hasByteOrderMark = false
    private(set) var lineEnding: LineEnding = .lf
    private(set) var endsWithNewline = false
    private(set) var pendingError: ParseError?

    var count: Int { max(0, offsets.count - 1) }

    /// Where line `k`'s content starts.
    @inline(__always) func start(_ k: Int) -> Int { Int(offsets[k]) }

    /// Where line `k`'s content ends (its line ending excluded).
    @inline(__always) func end(_ k: Int) -> Int {
        let next = Int(offsets[k + 1])
        return lastIsOpen && k == offsets.count - 2 ? next : next - (lineEnding == .crlf ? 2 : 1)
    }

    init(_ bytes: [UInt8], file: String) {
        guard bytes.count < Int(UInt32.max) else {
            pendingError = ParseError(
                file: file, line: 1, message: "the file is 4 GiB or larger; Lanes reads boards up to 4 GiB")
            return
        }
        let result: ParseError? = bytes.withUnsafeBufferPointer { buffer in
            scan(buffer, file: file)
        }
        pendingError = result
    }

    private mutating func scan(_ p: UnsafeBufferPointer<UInt8>, file: String) -> ParseError? {
        let n = p.count
        var i = 0
        if n >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF {
            hasByteOrderMark = true
            i = 3
        }
        // Generous: capacity never touched is never resident, and growing would copy.
        offsets.reserveCapacity(n / 8 + 2)
        var endingKnown = false
        var lineStart = i
        func fail(_ message: String) -> ParseError {
            let error = ParseError(file: file, line: offsets.count + 1, message: message)
            offsets.append(UInt32(lineStart))  // where the lines kept end
            return error
        }
        let base = UnsafeRawPointer(p.baseAddress)
        while i < n {
            // Eight bytes at a time while all are printable ASCII (0x20...0x7F): the flag bit of a
            // byte is set when it is 0x80 or more, or, through the borrow of `w - 0x20…`, below 0x20.
            while i + 8 <= n {
                let w = base!.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                if (w | ((w &- 0x2020_2020_2020_2020) & ~w)) & 0x8080_8080_8080_8080 != 0 { break }
                i += 8
            }
            guard i < n else { break }
            let b = p[i]
            if b >= 0x20 && b < 0x80 { i += 1; continue }
            if b == 0x0A || (b == 0x0D && i + 1 < n && p[i + 1] == 0x0A) {
                let ending: LineEnding = b == 0x0D ? .crlf : .lf
                if !endingKnown {
                    lineEnding = ending
                    endingKnown = true
                } else if ending != lineEnding {
                    return fail(
                        ending == .crlf
                            ? "line ends with CRLF but the file's first line ends with LF; mixed line endings"
                            : "line ends with LF but the file's first line ends with CRLF; mixed line endings")
                }
                offsets.append(UInt32(lineStart))
                i += ending == .crlf ? 2 : 1
                lineStart = i
                continue
            }
            if b == 0x09 { i += 1; continue }
            if b == 0x0D { return fail("carriage return (CR) inside a line at byte \(i - lineStart + 1)") }
            if b == 0x00 { return fail("NUL byte at byte \(i - lineStart + 1) of the line") }
            // Other control characters (ESC, BEL, …) are text a card may hold: kept byte for byte,
            // and shown as placeholders by the terminal front end, never written raw to a screen.
            if b < 0x20 || b == 0x7F { i += 1; continue }
            let length = Self.utf8SequenceLength(p, at: i)
            if length == 0 {
                return fail("invalid UTF-8 (byte 0x\(hex(p[i], width: 2)) at byte \(i - lineStart + 1) of the line)")
            }
            i += length
        }
        if lineStart < n {
            offsets.append(UInt32(lineStart))
            offsets.append(UInt32(n))
            lastIsOpen = true
            endsWithNewline = false
        } else {
            endsWithNewline = !offsets.isEmpty
            offsets.append(UInt32(n))
        }
        return nil
    }

    /// 1...4 for a well-formed UTF-8 sequence at `i`, 0 if it is not one.
    private static func utf8SequenceLength(_ p: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let b = p[i]
        let n = p.count
        @inline(__always) func cont(_ k: Int, _ lo: UInt8 = 0x80, _ hi: UInt8 = 0xBF) -> Bool {
            k < n && p[k] >= lo && p[k] <= hi
        }
        switch b {
        case 0xC2...0xDF:
            return cont(i + 1) ? 2 : 0
        case 0xE0:
            return cont(i + 1, 0xA0) && cont(i + 2) ? 3 : 0
        case 0xED:
            return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0
        case 0xE1...0xEF:
            return cont(i + 1) && cont(i + 2) ? 3 : 0
        case 0xF0:
            return cont(i + 1, 0x90) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF1...0xF3:
            return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0
        case 0xF4:
            return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0
        default:
            return 0
        }
    }
}

private func hex(_ b: UInt8, width: Int) -> String {
    let digits = String(b, radix: 16, uppercase: true)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

/// The bytes of a file with its line table: what both parsers read.
struct Source {
    let bytes: [UInt8]
    let table: LineTable
    let file: String

    var count: Int { table.count }

    func length(_ line: Int) -> Int { table.end(line) - table.start(line) }

    func isBlank(_ line: Int) -> Bool { table.end(line) == table.start(line) }

    /// The byte at `offset` in a line, or nil past its end.
    func byte(_ line: Int, _ offset: Int) -> UInt8? {
        let k = table.start(line) + offset
        return k < table.end(line) ? bytes[k] : nil
    }

    func line(_ line: Int, hasPrefix prefix: StaticString) -> Bool {
        let start = table.start(line)
        let n = prefix.utf8CodeUnitCount
        guard table.end(line) - start >= n else { return false }
        return prefix.withUTF8Buffer { pre in
            for k in 0..<n where bytes[start + k] != pre[k] { return false }
            return true
        }
    }

    /// Whether the line's first `length` bytes are exactly `prefix` (all of it).
    func line(_ line: Int, hasPrefix prefix: [UInt8], length: Int) -> Bool {
        guard prefix.count == length, self.length(line) >= length else { return false }
        let start = table.start(line)
        for k in 0..<length where bytes[start + k] != prefix[k] { return false }
        return true
    }

    func line(_ line: Int, equals text: StaticString) -> Bool {
        length(line) == text.utf8CodeUnitCount && self.line(line, hasPrefix: text)
    }

    /// The line's text from byte `offset` on.
    func text(_ line: Int, from offset: Int = 0) -> String {
        let start = table.start(line) + offset
        let end = table.end(line)
        if start >= end { return "" }
        return bytes.withUnsafeBufferPointer { p in
            String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
        }
    }

    /// The line's text from byte `offset` on, as a card title in `slabs`.
    func title(_ line: Int, from offset: Int, in slabs: inout TitleSlabs) -> CardTitle {
        let start = min(table.start(line) + offset, table.end(line))
        let end = table.end(line)
        return bytes.withUnsafeBufferPointer { p in
            slabs.title(UnsafeBufferPointer(rebasing: p[start..<end]))
        }
    }

    func error(_ line: Int, _ message: String) -> ParseError {
        ParseError(file: file, line: line + 1, message: message)
    }

    /// ` found "…"`, shortened for long lines.
    func found(_ line: Int) -> String {
        let limit = 60
        var text = ""
        var count = 0
        var truncated = false
        for ch in self.text(line) {
            if count == limit { truncated = true; break }
            text.append(ch)
            count += 1
        }
        if truncated { text += "…" }
        return "found \"\(text)\""
    }
}
