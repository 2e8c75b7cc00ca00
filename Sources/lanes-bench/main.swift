// lanes-bench: the benchmarks of `make bench` (run it from a release build).
//
//   lanes-bench [--sizes 1000,10000,100000] [--motions 3000] [--json bench-results.json] [--no-pty] [--no-rss]
//   lanes-bench --only 10000 --rss --board FILE     peak RSS of one size, in a process of its own
//   lanes-bench --write-board 10000 FILE [--size 120x40]
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

// MARK: Arguments

let args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    return args[i + 1]
}
func flag(_ name: String) -> Bool { args.contains(name) }

let sizes = option("--only").flatMap(Int.init).map { [$0] }
    ?? (option("--sizes") ?? "1000,10000,100000").split(separator: ",").compactMap { Int($0) }
let motions = option("--motions").flatMap(Int.init) ?? 3000
let jsonPath = option("--json") ?? "bench-results.json"
let screens = option("--screen").flatMap(parseSize).map { [$0] } ?? [Size(width: 120, height: 40), Size(width: 80, height: 24)]
/// Which parts to run (all by default): parse, launch, drag, pty, save, rss.
let phases = Set((option("--phases") ?? "parse,launch,drag,pty,save,rss").split(separator: ",").map(String.init))
func on(_ phase: String) -> Bool { phases.contains(phase) && !flag("--no-" + phase) }

func makeTempDir() -> String {
    var template = Array((NSTemporaryDirectory() + "lanes-bench-XXXXXX").utf8CString)
    guard let p = mkdtemp(&template) else { fatalError("mkdtemp failed") }
    return String(cString: p)
}

func writeFile(_ bytes: [UInt8], _ path: String) {
    FileManager.default.createFile(atPath: path, contents: Data(bytes))
}

func parseSize(_ s: String) -> Size? {
    let p = s.split(separator: "x").compactMap { Int($0) }
    return p.count == 2 ? Size(width: p[0], height: p[1]) : nil
}

/// The app exactly as `lanes` starts it: default size, then the terminal's size.
func launchApp(_ board: Board, title: String, size: Size) -> BoardApp {
    var app = BoardApp(board: board, title: title, status: "", keymap: Keymap())
    app.resize(size)
    return app
}

// MARK: --write-board (for the end-to-end script)

if let n = option("--write-board").flatMap(Int.init) {
    guard let i = args.firstIndex(of: "--write-board"), i + 2 < args.count else {
        FileHandle.standardError.write(Data("usage: lanes-bench --write-board N FILE [--size WxH]\n".utf8))
        exit(2)
    }
    let path = args[i + 2]
    let size = option("--size").flatMap(parseSize) ?? Size(width: 120, height: 40)
    let bytes = BoardGenerator.markdown(cards: n)
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
    exit(0)
}

// MARK: --rss (child process)

if flag("--rss") {
    guard let path = option("--board"), let n = sizes.first else {
        FileHandle.standardError.write(Data("usage: lanes-bench --only N --rss --board FILE\n".utf8))
        exit(2)
    }
    let before = peakRSSkB()
    // What a session does: open, draw, drag across the board, drop, save.
    let (store, board, _) = try BoardStore.open(path, starter: nil)
    var app = launchApp(board, title: "Lanes", size: screens[0])
    var buf = CellBuffer(width: 0, height: 0)
    var decoder = InputDecoder()
    app.render(into: &buf, now: 0)
    var t = 0.0
    for step in dragScript(layout: app.layout, motions: motions) {
        t += 0.004
        for e in decoder.feed(step.bytes, now: t) { _ = app.handle(e, now: t) }
        let old = buf
        app.render(into: &buf, now: t)
        _ = buf.diff(from: old)
    }
    _ = try store.save(app.board)
    let peak = peakRSSkB()
    print("{\"cards\": \(n), \"vmhwm_kb\": \(peak), \"vmhwm_at_start_kb\": \(before)}")
    exit(0)
}

// MARK: The benchmark

var results: [String: Any] = [:]
var table: [(String, [String], String)] = []   // row label, value per size, target
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
        var open: [Double] = [], initT: [Double] = [], resize: [Double] = [], render: [Double] = [], total: [Double] = []
        for _ in 0..<k {
            let t0 = nanos()
            let (store, b, _) = try BoardStore.open(path, starter: nil)
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
        say("  \(n): launch \(tag) \(fmt(total.median)) ms (open \(fmt(open.median)), init \(fmt(initT.median)), resize \(fmt(resize.median)), render \(fmt(render.median)))")
    }

    // Drag: bytes in through the decoder, app, render, diff.
    for size in screens where on("drag") {
        let tag = "\(size.width)x\(size.height)"
        var motion: [Double] = [], flips: [Double] = [], wheels: [Double] = [], drops: [Double] = []
        var runsCount: [Double] = []
        for _ in 0..<3 {
            var app = launchApp(board, title: "Lanes · board.md", size: size)
            var decoder = InputDecoder()
            var buf = CellBuffer(width: 0, height: 0)
            app.render(into: &buf, now: 0)
            let script = dragScript(layout: app.layout, motions: motions)
            var t = 1.0
            for step in script {
                t += 0.004
                let t0 = nanos()
                for e in decoder.feed(step.bytes, now: t) { _ = app.handle(e, now: t) }
                let old = buf
                app.render(into: &buf, now: t)
                let runs = buf.diff(from: old)
                let dt = us(nanos() - t0)
                switch step.kind {
                case .motion: motion.append(dt); runsCount.append(Double(runs.count))
                case .pageFlip: flips.append(dt)
                case .wheel: wheels.append(dt)
                case .release: drops.append(dt)
                case .press: break
                }
            }
            guard !app.coordinator.isDragging else { throw BenchError("the scripted drag did not end") }
        }
        r["motion_\(tag)_p50_us"] = motion.median
        r["motion_\(tag)_p99_us"] = motion.percentile(99)
        r["motion_\(tag)_max_us"] = motion.max() ?? .nan
        r["motion_\(tag)_events"] = Double(motion.count)
        r["pageflip_\(tag)_median_us"] = flips.median
        r["wheel_\(tag)_median_us"] = wheels.median
        r["drop_\(tag)_median_us"] = drops.median
        say("  \(n): motion \(tag) p50 \(fmt(motion.median)) µs p99 \(fmt(motion.percentile(99))) µs max \(fmt(motion.max())) (\(motion.count) events); page flip \(fmt(flips.median)) µs, wheel \(fmt(wheels.median)) µs, drop \(fmt(drops.median)) µs")
    }

    // Bytes per drag frame through the real curses backend on a pty.
    if on("pty") {
        for size in screens {
            let tag = "\(size.width)x\(size.height)"
            let pty = try PTYCapture(width: size.width, height: size.height)
            var dumps = option("--dump-frames").flatMap(Int.init) ?? 0
            pty.keepLast = dumps > 0
            try pty.start()
            var app = launchApp(board, title: "Lanes · board.md", size: size)
            var decoder = InputDecoder()
            var buf = CellBuffer(width: 0, height: 0)
            app.render(into: &buf, now: 0)
            let full = pty.present(buf)
            var sent: [Double] = [], minimal: [Double] = [], ratio: [Double] = []
            var textOnly: [Double] = []
            var flipBytes: [Double] = []
            var t = 1.0
            for step in dragScript(layout: app.layout, motions: min(motions, 1500)) {
                t += 0.004
                for e in decoder.feed(step.bytes, now: t) { _ = app.handle(e, now: t) }
                let old = buf
                app.render(into: &buf, now: t)
                let runs = buf.diff(from: old)
                let m = minimalDiffBytes(runs, styles: true)
                let mText = minimalDiffBytes(runs, styles: false)
                let b = pty.present(buf)
                switch step.kind {
                case .motion:
                    if dumps > 0 {
                        dumps -= 1
                        FileHandle.standardError.write(Data("frame: \(b) bytes, minimal \(m): \(visible(pty.lastFrame))\n".utf8))
                    }
                    sent.append(Double(b)); minimal.append(Double(m)); textOnly.append(Double(mText))
                    if m > 0 { ratio.append(Double(b) / Double(m)) }
                case .pageFlip: flipBytes.append(Double(b))
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
            say("  \(n): bytes \(tag): full frame \(full), per motion mean \(fmt(sent.mean)) (max \(fmt(sent.max()))), minimal mean \(fmt(minimal.mean)) (text and moves only \(fmt(textOnly.mean))), ratio total \(fmt(totalSent / max(1, totalMin))) p50 \(fmt(ratio.median)) p99 \(fmt(ratio.percentile(99)))")
        }
    }

    // Save: serialize + atomic write (fsync'd) into a temp dir; and the app's real save after a move.
    if on("save") {
        let (store, b0, _) = try BoardStore.open(path, starter: nil)
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
        var moved = b0
        let card = moved[ItemPath(section: 0, item: 0)]
        moved.deleteItem(at: ItemPath(section: 0, item: 0))
        moved.insertItem(card, at: ItemPath(section: 1, item: 0))
        for i in 0..<k {
            let (outcome, t) = try timed { try store.save(i % 2 == 0 ? moved : b0) }
            guard outcome == .saved else { throw BenchError("save did not write: \(outcome)") }
            storeSave.append(t)
        }
        r["save_serialize_ms"] = ser.median
        r["save_write_atomic_ms"] = write.median
        r["save_ms"] = (zip(ser, write).map { $0 + $1 }).median
        r["save_store_ms"] = storeSave.median
        say("  \(n): save \(fmt(r["save_ms"])) ms (serialize \(fmt(ser.median)), write+fsync \(fmt(write.median))); BoardStore.save after a move \(fmt(storeSave.median)) ms")
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

say("lanes-bench: \(sizes.map(String.init).joined(separator: ", ")) cards, \(motions) motion events per drag, release build")
for n in sizes {
    perSize[n] = try benchSize(n)
}
if !flag("--no-merge") { MergeBench.run().forEach(say) }

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
    row("  page flip mid-drag (µs)", "pageflip_\(tag)_median_us")
    row("  wheel scroll mid-drag (µs)", "wheel_\(tag)_median_us")
    row("  drop (µs)", "drop_\(tag)_median_us")
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
    }
}
row("save: serialize+atomic write (ms)", "save_ms", target: "≤30 at 10k")
row("  BoardStore.save after a move (ms)", "save_store_ms")
if on("rss") { row("peak RSS, own process (MB)", "peak_rss_mb", target: "≤40 at 10k") }

let labelWidth = table.map { $0.0.count }.max() ?? 10
let header = "".padding(toLength: labelWidth, withPad: " ", startingAt: 0)
    + sizes.map { String($0).leftPad(10) }.joined() + "   target"
print("")
print(header)
for (label, values, target) in table {
    print(label.padding(toLength: labelWidth, withPad: " ", startingAt: 0) + values.map { $0.leftPad(10) }.joined() + "   " + target)
}

var json: [String: Any] = [:]
for (n, v) in perSize { json["\(n)"] = v }
json["motions_per_drag"] = motions
json["minimal_diff_definition"] = "per run of changed cells (CellBuffer.diff): one ESC[row;colH cursor move + UTF-8 bytes of each changed cell (wide char once) + the shortest SGR wherever a cell's style differs from the pen, and ESC[m at the end if the pen is not plain; *_text_only: the same without SGR"
var existing: [String: Any] = [:]
if let data = FileManager.default.contents(atPath: jsonPath),
   let obj = try? JSONSerialization.jsonObject(with: data) as? [String: Any] { existing = obj }
existing["bench"] = json
if let data = try? JSONSerialization.data(withJSONObject: existing, options: [.prettyPrinted, .sortedKeys]) {
    FileManager.default.createFile(atPath: jsonPath, contents: data)
    print("\nwrote \(jsonPath)")
}

extension String {
    func leftPad(_ n: Int) -> String { count >= n ? " " + self : String(repeating: " ", count: n - count) + self }
}
