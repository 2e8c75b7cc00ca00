import DragKit
import Foundation
import LanesCore
import LanesTerminal

/// `lanes-bench --workspace [--ws-boards 20] [--ws-cards 1000]`: a workspace of many boards
/// (#27): how long opening them takes (the first board alone, then all), what switching to a
/// board costs up to its full frame, and the resident memory of the workspace against one board.
func runWorkspaceBench(boards count: Int, cards: Int, size: Size = Size(width: 120, height: 40)) {
    let dir = makeTempDir()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let paths = (0..<count).map { dir + "/board\($0).md" }
    let text = BoardGenerator.markdown(cards: cards)
    for p in paths { writeFile(text, p) }
    say("workspace: \(count) boards × \(cards) cards, \(size.width)x\(size.height)")

    func open(_ path: String) -> BoardApp {
        guard let (_, board, _) = try? FileBoardStore.open(path, starter: nil) else { fatalError("cannot open \(path)") }
        return BoardApp(board: board, title: "Lanes · \((path as NSString).lastPathComponent)", size: size)
    }
    let rssBefore = currentRSSkB()
    let (first, firstMs) = timed { open(paths[0]) }
    let rssOne = currentRSSkB() - rssBefore
    let (rest, restMs) = timed { paths.dropFirst().map(open) }
    let apps = [first] + rest
    var ws = Workspace(boards: apps, tabs: paths.map { Workspace.Tab(name: ($0 as NSString).lastPathComponent) }, size: size)
    let rssAll = currentRSSkB() - rssBefore
    var buf = CellBuffer(width: size.width, height: size.height)
    ws.render(into: &buf, now: 0)

    // Switching: to the next board, and its whole frame drawn (what the terminal is then sent).
    var switches: [Double] = []
    for k in 0..<(count * 5) {
        let t0 = nanos()
        ws.show((k + 1) % count)
        ws.render(into: &buf, now: 0)
        switches.append(ms(nanos() - t0))
    }
    say("  open the first board            \(fmt(firstMs)) ms")
    say("  open the other \(count - 1) boards       \(fmt(restMs)) ms (one after another, before the first frame)")
    // The first visit of each board draws its frame anew; later visits find it in the board's frame cache.
    let firstVisits = Array(switches.prefix(count))
    let later = Array(switches.dropFirst(count))
    say("  switch + full frame, first visit median \(fmt(firstVisits.median)) ms, max \(fmt(firstVisits.max() ?? .nan)) ms (\(firstVisits.count) boards)")
    say("  switch + full frame, again      median \(fmt(later.median)) ms, p95 \(fmt(later.percentile(95))) ms, max \(fmt(later.max() ?? .nan)) ms (\(later.count) switches)")
    // The first board's own growth undercounts it (memory freed after writing the files is reused), so
    // the workspace's growth is given per board as well.
    say("  resident memory                 all \(count) boards +\(rssAll / 1024) MB (\(String(format: "%.1f", Double(rssAll) / 1024 / Double(count))) MB a board on average; the first board alone +\(rssOne / 1024) MB)")
    withExtendedLifetime(ws) {}
}
