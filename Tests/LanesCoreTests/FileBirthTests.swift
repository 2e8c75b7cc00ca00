import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif
@testable import LanesCore

/// A file replaced by rename that got the inode number back is told from one written in place (#41, DECISIONS 41.10).
@Suite struct FileBirthTests {
    /// Whether the folder is on ext4, which hands a new file the inode number a rename just freed.
    static func onExt4(_ path: String) -> Bool {
        // The mount with the longest mount point that holds the path (/proc/self/mounts: device, point, type, …).
        guard let mounts = try? String(contentsOfFile: "/proc/self/mounts", encoding: .utf8) else { return false }
        let real: String = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        var best: (point: String, type: String) = ("", "")
        for line in mounts.split(separator: "\n") {
            let fields: [String] = line.split(separator: " ").map(String.init)
            guard fields.count > 2 else { continue }
            let point: String = fields[1]
            let holds: Bool = point == "/" || real == point || real.hasPrefix(point + "/")
            if holds && point.count >= best.point.count { best = (point, fields[2]) }
        }
        return best.type == "ext4"
    }

    /// Replaces the file by rename (as every Lanes save does) until a new file gets `inode`, for 2 s
    /// at most; the last fingerprint.
    static func replaceUntilInodeComesBack(_ path: String, inode: UInt64, from fp: FileFingerprint) throws
        -> FileFingerprint
    {
        var current = fp
        let deadline = Date().addingTimeInterval(2)
        var k = 0
        repeat {
            current = try SafeFile.writeAtomically(Array("## A\n\n- save \(k)\n".utf8), to: path, expecting: current)
            k += 1
            if current.inode != inode { usleep(2_000) }
        } while current.inode != inode && Date() < deadline
        return current
    }

    /// A board file in `folder` written once (its fingerprint, `first`), `prepare`d, then replaced by
    /// rename until a new file got its inode number back (`now`). ext4 usually hands the freed number
    /// to the next file made in the folder, but not always (another file of the host's may take it,
    /// one run in five here): on ext4 a file that did not get it back within 2 s is set aside and a
    /// new one tried, ten at most.
    static func replacedWithItsInode<T>(in folder: ScratchFolder, prepare: (String, FileFingerprint) throws -> T) throws
        -> (
            path: String, first: FileFingerprint, now: FileFingerprint, prepared: T
        )
    {
        for attempt in 0..<10 {
            let path = folder.file("board\(attempt).md")
            let first = try SafeFile.writeAtomically(Array("## A\n\n- first\n".utf8), to: path, expecting: nil)
            let prepared = try prepare(path, first)
            let now = try replaceUntilInodeComesBack(path, inode: first.inode, from: first)
            if now.inode == first.inode || !onExt4(folder.path) || attempt == 9 { return (path, first, now, prepared) }
        }
        preconditionFailure("unreachable")
    }

    @Test func aFileReplacedByRenameIsAnotherFileEvenWithTheSameInodeNumber() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let (path, first, now, birth) = try Self.replacedWithItsInode(in: folder) { path, first in
            FileBirth.of(path, describedBy: first)
        }
        if Self.onExt4(folder.path) {
            #expect(birth != nil, "ext4 keeps a birth time")
            #expect(now.inode == first.inode, "ext4 gave the new file the freed inode number")
        }
        if now.inode == first.inode {
            // The inode alone would say "written in place"; the birth time says "replaced" where there is one.
            #expect(FileBirth.isSameFile(path, inode: first.inode, as: birth) == (birth == nil))
        } else {
            #expect(now.inode != first.inode, "another inode number: replaced by the inode alone")
        }
        // A fingerprint of a file no longer there describes nothing: no birth time is taken for it.
        #expect(FileBirth.of(path, describedBy: first) == nil)
    }

    @Test func aFileWrittenInPlaceIsTheSameFile() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let path = folder.file("board.md")
        let fp = try SafeFile.writeAtomically(Array("## A\n\n- first\n".utf8), to: path, expecting: nil)
        let birth = FileBirth.of(path, describedBy: fp)
        writeBehindTheBack(Array("## A\n\n- rewritten in place, longer\n".utf8), to: path)
        let after = try #require(lstatOrNil(path))
        #expect(UInt64(after.st_ino) == fp.inode)
        #expect(FileBirth.isSameFile(path, inode: fp.inode, as: birth))
        // Its fingerprint changed (size, mtime): the old one no longer describes the file.
        #expect(FileBirth.of(path, describedBy: fp) == nil)
    }

    /// A store two saves behind does not take the board another writer saved (by rename, onto the
    /// inode number the store last knew) for its file written in place, which it would wait out the
    /// quiet period for before reading, inside the write lock when committing.
    @Test func aStoreTwoSavesBehindSeesAReplacedFile() throws {
        let folder = ScratchFolder()
        defer { folder.remove() }
        let (path, first, now, store) = try Self.replacedWithItsInode(in: folder) { path, _ in
            try FileBoardStore.open(path, starter: nil).0
        }
        let st = try #require(lstatOrNil(path))
        if now.inode == first.inode && FileBirth.of(path, describedBy: now) != nil {
            #expect(!store.writtenInPlace(st))
        } else {
            #expect(store.writtenInPlace(st) == (now.inode == first.inode), "the inode alone decides")
        }
        #expect(now.inode == first.inode || !Self.onExt4(folder.path))
        // The same file written in place is still that.
        writeBehindTheBack(Array("## A\n\n- in place\n".utf8), to: path)
        _ = try store.refresh()
        writeBehindTheBack(Array("## A\n\n- in place again\n".utf8), to: path)
        #expect(store.writtenInPlace(try #require(lstatOrNil(path))))
    }
}
