import Testing
import DragKit
import SeededRandom
@testable import LanesCore

/// The generated corpus of odd but valid files (`WildCorpus`): every file opens and saves back
/// byte for byte, and every kind of edit changes exactly its own lines.
@Suite("Formats: generated corpus of the wild's shapes")
struct FormatsCorpusTests {
    static let files = 10_000

    /// In eight parts of 1,250 files, which run side by side.
    @Test(arguments: 0..<8)
    func tenThousandFilesOpenAndSaveBackByteForByte(part: Int) throws {
        var corpus = WildCorpus(seed: 0x5EED_2026 &+ UInt64(part))
        var obsidian = 0
        let count = Self.files / 8
        for k in 0..<count {
            let bytes = corpus.file()
            let (board, info): (Board, BoardFileInfo)
            do {
                (board, info) = try BoardFormat.parse(bytes, file: "corpus-\(k).md")
            } catch {
                Issue.record("file \(k) refused: \(error)\n\(String(decoding: bytes, as: UTF8.self))")
                return
            }
            if info.dialect == .obsidian { obsidian += 1 }
            let back = Array(BoardFormat.serialize(board, info: info).utf8)
            if back != bytes {
                Issue.record(
                    "file \(k) changed on open+save\n--- file\n\(String(decoding: bytes, as: UTF8.self))\n--- saved\n\(String(decoding: back, as: UTF8.self))"
                )
                return
            }
        }
        #expect(obsidian > count / 2 && obsidian < count)
    }

    enum EditKind: CaseIterable { case toggle, rename, add, addTop, delete, move, moveWithin }

    /// The lines of a file, each with its line ending removed.
    static func lines(_ text: String) -> [Substring] {
        var out = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { Substring($0) }
        out = out.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
        return out
    }

    /// The changed middles of two files: what is left after their common first and last lines.
    static func middles(_ a: [Substring], _ b: [Substring]) -> ([Substring], [Substring]) {
        var p = 0
        while p < a.count && p < b.count && a[p] == b[p] { p += 1 }
        var s = 0
        while s < a.count - p && s < b.count - p && a[a.count - 1 - s] == b[b.count - 1 - s] { s += 1 }
        return (Array(a[p..<(a.count - s)]), Array(b[p..<(b.count - s)]))
    }

    static func nonBlank(_ l: [Substring]) -> [Substring] { l.filter { !$0.isEmpty } }

    /// The sequence without one contiguous occurrence of `block` (nil when it is not there).
    /// The card's line is matched by its text after the list marker: a moved card takes its new
    /// lane's bullet and check style (a different bullet would start a list the plugin does not read).
    static func removing(_ block: [Substring], from seq: [Substring]) -> [Substring]? {
        guard !block.isEmpty, seq.count >= block.count else { return nil }
        func sameCardLine(_ x: Substring, _ y: Substring) -> Bool { x == y || afterMarker(x) == afterMarker(y) }
        for i in 0...(seq.count - block.count)
        where sameCardLine(seq[i], block[0]) && Array(seq[(i + 1)..<(i + block.count)]) == Array(block.dropFirst()) {
            return Array(seq[..<i]) + Array(seq[(i + block.count)...])
        }
        return nil
    }

    /// A card line's text after its bullet and check box.
    static func afterMarker(_ l: Substring) -> Substring {
        var r = l.drop { $0 == " " }.drop { $0 != " " }.dropFirst()  // up to three spaces, the bullet
        if r.hasPrefix("["), r.count >= 3, Array(r)[2] == "]" {
            r = r.dropFirst(3); if r.first == " " { r = r.dropFirst() }
        }
        return r
    }

    /// The card's non-blank lines as `after` holds them (found by its title line).
    static func cardLines(_ card: Card, in file: [Substring], dialect: BoardDialect) -> [Substring] {
        let count =
            1 + card.extraLines.filter { !$0.isEmpty }.count + card.descriptionLines.count + card.subtasks.count
            + (dialect == .taskell && card.due != nil ? 1 : 0)
        let nb = nonBlank(file)
        let title = card.title + (dialect == .obsidian ? card.due.map { " @{\($0)}" } ?? "" : "")
        guard let i = nb.firstIndex(where: { !$0.hasPrefix("    ") && !$0.hasPrefix("\t") && afterMarker($0) == title })
        else { return [] }
        return Array(nb[i..<min(nb.count, i + count)])
    }

    @Test func everyEditKindChangesExactlyItsFootprint() throws {
        var corpus = WildCorpus(seed: 0xD1FF)
        var rng = SplitMix64(seed: 0xED17)
        var checked: [EditKind: Int] = [:]
        for k in 0..<2_000 {
            let bytes = corpus.file()
            let (board, info0) = try BoardFormat.parse(bytes, file: "corpus-\(k).md")
            let before = String(decoding: bytes, as: UTF8.self)
            let cards = board.columns.indices.flatMap { s in
                board.columns[s].cards.indices.map { ItemPath(section: s, item: $0) }
            }
            guard !board.columns.isEmpty else { continue }
            let kind = EditKind.allCases.randomElement(using: &rng)!
            var edited = board
            var subject: Card?
            switch kind {
            case .toggle, .rename, .delete, .move, .moveWithin:
                // A card the check can find by its title line: one with a title no other card shares.
                let titles = Dictionary(grouping: cards.map { board[$0].title }, by: { $0 }).mapValues(\.count)
                let findable = cards.filter {
                    let t = board[$0].title; return t.count > 3 && titles[t] == 1
                }
                guard let path = findable.randomElement(using: &rng) else { continue }
                subject = board[path]
                switch kind {
                case .toggle:
                    guard info0.dialect == .obsidian else { continue }
                    edited[path].done.toggle()
                case .rename: edited[path].title += " renamed"
                case .delete: edited.deleteItem(at: path)
                case .move:
                    let to = Int.random(in: 0..<board.columns.count, using: &rng)
                    let count = board.columns[to].cards.count - (to == path.section ? 1 : 0)
                    edited = moving(
                        board, card: board[path].id, toColumn: to, index: Int.random(in: 0...count, using: &rng))
                default:
                    let count = board.columns[path.section].cards.count - 1
                    edited = moving(
                        board, card: board[path].id, toColumn: path.section,
                        index: Int.random(in: 0...count, using: &rng))
                }
                subject = edited.indexPath(for: board[path].id).map { edited[$0] } ?? subject
            case .add, .addTop:
                let s = Int.random(in: 0..<board.columns.count, using: &rng)
                _ = try BoardCommands.add(
                    &edited, column: "\(s + 1)", title: "Added card \(k)", top: kind == .addTop, force: true)
                let column = edited.columns[s]
                subject = column.cards[kind == .addTop ? 0 : column.cards.count - 1]
            }
            // As the file store writes it.
            let after = BoardFormat.serialize(edited, info: info0.following(board, to: edited))
            let a = Self.lines(before), b = Self.lines(after)
            let (om, nm) = Self.middles(a, b)
            let card = try #require(subject)
            let context = "file \(k), \(kind)\n--- before\n\(before)\n--- after\n\(after)"
            switch kind {
            case .toggle:
                let x = Array(before.utf8), y = Array(after.utf8)
                let oneChar = x.count == y.count && zip(x, y).filter { $0 != $1 }.count == 1
                // A card written without a check box gains one: its line alone changes.
                #expect(oneChar || (om.count == 1 && nm.count == 1 && nm[0].contains("[x] ")), "\(context)")
            case .rename:
                #expect(
                    om.count == 1 && nm.count == 1
                        && nm[0].hasSuffix(
                            " renamed" + (info0.dialect == .obsidian ? card.due.map { " @{\($0)}" } ?? "" : "")),
                    "\(context)")
            case .add, .addTop:
                #expect(Self.nonBlank(om).isEmpty, "\(context)")
                #expect(Self.nonBlank(nm).count == 1 && Self.nonBlank(nm)[0].hasSuffix(card.title), "\(context)")
                // The lane's separator, and one blank line more where lines kept after the lane's list
                // would otherwise continue the new card's paragraph.
                #expect(nm.count <= 3, "\(context)")
            case .delete:
                let own = Self.cardLines(card, in: a, dialect: info0.dialect)
                #expect(Self.nonBlank(nm).isEmpty, "\(context)")
                #expect(Self.nonBlank(om) == own, "\(context)")
            case .move, .moveWithin:
                let own = Self.cardLines(card, in: b, dialect: info0.dialect)
                if om.isEmpty && nm.isEmpty { break }  // moved where it was
                // Every other non-blank line stays, in order; blank separators stay but for the card's own gap.
                let rest1 = Self.removing(own, from: Self.nonBlank(a))
                let rest2 = Self.removing(own, from: Self.nonBlank(b))
                #expect(rest1 != nil && rest1 == rest2, "\(context)")
                #expect(abs(a.count - b.count) <= 2, "\(context)")
            }
            // What Lanes wrote reads back as the board Lanes believes it wrote.
            let (reread, _) = try BoardFormat.parse(after, file: "after.md")
            #expect(reread.columns.map(\.title) == edited.columns.map(\.title), "\(context)")
            // But for a lane whose last shown card left while lines after its list remain: their
            // first list is then the lane's, to Markdown and to Lanes reading the file (docs/FORMATS.md).
            let keys = ColumnKey.keys(of: edited.columns)
            let resurfaced = Set(
                edited.columns.indices.filter {
                    edited.columns[$0].cards.isEmpty && info0.columnSpacing[keys[$0]]?.afterList != nil
                })
            func shown<T: Equatable>(_ board: Board, _ f: (Card) -> T) -> [[T]] {
                board.columns.indices.map { resurfaced.contains($0) ? [] : board.columns[$0].cards.map(f) }
            }
            #expect(shown(reread, \.title) == shown(edited, \.title), "\(context)")
            #expect(shown(reread, \.extraLines) == shown(edited, \.extraLines), "\(context)")
            if info0.dialect == .obsidian {
                #expect(shown(reread, \.done) == shown(edited, \.done), "\(context)")
            }
            checked[kind, default: 0] += 1
        }
        for kind in EditKind.allCases {
            #expect(checked[kind, default: 0] > 50, "\(kind) checked \(checked[kind, default: 0]) times")
        }
    }
}
