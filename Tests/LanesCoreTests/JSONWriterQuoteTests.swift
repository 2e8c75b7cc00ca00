@testable import LanesCore
import SeededRandom
import Testing

/// The JSON writer's string quoting, which copies unescaped runs whole: it escapes exactly what the
/// scalar-by-scalar rule escapes, and what it writes reads back as the same string.
@Suite struct JSONWriterQuoteTests {
    /// The rule, one scalar at a time (what the writer did before it copied runs).
    static func reference(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
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
        return out + "\""
    }

    @Test func everyEscapeAndEveryPlainNeighbourAsTheScalarRuleWritesThem() throws {
        let alphabet: [String] = [
            "a", " ", "\"", "\\", "\n", "\r", "\t", "\u{1}", "\u{1F}", "\u{7F}", "\u{80}", "\u{85}", "\u{9F}",
            "\u{A0}", "\u{FF}", "é", "\u{2027}", "\u{2028}", "\u{2029}", "\u{202A}", "€", "😀", "\u{1B}[31m",
        ]
        var random = SplitMix64(seed: 41)
        for _ in 0..<2000 {
            let n = Int(random.next() % 12)
            let s = (0..<n).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }.joined()
            let written = JSONWriter.compact(.string(s))
            #expect(written == Self.reference(s), "\(Array(s.unicodeScalars))")
            #expect(try JSONReader.parse(Array(written.utf8), file: "t").string == s)
        }
    }
}
