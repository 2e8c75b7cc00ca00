/// The lines of a file as byte ranges, after one pass that checks encoding and line endings.
///
/// Checking stops at the first bad line: `pendingError` describes it and the
/// table holds only the lines before it, so a parser can report an earlier
/// structural error first and throw this one when it reaches the end.
struct LineTable {
    /// Content start and end (line ending excluded) of each line.
    private(set) var starts: [Int] = []
    private(set) var ends: [Int] = []
    private(set) var hasByteOrderMark = false
    private(set) var lineEnding: LineEnding = .lf
    private(set) var endsWithNewline = false
    private(set) var pendingError: ParseError?

    var count: Int { starts.count }

    init(_ bytes: [UInt8], file: String) {
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
        starts.reserveCapacity(n / 24 + 1)
        ends.reserveCapacity(n / 24 + 1)
        var endingKnown = false
        var lineStart = i
        func fail(_ message: String) -> ParseError {
            ParseError(file: file, line: starts.count + 1, message: message)
        }
        while i < n {
            let b = p[i]
            if b >= 0x20 && b < 0x80 { i += 1; continue }
            if b == 0x0A || (b == 0x0D && i + 1 < n && p[i + 1] == 0x0A) {
                let ending: LineEnding = b == 0x0D ? .crlf : .lf
                if !endingKnown {
                    lineEnding = ending
                    endingKnown = true
                } else if ending != lineEnding {
                    return fail(ending == .crlf
                        ? "line ends with CRLF but the file's first line ends with LF; mixed line endings"
                        : "line ends with LF but the file's first line ends with CRLF; mixed line endings")
                }
                starts.append(lineStart)
                ends.append(i)
                i += ending == .crlf ? 2 : 1
                lineStart = i
                continue
            }
            if b == 0x09 { i += 1; continue }
            if b == 0x0D { return fail("carriage return (CR) inside a line at byte \(i - lineStart + 1)") }
            if b == 0x00 { return fail("NUL byte at byte \(i - lineStart + 1) of the line") }
            if b < 0x20 {
                return fail("control character U+\(hex(b, width: 4)) at byte \(i - lineStart + 1) of the line")
            }
            if b == 0x7F { i += 1; continue }
            let length = Self.utf8SequenceLength(p, at: i)
            if length == 0 {
                return fail("invalid UTF-8 (byte 0x\(hex(p[i], width: 2)) at byte \(i - lineStart + 1) of the line)")
            }
            i += length
        }
        if lineStart < n {
            starts.append(lineStart)
            ends.append(n)
            endsWithNewline = false
        } else {
            endsWithNewline = !starts.isEmpty
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

    func length(_ line: Int) -> Int { table.ends[line] - table.starts[line] }

    func isBlank(_ line: Int) -> Bool { table.ends[line] == table.starts[line] }

    /// The byte at `offset` in a line, or nil past its end.
    func byte(_ line: Int, _ offset: Int) -> UInt8? {
        let k = table.starts[line] + offset
        return k < table.ends[line] ? bytes[k] : nil
    }

    func line(_ line: Int, hasPrefix prefix: StaticString) -> Bool {
        let start = table.starts[line]
        let n = prefix.utf8CodeUnitCount
        guard table.ends[line] - start >= n else { return false }
        return prefix.withUTF8Buffer { pre in
            for k in 0..<n where bytes[start + k] != pre[k] { return false }
            return true
        }
    }

    func line(_ line: Int, equals text: StaticString) -> Bool {
        length(line) == text.utf8CodeUnitCount && self.line(line, hasPrefix: text)
    }

    /// The line's text from byte `offset` on.
    func text(_ line: Int, from offset: Int = 0) -> String {
        let start = table.starts[line] + offset
        let end = table.ends[line]
        if start >= end { return "" }
        return bytes.withUnsafeBufferPointer { p in
            String(decoding: UnsafeBufferPointer(rebasing: p[start..<end]), as: UTF8.self)
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
