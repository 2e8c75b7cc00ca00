import DragKit
import LanesCore
import SeededRandom

/// The benchmarks' writers change boards as people do: through the door.
extension Board {
    /// The board with `edit` applied (forced: a random writer ignores WIP limits and accept rules),
    /// or as it was when the door refuses it.
    func with(_ edit: BoardEdit) -> Board { (try? applying(edit, force: true).board) ?? self }

    /// A random card moved to a random place of a random column; nil on a board with no card.
    func randomMove(_ rng: inout SplitMix64) -> Board? {
        guard let from = columns.indices.filter({ !columns[$0].cards.isEmpty }).randomElement(using: &rng) else {
            return nil
        }
        let card = columns[from].cards[Int.random(in: 0..<columns[from].cards.count, using: &rng)]
        let to = Int.random(in: 0..<columns.count, using: &rng)
        let at = Int.random(in: 0...columns[to].cards.count, using: &rng)
        return with(.moveCards([card.id], to: columns[to].id, at: .index(at)))
    }

    /// The same columns without WIP limits (a board made from parts, as a reader makes one).
    var withoutLimits: Board {
        Board(
            columns: columns.map { c in
                var c = c
                c.wipLimit = nil
                return c
            }, acceptRules: acceptRules, capacity: capacity)
    }
}
