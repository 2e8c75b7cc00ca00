import DragKit
import LanesCore
import LanesTerminal

/// `lanes-bench --swimlanes`: a board of `cards` cards in 10 columns and 10 lanes (a tag each,
/// every tenth card in none), opened at 120×40 in lanes and as plain columns, a frame drawn, the
/// view switched with `S`, and a drag across lanes and columns, motion by motion (each with the
/// frame's tick and render).
enum SwimlaneBench {
    static let lanes = (0..<10).map { "team\($0)" }

    static func board(cards: Int, columns: Int = 10) -> Board {
        var next: UInt64 = 1
        var b = Board(columns: (0..<columns).map { c in
            Column(title: "Column \(c)", cards: (0..<(cards / columns)).map { i in
                defer { next += 1 }
                let tag = i % 11 == 10 ? "" : " #" + lanes[(i + c) % 11 % 10]
                return Card(id: ItemID(next), title: "Card \(c)-\(i) with some words to wrap" + tag)
            })
        })
        b.acceptRules.swimlanes = try! Swimlanes(lanes)
        return b
    }

    @MainActor static func run(cards: Int = 10_000, motions: Int = 400) -> [String] {
        let size = Size(width: 120, height: 40)
        let withLanes = board(cards: cards)
        var plain = withLanes
        plain.acceptRules.swimlanes = nil
        var out: [String] = ["swimlanes: \(cards) cards, 10 columns × 10 lanes (+ No lane), \(size.width)×\(size.height)"]
        func open(_ b: Board) -> (BoardApp, Double) {
            timed {
                var app = BoardApp(board: b, title: "bench", size: size)
                var buf = CellBuffer(width: size.width, height: size.height)
                app.render(into: &buf, now: 0)
                _ = app.handle(.key(.char("j"), []), now: 0)
                return app
            }
        }
        var opened: [Double] = [], openedPlain: [Double] = []
        for _ in 0..<5 {
            openedPlain.append(open(plain).1)
            opened.append(open(withLanes).1)
        }
        out.append("  open + first frame: lanes \(fmt(opened.median)) ms, columns \(fmt(openedPlain.median)) ms, ratio \(fmt(opened.median / openedPlain.median))")
        var (app, _) = open(withLanes)
        var switches: [Double] = []
        for _ in 0..<6 {
            switches.append(timed {
                _ = app.handle(.key(.char("S"), []), now: 0)
                var buf = CellBuffer(width: size.width, height: size.height)
                app.render(into: &buf, now: 0)
            }.1)
        }
        out.append("  switch the view (S + frame): median \(fmt(switches.median)) ms, max \(fmt(switches.max() ?? 0)) ms")
        guard let grid = app.layout.lanes, let from = grid.cells.first(where: { $0.itemCount > 0 }) else {
            out.append("  (no lanes shown: no drag measured)")
            return out
        }
        let start = Point(x: from.frame.minX + 3, y: from.frameOfItem(at: 0).minY + 1)
        var t = 1.0
        _ = app.handle(.mouse(MouseEvent(.press, .left, x: start.x, y: start.y)), now: t)
        var costs: [Double] = []
        var buf = CellBuffer(width: size.width, height: size.height)
        for k in 0..<motions {
            t += 0.004
            // Across columns and down across lanes, back and forth.
            let p = Point(x: start.x + (k * 7) % 100, y: start.y + (k * 3) % 30)
            let ns = nanos()
            _ = app.handle(.mouse(MouseEvent(.drag, .left, x: p.x, y: p.y)), now: t)
            app.tick(now: t)
            app.render(into: &buf, now: t)
            costs.append(us(nanos() - ns))
        }
        _ = app.handle(.mouse(MouseEvent(.release, .left, x: start.x, y: start.y)), now: t + 0.01)
        out.append("  drag motion (input + tick + frame): median \(fmt(costs.median)) µs, p99 \(fmt(costs.percentile(99))) µs over \(motions) motions")
        return out
    }
}
