import Foundation
import LanesCore

/// Opening is linear in the file's size for any shape (#25): each shape parsed at its full size
/// and at a tenth of it; the full size within 0.5 s and ten times the input within 12 times the time.
func benchParseShapes() throws -> [String] {
    typealias Shape = (name: String, make: (Int) -> String, full: Int)
    let obsidianHead = "---\nkanban-plugin: board\n---\n\n## A\n\n"
    let shapes: [Shape] = [
        (
            "one card, N sub-tasks (taskell)",
            { n in "## A\n\n- big\n" + String(repeating: "    * [ ] step\n", count: n) }, 100_000
        ),
        (
            "one card, N sub-list lines (Obsidian)",
            { n in obsidianHead + "- [ ] big\n" + String(repeating: "\t- [ ] step\n", count: n) }, 100_000
        ),
        (
            "one card, N description lines (taskell)",
            { n in "## A\n\n- big\n" + String(repeating: "    > a line of the description\n", count: n) }, 100_000
        ),
        ("one title of N bytes", { n in "## A\n\n- " + String(repeating: "x", count: n) + "\n" }, 10_000_000),
        ("N columns", { n in (0..<n).map { "## Column \($0)\n\n- card\n" }.joined(separator: "\n") }, 100_000),
        (
            "N columns (Obsidian)",
            { n in obsidianHead + (0..<n).map { "## C\($0)\n\n- [ ] card\n" }.joined(separator: "\n") }, 100_000
        ),
    ]
    var out: [String] = []
    if let once = ProcessInfo.processInfo.environment["LANES_SHAPES_ONCE"].flatMap(Int.init) {
        // One parse of each chosen shape at size `once`, for scripts/parse-instructions to count under callgrind.
        let only = ProcessInfo.processInfo.environment["LANES_SHAPES_ONLY"]
        for shape in shapes where only.map({ shape.name == $0 }) ?? true {
            parsedOnce.append(try parseShapeOnce(Array(shape.make(once).utf8)))
            out.append("  \(shape.name) (N=\(once)): parsed once")
        }
        return out
    }
    // LANES_SHAPES_SCALE=10 measures ten times larger inputs (for the ratio away from cache sizes).
    let scale = Int(ProcessInfo.processInfo.environment["LANES_SHAPES_SCALE"] ?? "") ?? 1
    let only = ProcessInfo.processInfo.environment["LANES_SHAPES_ONLY"]
    for shape in shapes where only.map({ shape.name.hasPrefix($0) }) ?? true {
        var times: [Double] = []
        for n in [shape.full * scale / 10, shape.full * scale] {
            let bytes = Array(shape.make(n).utf8)
            var runs: [Double] = []
            for _ in 0..<5 {
                let t0 = DispatchTime.now().uptimeNanoseconds
                _ = try BoardFormat.parse(bytes, file: "shape")
                runs.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
            }
            // The fastest of five: the machine is shared, and the slower runs measure the neighbours.
            times.append(runs.min()!)
        }
        let ratio = times[1] / max(times[0], 0.001)
        let met = times[1] <= 500 && ratio <= 12
        out.append(
            String(
                format: "  %@ (N=%d): %.1f ms; N/10: %.1f ms; ratio %.1f× (target ≤500 ms, ≤12×) %@",
                shape.name, shape.full * scale, times[1], times[0], ratio, met ? "MET" : "MISSED"))
    }
    return out
}

/// Boards parsed by `parseShapeOnce`, kept so that freeing them is not counted as parsing.
nonisolated(unsafe) var parsedOnce: [Board] = []

/// The one call callgrind counts (`--toggle-collect=*parseShapeOnce*`): opening a file's bytes.
@inline(never) func parseShapeOnce(_ bytes: [UInt8]) throws -> Board {
    try BoardFormat.parse(bytes, file: "shape").board
}
