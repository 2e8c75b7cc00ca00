import DragKit
import LanesCore
import LanesTerminal

/// One step of a scripted drag: the bytes a terminal would send after `wait` seconds, and what kind of input it is.
///
/// A `hold` sends nothing: the pointer rests and only the app's own deadlines (auto-scroll
/// steps, the edge dwell, animations) make frames, as the runner wakes for them.
struct ScriptStep {
    enum Kind: String { case press, motion, wheel, release, hold }
    var kind: Kind
    var bytes: [UInt8]
    var wait = 0.004
}

/// SGR (1006) mouse reports, 1-based coordinates, as xterm sends them with mode 1002.
enum SGR {
    static func press(_ p: Point) -> [UInt8] { Array("\u{1b}[<0;\(p.x + 1);\(p.y + 1)M".utf8) }
    static func drag(_ p: Point) -> [UInt8] { Array("\u{1b}[<32;\(p.x + 1);\(p.y + 1)M".utf8) }
    static func release(_ p: Point) -> [UInt8] { Array("\u{1b}[<0;\(p.x + 1);\(p.y + 1)m".utf8) }
    static func wheelDown(_ p: Point) -> [UInt8] { Array("\u{1b}[<65;\(p.x + 1);\(p.y + 1)M".utf8) }
}

/// Marks `count` cards with `v` across the first page's columns (ten from each, going down,
/// then the next column), and selects the first card again: the scripted drag grabs it.
func markCards(_ count: Int, in app: inout BoardApp) {
    guard count > 0 else { return }
    func key(_ k: Key) { _ = app.handle(.key(k, []), now: 0) }
    var marked = 0
    while marked < count {
        key(.char("v"))
        marked += 1
        if marked % 10 == 0 {
            key(.char("g"))
            key(.char("l"))
        } else {
            key(.char("j"))
        }
    }
    for _ in 0..<(count / 10 + 1) { key(.char("h")) }
    key(.char("g"))
    guard app.marked.count == count else { fatalError("marked \(app.marked.count) cards, wanted \(count)") }
}

/// A long drag across every column of every page, as a hand would make it: one cell per report.
///
/// Press on the first card of the first column, sweep right and left across the page while
/// going up and down the viewport (over cards, gaps, the gutters and the refusing full
/// column; near a viewport's top and bottom edge the auto-scroller steps), and every two
/// sweeps change page the way a hand does: through the board's edge, alternately flung
/// into the edge band (the flip is due at once) and crept into it and held there for the
/// dwell, then out again. Now and then a rest at a column's bottom edge (auto-scroll steps
/// only) and a wheel scroll; then release (the drop).
func dragScript(layout l: ScreenLayout, motions: Int) -> [ScriptStep] {
    var steps: [ScriptStep] = []
    guard let c0 = l.columns.first else { return [] }
    let board = l.boardArea
    let dwell = PageDwell.Config()  // the app starts from these (band, dwell time)
    let band = dwell.band
    // Sweeps stay clear of the flip bands; an edge visit goes into them.
    let minX = board.minX + band + 1, maxX = board.maxX - band - 2
    let minY = c0.viewport.minY, maxY = c0.viewport.maxY - 1
    var p = Point(x: c0.frame.minX + 3, y: c0.viewport.minY + 1)
    steps.append(ScriptStep(kind: .press, bytes: SGR.press(p)))
    var dx = 1, dy = 1
    var sweeps = 0
    var page = 0, pageDir = 1
    var visits = 0
    var n = 0
    func move(to q: Point, wait: Double = 0.004) {
        while p != q && n < motions {
            p.x += (q.x > p.x ? 1 : q.x < p.x ? -1 : 0)
            p.y += (q.y > p.y ? 1 : q.y < p.y ? -1 : 0)
            steps.append(ScriptStep(kind: .motion, bytes: SGR.drag(p), wait: wait))
            n += 1
        }
    }
    while n < motions {
        // Diagonal-ish: x moves every event, y every second event.
        p.x += dx
        if n % 2 == 0 { p.y += dy }
        if p.y >= maxY || p.y <= minY { dy = -dy; p.y = min(max(p.y, minY), maxY) }
        if p.x >= maxX || p.x <= minX {
            dx = -dx
            p.x = min(max(p.x, minX), maxX)
            sweeps += 1
            if sweeps % 2 == 0, l.pageCount > 1 {
                if page + pageDir < 0 || page + pageDir >= l.pageCount { pageDir = -pageDir }
                page += pageDir
                let edge = Point(x: pageDir > 0 ? board.maxX - 1 : board.minX, y: p.y)
                let back = p
                visits += 1
                if visits % 2 == 1 {
                    move(to: edge)  // a fling: 250 cells/s into the band
                    steps.append(ScriptStep(kind: .hold, bytes: [], wait: 0.3))
                } else {
                    move(to: edge, wait: 0.06)  // a creep: 17 cells/s, then the dwell
                    steps.append(ScriptStep(kind: .hold, bytes: [], wait: dwell.dwell + 0.1))
                }
                move(to: back)
            }
        }
        steps.append(ScriptStep(kind: .motion, bytes: SGR.drag(p)))
        n += 1
        if n % 400 == 200 { steps.append(ScriptStep(kind: .wheel, bytes: SGR.wheelDown(p))) }
        if n % 1000 == 500 {
            // Rest at the bottom edge of the column under the pointer: auto-scroll steps alone.
            let back = p
            move(to: Point(x: p.x, y: maxY))
            steps.append(ScriptStep(kind: .hold, bytes: [], wait: 0.4))
            move(to: back)
        }
    }
    steps.append(ScriptStep(kind: .release, bytes: SGR.release(p)))
    return steps
}

/// What a frame of a scripted drag was, for the figures.
enum FrameKind: String, CaseIterable {
    /// Input frames.
    case motion, wheel, release
    /// Frames the app's deadlines made while the pointer rested (or between reports).
    case autoScroll, edgeFlip, tick
}

struct FrameSample {
    var kind: FrameKind
    /// Microseconds for decode + handle + tick + render + diff (and `present` when timed apart).
    var micros: Double
    var presentMicros: Double?
    var presentBytes: Int?
    var runs: [CellRun]
}

/// Runs a script through the app as `AppRunner` does: before each report, every deadline the
/// app asked for (`deadline(now:)`) that falls before it wakes the loop for a `tick` and a frame;
/// each report is decoded, handled, then `tick` and a frame. Time is simulated (no sleeping).
/// `present`, when given, gets every frame (a curses terminal on a pty) and is timed apart.
@MainActor func runDrag(
    _ app: inout BoardApp, script: [ScriptStep], start: Double,
    present: ((CellBuffer) -> (micros: Double, bytes: Int))? = nil,
    frame: (FrameSample) -> Void
) {
    var decoder = InputDecoder()
    var buf = CellBuffer(width: 0, height: 0)
    app.render(into: &buf, now: start)
    _ = present?(buf)
    var t = start
    func draw(_ kind: FrameKind, _ t0: UInt64) {
        let old = buf
        app.render(into: &buf, now: t)
        let runs = buf.diff(from: old)
        let dt = us(nanos() - t0)
        let shown = present?(buf)
        frame(FrameSample(kind: kind, micros: dt, presentMicros: shown?.micros, presentBytes: shown?.bytes, runs: runs))
    }
    for step in script {
        let due = t + step.wait
        while let d = app.deadline(now: t), d <= due {
            t = max(t, d)
            let page = app.page, scroll = app.scroll
            let t0 = nanos()
            app.tick(now: t)
            let kind: FrameKind = app.page != page ? .edgeFlip : app.scroll != scroll ? .autoScroll : .tick
            draw(kind, t0)
            if d <= t && app.deadline(now: t) == d { t += 0.001 }  // a deadline that did not move: step on
        }
        t = due
        guard step.kind != .hold else { continue }
        let t0 = nanos()
        for e in decoder.feed(step.bytes, now: t) { _ = app.handle(e, now: t) }
        let page = app.page
        app.tick(now: t)
        let kind: FrameKind =
            switch step.kind {
            case .wheel: .wheel
            case .release: .release
            default: app.page != page ? .edgeFlip : .motion
            }
        draw(kind, t0)
    }
}

/// Minimal bytes to turn one frame into the next: per run of changed cells (as
/// `CellBuffer.diff` finds them) one cursor move `ESC [ row ; col H`, plus the UTF-8
/// bytes of each changed cell's text (a wide character once; its right half adds nothing),
/// and, with `styles`, the attributes those cells need: an SGR sequence wherever a cell's
/// style differs from the pen (the shorter of changing what differs and resetting then
/// setting everything), the pen plain at the start, and one `ESC [ m` to leave it plain at
/// the end (as curses does, so nothing printed later inherits a colour).
func minimalDiffBytes(_ runs: [CellRun], styles: Bool) -> Int {
    var total = 0
    var pen = Style.plain
    for run in runs {
        total += 4 + digits(run.y + 1) + digits(run.x + 1)
        for cell in run.cells where !cell.isContinuation {
            if styles, cell.style != pen {
                total += sgrBytes(from: pen, to: cell.style)
                pen = cell.style
            }
            total += cell.text.utf8.count
        }
    }
    if styles, pen != .plain { total += 3 }
    return total
}

/// Bytes of the shortest `ESC [ … m` that turns pen `a` into `b`.
func sgrBytes(from a: Style, to b: Style) -> Int {
    func sequence(_ params: [String]) -> Int { params.isEmpty ? 0 : 3 + params.joined(separator: ";").utf8.count }
    func color(_ c: Style.Color, base: Int) -> String {
        c == .default ? "\(base + 9)" : "\(base + Int(c.rawValue) - 1)"
    }
    var set: [String] = []
    if b.bold { set.append("1") }
    if b.dim { set.append("2") }
    if b.underline { set.append("4") }
    if b.reverse { set.append("7") }
    if b.fg != .default { set.append(color(b.fg, base: 30)) }
    if b.bg != .default { set.append(color(b.bg, base: 40)) }
    let reset = b == .plain ? 3 : sequence(["0"] + set)
    var delta: [String] = []
    if (a.bold && !b.bold) || (a.dim && !b.dim) {
        delta.append("22")
        if b.bold { delta.append("1") }
        if b.dim { delta.append("2") }
    } else {
        if b.bold && !a.bold { delta.append("1") }
        if b.dim && !a.dim { delta.append("2") }
    }
    if a.underline != b.underline { delta.append(b.underline ? "4" : "24") }
    if a.reverse != b.reverse { delta.append(b.reverse ? "7" : "27") }
    if a.fg != b.fg { delta.append(color(b.fg, base: 30)) }
    if a.bg != b.bg { delta.append(color(b.bg, base: 40)) }
    return min(reset, sequence(delta))
}

func digits(_ n: Int) -> Int { n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : 4 }
