#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Identifies the exact on-disk state of a file (device, inode, size, mtime with nanoseconds, and a hash of its bytes).
///
/// Two fingerprints are equal only if every field is: a file rewritten with the same
/// bytes by another program (new inode or new mtime) counts as changed, and so does
/// one edited in place with its size and mtime restored (the bytes' hash differs).
/// The bytes themselves are not kept (at a million cards they were 42 MB held for the
/// whole session): the 64-bit XXH64 of them (`ContentHasher`) stands in, alongside the size and mtime.
/// The inode change time is left out, so `chmod` or `chown` alone changes nothing.
public struct FileFingerprint: Hashable, Sendable, CustomStringConvertible {
    public let device: UInt64
    public let inode: UInt64
    public let size: Int64
    public let modificationSeconds: Int64
    public let modificationNanoseconds: Int64
    /// XXH64 of the file's bytes (`ContentHasher`).
    public let contentHash: UInt64

    init(status st: stat, content: [UInt8]) {
        self.init(status: st, contentHash: content.isEmpty ? ContentHasher().finalize() : ContentHasher.hash(content))
    }

    init(status st: stat, contentHash: UInt64) {
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

    /// Whether device, inode, size and mtime agree (the content is not looked at).
    func sameMetadata(as other: FileFingerprint) -> Bool {
        device == other.device && inode == other.inode && size == other.size
            && modificationSeconds == other.modificationSeconds
            && modificationNanoseconds == other.modificationNanoseconds
    }

    public var description: String {
        "dev \(device) ino \(inode) size \(size) mtime \(modificationSeconds).\(modificationNanoseconds)"
    }
}
