import DragKit
@testable import LanesCore
@testable import LanesTerminal

/// A small board with known titles: columns A, B, C.
func sampleBoard(
    _ spec: [(String, [String])] = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", [])]
) -> Board {
    var next: UInt64 = 1
    return Board(
        columns: spec.map { title, cards in
            Column(
                title: title,
                cards: cards.map { t in
                    defer { next += 1 }
                    return Card(id: CardID(next), title: t)
                })
        })
}

/// Titles per column, for comparing boards after moves.
func titles(_ board: Board) -> [[String]] {
    board.columns.map { $0.cards.map(\.title) }
}

/// A headless harness: drives a `BoardApp` with events and reads its frame as text.
struct AppDriver {
    var app: BoardApp
    var now = 100.0

    init(board: Board, width: Int = 80, height: Int = 16) {
        app = BoardApp(
            board: board, title: "Lanes · test.md", size: Size(width: width, height: height), status: "ready")
    }

    @discardableResult
    mutating func key(_ k: Key, _ mods: Modifiers = []) -> [AppEffect] {
        now += 0.05
        return app.handle(.key(k, mods), now: now)
    }

    mutating func type(_ text: String) {
        for ch in text { key(.char(ch)) }
    }

    mutating func mouse(_ kind: MouseEvent.Kind, _ x: Int, _ y: Int, button: MouseEvent.Button = .left) {
        now += 0.02
        _ = app.handle(.mouse(MouseEvent(kind, button, x: x, y: y)), now: now)
    }

    /// Press at one point, drag through the others, release at the last.
    mutating func drag(_ points: [(Int, Int)], release: Bool = true) {
        guard let first = points.first else { return }
        mouse(.press, first.0, first.1)
        for p in points.dropFirst() { mouse(.drag, p.0, p.1) }
        if release, let last = points.last { mouse(.release, last.0, last.1) }
    }

    func screen(at t: Double? = nil) -> String {
        var buf = CellBuffer(width: app.size.width, height: app.size.height)
        app.render(into: &buf, now: t ?? now)
        return buf.text
    }
}
