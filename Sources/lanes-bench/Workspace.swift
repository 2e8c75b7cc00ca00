import DragKit
import Foundation
import LanesCore
import LanesTerminal

/// `lanes-bench --workspace [--ws-boards 20] [--ws-cards 1000]`: a workspace of many boards
/// (#27): how long opening them takes (the first board alone, then all; and as Lanes opens them:
/// the first frame, then the others in the background), what switching to a board costs up to its
/// full frame, and the resident memory of the workspace against one board.
func runWorkspaceBench(boards count: Int, cards: Int, size: Size = Size(width: 120, height: 40)) {
    let dir = makeTempDir()
    defer { try? FileManager.default.removeItem(atPath: dir) }
    let paths = (0..<count).map { dir + "/board\($0).md" }
    let text = BoardGenerator.markdown(cards: cards)
    for p in paths { writeFile(text, p) }
    say("workspace: \(count) boards × \(cards) cards, \(size.width)x\(size.height)")

    func open(_ path: String) -> BoardApp {
        guard let (_, board, _) = try? FileBoardStore.open(path, starter: nil) else {
            fatalError("cannot open \(path)")
        }
        return BoardApp(board: board, title: "Lanes · \((path as NSString).lastPathComponent)", size: size)
    }
    let rssBefore = currentRSSkB()
    let (first, firstMs) = timed { open(paths[0]) }
    let rssOne = currentRSSkB() - rssBefore
    let (rest, restMs) = timed { paths.dropFirst().map(open) }
    let apps = [first] + rest
    var ws = Workspace(
        boards: apps, tabs: paths.map { Workspace.Tab(name: ($0 as NSString).lastPathComponent) }, size: size)
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
    say(
        "  open the other \(count - 1) boards       \(fmt(restMs)) ms (one after another, as if all opened before the first frame)"
    )
    runBackgroundOpening(paths: paths, size: size)
    runFolderOpening(dir: dir, size: size)
    // The first visit of each board draws its frame anew; later visits find it in the board's frame cache.
    let firstVisits = Array(switches.prefix(count))
    let later = Array(switches.dropFirst(count))
    say(
        "  switch + full frame, first visit median \(fmt(firstVisits.median)) ms, max \(fmt(firstVisits.max() ?? .nan)) ms (\(firstVisits.count) boards)"
    )
    say(
        "  switch + full frame, again      median \(fmt(later.median)) ms, p95 \(fmt(later.percentile(95))) ms, max \(fmt(later.max() ?? .nan)) ms (\(later.count) switches)"
    )
    // The first board's own growth undercounts it (memory freed after writing the files is reused), so
    // the workspace's growth is given per board as well.
    say(
        "  resident memory                 all \(count) boards +\(rssAll / 1024) MB (\(String(format: "%.1f", Double(rssAll) / 1024 / Double(count))) MB a board on average; the first board alone +\(rssOne / 1024) MB)"
    )
    withExtendedLifetime(ws) {}
}

/// The first frame of the first board, alone and as the first of a workspace whose other boards
/// open in the background (`BoardLoader`, as `lanes A.md B.md …` does), then how long the others
/// take to arrive and what a frame of the first board costs while they load.
func runBackgroundOpening(paths: [String], size: Size, rounds: Int = 5) {
    @Sendable func hosted(_ path: String) throws -> HostedBoard {
        let (store, board, _) = try FileBoardStore.open(path, starter: nil)
        let name = (path as NSString).lastPathComponent
        return HostedBoard(
            app: BoardApp(board: board, title: "Lanes · \(name)", size: size), tabName: name,
            storage: store, boardName: path, copyInfo: store.info)
    }
    var alone: [Double] = [], firstFrame: [Double] = [], allIn: [Double] = [], during: [Double] = []
    for _ in 0..<rounds {
        var buf = CellBuffer(width: size.width, height: size.height)
        // The first board alone: open it and draw its first frame.
        let t0 = nanos()
        guard let one = try? hosted(paths[0]) else { fatalError("cannot open \(paths[0])") }
        let solo = Workspace(boards: [one.app], tabs: [Workspace.Tab(name: one.tabName)], size: size)
        solo.render(into: &buf, now: 0)
        alone.append(ms(nanos() - t0))
        withExtendedLifetime(solo) {}

        // The same board first in a workspace of all: stand-ins for the others, the loader after the frame.
        let t1 = nanos()
        guard let first = try? hosted(paths[0]) else { fatalError("cannot open \(paths[0])") }
        let later = paths.dropFirst().map { p in
            BoardLoader.Later(tabName: (p as NSString).lastPathComponent) { try hosted(p) }
        }
        var ws = Workspace(
            boards: [first.app] + later.map { Workspace.standIn(named: $0.tabName, like: first.app) },
            tabs: [Workspace.Tab(name: first.tabName)] + later.map { Workspace.Tab(name: $0.tabName, loading: true) },
            size: size)
        ws.render(into: &buf, now: 0)
        firstFrame.append(ms(nanos() - t1))
        let loader = BoardLoader(later, firstIndex: 1)
        let t2 = nanos()
        loader.start()
        // A person working on the first board meanwhile: a frame every 16 ms, timed.
        while !loader.isDone {
            var fd = pollfd(fd: loader.descriptor, events: Int16(POLLIN), revents: 0)
            _ = poll(&fd, 1, 16)
            for (i, result) in loader.take() {
                guard case .success(let b) = result else { fatalError("a board did not open") }
                ws.loaded(i, b.app)
            }
            let f0 = nanos()
            ws.render(into: &buf, now: Double(f0) / 1e9)
            during.append(ms(nanos() - f0))
        }
        allIn.append(ms(nanos() - t2))
        withExtendedLifetime(ws) {}
    }
    say("  background opening (\(rounds) rounds, medians):")
    say("    first board alone, open + first frame          \(fmt(alone.median)) ms")
    say("    first board of \(paths.count), open + first frame         \(fmt(firstFrame.median)) ms")
    say("    the other \(paths.count - 1) boards opened after it, in        \(fmt(allIn.median)) ms")
    say(
        "    frames of the first board while they open: median \(fmt(during.median)) ms, max \(fmt(during.max() ?? .nan)) ms (\(during.count) frames)"
    )
}

/// `lanes DIR` up to its first frame: which files are boards decided from at most
/// `FolderBoards.prefixBytes` of each (now), against reading every file whole first (before),
/// and against the first board alone.
func runFolderOpening(dir: String, size: Size, rounds: Int = 7) {
    func firstFrame(_ path: String) {
        guard let (_, board, _) = try? FileBoardStore.open(path, starter: nil) else {
            fatalError("cannot open \(path)")
        }
        try? FolderBoards.confirm(board, path: path)
        let app = BoardApp(board: board, title: "Lanes · first", size: size)
        let ws = Workspace(boards: [app], tabs: [Workspace.Tab(name: "first")], size: size)
        var buf = CellBuffer(width: size.width, height: size.height)
        ws.render(into: &buf, now: 0)
    }
    var alone: [Double] = [], now: [Double] = [], before: [Double] = [], listing: [Double] = []
    var count = 0
    for _ in 0..<rounds {
        let (found, _) = try! FolderBoards.candidates(in: dir)
        count = found.count
        alone.append(timed { firstFrame(found[0]) }.1)
        listing.append(timed { _ = try! FolderBoards.candidates(in: dir) }.1)
        now.append(
            timed {
                let (boards, _) = try! FolderBoards.candidates(in: dir)
                firstFrame(boards[0])
            }.1)
        before.append(
            timed {
                // What `lanes DIR` did before: every Markdown file read whole to decide it was a board.
                let names = (try! FileManager.default.contentsOfDirectory(atPath: dir)).sorted().filter {
                    $0.hasSuffix(".md")
                }
                let boards = names.map { dir + "/" + $0 }.filter {
                    ((try? FileBoardStore.load($0))?.board.columns.isEmpty ?? true) == false
                }
                firstFrame(boards[0])
            }.1)
    }
    say("  lanes DIR, \(count) files, up to the first frame (\(rounds) rounds, median / min):")
    say("    first board alone                               \(fmt(alone.median)) / \(fmt(alone.min() ?? .nan)) ms")
    say(
        "    folder decided from ≤ \(FolderBoards.prefixBytes) B of each file (now)   \(fmt(now.median)) / \(fmt(now.min() ?? .nan)) ms"
    )
    say("    of which the folder's listing and prefixes      \(fmt(listing.median)) / \(fmt(listing.min() ?? .nan)) ms")
    say("    every file read whole first (before)            \(fmt(before.median)) / \(fmt(before.min() ?? .nan)) ms")
}
