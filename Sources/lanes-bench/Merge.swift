import DragKit
import LanesCore
import SeededRandom

/// The three-way merge of two versions of a 10k-card board, each changed in about 1 % of its
/// cards (moves inside and across columns, edits, additions, deletions), as the file store
/// (ours shares base's identities, theirs freshly parsed) and git's driver (all parsed) meet it.
enum MergeBench {
    static let targetMs = 50.0

    /// One side's ~1 % of changes to `base`, keeping identities (new cards get fresh ones).
    static func changed(_ base: Board, seed: UInt64, tag: String) -> Board {
        var rng = SplitMix64(seed: seed)
        var board = base
        let changes = max(1, base.cardCount / 100)
        for k in 0..<changes {
            let c = Int.random(in: 0..<board.columns.count, using: &rng)
            guard !board.columns[c].cards.isEmpty else { continue }
            let i = Int.random(in: 0..<board.columns[c].cards.count, using: &rng)
            let card = board.columns[c].cards[i]
            switch k % 5 {
            case 0, 1:
                let to = Int.random(in: 0..<board.columns.count, using: &rng)
                let at = Int.random(in: 0...board.columns[to].cards.count, using: &rng)
                board = board.with(.moveCards([card.id], to: board.columns[to].id, at: .index(at)))
            case 2:
                var edited = card
                edited.descriptionLines.append("Noted on \(tag) (\(k)).")
                board = board.with(.replaceCard(edited, seen: nil))
            case 3:
                board = board.with(
                    .addCard(
                        Card(id: CardID.fresh(), title: "New on \(tag) \(k)"), column: board.columns[c].id,
                        at: .index(i),
                        fallbackColumn: c))
            default:
                board = board.with(.deleteCards([card.id], seen: nil))
            }
        }
        return board
    }

    /// Median milliseconds of `body` over `reps` runs.
    static func median(_ reps: Int, _ body: () -> Void) -> Double {
        (0..<reps).map { _ in timed(body).1 }.median
    }

    /// The report lines; the figure held to the target is the all-parsed merge (the slower one).
    static func run(cards: Int = 10_000, reps: Int = 9) -> [String] {
        let base = BoardGenerator.board(cards: cards)
        let ours = changed(base, seed: 1, tag: "ours")
        let theirs = changed(base, seed: 2, tag: "theirs")
        func reparsed(_ b: Board) -> Board {
            (try? BoardFormat.parse(BoardFormat.serialize(b, as: .taskell), file: "bench.md").board) ?? b
        }
        let (pb, po, pt) = (reparsed(base), reparsed(ours), reparsed(theirs))
        var conflicts = 0
        let store = median(reps) {
            conflicts =
                BoardMerge.merge(base: base, ours: ours, theirs: pt, matching: (.identity, .content)).conflicts.count
        }
        let driver = median(reps) {
            _ = BoardMerge.merge(base: pb, ours: po, theirs: pt, matching: (.content, .content))
        }
        let verdict = driver <= targetMs ? "MET" : "MISSED"
        return [
            "  merge \(cards)+\(cards) cards, ~1 % changed on each side (\(conflicts) collisions):",
            "    file store (ours by identity, theirs parsed) \(fmt(store)) ms; git driver (all parsed) \(fmt(driver)) ms (target ≤\(Int(targetMs)) ms: \(verdict))",
        ]
    }
}
