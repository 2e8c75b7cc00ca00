import Foundation
import Testing
#if canImport(Glibc)
    import Glibc
#endif
@testable import LanesCore

/// Collects values from a `@Sendable` hook.
final class Recorder<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Value] = []
    func append(_ value: Value) { lock.withLock { stored.append(value) } }
    var values: [Value] { lock.withLock { stored } }
}

@Suite struct StorageSafeFileTests {
    // MARK: Reading

    @Test func readReturnsExactBytesAndTheirFingerprint() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        // CRLF, a NUL, invalid UTF-8, no final newline: bytes, not text.
        let bytes: [UInt8] = Array("## To do\r\n- a\r\n".utf8) + [0, 0xFF, 0xFE, 0xC3] + Array("tail".utf8)
        writeBehindTheBack(bytes, to: path)

        let (read, fingerprint) = try SafeFile.read(path)
        #expect(read == bytes)
        let st = try #require(lstatOrNil(path))
        #expect(fingerprint.inode == UInt64(st.st_ino))
        #expect(fingerprint.device == UInt64(st.st_dev))
        #expect(fingerprint.size == Int64(bytes.count))
        #expect(fingerprint.modificationSeconds == Int64(st.st_mtim.tv_sec))
        #expect(fingerprint.modificationNanoseconds == Int64(st.st_mtim.tv_nsec))
        #expect(fingerprint.contentHash == ContentHasher.hash(bytes))
        #expect(try SafeFile.fingerprint(path) == fingerprint)
    }

    @Test func readsEmptyAndLargeFiles() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        for bytes in [[], boardBytes(7, count: 3 * SafeFile.chunkSize + 17)] {
            let path = folder.file("b\(bytes.count).md")
            writeBehindTheBack(bytes, to: path)
            #expect(try SafeFile.read(path).bytes == bytes)
        }
    }

    @Test func missingFileIsNotFoundAndHasNoFingerprint() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("nope.md")
        #expect(throws: StorageError.notFound(path: path)) { try SafeFile.read(path) }
        #expect(try SafeFile.fingerprint(path) == nil)
    }

    @Test func folderIsUnreadable() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        #expect(throws: StorageError.unreadable(path: folder.path, reason: POSIX.message(EISDIR))) {
            try SafeFile.read(folder.path)
        }
    }

    // MARK: Writing

    @Test func writeCreatesAFileAndReturnsItsFingerprint() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let bytes = boardBytes(1, count: 5000)
        let written = try SafeFile.writeAtomically(bytes, to: path, expecting: nil)
        #expect(contents(of: path) == bytes)
        #expect(try SafeFile.fingerprint(path) == written)
        #expect(folder.entries() == ["board.md"])
        let st = try #require(lstatOrNil(path))
        #expect(st.st_mode & 0o7777 & ~0o666 == 0, "a new board gets at most rw-rw-rw-")
    }

    @Test func writeReplacesByRenamingANewFile() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let first = try SafeFile.writeAtomically(boardBytes(1, count: 100), to: path, expecting: nil)
        let second = try SafeFile.writeAtomically(boardBytes(2, count: 90), to: path, expecting: first)
        #expect(contents(of: path) == boardBytes(2, count: 90))
        #expect(second.inode != first.inode, "the old inode is replaced, never rewritten in place")
        let third = try SafeFile.writeAtomically([], to: path, expecting: second)
        #expect(contents(of: path) == [])
        #expect(try SafeFile.read(path).fingerprint == third)
        #expect(folder.entries() == ["board.md"])
    }

    @Test(arguments: [0o600, 0o640, 0o755, 0o4755] as [mode_t])
    func modeIsPreserved(mode: mode_t) throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        writeBehindTheBack(Array("old".utf8), to: path)
        #expect(chmod(path, mode) == 0)
        try SafeFile.writeAtomically(Array("new".utf8), to: path, expecting: nil)
        let st = try #require(lstatOrNil(path))
        #expect(st.st_mode & 0o7777 == mode)
        #expect(contents(of: path) == Array("new".utf8))
    }

    @Test func ownerAndGroupArePreservedWhenRoot() throws {
        guard geteuid() == 0 else { try Test.cancel("changing a file's owner needs root") }
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        writeBehindTheBack(Array("old".utf8), to: path)
        #expect(chown(path, 4242, 4343) == 0)
        #expect(chmod(path, 0o640) == 0)
        try SafeFile.writeAtomically(Array("new".utf8), to: path, expecting: nil)
        let st = try #require(lstatOrNil(path))
        #expect(st.st_uid == 4242)
        #expect(st.st_gid == 4343)
        #expect(st.st_mode & 0o7777 == 0o640)
    }

    @Test func aHardLinkedFileIsWrittenInPlaceSoEveryNameSeesIt() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        writeBehindTheBack(boardBytes(1, count: 200), to: path)
        #expect(link(path, folder.file("other-name.md")) == 0)
        let before = try #require(lstatOrNil(path))
        let (_, fp) = try SafeFile.read(path)
        let written = try SafeFile.writeAtomically(boardBytes(2, count: 90), to: path, expecting: fp)
        #expect(contents(of: path) == boardBytes(2, count: 90))
        #expect(contents(of: folder.file("other-name.md")) == boardBytes(2, count: 90), "the link is not split")
        #expect(lstatOrNil(path)!.st_ino == before.st_ino && lstatOrNil(path)!.st_nlink == 2)
        #expect(try SafeFile.read(path).fingerprint == written)
        #expect(folder.entries() == ["board.md", "other-name.md"], "the copy kept during the write is gone")
    }

    @Test func aFileWithoutWritePermissionIsRefusedAndUntouched() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        writeBehindTheBack(Array("old".utf8), to: path)
        #expect(chmod(path, 0o444) == 0)
        #expect(throws: StorageError.readOnly(path: path)) {
            try SafeFile.writeAtomically(Array("new".utf8), to: path, expecting: nil)
        }
        #expect(contents(of: path) == Array("old".utf8))
        #expect(folder.entries() == ["board.md"])
    }

    @Test func symlinkIsWrittenThroughWithTheTempFileBesideTheTarget() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        #expect(mkdir(folder.file("links"), 0o755) == 0)
        #expect(mkdir(folder.file("real"), 0o755) == 0)
        let target = folder.file("real/board.md")
        let link = folder.file("links/board-link.md")
        writeBehindTheBack(Array("old".utf8), to: target)
        #expect(symlink("../real/board.md", link) == 0)

        let temps = Recorder<String>()
        let (_, before) = try SafeFile.read(link)
        try SafeFile.$faultInjector.withValue({ step, temp in
            if step == .syncFile { temps.append(temp) }
            return nil
        }) {
            _ = try SafeFile.writeAtomically(Array("new".utf8), to: link, expecting: before)
        }

        let linkStatus = try #require(lstatOrNil(link))
        #expect(POSIX.isSymlink(linkStatus), "the link stays a link")
        #expect(contents(of: target) == Array("new".utf8))
        let temp = try #require(temps.values.first)
        let tempFolder = try #require(lstatOrNil(POSIX.directory(of: temp) + "/."))
        let realFolder = try #require(lstatOrNil(folder.file("real")))
        #expect(
            tempFolder.st_dev == realFolder.st_dev && tempFolder.st_ino == realFolder.st_ino,
            "the temp file was in the target's folder, not the link's")
        #expect(POSIX.lastComponent(of: temp).hasPrefix(".board.md.lanes-tmp-\(getpid())-"))
        #expect(POSIX.entries(of: folder.file("real")) == ["board.md"])
        #expect(POSIX.entries(of: folder.file("links")) == ["board-link.md"])
    }

    @Test func danglingSymlinkCreatesItsTarget() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let link = folder.file("board.md")
        #expect(symlink("target.md", link) == 0)
        try SafeFile.writeAtomically(Array("hello".utf8), to: link, expecting: nil)
        #expect(POSIX.isSymlink(try #require(lstatOrNil(link))))
        #expect(contents(of: folder.file("target.md")) == Array("hello".utf8))
    }

    @Test func symlinkLoopFails() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        #expect(symlink("b.md", folder.file("a.md")) == 0)
        #expect(symlink("a.md", folder.file("b.md")) == 0)
        #expect(throws: StorageError.writeFailed(path: folder.file("a.md"), reason: POSIX.message(ELOOP))) {
            try SafeFile.writeAtomically(Array("x".utf8), to: folder.file("a.md"), expecting: nil)
        }
    }

    @Test func staleTempsOfDeadProcessesAreRemovedAfterASave() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let dead = forkChild { _exit(0) }
        var status: Int32 = 0
        waitpid(dead, &status, 0)
        let stale = ".board.md.lanes-tmp-\(dead)-1f"
        let ours = ".board.md.lanes-tmp-\(getpid())-2e"  // could be another thread's save in progress
        let alive = ".board.md.lanes-tmp-1-3d"  // PID 1 always exists
        let unrelated = ".other.md.lanes-tmp-\(dead)-4c"
        for name in [stale, ours, alive, unrelated] { writeBehindTheBack([1, 2, 3], to: folder.file(name)) }

        try SafeFile.writeAtomically(Array("saved".utf8), to: path, expecting: nil)
        #expect(folder.entries() == [ours, alive, unrelated, "board.md"].sorted())
    }

    // MARK: Changes by others

    @Test func differentContentIsDetected() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let fingerprint = try SafeFile.writeAtomically(Array("mine".utf8), to: path, expecting: nil)
        writeBehindTheBack(Array("someone else's longer text".utf8), to: path)
        #expect(throws: StorageError.modifiedOnDisk(path: path)) {
            try SafeFile.writeAtomically(Array("mine again".utf8), to: path, expecting: fingerprint)
        }
        #expect(contents(of: path) == Array("someone else's longer text".utf8))
        #expect(folder.entries() == ["board.md"])
    }

    @Test func sameSizeEditWithRestoredMtimeIsDetected() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let fingerprint = try SafeFile.writeAtomically(Array("- card A\n".utf8), to: path, expecting: nil)

        // Edit in place (same inode, same size), then put the old mtime back to the nanosecond.
        let fd = open(path, O_WRONLY)
        #expect(fd >= 0)
        let other = Array("- card B\n".utf8)
        #expect(other.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == other.count)
        let oldTime = timespec(
            tv_sec: Int(fingerprint.modificationSeconds), tv_nsec: Int(fingerprint.modificationNanoseconds))
        var times = [oldTime, oldTime]  // access time, modification time
        #expect(futimens(fd, &times) == 0)
        close(fd)

        let now = try #require(try SafeFile.fingerprint(path))
        #expect(now.device == fingerprint.device && now.inode == fingerprint.inode && now.size == fingerprint.size)
        #expect(now.modificationSeconds == fingerprint.modificationSeconds)
        #expect(now.modificationNanoseconds == fingerprint.modificationNanoseconds)
        #expect(now.contentHash != fingerprint.contentHash, "only the content tells the versions apart")
        #expect(now != fingerprint)

        #expect(throws: StorageError.modifiedOnDisk(path: path)) {
            try SafeFile.writeAtomically(Array("- card C\n".utf8), to: path, expecting: fingerprint)
        }
        #expect(contents(of: path) == other)
        #expect(folder.entries() == ["board.md"])
    }

    @Test func identicalCopyRenamedInPlaceCountsAsAChange() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let bytes = Array("same".utf8)
        let fingerprint = try SafeFile.writeAtomically(bytes, to: path, expecting: nil)
        writeBehindTheBack(bytes, to: folder.file("copy"))
        #expect(rename(folder.file("copy"), path) == 0)
        #expect(throws: StorageError.modifiedOnDisk(path: path)) {
            try SafeFile.writeAtomically(Array("mine".utf8), to: path, expecting: fingerprint)
        }
        #expect(contents(of: path) == bytes)
    }

    @Test func deletedFileCountsAsAChange() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let fingerprint = try SafeFile.writeAtomically(Array("x".utf8), to: path, expecting: nil)
        #expect(unlink(path) == 0)
        #expect(throws: StorageError.modifiedOnDisk(path: path)) {
            try SafeFile.writeAtomically(Array("y".utf8), to: path, expecting: fingerprint)
        }
        #expect(folder.entries() == [])
    }

    @Test func changeWhileTheTempFileIsWrittenIsDetectedBeforeTheRename() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let fingerprint = try SafeFile.writeAtomically(Array("mine".utf8), to: path, expecting: nil)
        let theirs = Array("theirs".utf8)
        #expect(throws: StorageError.modifiedOnDisk(path: path)) {
            try SafeFile.$faultInjector.withValue({ step, _ in
                if step == .rename { writeBehindTheBack(theirs, to: path) }
                return nil
            }) {
                try SafeFile.writeAtomically(Array("mine, edited".utf8), to: path, expecting: fingerprint)
            }
        }
        #expect(contents(of: path) == theirs)
        #expect(folder.entries() == ["board.md"])
    }

    // MARK: Failures

    struct FaultCase: Sendable, CustomTestStringConvertible {
        var step: SafeFile.Step
        var fault: SafeFile.Fault
        var reason: String
        var testDescription: String { "\(step) \(fault)" }
    }

    static let faults: [FaultCase] = [
        FaultCase(step: .write(offset: 0), fault: .fail(ENOSPC), reason: "No space left on device"),
        FaultCase(step: .write(offset: SafeFile.chunkSize), fault: .fail(ENOSPC), reason: "No space left on device"),
        FaultCase(step: .write(offset: 2 * SafeFile.chunkSize), fault: .fail(EIO), reason: "Input/output error"),
        FaultCase(
            step: .write(offset: SafeFile.chunkSize), fault: .shortWrite,
            reason: "the disk accepted only \(SafeFile.chunkSize) of \(3 * SafeFile.chunkSize + 5) bytes"),
        FaultCase(step: .syncFile, fault: .fail(EIO), reason: "Input/output error"),
        FaultCase(step: .rename, fault: .fail(EROFS), reason: "Read-only file system"),
    ]

    @Test(arguments: faults)
    func failureLeavesTheOriginalAndNoTempFile(_ fault: FaultCase) throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let original = boardBytes(1, count: 1000)
        let before = try SafeFile.writeAtomically(original, to: path, expecting: nil)
        let steps = Recorder<SafeFile.Step>()

        let error = #expect(throws: StorageError.self) {
            try SafeFile.$faultInjector.withValue({ step, _ in
                steps.append(step)
                return step == fault.step ? fault.fault : nil
            }) {
                try SafeFile.writeAtomically(
                    boardBytes(2, count: 3 * SafeFile.chunkSize + 5), to: path, expecting: before)
            }
        }
        #expect(error == .writeFailed(path: path, reason: fault.reason))
        #expect(error?.description == "Cannot save \(path): \(fault.reason). The file on disk is unchanged.")
        #expect(steps.values.last == fault.step, "the fault was injected and the save stopped there")
        #expect(contents(of: path) == original)
        #expect(try SafeFile.fingerprint(path) == before, "not even the metadata changed")
        #expect(folder.entries() == ["board.md"])
    }

    @Test func failedFolderSyncStillReportsTheCompletedSave() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let written = try SafeFile.$faultInjector.withValue({ step, _ in step == .syncFolder ? .fail(EIO) : nil }) {
            try SafeFile.writeAtomically(Array("new".utf8), to: path, expecting: nil)
        }
        #expect(contents(of: path) == Array("new".utf8))
        #expect(try SafeFile.fingerprint(path) == written)
    }

    @Test func unwritableFolderFailsWithoutTouchingTheFile() throws {
        guard geteuid() != 0 else { try Test.cancel("root may write into any folder") }
        let folder = ScratchFolder(); defer { chmod(folder.path, 0o755); folder.remove() }
        let path = folder.file("board.md")
        writeBehindTheBack(Array("old".utf8), to: path)
        #expect(chmod(folder.path, 0o555) == 0)
        #expect(throws: StorageError.self) {
            try SafeFile.writeAtomically(Array("new".utf8), to: path, expecting: nil)
        }
        #expect(contents(of: path) == Array("old".utf8))
    }

    @Test func realFullDiskOnASmallTmpfs() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=64k") == 0 else {
            try Test.cancel("cannot mount a tmpfs here: \(POSIX.message(errno))")
        }
        defer { umount2(folder.path, Int32(MNT_DETACH)) }
        let path = folder.file("board.md")
        let original = boardBytes(1, count: 16 * 1024)
        let before = try SafeFile.writeAtomically(original, to: path, expecting: nil)

        let error = #expect(throws: StorageError.self) {
            try SafeFile.writeAtomically(boardBytes(2, count: 128 * 1024), to: path, expecting: before)
        }
        #expect(error == .writeFailed(path: path, reason: "No space left on device"))
        #expect(contents(of: path) == original)
        #expect(try SafeFile.fingerprint(path) == before)
        #expect(folder.entries() == ["board.md"])

        // The failed temp file's space was given back: a save that fits still works.
        let smaller = boardBytes(3, count: 24 * 1024)
        try SafeFile.writeAtomically(smaller, to: path, expecting: before)
        #expect(contents(of: path) == smaller)
    }

    @Test func readOnlyFilesystemFailsWithoutTouchingTheFile() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        guard mount("tmpfs", folder.path, "tmpfs", 0, "size=64k") == 0 else {
            try Test.cancel("cannot mount a tmpfs here: \(POSIX.message(errno))")
        }
        defer { umount2(folder.path, Int32(MNT_DETACH)) }
        let path = folder.file("board.md")
        let before = try SafeFile.writeAtomically(Array("old".utf8), to: path, expecting: nil)
        try #require(
            mount("tmpfs", folder.path, "tmpfs", UInt(MS_REMOUNT | MS_RDONLY), "size=64k") == 0,
            "remount read-only: \(POSIX.message(errno))")

        let error = #expect(throws: StorageError.self) {
            try SafeFile.writeAtomically(Array("new".utf8), to: path, expecting: before)
        }
        #expect(
            error
                == .writeFailed(
                    path: path,
                    reason: "cannot create a temporary file in \(folder.path): Read-only file system"))
        #expect(contents(of: path) == Array("old".utf8))
        #expect(try SafeFile.fingerprint(path) == before)
    }

    // MARK: Messages

    @Test func messagesNameThePathAndTheReason() {
        let path = "/home/me/board.md"
        #expect(
            StorageError.notFound(path: path).description == "Cannot open /home/me/board.md: the file does not exist.")
        #expect(
            StorageError.unreadable(path: path, reason: "Permission denied").description
                == "Cannot read /home/me/board.md: Permission denied.")
        #expect(
            StorageError.modifiedOnDisk(path: path).description
                == "/home/me/board.md was changed by another program since Lanes read it; not saving over those changes."
        )
        #expect(
            StorageError.readOnly(path: path).description
                == "/home/me/board.md is read-only (no write permission): Lanes does not change it.")
    }
}
