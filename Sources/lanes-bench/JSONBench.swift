// lanes-bench --json-bench [--only N]: Lanes' own JSON writer and reader against Foundation's
// (JSONSerialization, JSONEncoder/JSONDecoder) on the `lanes export` document of an N-card board.
import Foundation
import LanesCore

enum JSONBench {
    struct ExportCard: Codable {
        var id: Int
        var title: String
        var done: Bool
        var due: String?
        var dueDate: String?
        var tags: [String]
        var description: String
        var subtasks: [ExportSubtask]
    }
    struct ExportSubtask: Codable { var title: String; var done: Bool }
    struct ExportColumn: Codable { var number: Int; var title: String; var wipLimit: Int?; var cards: [ExportCard] }
    struct ExportBoard: Codable { var version: Int; var dialect: String; var columns: [ExportColumn] }

    /// Fastest of `reps` runs, in ms.
    static func best(_ reps: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<reps {
            let t = nanos()
            try body()
            best = min(best, ms(nanos() - t))
        }
        return best
    }

    static func run(cards n: Int) throws -> [String] {
        let board = BoardGenerator.board(cards: n)
        let info = try BoardFormat.parse(BoardGenerator.markdown(cards: 10), file: "x").info
        var ours = ""
        let write = best(3) { ours = BoardExport.json(board, info: info) }
        let bytes = Array(ours.utf8)
        let read = try best(3) { _ = try JSONReader.parse(bytes, file: "export.json") }

        // The same document as Foundation objects and as Codable values.
        var number = 0
        let codable = ExportBoard(
            version: 1, dialect: "taskell",
            columns: board.columns.enumerated().map { s, c in
                ExportColumn(
                    number: s + 1, title: c.title, wipLimit: c.wipLimit,
                    cards: c.cards.map { card in
                        number += 1
                        return ExportCard(
                            id: number, title: card.title, done: card.done, due: card.due, dueDate: nil,
                            tags: card.tags,
                            description: card.descriptionLines.joined(separator: "\n"),
                            subtasks: card.subtasks.map { ExportSubtask(title: $0.title, done: $0.done) })
                    })
            })
        let data = Data(bytes)
        var object: Any = 0
        let serRead = try best(3) { object = try JSONSerialization.jsonObject(with: data) }
        let serWrite = try best(3) { _ = try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted]) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted]
        var encoded = Data()
        let encWrite = try best(3) { encoded = try encoder.encode(codable) }
        let decRead = try best(3) { _ = try JSONDecoder().decode(ExportBoard.self, from: encoded) }
        return [
            "JSON of `lanes export` at \(n) cards (\(bytes.count / 1000) kB), fastest of 3, release build:",
            "  write: JSONWriter \(fmt(write)) ms, JSONSerialization \(fmt(serWrite)) ms (from its own objects), JSONEncoder \(fmt(encWrite)) ms",
            "  read:  JSONReader \(fmt(read)) ms, JSONSerialization \(fmt(serRead)) ms, JSONDecoder \(fmt(decRead)) ms (into Codable structs)",
        ]
    }
}
