/// XXH64 of a byte stream, fed in pieces of any size: what a `FileFingerprint` keeps of a file's bytes.
///
/// The algorithm is Yann Collet's XXH64 (seed 0), so values can be checked against any
/// other implementation. 64 bits make an accidental match of two different versions of a
/// board (size and mtime equal too) a 1-in-2^64 event, and unlike keeping the bytes it
/// costs 8 bytes instead of the file's size.
public struct ContentHasher: Sendable {
    private static let p1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let p2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let p3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let p4: UInt64 = 0x85EB_CA77_C2B2_AE63
    private static let p5: UInt64 = 0x27D4_EB2F_1656_67C5

    private var v1: UInt64 = p1 &+ p2
    private var v2: UInt64 = p2
    private var v3: UInt64 = 0
    private var v4: UInt64 = 0 &- p1
    /// Bytes fed so far.
    private var total: UInt64 = 0
    /// Up to 31 bytes waiting for a full 32-byte stripe.
    private var pending: [UInt8] = []

    public init() {}

    /// The hash of `bytes` in one call.
    public static func hash(_ bytes: [UInt8]) -> UInt64 {
        var h = ContentHasher()
        bytes.withUnsafeBytes { h.update($0) }
        return h.finalize()
    }

    @inline(__always) private static func rotl(_ x: UInt64, _ r: UInt64) -> UInt64 { (x << r) | (x >> (64 - r)) }

    @inline(__always) private static func round(_ acc: UInt64, _ input: UInt64) -> UInt64 {
        rotl(acc &+ input &* p2, 31) &* p1
    }

    @inline(__always) private static func merge(_ acc: UInt64, _ v: UInt64) -> UInt64 {
        (acc ^ round(0, v)) &* p1 &+ p4
    }

    @inline(__always) private static func load64(_ p: UnsafeRawBufferPointer, _ at: Int) -> UInt64 {
        UInt64(littleEndian: p.loadUnaligned(fromByteOffset: at, as: UInt64.self))
    }

    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        total &+= UInt64(bytes.count)
        var i = 0
        if !pending.isEmpty {
            let take = min(32 - pending.count, bytes.count)
            pending.append(contentsOf: bytes[0..<take])
            i = take
            guard pending.count == 32 else { return }
            pending.withUnsafeBytes { stripes($0, upTo: 32) }
            pending.removeAll(keepingCapacity: true)
        }
        let rest = UnsafeRawBufferPointer(rebasing: bytes[i...])
        let whole = rest.count & ~31
        stripes(rest, upTo: whole)
        if whole < rest.count { pending.append(contentsOf: rest[whole...]) }
    }

    private mutating func stripes(_ p: UnsafeRawBufferPointer, upTo end: Int) {
        var a = v1, b = v2, c = v3, d = v4
        var k = 0
        while k < end {
            a = Self.round(a, Self.load64(p, k))
            b = Self.round(b, Self.load64(p, k + 8))
            c = Self.round(c, Self.load64(p, k + 16))
            d = Self.round(d, Self.load64(p, k + 24))
            k += 32
        }
        v1 = a; v2 = b; v3 = c; v4 = d
    }

    public func finalize() -> UInt64 {
        var h: UInt64
        if total >= 32 {
            h = Self.rotl(v1, 1) &+ Self.rotl(v2, 7) &+ Self.rotl(v3, 12) &+ Self.rotl(v4, 18)
            h = Self.merge(h, v1); h = Self.merge(h, v2); h = Self.merge(h, v3); h = Self.merge(h, v4)
        } else {
            h = Self.p5
        }
        h &+= total
        pending.withUnsafeBytes { p in
            var k = 0
            while k + 8 <= p.count {
                h ^= Self.round(0, Self.load64(p, k))
                h = Self.rotl(h, 27) &* Self.p1 &+ Self.p4
                k += 8
            }
            if k + 4 <= p.count {
                h ^= UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: k, as: UInt32.self))) &* Self.p1
                h = Self.rotl(h, 23) &* Self.p2 &+ Self.p3
                k += 4
            }
            while k < p.count {
                h ^= UInt64(p[k]) &* Self.p5
                h = Self.rotl(h, 11) &* Self.p1
                k += 1
            }
        }
        h ^= h >> 33
        h &*= Self.p2
        h ^= h >> 29
        h &*= Self.p3
        h ^= h >> 32
        return h
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension ContentHasher {
    /// Hashes an open file from its start in 256 KiB pieces (memory stays flat whatever its size);
    /// the hash and the number of bytes read.
    static func hash(fileDescriptor fd: Int32) -> Result<(hash: UInt64, count: Int), Errno> {
        var hasher = ContentHasher()
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 256 * 1024, alignment: 16)
        defer { chunk.deallocate() }
        var offset = 0
        while true {
            let n = pread(fd, chunk.baseAddress!, chunk.count, off_t(offset))
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(Errno(errno))
            }
            if n == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: chunk[0..<n]))
            offset += n
        }
        return .success((hasher.finalize(), offset))
    }
}
