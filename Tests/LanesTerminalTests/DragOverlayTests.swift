import DragKit
@testable import LanesCore
import SeededRandom
import Testing
@testable import LanesTerminal

/// What a drag paints over the board: the drop marker never hides the ghost's text, and after
/// any resize mid-drag every card's marks (`●`) and `≡` are drawn once (#25 point 8).
@Suite struct DragOverlayTests {
    static func board() -> Board {
        var next: UInt64 = 1
        func card(_ t: String, desc: Bool) -> Card {
            defer { next += 1 }
            return Card(id: CardID(next), title: t, descriptionLines: desc ? ["notes"] : [])
        }
        return Board(columns: [
            Column(
                title: "To do",
                cards: [
                    card("first card with a long title that wraps", desc: true),
                    card("second with the words", desc: true), card("third", desc: false),
                ]),
            Column(title: "Doing", cards: [card("b0", desc: true), card("b1 with some words", desc: false)]),
            Column(title: "Done", cards: [card("c0", desc: true)]),
        ])
    }

    /// The cells the ghost alone shows inside its border, and the same cells in the frame.
    static func ghostInterior(_ app: BoardApp, frame: CellBuffer, now: Double) -> (alone: [String], shown: [String])? {
        let scene = app.scene(now: now)
        guard let g = scene.ghost, !scene.layout.tooSmall else { return nil }
        let size = app.size
        var alone = CellBuffer(width: size.width, height: size.height)
        let statusRows = BoardView.statusLines(
            scene.status, width: size.width, height: size.height,
            wraps: scene.wrapsStatus
        ).count
        let clip = Rect(x: 0, y: 1, width: size.width, height: max(0, size.height - 2))
        BoardView.drawCard(g.card, frame: g.frame, clip: clip, border: scene.theme.ghost, scene: scene, into: &alone)
        var a: [String] = [], s: [String] = []
        for y in stride(from: max(1, g.frame.minY + 1), to: min(size.height - statusRows, g.frame.maxY - 1), by: 1) {
            for x in stride(from: max(0, g.frame.minX + 1), to: min(size.width, g.frame.maxX - 1), by: 1) {
                a.append(alone[x, y].text)
                s.append(frame[x, y].text)
            }
        }
        return (a, s)
    }

    @Test func theMarkerBesideTheGhostLeavesItsTitleWhole() {
        var d = AppDriver(board: Self.board(), width: 100, height: 30)
        // Lift the first card by its title and carry it over Doing, between b0 and b1.
        d.mouse(.press, 4, 4)
        for p in [(10, 4), (20, 5), (30, 5), (40, 5), (40, 6)] { d.mouse(.drag, p.0, p.1) }
        var buf = CellBuffer(width: 100, height: 30)
        d.app.render(into: &buf, now: d.now)
        let ghost = try! #require(Self.ghostInterior(d.app, frame: buf, now: d.now))
        #expect(ghost.shown == ghost.alone, "\(buf.text)")
        // The ghost overhangs Doing's right edge: the marker shows its left end only.
        #expect(buf.text.contains("▶ ──│ that wraps") || buf.text.contains("▶──│ that wraps"), "\(buf.text)")
    }

    /// Random drags with resizes in the middle: after every event the ghost's text is whole,
    /// and no card shows its `●` or `≡` twice.
    @Test(arguments: [11, 12, 13, 14, 15, 16, 17, 18] as [UInt64])
    func ghostTextAndMarksSurviveDragsAndResizes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var d = AppDriver(board: Self.board(), width: 100, height: 30)
        d.key(.char("v"))
        d.key(.char("j"))
        d.key(.char("v"))
        var pointer = (x: 4, y: 4)
        var pressed = false
        var checkedGhosts = 0
        for step in 0..<400 {
            let w = d.app.size.width, h = d.app.size.height
            switch random.next() % 12 {
            case 0..<8:
                pointer.x = max(0, min(w - 1, pointer.x + Int(random.next() % 9) - 4))
                pointer.y = max(0, min(h - 1, pointer.y + Int(random.next() % 5) - 2))
                d.mouse(pressed ? .drag : .press, pointer.x, pointer.y)
                pressed = true
            case 8:
                d.mouse(.release, pointer.x, pointer.y)
                pressed = false
                d.key(.char("u"))
            case 9, 10:
                d.app.resize(
                    Size(
                        width: [100, 70, 60, 45, 120][Int(random.next() % 5)],
                        height: [30, 24, 16, 12][Int(random.next() % 4)]))
            default:
                d.now += 0.6
                d.app.tick(now: d.now)
            }
            var buf = CellBuffer(width: d.app.size.width, height: d.app.size.height)
            d.app.render(into: &buf, now: d.now)
            if let ghost = Self.ghostInterior(d.app, frame: buf, now: d.now) {
                checkedGhosts += 1
                #expect(
                    ghost.shown == ghost.alone, "seed \(seed) step \(step): the ghost's text is covered\n\(buf.text)")
            }
            // The board under the ghost: a card hidden behind it may show its own `≡`.
            if let g = d.app.scene(now: d.now).ghost {
                buf.fill(x: g.frame.minX, y: g.frame.minY, width: g.frame.width, height: g.frame.height)
            }
            for row in buf.text.split(separator: "\n", omittingEmptySubsequences: false) {
                // One card per column per row: a row of a column shows `≡` and `●` at most once.
                for column in d.app.layout.columns {
                    let cells = Array(row).dropFirst(min(row.count, column.frame.minX)).prefix(column.frame.width)
                    #expect(cells.filter { $0 == "≡" }.count <= 1, "seed \(seed) step \(step)\n\(buf.text)")
                    #expect(cells.filter { $0 == "●" }.count <= 1, "seed \(seed) step \(step)\n\(buf.text)")
                }
            }
        }
        #expect(checkedGhosts > 20)
    }
}
