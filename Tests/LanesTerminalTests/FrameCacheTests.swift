import DragKit
@testable import LanesCore
import SeededRandom
import Testing
@testable import LanesTerminal

/// The board layer kept between frames must never show anything a fresh drawing would not.
@Suite struct FrameCacheTests {
    /// A board wide and long enough for pages, scrolling and a full WIP column.
    static func board() -> Board {
        var next: UInt64 = 1
        let columns = (0..<9).map { c in
            Column(
                title: "Col \(c)",
                cards: (0..<(c == 2 ? 3 : 4 + c * 5)).map { i in
                    defer { next += 1 }
                    return Card(
                        id: CardID(next),
                        title: i % 3 == 0 ? "card \(c).\(i) 看板 🚀 a longer title that wraps" : "card \(c).\(i)",
                        descriptionLines: i % 4 == 1 ? ["notes"] : [])
                }, wipLimit: c == 2 ? 3 : nil)
        }
        return Board(columns: columns)
    }

    /// Random mouse drags (with wheel, page keys and edge dwell), keyboard lifts and moves,
    /// filter and undo; after every event the app's cached frame equals a fresh full drawing.
    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func cachedFramesEqualFreshDrawings(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var driver = AppDriver(board: Self.board(), width: [80, 100, 60][Int(seed % 3)], height: 20)
        var pointer = (x: 5, y: 4)
        var pressed = false
        var frames = 0
        var differentFrames = Set<CellBuffer>()
        for step in 0..<600 {
            let w = driver.app.size.width, h = driver.app.size.height
            switch random.next() % 20 {
            case 0..<9:
                pointer.x = max(0, min(w - 1, pointer.x + Int(random.next() % 7) - 3))
                pointer.y = max(0, min(h - 1, pointer.y + Int(random.next() % 5) - 2))
                driver.mouse(pressed ? .drag : .press, pointer.x, pointer.y)
                pressed = true
            case 9:
                driver.mouse(.release, pointer.x, pointer.y)
                pressed = false
            case 10:
                driver.mouse(random.next() % 2 == 0 ? .wheelDown : .wheelUp, pointer.x, pointer.y, button: .none)
            case 11:
                driver.key([.char("]"), .char("["), .char(" "), .escape][Int(random.next() % 4)])
            case 12..<16:
                driver.key(
                    [.up, .down, .left, .right, .char("j"), .char("l"), .char("k"), .char("h")][Int(random.next() % 8)])
            case 16:
                driver.key([.char("u"), .char("L"), .char("H"), .char("v")][Int(random.next() % 4)])
            case 17:
                driver.now += 0.6  // let animations, the dwell and auto-scroll run
                driver.app.tick(now: driver.now)
            case 18:
                driver.app.resize(
                    Size(
                        width: [80, 100, 60, 120][Int(random.next() % 4)], height: [20, 24, 30][Int(random.next() % 3)])
                )
            default:
                if step % 7 == 0 {
                    driver.key(.char("/"))
                    driver.type(["card 3", "看板", ""][Int(random.next() % 3)])
                    driver.key(.enter)
                }
            }
            // A tap on the selected card opens its detail, one on "? help" the help, over the board;
            // this test is about the board.
            if case .detail = driver.app.mode { driver.key(.escape) }
            if case .help = driver.app.mode { driver.key(.escape) }
            var cached = CellBuffer(width: 0, height: 0)
            driver.app.render(into: &cached, now: driver.now)
            var fresh = CellBuffer(width: driver.app.size.width, height: driver.app.size.height)
            BoardView.draw(driver.app.scene(now: driver.now), into: &fresh)
            let same = cached == fresh
            #expect(same, "seed \(seed), step \(step): the cached frame differs\n\(cached.text)\n---\n\(fresh.text)")
            if !same { return }
            frames += 1
            differentFrames.insert(cached)
        }
        // The session really moved things around: many distinct frames were compared.
        #expect(frames == 600)
        #expect(differentFrames.count > 100)
    }

    /// While a card is dragged, motion after motion reuses the board layer, even across
    /// columns (the target's header is drawn over it); scrolling a column draws a new one.
    @Test func motionReusesTheBoardLayer() {
        var spec = sampleBoard().columns.map { ($0.title, $0.cards.map(\.title)) }
        spec[1].1 += (0..<20).map { "more \($0)" }
        var driver = AppDriver(board: sampleBoard(spec), width: 80, height: 16)
        driver.mouse(.press, 3, 4)
        driver.mouse(.drag, 4, 5)
        _ = driver.screen()
        let layer = driver.app.frames.layer
        driver.mouse(.drag, 5, 5)
        _ = driver.screen()
        var same = driver.app.frames.layer == layer
        #expect(same)
        driver.mouse(.drag, 40, 5)
        let over = driver.screen()
        #expect(over.contains("Doing 22 ◆"))
        same = driver.app.frames.layer == layer
        #expect(same)
        driver.mouse(.wheelDown, 40, 8, button: .none)
        _ = driver.screen()
        same = driver.app.frames.layer == layer
        #expect(!same)
    }
}
