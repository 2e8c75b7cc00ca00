#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Identifies the exact on-disk state of a file (device, inode, size, mtime with nanoseconds, and a content hash).
///
/// Two fingerprints are equal only if every field is: a file rewritten with the same
/// bytes by another program (new inode or new mtime) counts as changed, and so does
/// one edited in place with its size and mtime restored (the hash differs).
/// The inode change time is left out, so `chmod` or `chown` alone changes nothing.
public struct FileFingerprint: Hashable, Sendable, CustomStringConvertible {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modificationSeconds: Int64
    public let modificationNanoseconds: Int64
    /// SHA-256 of the file's bytes.
    public let contentHash: [UInt8]

    init(status st: stat, contentHash: [UInt8]) {
        device = UInt64(truncatingIfNeeded: st.st_dev)
        inode = UInt64(truncatingIfNeeded: st.st_ino)
        size = Int64(st.st_size)
        #if canImport(Darwin)
        modificationSeconds = Int64(st.st_mtimespec.tv_sec)
        modificationNanoseconds = Int64(st.st_mtimespec.tv_nsec)
        #else
        modificationSeconds = Int64(st.st_mtim.tv_sec)
        modificationNanoseconds = Int64(st.st_mtim.tv_nsec)
        #endif
        self.contentHash = contentHash
    }

    public var description: String {
        let hex = contentHash.prefix(8).map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined()
        return "dev \(device) ino \(inode) size \(size) mtime \(modificationSeconds).\(modificationNanoseconds) sha256 \(hex)…"
    }
}
