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

        let channel = makePipe()
        let step = point.step
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
}
