#if os(Linux)
    internal import CStatx
#endif

/// When a file was made (statx(2)'s birth time), which tells a file written in place from a new
/// file that got the same inode number.
///
/// ext4 often gives a file made by the next save the inode number the last save's rename freed,
/// so device and inode alone take a board two saves on for the one last read, written in place
/// (and a reader would wait out the quiet period for it). The birth time differs. Where the file
/// system keeps none (or the kernel has no statx), `of` is nil and the inode alone decides.
struct FileBirth: Hashable, Sendable {
    let seconds: Int64
    let nanoseconds: UInt32

    /// The birth time of the file at `path` if it is the file `fingerprint` describes (same inode,
    /// size and modification time, so a file replaced since is not taken for it); nil otherwise.
    static func of(_ path: String, describedBy fingerprint: FileFingerprint) -> FileBirth? {
        guard let now = look(path), now.inode == fingerprint.inode, now.size == fingerprint.size,
            now.modified == (fingerprint.modificationSeconds, fingerprint.modificationNanoseconds)
        else { return nil }
        return now.birth
    }

    /// Whether the file at `path`, which has the inode number of the file born at `birth`, is that
    /// file (written in place since) or a new one that got its number. Without a birth time on
    /// either side it counts as the same file, as the inode alone would.
    static func isSameFile(_ path: String, inode: UInt64, as birth: FileBirth?) -> Bool {
        guard let birth, let now = look(path), now.inode == inode, let born = now.birth else {
            return true
        }
        return born == birth
    }

    private static func look(_ path: String) -> (
        inode: UInt64, size: Int64, modified: (Int64, Int64), birth: FileBirth?
    )? {
        #if os(Linux)
            var inode: UInt64 = 0
            var size: Int64 = 0
            var mtime: Int64 = 0
            var mtimeNanoseconds: UInt32 = 0
            var birth: Int64 = 0
            var birthNanoseconds: UInt32 = 0
            let r = lanes_statx_birth(path, &inode, &size, &mtime, &mtimeNanoseconds, &birth, &birthNanoseconds)
            guard r >= 0 else { return nil }
            return (
                inode, size, (mtime, Int64(mtimeNanoseconds)),
                r == 1 ? FileBirth(seconds: birth, nanoseconds: birthNanoseconds) : nil
            )
        #else
            return nil
        #endif
    }
}
