@testable import LanesCore
import Testing

@Suite struct ContentHashTests {
    /// Values from the reference XXH64 (Python's `xxhash.xxh64(data, seed=0)`).
    static let vectors: [([UInt8], UInt64)] = [
        ([], 0xEF46_DB37_51D8_E999),
        (Array("a".utf8), 0xD24E_C4F1_A98C_6E5B),
        (Array("abc".utf8), 0x44BC_2CF5_AD77_0999),
        (Array("0123456789abcdef0123456789abcde".utf8), 0x1FDF_C63F_EBAC_FDE7),
        (Array("0123456789abcdef0123456789abcdef".utf8), 0x642A_9495_8E71_E6C5),
        (Array((0..<3).flatMap { _ in (0...255).map { UInt8($0) } }) + Array("xyz".utf8), 0xE921_A1B4_5BD7_79F8),
    ]

    @Test func matchesTheReferenceXXH64() {
        for (bytes, expected) in Self.vectors {
            #expect(ContentHasher.hash(bytes) == expected, "\(bytes.count) bytes")
        }
    }

    @Test func piecesOfAnySizeGiveTheSameHash() {
        let bytes = Self.vectors.last!.0
        for piece in [1, 3, 7, 31, 32, 33, 100] {
            var h = ContentHasher()
            var i = 0
            while i < bytes.count {
                let j = min(bytes.count, i + piece)
                Array(bytes[i..<j]).withUnsafeBytes { h.update($0) }
                i = j
            }
            #expect(h.finalize() == 0xE921_A1B4_5BD7_79F8, "pieces of \(piece)")
        }
    }

    @Test func oneChangedByteChangesTheHash() {
        var bytes = Array("- card A\n    > a line of description\n".utf8)
        let before = ContentHasher.hash(bytes)
        bytes[3] = UInt8(ascii: "B")
        #expect(ContentHasher.hash(bytes) != before)
    }
}
