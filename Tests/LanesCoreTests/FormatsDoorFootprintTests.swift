import Foundation
import Testing
import DragKit
import SeededRandom
@testable import LanesCore

/// Seeded random edits of every card kind, built as `BoardEdit` values, applied by the one door
/// (`Board.applying`) and saved by the real `FileBoardStore` to generated corpus files: each
/// diff is the edit's footprint (its own lines only; separators stay; never joined to the next
/// block; the lane's own bullet and check style; the file's line ending).
@Suite("Formats: every edit through the one door and the file store touches only its footprint")
struct FormatsDoorFootprintTests {
    enum Kind: CaseIterable { case toggle, rename, addEnd, addTop, delete, move, moveWithin, unchangedCard }

    @Test func seededEditsThroughTheDoorAndTheFileStore() throws {
        var corpus = WildCorpus(seed: 0xD00F)
        var rng = SplitMix64(seed: 0xD00E)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("door-footprint-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var checked: [Kind: Int] = [:]
        var refused = 0
        for k in 0..<700 {
            let bytes = corpus.file()
            let path = dir.appendingPathComponent("f\(k).md").path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            let (store, board, _) = try FileBoardStore.open(path, starter: nil)
            let (_, info) = try BoardFormat.parse(bytes, file: path)
            guard !board.columns.isEmpty else { continue }
            let kind = Kind.allCases.randomElement(using: &rng)!
            let titles = Dictionary(grouping: board.columns.flatMap { $0.cards.map(\.title) }, by: { $0 }).mapValues(
                \.count)
            let findable = board.columns.flatMap { $0.cards.filter { $0.title.count > 3 && titles[$0.title] == 1 } }
            let s = Int.random(in: 0..<board.columns.count, using: &rng)
            let column = board.columns[s]
            var subject: Card?
            let edit: BoardEdit
            switch kind {
            case .addEnd, .addTop:
                subject = Card(id: CardID.fresh(), title: "Added through the door \(k)")
                edit = .addCard(subject!, column: column.id, at: kind == .addTop ? .top : .end, fallbackColumn: s)
            default:
                guard let card = findable.randomElement(using: &rng) else { continue }
                subject = card
                switch kind {
                case .toggle:
                    guard info.dialect == .obsidian else { continue }
                    edit = .setDone(card.id, !card.done)
                case .rename: edit = .setTitle(card.id, card.title + " renamed", seen: nil)
                case .delete: edit = .deleteCards([card.id], seen: nil)
                case .move:
                    edit = .moveCards(
                        [card.id], to: column.id, at: .index(Int.random(in: 0...column.cards.count, using: &rng)))
                case .moveWithin:
                    let own = board.columns[board.indexPath(for: card.id)!.section]
                    edit = .moveCards(
                        [card.id], to: own.id, at: .index(Int.random(in: 0...own.cards.count, using: &rng)))
                default: edit = .replaceCard(card, seen: nil)
                }
            }
            let outcome = try board.applying(edit, force: true)
            do {
                _ = try store.commit(base: board, ours: outcome.board)
            } catch StorageError.writeFailed(_, let reason) where reason.contains("would") {
                // An Obsidian save that would read back as other cards (lines kept after a lane's list
                // joining it, or a card joining them) is refused in words, the file as it was (#40).
                #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))) == bytes, "file \(k): \(reason)")
                refused += 1
                continue
            }
            let written = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
            let before = String(decoding: bytes, as: UTF8.self), after = String(decoding: written, as: UTF8.self)
            let context = "file \(k), \(kind)\n--- before\n\(before)\n--- after\n\(after)"
            // The file's line ending, everywhere; its byte order mark kept.
            if info.lineEnding == .crlf {
                #expect(
                    !written.indices.contains { written[$0] == 10 && ($0 == 0 || written[$0 - 1] != 13) }, "\(context)")
            } else {
                #expect(!written.contains(13), "\(context)")
            }
            #expect(written.starts(with: [0xEF, 0xBB, 0xBF]) == bytes.starts(with: [0xEF, 0xBB, 0xBF]))
            let a = FormatsCorpusTests.lines(before), b = FormatsCorpusTests.lines(after)
            let (om, nm) = FormatsCorpusTests.middles(a, b)
            let card = try #require(subject)
            switch kind {
            case .unchangedCard:
                #expect(written == bytes, "\(context)")
            case .toggle:
                let oneChar = bytes.count == written.count && zip(bytes, written).filter { $0 != $1 }.count == 1
                #expect(oneChar || (om.count == 1 && nm.count == 1 && nm[0].contains("[x] ")), "\(context)")
            case .rename:
                #expect(om.count == 1 && nm.count == 1 && nm[0].contains(card.title + " renamed"), "\(context)")
            case .addEnd, .addTop:
                #expect(FormatsCorpusTests.nonBlank(om).isEmpty, "\(context)")
                let added = FormatsCorpusTests.nonBlank(nm)
                #expect(added.count == 1 && added.first?.hasSuffix(card.title) == true, "\(context)")
                #expect(nm.count <= 3, "\(context)")
                if info.dialect == .obsidian, let line = added.first {
                    // The lane's own bullet and check style.
                    let key = ColumnKey.keys(of: board.columns)[s]
                    let style = info.columnSpacing[key]?.cardStyle ?? info.cardStyle
                    #expect(line == Substring(style.text(done: false) + card.title), "\(context)")
                }
            case .delete:
                let own = FormatsCorpusTests.cardLines(card, in: a, dialect: info.dialect)
                #expect(FormatsCorpusTests.nonBlank(nm).isEmpty, "\(context)")
                #expect(FormatsCorpusTests.nonBlank(om) == own, "\(context)")
            case .move, .moveWithin:
                if om.isEmpty && nm.isEmpty { break }
                let own = FormatsCorpusTests.cardLines(card, in: b, dialect: info.dialect)
                let rest1 = FormatsCorpusTests.removing(own, from: FormatsCorpusTests.nonBlank(a))
                let rest2 = FormatsCorpusTests.removing(own, from: FormatsCorpusTests.nonBlank(b))
                #expect(rest1 != nil && rest1 == rest2, "\(context)")
                #expect(abs(a.count - b.count) <= 2, "\(context)")
            }
            // Never joined to the next block: the file reads back as the board the door made
            // (but a lane whose last shown card left lines after its list behind, docs/FORMATS.md).
            let (reread, _) = try BoardFormat.parse(written, file: path)
            let keys = ColumnKey.keys(of: outcome.board.columns)
            let resurfaced = Set(
                outcome.board.columns.indices.filter {
                    outcome.board.columns[$0].cards.isEmpty && info.columnSpacing[keys[$0]]?.afterList != nil
                })
            func shown<T: Equatable>(_ board: Board, _ f: (Card) -> T) -> [[T]] {
                board.columns.indices.map { resurfaced.contains($0) ? [] : board.columns[$0].cards.map(f) }
            }
            #expect(shown(reread, \.title) == shown(outcome.board, \.title), "\(context)")
            #expect(shown(reread, \.extraLines) == shown(outcome.board, \.extraLines), "\(context)")
            checked[kind, default: 0] += 1
        }
        for kind in Kind.allCases {
            #expect(checked[kind, default: 0] >= 40, "\(kind) checked \(checked[kind, default: 0]) times")
        }
        // The refusals stay the exception: most edits of these files are saved and checked above.
        #expect(refused < 70, "\(refused) of 700 saves refused")
    }
}
