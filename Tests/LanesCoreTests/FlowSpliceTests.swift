import SeededRandom
import Testing
@testable import LanesCore

/// Reading a version from the one before (`VersionSplice`, `LineDiff`) against reading it whole:
/// seeded random line edits of taskell boards, valid and broken.
@Suite("Flow: versions read by their changed lines")
struct FlowSpliceTests {
    static let pool = [
        "- new card", "    > a note", "", "    * [ ] a sub-task", "    * [x] done sub-task", "    @ 2024-03-01",
        "junk line", "## Added column", "- Task 1 amber", "\t- tabbed", "    > second note", "- [ ] obsidian-ish",
    ]

    /// A board's text as lines (each without its line feed).
    static func start(_ rng: inout SplitMix64) -> [String] {
        var lines: [String] = []
        for (c, title) in ["Backlog", "Doing", "Review", "Done"].enumerated() {
            if c > 0 { lines.append("") }
            lines.append("## \(title)")
            lines.append("")
            for k in 0..<(2 + Int(rng.next() % 6)) {
                lines.append("- Task \(c * 10 + k) \(["amber", "birch", "cedar"][k % 3])")
                if rng.next() % 3 == 0 { lines.append("    > note \(k)") }
                if rng.next() % 4 == 0 { lines.append("    * [ ] sub \(k)") }
            }
        }
        return lines
    }

    /// The line range of the card starting at `k`: its card line and the lines up to the next card, heading or blank.
    static func block(_ lines: [String], at k: Int) -> Range<Int> {
        var e = k + 1
        while e < lines.count && !lines[e].hasPrefix("- ") && !lines[e].hasPrefix("## ") && !lines[e].isEmpty { e += 1 }
        return k..<e
    }

    static func mutate(_ lines: inout [String], _ rng: inout SplitMix64) {
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        for _ in 0..<(1 + int(2)) {
            let cards = lines.indices.filter { lines[$0].hasPrefix("- ") }
            switch int(10) {
            case 0...3 where !cards.isEmpty:
                // Move a card (with its details) before another card or after a heading's blank line.
                let b = block(lines, at: cards[int(cards.count)])
                let moved = Array(lines[b])
                lines.removeSubrange(b)
                let targets = lines.indices.filter {
                    lines[$0].hasPrefix("- ") || ($0 > 0 && lines[$0 - 1].hasPrefix("## "))
                }
                let to = targets.isEmpty ? lines.count : targets[int(targets.count)]
                lines.insert(contentsOf: moved, at: to)
            case 4 where !cards.isEmpty:
                let k = cards[int(cards.count)]
                lines[k] += [" edited", " (again)", " amber"][int(3)]
            case 5:
                lines.insert(pool[int(pool.count)], at: int(lines.count + 1))
            case 6 where !lines.isEmpty:
                lines.remove(at: int(lines.count))
            case 7 where !cards.isEmpty:
                // A duplicate of a card, next to it or elsewhere.
                let b = block(lines, at: cards[int(cards.count)])
                let copy = Array(lines[b])
                let to = int(2) == 0 ? b.upperBound : (cards.randomElement(using: &rng) ?? 0)
                lines.insert(contentsOf: copy, at: min(to, lines.count))
            case 8 where !lines.isEmpty:
                let k = int(lines.count)
                lines[k] = lines[k].hasPrefix("## ") ? lines[k] + " renamed" : lines[k] + " x"
            default:
                let k = cards.isEmpty ? lines.count : cards[int(cards.count)]
                lines.insert("- Card \(rng.next() % 1000)", at: k)
            }
        }
    }

    static func bytes(_ lines: [String], crlf: Bool = false) -> [UInt8] {
        Array(lines.map { $0 + (crlf ? "\r\n" : "\n") }.joined().utf8)
    }

    static func contents(_ board: Board) -> [String] {
        board.columns.map { c in
            c.title + ": "
                + c.cards.map { card in
                    [
                        card.title, card.due ?? "-", card.descriptionLines.joined(separator: "/"),
                        card.subtasks.map { "\($0.done) \($0.title)" }.joined(separator: "/"), "\(card.done)",
                        card.extraLines.joined(separator: "/"),
                    ].joined(separator: "|")
                }.joined(separator: " ; ")
        }
    }

    @Test(
        "a spliced version is the board a whole parse gives; what the splice cannot vouch for is refused",
        arguments: 1...6)
    func spliceAgreesWithWholeParse(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(seed))
        var lines = Self.start(&rng)
        let crlf = seed % 3 == 0
        var last = Self.bytes(lines, crlf: crlf)
        var lastBoard = try BoardFormat.parse(last, file: "start").board
        var splice = VersionSplice(bytes: last, board: lastBoard)
        #expect(splice != nil)
        var spliced = 0, refusedValid = 0, broken = 0
        for _ in 0..<400 {
            var next = lines
            Self.mutate(&next, &rng)
            let text = Self.bytes(next, crlf: crlf)
            let whole = try? BoardFormat.parse(text, file: "next").board
            let step = splice?.next(text)
            if let step {
                let parsed = try #require(whole, "the splice read a version the whole parse refuses")
                #expect(Self.contents(step.board) == Self.contents(parsed))
                // The unchanged cards are the old board's, in order, less those removed.
                let oldFlat = lastBoard.columns.flatMap { Array($0.cards) },
                    newFlat = step.board.columns.flatMap { Array($0.cards) }
                let keptOld = oldFlat.indices.filter { !step.removed.contains($0) }.map { oldFlat[$0] }
                let keptNew = newFlat.indices.filter { !step.added.contains($0) }.map { newFlat[$0] }
                #expect(keptOld.map(\.id) == keptNew.map(\.id))
                #expect(Set(newFlat.map(\.id)).count == newFlat.count, "card identities stay unique")
                spliced += 1
            } else if let whole {
                refusedValid += 1
                splice = VersionSplice(bytes: text, board: whole)
            } else {
                broken += 1
            }
            if let whole {
                lines = next
                last = text
                lastBoard = step?.board ?? whole
            }
        }
        _ = last
        // The fast path is the common one, and the script reaches the others.
        #expect(spliced > 150, "spliced \(spliced), refused \(refusedValid), broken \(broken)")
        #expect(refusedValid > 0 && broken > 0)
    }

    @Test(
        "events from spliced versions are the events of whole matches (boards whose card titles are distinct)",
        arguments: 1...4)
    func chainAgrees(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(100 + seed))
        var lines = Self.start(&rng)
        var text = Self.bytes(lines)
        var board = try BoardFormat.parse(text, file: "start").board
        var whole = VersionChain(), fast = VersionChain()
        whole.add(board, at: 0)
        fast.add(board, at: 0)
        var splice = VersionSplice(bytes: text, board: board)
        var time: FlowTime = 0
        for _ in 0..<300 {
            var next = lines
            Self.mutate(&next, &rng)
            let nextText = Self.bytes(next)
            guard let parsed = try? BoardFormat.parse(nextText, file: "next").board else { continue }
            // Equal cards are told apart by position, which a whole match and a line diff may weigh differently.
            let titles = parsed.columns.flatMap { $0.cards.map(\.title) }
            guard Set(titles).count == titles.count else { continue }
            time += 60
            whole.add(parsed, at: time)
            if let step = splice?.next(nextText) {
                fast.add(step.board, removed: step.removed, added: step.added, at: time)
            } else {
                fast.add(parsed, at: time)
                splice = VersionSplice(bytes: nextText, board: parsed)
            }
            lines = next
            text = nextText
            board = parsed
        }
        _ = (text, board)
        let f = fast.takeEvents(), w = whole.takeEvents()
        if let i = (0..<min(f.count, w.count)).first(where: { f[$0] != w[$0] }) {
            Issue.record(
                "first difference at event \(i): spliced \(f[max(0, i - 3)...min(f.count - 1, i + 3)]) whole \(w[max(0, i - 3)...min(w.count - 1, i + 3)])"
            )
        }
        #expect(f.count == w.count)
        #expect(fast.lastKeys == whole.lastKeys)
    }

    /// A board whose titles are five words (so that an edit of one, two or three of them falls on
    /// either side of the matcher's likeness thresholds), some with a `#tag`.
    static func wordyStart(_ rng: inout SplitMix64) -> [String] {
        var lines: [String] = []
        for (c, title) in ["Backlog", "Doing", "Review", "Done"].enumerated() {
            if c > 0 { lines.append("") }
            lines.append("## \(title)")
            lines.append("")
            for k in 0..<(3 + Int(rng.next() % 7)) {
                lines.append("- " + wordyTitle(c * 10 + k, &rng))
                if rng.next() % 4 == 0 { lines.append("    > note \(k)") }
            }
        }
        return lines
    }

    static let wordPool = ["amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "heron", "iris", "juniper"]

    static func wordyTitle(_ n: Int, _ rng: inout SplitMix64) -> String {
        let w = (0..<3).map { _ in wordPool[Int(rng.next() % UInt64(wordPool.count))] }
        return "Task \(n) \(w.joined(separator: " "))" + (rng.next() % 4 == 0 ? " #t\(rng.next() % 3)" : "")
    }

    /// Title edits in place (a word added, dropped, or one to all of them changed; a tag changed),
    /// a card replaced by another at its place, a card gone and another new in its column, moves,
    /// and now and then the line edits of `mutate`.
    static func mutateTitles(_ lines: inout [String], _ rng: inout SplitMix64, serial: inout Int) {
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(max(1, n))) }
        let cards = lines.indices.filter { lines[$0].hasPrefix("- ") }
        guard !cards.isEmpty else { return mutate(&lines, &rng) }
        let k = cards[int(cards.count)]
        serial += 1
        switch int(12) {
        case 0:
            lines[k] += " " + wordPool[int(wordPool.count)]
        case 1:
            var w = lines[k].split(separator: " ").map(String.init)
            if w.count > 3 { w.remove(at: 3 + int(w.count - 3)) }
            lines[k] = w.joined(separator: " ")
        case 2...4:
            // One, two or three words changed (the number stays: titles stay distinct).
            var w = lines[k].split(separator: " ").map(String.init)
            for _ in 0..<(1 + int(3)) where w.count > 3 { w[3 + int(w.count - 3)] = "w\(serial)x\(int(99))" }
            lines[k] = w.joined(separator: " ")
        case 5:
            lines[k] =
                lines[k].contains("#")
                ? String(lines[k].prefix(while: { $0 != "#" })).trimmingTrailingSpaces()
                : lines[k] + " #t\(int(3))"
        case 6:
            // Replaced at its place by another card, alike or not.
            lines[k] =
                "- "
                + (int(2) == 0 ? wordyTitle(1_000 + serial, &rng) : "Other \(serial) " + wordPool[int(wordPool.count)])
        case 7:
            // One card gone, another new elsewhere in the same column.
            let b = block(lines, at: k)
            lines.removeSubrange(b)
            var at = b.lowerBound
            while at > 0 && !lines[at - 1].hasPrefix("## ") && !lines[at - 1].isEmpty && int(3) > 0 { at -= 1 }
            lines.insert("- " + wordyTitle(2_000 + serial, &rng), at: at)
        case 8:
            // Two titles edited in one version, one of them next to the other.
            lines[k] += " " + wordPool[int(wordPool.count)]
            if let n = cards.first(where: { $0 > k }) {
                lines[n] = lines[n].replacingOccurrences(of: "Task", with: "Job")
            }
        case 9, 10:
            mutate(&lines, &rng)
        default:
            // A move with an edit on the way.
            let b = block(lines, at: k)
            var moved = Array(lines[b])
            moved[0] += " moved"
            lines.removeSubrange(b)
            let targets = lines.indices.filter {
                lines[$0].hasPrefix("- ") || ($0 > 0 && lines[$0 - 1].hasPrefix("## "))
            }
            lines.insert(contentsOf: moved, at: targets.isEmpty ? lines.count : targets[int(targets.count)])
        }
    }

    @Test(
        "title edits, replacements and moves: the changed cards alone are paired as the whole match pairs them, with no whole match",
        arguments: 1...8)
    func chainAgreesOnTitleEdits(seed: Int) throws {
        var rng = SplitMix64(seed: UInt64(200 + seed))
        var lines = Self.wordyStart(&rng)
        let crlf = seed % 2 == 0
        var text = Self.bytes(lines, crlf: crlf)
        let board = try BoardFormat.parse(text, file: "start").board
        var whole = VersionChain(), fast = VersionChain()
        whole.add(board, at: 0)
        fast.add(board, at: 0)
        var splice = VersionSplice(bytes: text, board: board)
        var time: FlowTime = 0, serial = 0, refused = 0, renamedInPlace = 0
        for _ in 0..<400 {
            var next = lines
            Self.mutateTitles(&next, &rng, serial: &serial)
            let nextText = Self.bytes(next, crlf: crlf)
            guard let parsed = try? BoardFormat.parse(nextText, file: "next").board else { continue }
            // Equal cards are told apart by position, which a whole match and a line diff may weigh
            // differently (a changed card with a twin goes whole; twins that did not change may not agree).
            let titles = parsed.columns.flatMap { $0.cards.map(\.title) }
            guard Set(titles).count == titles.count else { continue }
            time += 60
            let before = whole.events.count
            whole.add(parsed, at: time)
            if let step = splice?.next(nextText) {
                fast.add(step.board, removed: step.removed, added: step.added, at: time)
            } else {
                refused += 1
                fast.add(parsed, at: time)
                splice = VersionSplice(bytes: nextText, board: parsed)
            }
            // The whole match kept a card under a new title in its column.
            for case .card(_, let card, _, let column?, _) in whole.events[before...]
            where whole.lastKeys.contains(card) && column == whole.events[..<before].lastColumn(of: card) {
                renamedInPlace += 1
            }
            lines = next
            text = nextText
        }
        _ = text
        let f = fast.takeEvents(), w = whole.takeEvents()
        if let i = (0..<min(f.count, w.count)).first(where: { f[$0] != w[$0] }) {
            Issue.record(
                "first difference at event \(i): spliced \(f[max(0, i - 3)...min(f.count - 1, i + 3)]) whole \(w[max(0, i - 3)...min(w.count - 1, i + 3)])"
            )
        }
        #expect(f.count == w.count)
        #expect(fast.lastKeys == whole.lastKeys)
        // Only the versions the splice refused were matched whole, and pairs by place were decided locally.
        #expect(fast.wholeMatches == refused + fast.twins)
        #expect(
            fast.localSlotPairs > 30 && renamedInPlace > 30,
            "\(fast.localSlotPairs) local pairs by place, \(renamedInPlace) renamed in place")
    }

    @Test("an edited title keeps its card when its slot says so, without a whole match: exact events")
    func titleEditsInPlace() throws {
        func board(_ todo: [String], _ done: [String]) -> [UInt8] {
            Array(
                ("## Todo\n\n" + todo.map { "- \($0)\n" }.joined() + "\n## Done\n\n" + done.map { "- \($0)\n" }.joined())
                    .utf8)
        }
        let versions = [
            board(
                ["Alpha one two three four", "Bravo five six seven eight", "Charlie nine ten eleven twelve"],
                ["Delta x y z w"]),
            // Two of five words changed: alike only in an exact slot (Alpha before, Charlie after, both unchanged).
            board(
                ["Alpha one two three four", "Bravo five six changed words", "Charlie nine ten eleven twelve"],
                ["Delta x y z w"]),
            // Three of five: not alike, so the old card left and a new one came.
            board(
                ["Alpha one q r s", "Bravo five six changed words", "Charlie nine ten eleven twelve"], ["Delta x y z w"]
            ),
            // The last card of its column, two words changed: an exact slot at the column's end.
            board(
                ["Alpha one q r s", "Bravo five six changed words", "Charlie nine ten other words"], ["Delta x y z w"]),
            // Two words changed with the card after it new (Bravo moved there, its title changed too,
            // so a new card as well): not an exact slot, so not alike.
            board(
                ["Alpha one q r s", "Charlie nine ten other words"],
                ["Delta x new word w", "Bravo five six changed words now"]),
        ]
        var (whole, fast) = try Self.bothWays(versions)
        let expected: [FlowEvent] = [
            .card(time: 60, card: 2, title: "Bravo five six changed words", column: 1),
            .card(time: 120, card: 1, title: "Alpha one two three four", column: nil),
            .card(time: 120, card: 5, title: "Alpha one q r s", column: 1),
            .card(time: 180, card: 3, title: "Charlie nine ten other words", column: 1),
            .card(time: 240, card: 2, title: "Bravo five six changed words", column: nil),
            .card(time: 240, card: 4, title: "Delta x y z w", column: nil),
            .card(time: 240, card: 6, title: "Delta x new word w", column: 2),
            .card(time: 240, card: 7, title: "Bravo five six changed words now", column: 2),
        ]
        #expect(whole.takeEvents() == expected)
        #expect(fast.takeEvents() == expected)
        #expect(fast.lastKeys == [5, 3, 6, 7] && whole.lastKeys == fast.lastKeys)
        #expect(fast.wholeMatches == 0 && fast.localSlotPairs == 2)
    }

    /// `versions` (each spliced from the one before, a minute apart) read both ways: `whole`
    /// parses and matches each version whole, `fast` takes the splice's changed cards; the first
    /// version's events are taken from both.
    static func bothWays(_ versions: [[UInt8]]) throws -> (whole: VersionChain, fast: VersionChain) {
        var whole = VersionChain(), fast = VersionChain()
        let first = try BoardFormat.parse(versions[0], file: "v0").board
        whole.add(first, at: 0)
        fast.add(first, at: 0)
        _ = whole.takeEvents()
        _ = fast.takeEvents()
        let made = VersionSplice(bytes: versions[0], board: first)
        var splice = try #require(made)
        for (k, text) in versions.enumerated().dropFirst() {
            let next = splice.next(text)
            let step = try #require(next, "version \(k) is spliced")
            fast.add(step.board, removed: step.removed, added: step.added, at: FlowTime(k * 60))
            whole.add(try BoardFormat.parse(text, file: "v\(k)").board, at: FlowTime(k * 60))
        }
        return (whole, fast)
    }

    @Test("a changed card with a twin (an equal title, or equal but for tags) goes to the whole match: exact events")
    func twinsGoWhole() throws {
        func board(_ todo: [String], _ done: [String]) -> [UInt8] {
            Array(
                ("## Todo\n\n" + todo.map { "- \($0)\n" }.joined() + "\n## Done\n\n" + done.map { "- \($0)\n" }.joined())
                    .utf8)
        }
        let versions = [
            board(["Fix tests", "Write docs", "Fix tests", "Ship it"], ["Plan"]),
            // The second twin moves to Done: told apart by position, so the whole match decides.
            board(["Fix tests", "Write docs", "Ship it"], ["Plan", "Fix tests"]),
            // A tag added (no twin: matched alone, the same title but for tags).
            board(["Fix tests", "Write docs #p1", "Ship it"], ["Plan", "Fix tests"]),
            // A new card, a twin of that one but for its tag: the whole match decides.
            board(["Fix tests", "Write docs #p1", "Write docs", "Ship it"], ["Plan", "Fix tests"]),
            // No twin among the changed cards: matched alone.
            board(["Fix tests", "Write docs #p1", "Write docs", "Ship it now"], ["Plan", "Fix tests"]),
        ]
        var (whole, fast) = try Self.bothWays(versions)
        let expected: [FlowEvent] = [
            .card(time: 60, card: 3, title: "Fix tests", column: 2),
            .card(time: 120, card: 2, title: "Write docs #p1", column: 1),
            .card(time: 180, card: 6, title: "Write docs", column: 1),
            .card(time: 240, card: 4, title: "Ship it now", column: 1),
        ]
        #expect(whole.takeEvents() == expected)
        #expect(fast.takeEvents() == expected)
        #expect(fast.lastKeys == [1, 2, 6, 4, 5, 3] && whole.lastKeys == fast.lastKeys)
        #expect(fast.twins == 2 && fast.wholeMatches == 2)
    }

    @Test func lineDiffFindsTheFewChangedLines() {
        let a = ByteLines(Array("## A\n- one\n- two\n- three\n## B\n- four\n".utf8))
        let b = Array("## A\n- one\n- three\n## B\n- two\n- four\n".utf8)
        let ends = LineDiff.commonEnds(a, b)
        #expect(ends.top == 2 && ends.bottom == 1)
        let nb = a.following(b, top: ends.top, bottom: ends.bottom)
        #expect(nb.starts == ByteLines(b).starts)
        let hunks = LineDiff.hunks(a, nb, top: ends.top, bottom: ends.bottom)
        #expect(hunks == [LineHunk(old: 2..<3, new: 2..<2), LineHunk(old: 5..<5, new: 4..<5)])
        // A last line without a line feed is not shared with the same line that goes on.
        let c = ByteLines(Array("- a\n- b".utf8))
        let d = Array("- a\n- bc\n".utf8)
        let e = LineDiff.commonEnds(c, d)
        #expect(e.top == 1 && e.bottom == 0)
        #expect(c.following(d, top: e.top, bottom: e.bottom).starts == ByteLines(d).starts)
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}

extension ArraySlice where Element == FlowEvent {
    /// The column a card was last placed in by these events.
    fileprivate func lastColumn(of card: Int) -> Int?? {
        for case .card(_, let c, _, let column, _) in reversed() where c == card { return column }
        return nil
    }
}
