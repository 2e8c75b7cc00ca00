/// A JSON value with the 1-based line it starts on, so errors about its content can name the line.
public struct JSONNode: Sendable {
    public enum Value: Sendable {
        case null
        case bool(Bool)
        /// The number as written; `JSONNode.number` reads it.
        case number(String)
        case string(String)
        case array([JSONNode])
        /// Members in file order; a repeated key keeps every occurrence and `subscript` returns the last.
        case object([(key: String, value: JSONNode)])
    }

    public var value: Value
    public var line: Int

    public init(_ value: Value, line: Int) {
        self.value = value
        self.line = line
    }

    public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    public var string: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    public var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    public var number: Double? {
        if case .number(let text) = value { return Double(text) }
        return nil
    }

    public var array: [JSONNode]? {
        if case .array(let items) = value { return items }
        return nil
    }

    public var isObject: Bool {
        if case .object = value { return true }
        return false
    }

    public var isNull: Bool {
        if case .null = value { return true }
        return false
    }

    /// What the value is, for messages: "an object", "a string", ….
    public var kindDescription: String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Reads JSON text (RFC 8259) into `JSONNode`s; errors name the file and line.
public enum JSONReader {
    /// Nesting deeper than this is refused rather than risking the stack.
    static let maxDepth = 512

    public static func parse(_ bytes: [UInt8], file: String) throws(ParseError) -> JSONNode {
        var reader = Reader(bytes: bytes, file: file)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { reader.i = 3 }
        reader.skipSpace()
        let node = try reader.value(depth: 0)
        reader.skipSpace()
        if reader.i < bytes.count { throw reader.error("unexpected \(reader.describeCurrent()) after the JSON value") }
        return node
    }

    private struct Reader {
        let bytes: [UInt8]
        let file: String
        var i = 0
        var line = 1

        init(bytes: [UInt8], file: String) {
            self.bytes = bytes
            self.file = file
        }

        func error(_ message: String) -> ParseError {
            ParseError(file: file, line: line, message: message)
        }

        func describeCurrent() -> String {
            guard i < bytes.count else { return "end of file" }
            let b = bytes[i]
            if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
            return "byte 0x" + String(b, radix: 16, uppercase: true)
        }

        mutating func skipSpace() {
            while i < bytes.count {
                switch bytes[i] {
                case 0x0A: line += 1; i += 1
                case 0x20, 0x09, 0x0D: i += 1
                default: return
                }
            }
        }

        mutating func value(depth: Int) throws(ParseError) -> JSONNode {
            guard depth < JSONReader.maxDepth else {
                throw error("JSON nested more than \(JSONReader.maxDepth) levels deep")
            }
            guard i < bytes.count else { throw error("expected a JSON value, found the end of the file") }
            let start = line
            switch bytes[i] {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return JSONNode(.string(try string()), line: start)
            case UInt8(ascii: "t"): try literal("true"); return JSONNode(.bool(true), line: start)
            case UInt8(ascii: "f"): try literal("false"); return JSONNode(.bool(false), line: start)
            case UInt8(ascii: "n"): try literal("null"); return JSONNode(.null, line: start)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                return JSONNode(.number(try number()), line: start)
            default: throw error("expected a JSON value, found \(describeCurrent())")
            }
        }

        mutating func literal(_ word: String) throws(ParseError) {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<i + w.count]) == w else {
                throw error("expected a JSON value, found \(describeCurrent())")
            }
            i += w.count
        }

        mutating func object(depth: Int) throws(ParseError) -> JSONNode {
            let start = line
            i += 1
            var members: [(key: String, value: JSONNode)] = []
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "}") {
                i += 1; return JSONNode(.object(members), line: start)
            }
            while true {
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                    throw error("expected a quoted member name in the object, found \(describeCurrent())")
                }
                let key = try string()
                skipSpace()
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else {
                    throw error("expected \":\" after the member name \"\(key)\", found \(describeCurrent())")
                }
                i += 1
                skipSpace()
                members.append((key, try value(depth: depth + 1)))
                skipSpace()
                guard i < bytes.count else { throw error("object opened on line \(start) is never closed") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "}") { i += 1; return JSONNode(.object(members), line: start) }
                throw error("expected \",\" or \"}\" in the object, found \(describeCurrent())")
            }
        }

        mutating func array(depth: Int) throws(ParseError) -> JSONNode {
            let start = line
            i += 1
            var items: [JSONNode] = []
            skipSpace()
            if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return JSONNode(.array(items), line: start) }
            while true {
                skipSpace()
                items.append(try value(depth: depth + 1))
                skipSpace()
                guard i < bytes.count else { throw error("array opened on line \(start) is never closed") }
                if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                if bytes[i] == UInt8(ascii: "]") { i += 1; return JSONNode(.array(items), line: start) }
                throw error("expected \",\" or \"]\" in the array, found \(describeCurrent())")
            }
        }

        mutating func number() throws(ParseError) -> String {
            let start = i
            if bytes[i] == UInt8(ascii: "-") { i += 1 }
            func digits(_ r: inout Reader) -> Int {
                let s = r.i
                while r.i < r.bytes.count, r.bytes[r.i] >= UInt8(ascii: "0"), r.bytes[r.i] <= UInt8(ascii: "9") {
                    r.i += 1
                }
                return r.i - s
            }
            let intStart = i
            let n = digits(&self)
            guard n > 0 else { throw error("malformed number: expected a digit, found \(describeCurrent())") }
            if n > 1 && bytes[intStart] == UInt8(ascii: "0") { throw error("malformed number: leading zero") }
            if i < bytes.count && bytes[i] == UInt8(ascii: ".") {
                i += 1
                guard digits(&self) > 0 else { throw error("malformed number: expected a digit after \".\"") }
            }
            if i < bytes.count && (bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E")) {
                i += 1
                if i < bytes.count && (bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-")) { i += 1 }
                guard digits(&self) > 0 else { throw error("malformed number: expected a digit in the exponent") }
            }
            return String(decoding: bytes[start..<i], as: UTF8.self)
        }

        mutating func string() throws(ParseError) -> String {
            let startLine = line
            i += 1
            var out: [UInt8] = []
            while true {
                guard i < bytes.count else { throw error("string opened on line \(startLine) is never closed") }
                let b = bytes[i]
                if b == UInt8(ascii: "\"") { i += 1; break }
                if b < 0x20 {
                    throw error(
                        b == 0x0A ? "line break inside a string; write it as \\n" : "control character inside a string")
                }
                if b != UInt8(ascii: "\\") { out.append(b); i += 1; continue }
                i += 1
                guard i < bytes.count else { throw error("string opened on line \(startLine) is never closed") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(e)
                case UInt8(ascii: "\\"): out.append(e)
                case UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard i + 1 < bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u")
                        else {
                            throw error("lone surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
                        }
                        i += 2
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw error("invalid surrogate pair in a string") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("lone surrogate \\u\(String(scalar, radix: 16, uppercase: true)) in a string")
                    }
                    out.append(contentsOf: Array(String(Character(Unicode.Scalar(scalar)!)).utf8))
                default:
                    throw error("unknown escape \"\\\(Character(Unicode.Scalar(e)))\" in a string")
                }
            }
            guard let text = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
            return text
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard i + 4 <= bytes.count else { throw error("expected four hex digits after \\u") }
            var v: UInt32 = 0
            for _ in 0..<4 {
                let b = bytes[i]
                let d: UInt32
                switch b {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
                case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
                case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
                default: throw error("expected four hex digits after \\u")
                }
                v = v * 16 + d
                i += 1
            }
            return v
        }
    }
}

/// Writes JSON with two-space indentation, members in the order given, non-ASCII text as UTF-8.
public struct JSONWriter {
    /// A value to write; objects keep their member order.
    public indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case int(Int)
        /// A number already written as JSON (a decimal the caller formatted).
        case number(String)
        case string(String)
        case array([Value])
        case object([(String, Value)])
    }

    public static func write(_ value: Value) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        out += "\n"
        return out
    }

    /// The value on one line, no spaces and no line end (a JSON-RPC message of `lanes mcp` is one line).
    public static func compact(_ value: Value) -> String {
        var out = ""
        compact(value, into: &out)
        return out
    }

    private static func compact(_ value: Value, into out: inout String) {
        switch value {
        case .null, .bool, .int, .number, .string: write(value, indent: 0, into: &out)
        case .array(let items):
            out += "["
            for (k, item) in items.enumerated() {
                if k > 0 { out += "," }
                compact(item, into: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (k, (key, item)) in members.enumerated() {
                if k > 0 { out += "," }
                quote(key, into: &out)
                out += ":"
                compact(item, into: &out)
            }
            out += "}"
        }
    }

    private static func write(_ value: Value, indent: Int, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let n): out += String(n)
        case .number(let text): out += text
        case .string(let s): quote(s, into: &out)
        case .array(let items):
            guard !items.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (k, item) in items.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                write(item, indent: indent + 1, into: &out)
                out += k < items.count - 1 ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let members):
            guard !members.isEmpty else { out += "{}"; return }
            out += "{\n"
            for (k, (key, item)) in members.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                quote(key, into: &out)
                out += ": "
                write(item, indent: indent + 1, into: &out)
                out += k < members.count - 1 ? ",\n" : "\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }

    private static func quote(_ s: String, into out: inout String) {
        out += "\""
        // Runs of bytes that need no escape are copied whole (a board's text is mostly such runs);
        // the rest is escaped one scalar at a time, as before.
        var s = s
        s.withUTF8 { bytes in
            var run = 0
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                // ASCII that needs no escape, or a UTF-8 sequence of a scalar that needs none (all but
                // U+0080…U+009F, lead byte C2 80…9F, and U+2028/2029, E2 80 A8/A9).
                let plain: Bool
                if b < 0x80 {
                    plain = b >= 0x20 && b != 0x22 && b != 0x5C && b != 0x7F
                } else if b == 0xC2 {
                    plain = i + 1 < bytes.count && bytes[i + 1] >= 0xA0
                } else if b == 0xE2 {
                    plain =
                        !(i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9))
                } else {
                    plain = true
                }
                if plain {
                    i += 1
                    continue
                }
                if run < i { out += String(decoding: UnsafeBufferPointer(rebasing: bytes[run..<i]), as: UTF8.self) }
                let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : 3
                let end = min(i + length, bytes.count)
                for scalar in String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self)
                    .unicodeScalars
                {
                    escape(scalar, into: &out)
                }
                i = end
                run = end
            }
            if run < bytes.count {
                out += String(decoding: UnsafeBufferPointer(rebasing: bytes[run...]), as: UTF8.self)
            }
        }
        out += "\""
    }

    private static func escape(_ scalar: Unicode.Scalar, into out: inout String) {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        case "\n": out += "\\n"
        case "\r": out += "\\r"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
                || scalar.value == 0x2028 || scalar.value == 0x2029
            {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
}
