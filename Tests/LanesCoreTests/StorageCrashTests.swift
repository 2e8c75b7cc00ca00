import Testing
#if canImport(Glibc)
    import Glibc
#endif
@testable import LanesCore

/// `kill -9` of a process in the middle of `writeAtomically`: the board is always the old or the new bytes.
///
/// The saving process is a `fork` of the test process. Its loop uses `SafeFile` (system
/// calls only, no Foundation) and reports through a pipe; `writeAtomically` was called
/// once before forking so nothing in the child needs first-time setup.
@Suite struct StorageCrashTests {
    struct KillPoint: Sendable, CustomTestStringConvertible {
        var step: SafeFile.Step
        var expectNewBytes: Bool
        var expectTempFile: Bool
        var testDescription: String { "\(step)" }
    }

    static let killPoints: [KillPoint] = [
        KillPoint(step: .write(offset: 0), expectNewBytes: false, expectTempFile: true),
        KillPoint(step: .write(offset: SafeFile.chunkSize), expectNewBytes: false, expectTempFile: true),
        KillPoint(step: .syncFile, expectNewBytes: false, expectTempFile: true),
        KillPoint(step: .rename, expectNewBytes: false, expectTempFile: true),
        KillPoint(step: .syncFolder, expectNewBytes: true, expectTempFile: false),
    ]

    /// Stops the child exactly at one step, kills it there, and checks what is left.
    @Test(arguments: killPoints)
    func killAtAStep(_ point: KillPoint) throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let old = boardBytes(1, count: 2 * SafeFile.chunkSize + 10)
        let new = boardBytes(2, count: 2 * SafeFile.chunkSize + 99)
        try SafeFile.writeAtomically(old, to: path, expecting: nil)

        let child = try Self.killSave(of: new, to: path, at: point.step)

        #expect(contents(of: path) == (point.expectNewBytes ? new : old))
        let temps = folder.entries().filter { $0 != "board.md" }
        if point.expectTempFile {
            #expect(temps.count == 1)
            #expect(temps.allSatisfy { $0.hasPrefix(".board.md.lanes-tmp-\(child)-") }, "\(temps)")
        } else {
            #expect(temps.isEmpty)
        }

        // The next save cleans up after the dead process.
        try SafeFile.writeAtomically(Array("next".utf8), to: path, expecting: nil)
        #expect(folder.entries() == ["board.md"])
    }

    /// Many rounds of a child saving A and B alternately, killed at a random moment of a save.
    @Test func killAtRandomMoments() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let a = boardBytes(1, count: 3 * SafeFile.chunkSize + 100)
        let b = boardBytes(2, count: 2 * SafeFile.chunkSize + 7)

        // Warm up, and learn how long a save takes to spread the kills over it.
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_MONOTONIC, &start)
        for round in 0..<6 { try SafeFile.writeAtomically(round % 2 == 0 ? b : a, to: path, expecting: nil) }
        clock_gettime(CLOCK_MONOTONIC, &end)
        let saveMicros = max(1, ((end.tv_sec - start.tv_sec) * 1_000_000 + (end.tv_nsec - start.tv_nsec) / 1000) / 6)

        var roundsLeavingTemp = 0
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<40 {
            let channel = makePipe()
            let child = forkChild {
                close(channel.read)
                var index = 0
                while true {
                    let ok = (try? SafeFile.writeAtomically(index % 2 == 0 ? b : a, to: path, expecting: nil)) != nil
                    var report: UInt8 = ok ? 1 : 2
                    _ = write(channel.write, &report, 1)
                    index += 1
                }
            }
            close(channel.write)
            let completedSaves = Int.random(in: 0...2, using: &rng)
            var reports: [UInt8?] = []
            for _ in 0..<completedSaves { reports.append(readByte(channel.read)) }
            usleep(UInt32(Int.random(in: 0...(2 * saveMicros), using: &rng)))
            killAndReap(child)
            close(channel.read)

            #expect(reports.allSatisfy { $0 == 1 }, "every save in the child succeeded: \(reports)")
            let now = try SafeFile.read(path).bytes
            #expect(now == a || now == b, "the board is whole after a kill (\(now.count) bytes)")
            let others = folder.entries().filter { $0 != "board.md" }
            #expect(others.allSatisfy { $0.hasPrefix(".board.md.lanes-tmp-\(child)-") }, "\(others)")
            if !others.isEmpty { roundsLeavingTemp += 1 }
            // Clean up as the next save of a real session would.
            try SafeFile.writeAtomically(now, to: path, expecting: nil)
            #expect(folder.entries() == ["board.md"])
        }
        print("killAtRandomMoments: \(roundsLeavingTemp) of 40 kills landed before a rename; save ≈ \(saveMicros) µs")
    }

    // MARK: - In-place saves (a hard-linked board), #40

    static let oldInPlace = boardBytes(1, count: 3 * SafeFile.chunkSize + 500)
    static let newInPlace = boardBytes(2, count: 3 * SafeFile.chunkSize + 99)

    /// Every write of an in-place save: each `pwrite`, the `ftruncate`, the `fsync`, the journal's removal.
    static let inPlaceSteps: [SafeFile.Step] =
        stride(from: 0, to: newInPlace.count, by: SafeFile.chunkSize).map { .writeInPlace(offset: $0) }
        + [.truncateInPlace, .syncInPlace, .removeJournal]

    /// Saves `newInPlace` over the hard-linked `path` in a child stopped and killed at `step`; the
    /// board's bytes as the kill left them.
    private func killInPlaceSave(at step: SafeFile.Step, path: String) throws -> [UInt8]? {
        try Self.killSave(of: Self.newInPlace, to: path, at: step)
        return contents(of: path)
    }

    /// Saves `new` to `path` in a forked child that stops when the save reaches `step` and is killed
    /// there; the child's process id.
    @discardableResult
    static func killSave(of new: [UInt8], to path: String, at step: SafeFile.Step) throws -> pid_t {
        let channel = makePipe()
        let child = forkChild {
            close(channel.read)
            let writeEnd = channel.write
            SafeFile.$faultInjector.withValue({ current, _ in
                if current == step {
                    var reached: UInt8 = 1
                    _ = write(writeEnd, &reached, 1)
                    while true { pause() }
                }
                return nil
            }) {
                _ = try? SafeFile.writeAtomically(new, to: path, expecting: nil)
            }
            var missed: UInt8 = 0
            _ = write(writeEnd, &missed, 1)
        }
        close(channel.write)
        defer { close(channel.read) }
        let report = readByte(channel.read)
        killAndReap(child)
        try #require(report == 1, "the child reached \(step) and stopped there")
        return child
    }

    /// Killed at any write of an in-place save, the next read of the board finishes the save from
    /// the journal: both names hold the new board, never new bytes followed by old ones; the file
    /// as found is kept beside it, said in words, and the journal is never deleted unread.
    @Test(arguments: inPlaceSteps)
    func killAtEveryWriteOfAnInPlaceSave(_ step: SafeFile.Step) throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        let other = folder.file("other-name.md")
        try SafeFile.writeAtomically(Self.oldInPlace, to: path, expecting: nil)
        #expect(link(path, other) == 0)

        let found = try #require(try killInPlaceSave(at: step, path: path))
        #expect(folder.entries().contains(".board.md.lanes-saving"), "the journal outlives the kill")
        if ![.writeInPlace(offset: 0), .syncInPlace, .removeJournal].contains(step) {
            #expect(found != Self.oldInPlace && found != Self.newInPlace, "the kill left a torn board at \(step)")
        }

        let (loaded, notes) = try StorageNotes.collecting { try FileBoardStore.load(path) }
        let loadedNew = loaded.board == (try BoardFormat.parse(Self.newInPlace, file: "new")).board
        #expect(loadedNew, "the board read is the new one")
        #expect(contents(of: path) == Self.newInPlace ? true : false, "the board holds the new bytes")
        #expect(contents(of: other) == Self.newInPlace ? true : false, "the other name sees the same board")
        #expect(lstatOrNil(path)!.st_ino == lstatOrNil(other)!.st_ino)
        if found == Self.newInPlace {
            #expect(notes.isEmpty, "a save that had written everything needs no words: \(notes)")
            #expect(folder.entries() == ["board.md", "other-name.md"])
        } else {
            #expect(notes.count == 1 && notes[0].contains("was interrupted"), "\(notes)")
            #expect(folder.entries() == [".board.md.lanes-interrupted", "board.md", "other-name.md"])
            let kept = contents(of: folder.file(".board.md.lanes-interrupted")) == found
            #expect(kept, "the file as found is kept")
        }
    }

    /// A save after the kill (another Lanes process, or the next command) finishes the dead save
    /// first and merges with the board it leaves; the journal is not replaced unread.
    @Test func aCommitAfterAKilledInPlaceSaveFinishesItFirst() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        try SafeFile.writeAtomically(Self.oldInPlace, to: path, expecting: nil)
        #expect(link(path, folder.file("other-name.md")) == 0)
        let store = FileBoardStore.unread(path)
        store.quietPeriod = 0
        let before = try store.load()

        _ = try killInPlaceSave(at: .writeInPlace(offset: SafeFile.chunkSize), path: path)
        var ours = before
        ours.columns[0].cards.append(Card(id: .fresh(), title: "added after the crash"))
        let (outcome, notes) = try StorageNotes.collecting { try store.commit(base: before, ours: ours) }
        #expect(notes.count == 1 && notes[0].contains("was interrupted"), "\(notes)")
        var expected = try BoardFormat.parse(Self.newInPlace, file: "new").board
        expected.columns[0].cards.append(Card(id: .fresh(), title: "added after the crash"))
        let saved = try FileBoardStore.load(path).board
        #expect(saved.columns.map { $0.cards.map(\.title) } == expected.columns.map { $0.cards.map(\.title) })
        #expect(outcome.board.columns.map { $0.cards.map(\.title) } == expected.columns.map { $0.cards.map(\.title) })
        #expect(!folder.entries().contains(".board.md.lanes-saving"))
    }

    /// A save of a hard-linked board killed while writing its temp file leaves that file; the next
    /// (in-place) save removes it, as a rename save always did.
    @Test func theNextInPlaceSaveRemovesADeadSavesTempFile() throws {
        let folder = ScratchFolder(); defer { folder.remove() }
        let path = folder.file("board.md")
        try SafeFile.writeAtomically(Self.oldInPlace, to: path, expecting: nil)
        #expect(link(path, folder.file("other-name.md")) == 0)
        _ = try killInPlaceSave(at: .write(offset: SafeFile.chunkSize), path: path)
        #expect(folder.entries().contains { $0.hasPrefix(".board.md.lanes-tmp-") }, "the kill left a temp file")
        try SafeFile.writeAtomically(Self.newInPlace, to: path, expecting: nil)
        #expect(folder.entries() == ["board.md", "other-name.md"])
        #expect(contents(of: folder.file("other-name.md")) == Self.newInPlace ? true : false)
    }
}
