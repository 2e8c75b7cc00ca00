import DragKit
import LanesCore
import LanesTerminal

/// One step of a scripted drag: the bytes a terminal would send, and what kind of input it is.
struct ScriptStep {
    enum Kind: String { case press, motion, pageFlip, wheel, release }
    var kind: Kind
    var bytes: [UInt8]
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
/// Press on the first card of the first column, sweep right and left across the page
/// while going up and down the viewport (over cards, gaps, the gutters and the refusing
/// full column), flip to the next page with `]` mid-drag every two sweeps and back with
/// `[`, scroll the hovered column with the wheel now and then, and release (the drop).
func dragScript(layout l: ScreenLayout, motions: Int) -> [ScriptStep] {
    var steps: [ScriptStep] = []
    guard let c0 = l.columns.first, let last = l.columns.last else { return [] }
    let minX = c0.frame.minX + 1, maxX = last.frame.maxX - 2
    let minY = c0.viewport.minY, maxY = c0.viewport.maxY - 1
    var p = Point(x: c0.frame.minX + 3, y: c0.viewport.minY + 1)
    steps.append(ScriptStep(kind: .press, bytes: SGR.press(p)))
    var dx = 1, dy = 1
    var sweeps = 0
    var page = 0, pageDir = 1
    var n = 0
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
                steps.append(ScriptStep(kind: .pageFlip, bytes: Array((pageDir > 0 ? "]" : "[").utf8)))
            }
        }
        steps.append(ScriptStep(kind: .motion, bytes: SGR.drag(p)))
        n += 1
        if n % 400 == 200 { steps.append(ScriptStep(kind: .wheel, bytes: SGR.wheelDown(p))) }
    }
    steps.append(ScriptStep(kind: .release, bytes: SGR.release(p)))
    return steps
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
    func color(_ c: Style.Color, base: Int) -> String { c == .default ? "\(base + 9)" : "\(base + Int(c.rawValue) - 1)" }
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
