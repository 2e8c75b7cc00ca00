// lanes-bench: the benchmarks of `make bench` (run it from a release build).
// Options: BenchOptions.swift (`lanes-bench --help` lists them; a mistyped flag is an error).
//
//   lanes-bench [--sizes 1000,10000,100000] [--motions 3000] [--json bench-results.json] [--no-pty] [--no-rss]
//   lanes-bench --only 10000 --rss --board FILE     peak RSS of one size, in a process of its own
//   lanes-bench --flow [--flow-check] [--flow-mix standard|edits|both]
//                                                   flow metrics alone: 10,000 commits of a 1,000-card board (--no-flow skips it;
//                                                   --flow-check: also read every version whole and compare the events)
//   lanes-bench --pg-flow [--pg-flow-rows 1000000]  flow metrics of a PostgreSQL board with 1M history rows (through scripts/pg-test-cluster with)
//   lanes-bench --mcp [--only 10000] [--lanes PATH]  a tool call of lanes mcp over stdio (read_board, move_card), median
//   lanes-bench --write-board 10000 FILE [--size 120x40] [--lean] [--geometry]
//                                                   writes a board, prints the title lines of the last card
//                                                   fully shown on its first screen (the end-to-end script waits for them)
import DragKit
import Foundation
import LanesCore
import LanesTerminal
#if canImport(Glibc)
    import Glibc
#endif

/// Prints a line now, even when stdout is a pipe (make).
func say(_ s: String) {
    print(s)
    fflush(nil)
}

// MARK: Arguments (BenchOptions.swift: a mistyped flag is an error, --help lists them)

let opts = BenchOptions.parseOrExit()
let sizes = opts.sizeList
let motions = opts.motions
let jsonPath = opts.json
let screens =
    opts.screen.flatMap(parseSize).map { [$0] } ?? [Size(width: 120, height: 40), Size(width: 80, height: 24)]
func on(_ phase: String) -> Bool { opts.on(phase) }

if opts.workspace {  // #27: Workspace.swift
    runWorkspaceBench(boards: opts.wsBoards, cards: opts.wsCards)
    exit(0)
}

if opts.pgFlow {
    FlowServerBench.run(rows: opts.pgFlowRows, cards: opts.pgFlowCards, keep: opts.pgFlowBoard).forEach(say)
    exit(0)
}

if opts.pgFold {  // #28: FoldServer.swift
    FoldServerBench.run(big: opts.pgFoldBig).forEach(say)
    exit(0)
}

if opts.swimlanes {  // #26: Swimlanes.swift
    SwimlaneBench.run(cards: opts.laneCards).forEach(say)
    exit(0)
}

if opts.pgTeam {  // #43: TeamLoad.swift
    runTeamLoad()
    exit(0)
}

if opts.pgLoad || opts.pgHistory {
    if opts.pgLoad { runPostgresLoad() }
    runPostgresHistory()
    exit(0)
}

// scripts/parse-instructions: one parse per shape, alone in the process (see ParseShapes.swift).
if ProcessInfo.processInfo.environment["LANES_SHAPES_ONCE"] != nil { try benchParseShapes().forEach(say); exit(0) }

func makeTempDir() -> String {
    var template = Array((NSTemporaryDirectory() + "lanes-bench-XXXXXX").utf8CString)
    guard let p = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: p)
}

/// Writes a benchmark's input; a benchmark that cannot write it has nothing to measure, so it stops.
func writeFile(_ bytes: [UInt8], _ path: String) {
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else {
        FileHandle.standardError.write(Data("lanes-bench: cannot write \(path)\n".utf8))
        exit(1)
    }
}

/// The app exactly as `lanes` starts it: default size, then the terminal's size.
func launchApp(_ board: Board, title: String, size: Size) -> BoardApp {
    var app = BoardApp(board: board, title: title, status: "", keymap: Keymap())
    app.resize(size)
    return app
}

// MARK: --flow (flow metrics on a long git history, alone)

if opts.jsonBench {
    try JSONBench.run(cards: opts.only ?? 100_000).forEach(say)
    exit(0)
}

if opts.mcp {  // #41: MCPBench.swift
    try MCPBench.run(cards: opts.only ?? 10_000, lanes: opts.lanesBinary).forEach(say)
    exit(0)
}

if opts.flow {
    FlowBench.run(check: opts.flowCheck, mixes: FlowBench.mixes(opts.flowMix) ?? []).forEach(say)
    exit(0)
}

// MARK: --write-board (for the end-to-end script)

if let n = opts.writeBoard, let path = opts.writeBoardFile {
    let size = (opts.size ?? opts.screen).flatMap(parseSize) ?? Size(width: 120, height: 40)
    let bytes = opts.lean ? BoardGenerator.leanMarkdown(cards: n) : BoardGenerator.markdown(cards: n)
    writeFile(bytes, path)
    let (board, _) = try BoardFormat.parse(bytes, file: path)
    let app = launchApp(board, title: "Lanes", size: size)
    // The title of the last fully shown card of the rightmost column, one line per row.
    let l = app.layout
    guard let c = l.columns.last, c.itemCount > 0 else { print(""); exit(0) }
    var i2 = c.firstItem(endingBelow: c.viewport.minY)
    var lastFull: Int?
    while i2 < c.itemCount, c.frameOfItem(at: i2).maxY <= c.viewport.maxY { lastFull = i2; i2 += 1 }
    guard let k = lastFull else { print(""); exit(0) }
    let face = CardFace(card: c.cards[k], width: c.frame.width, maxTitleLines: LayoutMetrics().maxTitleLines)
    for line in face.titleLines { print(line) }
    if opts.geometry, l.columns.count > 1 {
        // A point on the first title line of the first card of columns 0 and 1 (0-based cells).
        let a = l.columns[0], b = l.columns[1]
        print(
            "GEOMETRY \(a.frame.minX + 3) \(a.viewport.minY + 1) \(b.frame.minX + 3) \(b.viewport.minY + 1) \(a.column.title) \(b.column.title)"
        )
    }
    exit(0)
}

// MARK: --memory-probe FILE (where a launch's memory goes)

if let path = opts.memoryProbe {
    func rssNow() -> String { "rss \(currentRSSkB() / 1024) MB, peak \(peakRSSkB() / 1024) MB" }
    say("start: \(rssNow()); a Card takes \(MemoryLayout<Card>.stride) bytes in an array")
    let tRead = nanos()
    let (bytes, _) = try SafeFile.read(path)
    say("read and hashed \(bytes.count / 1_000_000) MB in \(fmt(ms(nanos() - tRead))) ms: \(rssNow())")
    let tHash = nanos()
    _ = ContentHasher.hash(bytes)
    say("(hashing alone: \(fmt(ms(nanos() - tHash))) ms)")
    let t0 = nanos()
    var (board, _) = try BoardFormat.parse(bytes, file: path)
    say("parsed \(board.cardCount) cards in \(fmt(ms(nanos() - t0))) ms: \(rssNow())")
    if opts.dropBytes { say("(bytes kept until the end)") }
    let t1 = nanos()
    let app = launchApp(board, title: "Lanes", size: screens[0])
    var buf = CellBuffer(width: 0, height: 0)
    app.render(into: &buf, now: 0)
    say("app + first frame in \(fmt(ms(nanos() - t1))) ms: \(rssNow())")
    board = Board()
    withExtendedLifetime(bytes) {}
    exit(0)
}

// MARK: --drop-probe N (what a drop costs, piece by piece, on the realistic N-card board)

if let n = opts.dropProbe {
    let (board, _) = try BoardFormat.parse(BoardGenerator.markdown(cards: n), file: "probe")
    let big = board.columns.indices.max { board.columns[$0].cards.count < board.columns[$1].cards.count }!
    let last = board.columns[big].cards.count - 1
    let id = board.columns[big].cards[last].id
    for round in 0..<3 {
        var t = nanos()
        let found = board.indexPath(for: id)
        let tFind = us(nanos() - t)
        var doc = BoardDocument(board: board)
        t = nanos()
        _ = doc.perform(
            DropProposal(
                items: [ItemID(id)],
                target: DropTarget(
                    section: (big + 1) % board.columns.count, index: 0, gap: 0,
                    anchor: board.columns[(big + 1) % board.columns.count].cards.first.map { ItemID($0.id) })))
        let tApply = us(nanos() - t)
        t = nanos()
        let same = doc.board == board
        let tEq = us(nanos() - t)
        say(
            "round \(round): indexPath \(fmt(tFind)) µs (\(found.map(String.init(describing:)) ?? "nil")), drop applied (one undo step) \(fmt(tApply)) µs, == \(fmt(tEq)) µs (\(same)); column of \(last + 1) cards"
        )
    }
    exit(0)
}

// MARK: --rss (child process)

if opts.rss {
    guard let path = opts.board, let n = opts.only else {
        FileHandle.standardError.write(Data("usage: lanes-bench --only N --rss --board FILE\n".utf8))
        exit(2)
    }
    let before = peakRSSkB()
    // What a session does: open, draw, drag across the board, drop, save.
    let (store, board, _) = try FileBoardStore.open(path, starter: nil)
    var app = launchApp(board, title: "Lanes", size: screens[0])
    runDrag(&app, script: dragScript(layout: app.layout, motions: motions), start: 0) { _ in }
    _ = try store.commit(base: store.known, ours: app.board)
    let peak = peakRSSkB()
    print("{\"cards\": \(n), \"vmhwm_kb\": \(peak), \"vmhwm_at_start_kb\": \(before)}")
    exit(0)
}

// MARK: The benchmark

var results: [String: Any] = [:]
var table: [(String, [String], String)] = []  // row label, value per size, target
let dir = makeTempDir()
defer { try? FileManager.default.removeItem(atPath: dir) }

struct SizeResult {
    var values: [String: Double] = [:]
}
var perSize: [Int: [String: Double]] = [:]

/// Terminal output with escapes shown as `␛`, for `--dump-frames`.
func visible(_ bytes: [UInt8]) -> String {
    String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{1b}", with: "␛")
}

func reps(for n: Int) -> Int { n >= 100_000 ? 5 : n >= 10_000 ? 10 : 20 }

@MainActor func benchSize(_ n: Int) throws -> [String: Double] {
    var r: [String: Double] = [:]
    let path = dir + "/board-\(n).md"
    let bytes = BoardGenerator.markdown(cards: n)
    writeFile(bytes, path)
    r["file_bytes"] = Double(bytes.count)
    let k = reps(for: n)

    // Parse
    var parse: [Double] = []
    var parsed: Board?
    for _ in 0..<k {
        let ((b, _), t) = try timed { try BoardFormat.parse(bytes, file: path) }
        parse.append(t)
        parsed = b
    }
    let board = parsed!
    r["cards"] = Double(board.cardCount)
    r["parse_ms"] = parse.median
    say("  \(n): parse \(fmt(parse.median)) ms")

    // Launch to first frame, headless, as `lanes` does it: open the store (lock, read, hash,
    // parse), make the app, size it to the terminal, draw the first frame.
    for size in screens where on("launch") {
        let tag = "\(size.width)x\(size.height)"
        var open: [Double] = [], initT: [Double] = [], resize: [Double] = [], render: [Double] = [],
            total: [Double] = []
        for _ in 0..<k {
            let t0 = nanos()
            let (store, b, _) = try FileBoardStore.open(path, starter: nil)
            let t1 = nanos()
            var app = BoardApp(board: b, title: "Lanes · board.md", status: "", keymap: Keymap())
            let t2 = nanos()
            app.resize(size)
            let t3 = nanos()
            var buf = CellBuffer(width: 0, height: 0)
            app.render(into: &buf, now: 0)
            let t4 = nanos()
            open.append(ms(t1 - t0)); initT.append(ms(t2 - t1)); resize.append(ms(t3 - t2)); render.append(ms(t4 - t3))
            total.append(ms(t4 - t0))
            withExtendedLifetime(store) {}
        }
        r["launch_\(tag)_open_ms"] = open.median
        r["launch_\(tag)_init_ms"] = initT.median
        r["launch_\(tag)_resize_ms"] = resize.median
        r["launch_\(tag)_render_ms"] = render.median
        r["launch_\(tag)_ms"] = total.median
        say(
            "  \(n): launch \(tag) \(fmt(total.median)) ms (open \(fmt(open.median)), init \(fmt(initT.median)), resize \(fmt(resize.median)), render \(fmt(render.median)))"
        )
    }

    // Drag: bytes in through the decoder, app, tick, render, diff, run as the runner runs them
    // (deadline wake-ups included: auto-scroll steps and page flips at the edge are frames too).
    // The same drag again with 50 marked cards in hand (the grabbed one among them): `_sel50`.
    for (size, marks) in screens.map({ ($0, 0) }) + screens.prefix(1).map({ ($0, 50) }) where on("drag") {
        let tag = "\(size.width)x\(size.height)" + (marks > 0 ? "_sel\(marks)" : "")
        var byKind: [FrameKind: [Double]] = [:]
        var runsCount: [Double] = []
        for _ in 0..<3 {
            var app = launchApp(board, title: "Lanes · board.md", size: size)
            markCards(marks, in: &app)
            let script = dragScript(layout: app.layout, motions: motions)
            runDrag(&app, script: script, start: 1.0) { f in
                byKind[f.kind, default: []].append(f.micros)
                if f.kind == .motion { runsCount.append(Double(f.runs.count)) }
            }
            guard !app.coordinator.isDragging else { throw BenchError("the scripted drag did not end") }
        }
        let motion = byKind[.motion] ?? [], flips = byKind[.edgeFlip] ?? [], steps = byKind[.autoScroll] ?? []
        let wheels = byKind[.wheel] ?? [], drops = byKind[.release] ?? []
        r["motion_\(tag)_p50_us"] = motion.median
        r["motion_\(tag)_p99_us"] = motion.percentile(99)
        r["motion_\(tag)_max_us"] = motion.max() ?? .nan
        r["motion_\(tag)_events"] = Double(motion.count)
        r["pageflip_\(tag)_median_us"] = flips.median
        r["pageflip_\(tag)_max_us"] = flips.max() ?? .nan
        r["pageflip_\(tag)_count"] = Double(flips.count)
        r["autoscroll_\(tag)_median_us"] = steps.median
        r["autoscroll_\(tag)_p99_us"] = steps.percentile(99)
        r["autoscroll_\(tag)_count"] = Double(steps.count)
        r["wheel_\(tag)_median_us"] = wheels.median
        r["drop_\(tag)_median_us"] = drops.median
        say(
            "  \(n): motion \(tag) p50 \(fmt(motion.median)) µs p99 \(fmt(motion.percentile(99))) µs max \(fmt(motion.max())) (\(motion.count) events); edge page flip \(fmt(flips.median)) µs (max \(fmt(flips.max())), \(flips.count) flips); auto-scroll step \(fmt(steps.median)) µs (p99 \(fmt(steps.percentile(99))), \(steps.count) steps); wheel \(fmt(wheels.median)) µs, drop \(fmt(drops.median)) µs"
        )
    }

    // Bytes and time per drag frame through the real curses backend on a pty.
    if on("pty") {
        for size in screens {
            let tag = "\(size.width)x\(size.height)"
            let pty = try PTYCapture(width: size.width, height: size.height)
            var dumps = opts.dumpFrames
            pty.keepLast = dumps > 0
            try pty.start()
            var app = launchApp(board, title: "Lanes · board.md", size: size)
            var full = 0
            var first = true
            var sent: [Double] = [], minimal: [Double] = [], ratio: [Double] = []
            var textOnly: [Double] = []
            var flipBytes: [Double] = []
            var presentMotion: [Double] = [], presentFlip: [Double] = []
            let script = dragScript(layout: app.layout, motions: min(motions, 1500))
            runDrag(
                &app, script: script, start: 1.0,
                present: { buf in
                    let r = pty.presentTimed(buf)
                    if first { full = r.bytes; first = false }
                    return r
                }
            ) { f in
                let b = f.presentBytes ?? 0
                switch f.kind {
                case .motion:
                    let m = minimalDiffBytes(f.runs, styles: true)
                    let mText = minimalDiffBytes(f.runs, styles: false)
                    if dumps > 0 {
                        dumps -= 1
                        FileHandle.standardError.write(
                            Data("frame: \(b) bytes, minimal \(m): \(visible(pty.lastFrame))\n".utf8))
                    }
                    sent.append(Double(b)); minimal.append(Double(m)); textOnly.append(Double(mText))
                    if m > 0 { ratio.append(Double(b) / Double(m)) }
                    if let p = f.presentMicros { presentMotion.append(p) }
                case .edgeFlip:
                    flipBytes.append(Double(b))
                    if let p = f.presentMicros { presentFlip.append(p) }
                default: break
                }
            }
            pty.close()
            let totalSent = sent.reduce(0, +), totalMin = minimal.reduce(0, +)
            r["bytes_\(tag)_full_frame"] = Double(full)
            r["bytes_\(tag)_per_motion_mean"] = sent.mean
            r["bytes_\(tag)_per_motion_max"] = sent.max() ?? .nan
            r["bytes_\(tag)_minimal_mean"] = minimal.mean
            r["bytes_\(tag)_minimal_text_only_mean"] = textOnly.mean
            r["bytes_\(tag)_ratio_text_only"] = totalSent / max(1, textOnly.reduce(0, +))
            r["bytes_\(tag)_ratio_total"] = totalSent / max(1, totalMin)
            r["bytes_\(tag)_ratio_p50"] = ratio.median
            r["bytes_\(tag)_ratio_p99"] = ratio.percentile(99)
            r["bytes_\(tag)_pageflip_mean"] = flipBytes.mean
            r["present_\(tag)_motion_p50_us"] = presentMotion.median
            r["present_\(tag)_motion_p99_us"] = presentMotion.percentile(99)
            r["present_\(tag)_pageflip_median_us"] = presentFlip.median
            say(
                "  \(n): bytes \(tag): full frame \(full), per motion mean \(fmt(sent.mean)) (max \(fmt(sent.max()))), minimal mean \(fmt(minimal.mean)) (text and moves only \(fmt(textOnly.mean))), ratio total \(fmt(totalSent / max(1, totalMin))) p50 \(fmt(ratio.median)) p99 \(fmt(ratio.percentile(99)))"
            )
            say(
                "  \(n): present \(tag) on a pty: motion p50 \(fmt(presentMotion.median)) µs p99 \(fmt(presentMotion.percentile(99))) µs, edge page flip \(fmt(presentFlip.median)) µs"
            )
        }
    }

    // Save: serialize + atomic write (fsync'd) into a temp dir; and the app's real save after a move.
    if on("save") {
        let (store, b0, _) = try FileBoardStore.open(path, starter: nil)
        let info = try BoardFormat.parse(bytes, file: path).info
        var ser: [Double] = [], write: [Double] = [], storeSave: [Double] = []
        let target = dir + "/save-\(n).md"
        for _ in 0..<k {
            let t0 = nanos()
            let out = Array(BoardFormat.serialize(b0, info: info).utf8)
            let t1 = nanos()
            try SafeFile.writeAtomically(out, to: target, expecting: nil)
            let t2 = nanos()
            ser.append(ms(t1 - t0)); write.append(ms(t2 - t1))
        }
        // Alternate two boards (a card moved and back) so every save has something to write.
        let card = b0[ItemPath(section: 0, item: 0)]
        let moved = try b0.applying(.moveCards([card.id], to: b0.columns[1].id, at: .top)).board
        var base = b0
        for i in 0..<k {
            let ours = i % 2 == 0 ? moved : b0
            let (outcome, t) = try timed { try store.commit(base: base, ours: ours) }
            guard outcome.board == ours else { throw BenchError("the commit did not store the board as given") }
            base = outcome.board
            storeSave.append(t)
        }
        r["save_serialize_ms"] = ser.median
        r["save_write_atomic_ms"] = write.median
        r["save_ms"] = (zip(ser, write).map { $0 + $1 }).median
        r["save_store_ms"] = storeSave.median
        say(
            "  \(n): save \(fmt(r["save_ms"])) ms (serialize \(fmt(ser.median)), write+fsync \(fmt(write.median))); FileBoardStore.commit after a move \(fmt(storeSave.median)) ms"
        )
    }

    // Peak RSS in a process of its own.
    if on("rss") {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        p.arguments = ["--only", "\(n)", "--rss", "--board", path, "--motions", "\(motions)"]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        if let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let kb = obj["vmhwm_kb"] as? Int {
            r["peak_rss_mb"] = Double(kb) / 1024
            say("  \(n): peak RSS \(fmt(Double(kb) / 1024)) MB (separate process)")
        } else {
            say("  \(n): peak RSS: child failed: \(String(decoding: data, as: UTF8.self))")
        }
    }
    return r
}

say(
    "lanes-bench: \(sizes.map(String.init).joined(separator: ", ")) cards, \(motions) motion events per drag, release build"
)
for n in sizes {
    perSize[n] = try benchSize(n)
}
if !opts.noMerge { MergeBench.run().forEach(say) }
if !opts.noFlow { FlowBench.run().forEach(say) }

if on("shapes") {
    say("parsing by shape (fastest of 5, release build):")
    try benchParseShapes().forEach(say)
}

var longText: [String: Double] = [:]
if on("text") {
    say("long text in the line editor (per key with its frame, 120x40):")
    longText = benchLongText(lengths: [1_000, 16_000, 1_000_000])
}

// MARK: Report

@MainActor func row(_ label: String, _ key: String, target: String = "", scale: Double = 1) {
    table.append((label, sizes.map { n in fmt(perSize[n]?[key].map { $0 * scale }) }, target))
}
row("file size (MB)", "file_bytes", scale: 1e-6)
row("parse (ms)", "parse_ms")
for s in screens {
    let tag = "\(s.width)x\(s.height)"
    row("launch→first frame \(tag) (ms)", "launch_\(tag)_ms", target: tag == "120x40" ? "≤30 / ≤60 / ≤400" : "")
    row("  open: read+parse (ms)", "launch_\(tag)_open_ms")
    row("  app init + resize (ms)", "launch_\(tag)_resize_ms")
    row("  first render (ms)", "launch_\(tag)_render_ms")
}
for s in screens {
    let tag = "\(s.width)x\(s.height)"
    row("drag motion \(tag) p50 (µs)", "motion_\(tag)_p50_us")
    row("drag motion \(tag) p99 (µs)", "motion_\(tag)_p99_us", target: "≤200 at 100k")
    row("  page flip at the edge, tick (µs)", "pageflip_\(tag)_median_us")
    row("  page flip at the edge, max (µs)", "pageflip_\(tag)_max_us")
    row("  auto-scroll step, tick (µs)", "autoscroll_\(tag)_median_us")
    row("  auto-scroll step p99 (µs)", "autoscroll_\(tag)_p99_us")
    row("  wheel scroll mid-drag (µs)", "wheel_\(tag)_median_us")
    row("  drop (µs)", "drop_\(tag)_median_us")
}
if let s = screens.first {
    let tag = "\(s.width)x\(s.height)_sel50"
    row("drag motion \(tag) p99 (µs)", "motion_\(tag)_p99_us", target: "≤200 at 100k")
    row("  drop of 50 cards (µs)", "drop_\(tag)_median_us")
}
if on("pty") {
    for s in screens {
        let tag = "\(s.width)x\(s.height)"
        row("curses bytes/motion \(tag)", "bytes_\(tag)_per_motion_mean")
        row("  minimal diff bytes/motion", "bytes_\(tag)_minimal_mean")
        row("  ratio (total)", "bytes_\(tag)_ratio_total", target: "≤1.5")
        row("  minimal without SGR", "bytes_\(tag)_minimal_text_only_mean")
        row("  ratio to that", "bytes_\(tag)_ratio_text_only")
        row("  ratio p99 per frame", "bytes_\(tag)_ratio_p99")
        row("  full frame bytes", "bytes_\(tag)_full_frame")
        row("present on a pty, motion p50 (µs)", "present_\(tag)_motion_p50_us")
        row("  present, motion p99 (µs)", "present_\(tag)_motion_p99_us")
        row("  present, edge page flip (µs)", "present_\(tag)_pageflip_median_us")
    }
}
row("save: serialize+atomic write (ms)", "save_ms", target: "≤30 at 10k")
row("  FileBoardStore.commit after a move (ms)", "save_store_ms")
if on("rss") { row("peak RSS, own process (MB)", "peak_rss_mb", target: "≤40 at 10k") }

let labelWidth = table.map { $0.0.count }.max() ?? 10
let header =
    "".padding(toLength: labelWidth, withPad: " ", startingAt: 0)
    + sizes.map { String($0).leftPad(10) }.joined() + "   target"
print("")
print(header)
for (label, values, target) in table {
    print(
        label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + values.map { $0.leftPad(10) }.joined()
            + "   " + target)
}

// Every target with a verdict (sizes not run are left out).
var verdicts: [(String, String, Bool)] = []
@MainActor func target(_ what: String, _ n: Int, _ key: String, atMost limit: Double, unit: String) {
    guard let v = perSize[n]?[key], v.isFinite else { return }
    verdicts.append(("\(what) at \(n) cards ≤ \(fmt(limit)) \(unit)", "\(fmt(v)) \(unit)", v <= limit))
}
for (n, limit) in [(1000, 30.0), (10000, 60.0), (100_000, 400.0)] {
    target("launch→first frame 120x40 (in-process)", n, "launch_120x40_ms", atMost: limit, unit: "ms")
}
for s in screens {
    let tag = "\(s.width)x\(s.height)"
    target("drag motion \(tag) p99", 100_000, "motion_\(tag)_p99_us", atMost: 200, unit: "µs")
    if on("pty") { target("curses bytes/minimal \(tag)", 100_000, "bytes_\(tag)_ratio_total", atMost: 1.5, unit: "×") }
}
target("save: serialize+atomic write", 10000, "save_ms", atMost: 30, unit: "ms")
target("peak RSS", 10000, "peak_rss_mb", atMost: 40, unit: "MB")
if !verdicts.isEmpty {
    print("")
    for (what, value, met) in verdicts { print("\(met ? "MET   " : "MISSED") \(what): \(value)") }
}

var json: [String: Any] = [:]
for (n, v) in perSize { json["\(n)"] = v }
json["verdicts"] = verdicts.map { ["target": $0.0, "measured": $0.1, "met": $0.2] as [String: Any] }
json["motions_per_drag"] = motions
if !longText.isEmpty { json["long_text"] = longText }
json["minimal_diff_definition"] =
    "per run of changed cells (CellBuffer.diff): one ESC[row;colH cursor move + UTF-8 bytes of each changed cell (wide char once) + the shortest SGR wherever a cell's style differs from the pen, and ESC[m at the end if the pen is not plain; *_text_only: the same without SGR"
var existing: [String: Any] = [:]
if let data = FileManager.default.contents(atPath: jsonPath),
    let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
{
    existing = obj
}
existing["bench"] = json
if let data = try? JSONSerialization.data(withJSONObject: existing, options: [.prettyPrinted, .sortedKeys]) {
    if FileManager.default.createFile(atPath: jsonPath, contents: data) {
        print("\nwrote \(jsonPath)")
    } else {
        FileHandle.standardError.write(Data("lanes-bench: cannot write \(jsonPath)\n".utf8))
    }
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? " " + self : String(repeating: " ", count: n - count) + self }
}
