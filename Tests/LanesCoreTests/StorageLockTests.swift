import Testing
#if canImport(Glibc)
import Glibc
#endif
@testable import LanesCore

@Suite struct StorageLockTests {
    @Test func anotherProcessIsRefusedWithItsPIDUntilItDies() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        writeBehindTheBack(Array("## To do\n".utf8), to: path)

        let channel = makePipe()
        let child = forkChild {
            close(channel.read)
            var report: UInt8 = 2
            let lock = try? BoardLock.acquire(path)
            if lock != nil { report = 1 }
            _ = write(channel.write, &report, 1)
            while true { pause() }
        }
        close(channel.write)
        defer { close(channel.read) }
        let report = readByte(channel.read)
        try #require(report == 1, "the child took the lock")

        #expect(throws: StorageError.locked(path: path, byPID: child)) { try BoardLock.acquire(path) }

        killAndReap(child)   // the kernel drops a dead holder's lock; its sidecar stays behind
        let lock = try BoardLock.acquire(path)
        #expect(contents(of: lock.lockFilePath) == Array("\(getpid())\n".utf8))
        lock.release()
        #expect(folder.entries() == ["board.md"])
    }

    @Test func aSecondAcquireInTheSameProcessIsRefused() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let first = try BoardLock.acquire(path)
        #expect(first.lockFilePath == folder.file(".board.md.lanes-lock"))
        #expect(throws: StorageError.locked(path: path, byPID: getpid())) { try BoardLock.acquire(path) }
        first.release()
        first.release()   // harmless twice
        let second = try BoardLock.acquire(path)
        second.release()
        #expect(folder.entries() == [])
    }

    @Test func droppingTheLastReferenceReleases() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        do { _ = try BoardLock.acquire(path) }
        let again = try BoardLock.acquire(path)
        again.release()
    }

    @Test func aLinkAndItsTargetShareOneLock() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let target = folder.file("board.md")
        let link = folder.file("link.md")
        writeBehindTheBack([], to: target)
        #expect(symlink("board.md", link) == 0)
        let lock = try BoardLock.acquire(link)
        defer { lock.release() }
        #expect(lock.lockFilePath == folder.file(".board.md.lanes-lock"))
        #expect(throws: StorageError.locked(path: target, byPID: getpid())) { try BoardLock.acquire(target) }
    }

    @Test func aSidecarDeletedBeforeWeLockItIsNotTrusted() throws {
        // The holder releases (and deletes the sidecar) after we opened it but before we lock it.
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let first = try BoardLock.acquire(path)
        let opened = Recorder<String>()
        let second = try BoardLock.$afterOpeningLockFile.withValue({ lockPath in
            if opened.values.isEmpty { first.release() }
            opened.append(lockPath)
        }) {
            try BoardLock.acquire(path)
        }
        defer { second.release() }
        #expect(opened.values.count == 2, "the lock on the deleted file was dropped and the sidecar opened anew")
        #expect(contents(of: second.lockFilePath) == Array("\(getpid())\n".utf8))
        #expect(throws: StorageError.locked(path: path, byPID: getpid())) { try BoardLock.acquire(path) }
    }

    @Test func aLockOnADeletedSidecarDoesNotBlockTheBoard() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let first = try BoardLock.acquire(path)
        let staleFD = open(first.lockFilePath, O_RDWR)
        #expect(staleFD >= 0)
        defer { close(staleFD) }
        first.release()
        #expect(flock(staleFD, LOCK_EX | LOCK_NB) == 0)
        let second = try BoardLock.acquire(path)
        second.release()
    }
}
