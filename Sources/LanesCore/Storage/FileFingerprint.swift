#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Identifies the exact on-disk state of a file (device, inode, size, mtime with nanoseconds, and its bytes).
///
/// Two fingerprints are equal only if every field is: a file rewritten with the same
/// bytes by another program (new inode or new mtime) counts as changed, and so does
/// one edited in place with its size and mtime restored (the bytes differ). The bytes are
/// the array that was read or written, shared, not copied; comparing them is exact and
/// much cheaper than hashing them.
/// The inode change time is left out, so `chmod` or `chown` alone changes nothing.
public struct FileFingerprint: Hashable, Sendable, CustomStringConvertible {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modificationSeconds: Int64
    public let modificationNanoseconds: Int64
    /// The file's bytes.
    public let content: [UInt8]

    init(status st: stat, content: [UInt8]) {
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
        self.content = content
    }

    /// Whether device, inode, size and mtime agree (the content is not looked at).
    func sameMetadata(as other: FileFingerprint) -> Bool {
        device == other.device && inode == other.inode && size == other.size
            && modificationSeconds == other.modificationSeconds && modificationNanoseconds == other.modificationNanoseconds
    }

    public var description: String {
        "dev \(device) ino \(inode) size \(size) mtime \(modificationSeconds).\(modificationNanoseconds)"
    }
}
