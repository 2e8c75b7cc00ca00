// lanes-bench --mcp [--only N] [--lanes PATH]: what an agent waits for, a `lanes mcp` tool call's round
// trip over stdio (the real binary, its JSON-RPC, the board file read and written), on an N-card board.
import Foundation
import LanesCore

enum MCPBench {
    static func run(cards n: Int, lanes: String?, reps: Int = 21) throws -> [String] {
        let binary =
            lanes
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "lanes"
            )
            .path
        let dir = makeTempDir()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/board.md"
        let board = BoardGenerator.board(cards: n)
        writeFile(Array(BoardFormat.serialize(board, as: .taskell).utf8), path)
        // A card whose title is its own (the tool finds it by title), first in the first column.
        let titles = board.columns.flatMap { $0.cards.map(\.title) }
        let counts = Dictionary(titles.map { ($0, 1) }, uniquingKeysWith: +)
        guard board.columns.count >= 2,
            let title = board.columns[0].cards.first(where: { counts[$0.title] == 1 })?.title
        else { return ["mcp: the generated board has no card with a title of its own"] }

        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = ["mcp", path]
        let input = Pipe()
        let output = Pipe()
        server.standardInput = input
        server.standardOutput = output
        server.standardError = FileHandle.nullDevice
        try server.run()
        var pending: [UInt8] = []
        func line() -> String {
            var scanned = 0  // only new bytes are searched for the line end (a board's JSON is one long line)
            while true {
                if let nl = pending[scanned...].firstIndex(of: 0x0A) {
                    let l = String(decoding: pending[..<nl], as: UTF8.self)
                    pending.removeSubrange(...nl)
                    return l
                }
                scanned = pending.count
                let more = output.fileHandleForReading.availableData
                if more.isEmpty { return "" }
                pending += more
            }
        }
        var id = 0
        func request(_ method: String, _ params: String) -> String {
            id += 1
            input.fileHandleForWriting.write(
                Data("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"\(method)\",\"params\":\(params)}\n".utf8))
            return line()
        }
        _ = request(
            "initialize",
            "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"lanes-bench\",\"version\":\"1\"}}"
        )
        input.fileHandleForWriting.write(Data("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n".utf8))
        func call(_ tool: String, _ args: String) -> (ms: Double, reply: String) {
            let t = nanos()
            let reply = request("tools/call", "{\"name\":\"\(tool)\",\"arguments\":\(args)}")
            return (ms(nanos() - t), reply)
        }
        func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }
        let quoted = String(decoding: try JSONSerialization.data(withJSONObject: [title]), as: UTF8.self).dropFirst()
            .dropLast()
        let first = call("read_board", "{}")
        var reads: [Double] = []
        for _ in 0..<reps { reads.append(call("read_board", "{}").ms) }
        var moves: [Double] = []
        var failed = ""
        for i in 0..<reps {
            // There and back: every call moves the card and writes the file.
            let column = i % 2 == 0 ? "2" : "1"
            let r = call("move_card", "{\"card\":\(quoted),\"column\":\"\(column)\",\"position\":1}")
            if r.reply.contains("\"isError\":true") || r.reply.contains("\"error\"") { failed = r.reply }
            moves.append(r.ms)
        }
        input.fileHandleForWriting.closeFile()
        server.waitUntilExit()
        var out = [
            String(
                format: "mcp: %d cards, %d KB file; a tool call over stdio, median of %d (first read %.1f ms):",
                n,
                (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int).flatMap { $0 }.map {
                    $0 / 1024
                } ?? 0,
                reps, first.ms),
            String(
                format: "  read_board  median %.1f ms  (min %.1f, max %.1f; a page of 100 cards)", median(reads),
                reads.min()!, reads.max()!),
            String(
                format: "  move_card   median %.1f ms  (min %.1f, max %.1f)", median(moves), moves.min()!, moves.max()!),
        ]
        if !failed.isEmpty { out.append("  a move failed: \(failed)") }
        return out
    }
}
