import DragKit

/// A board's swimlanes: horizontal bands, one per tag in this order, then "No lane".
///
/// A lane is a tag, so the board file needs nothing new: a card is in the first lane (in lane
/// order) whose tag it carries, compared without regard to case. The lanes are kept in the
/// board's settings sidecar (`.NAME.lanes`, beside the accept rules; on PostgreSQL in the
/// board's row with them) as one line: `swimlanes "frontend" "backend"`.
public struct Swimlanes: Hashable, Sendable {
    /// The lane tags, without `#`, in lane order; never empty, no two equal ignoring case.
    public let tags: [String]

    /// Why a list of lane tags cannot be lanes.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        case notATag(String)
        case duplicate(String)

        public var description: String {
            switch self {
            case .empty: "no lane tag given: name at least one"
            case .notATag(let t):
                "\(AcceptRules.quoted(t)) is not a tag: a tag is letters, digits, _, - and / (no spaces, no #)"
            case .duplicate(let t): "lane \(AcceptRules.quoted(t)) is named twice (tags are compared ignoring case)"
            }
        }
    }

    /// Lanes for `tags`, in order; each must be a tag (a leading `#` is not part of it).
    public init(_ tags: [String]) throws(Problem) {
        guard !tags.isEmpty else { throw .empty }
        var seen = Set<String>()
        for t in tags {
            guard Swimlanes.isTag(t) else { throw .notATag(t) }
            guard seen.insert(Swimlanes.lowercased(t)).inserted else { throw .duplicate(t) }
        }
        self.tags = tags
    }

    /// `text.lowercased()`, byte by byte when it is ASCII (a microsecond less a tag, on the way to the first frame).
    static func lowercased(_ text: String) -> String {
        guard text.utf8.allSatisfy({ $0 < 0x80 }) else { return text.lowercased() }
        return String(decoding: text.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// Whether `text` is exactly one tag as a card title's `#text` would carry it.
    public static func isTag(_ text: String) -> Bool {
        // In ASCII a tag is its bytes alone (what `Card.tags` reads as characters, at a tenth of the cost).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return !text.isEmpty && text.utf8.allSatisfy(LaneTagFinder.isTagByte) }
        return !text.isEmpty && Card.tags(in: "#" + text) == [text]
    }

    public var count: Int { tags.count }

    /// The lane of `tag` (ignoring case), if it is a lane tag.
    public func lane(ofTag tag: String) -> Int? {
        let t = tag.lowercased()
        return tags.firstIndex { $0.lowercased() == t }
    }

    /// Where a card goes: its lane (nil for "No lane") and the other lane tags it carries, in lane order.
    public struct Placement: Hashable, Sendable {
        public var lane: Int?
        /// Lanes whose tag the card also carries, beyond `lane`; a card shown in one lane is marked for these.
        public var alsoIn: [Int]
    }

    /// The lane of a card with this title: the first lane, in lane order, whose tag it carries.
    public func placement(ofTitle title: String) -> Placement {
        let lanes = Set(Card.tags(in: title).compactMap(lane(ofTag:))).sorted()
        return Placement(lane: lanes.first, alsoIn: Array(lanes.dropFirst()))
    }

    public func placement(of card: Card) -> Placement { placement(ofTitle: card.title) }

    /// Every card's place on the grid: for each lane (then "No lane", index `count`), for each
    /// column, the indices of its cards in that column, in column order.
    public func cells(of board: Board) -> [[[Int]]] {
        var cells = [[[Int]]](repeating: [[Int]](repeating: [], count: board.columns.count), count: count + 1)
        for (s, column) in board.columns.enumerated() {
            for (i, card) in column.cards.enumerated() {
                cells[placement(of: card).lane ?? count][s].append(i)
            }
        }
        return cells
    }

    // MARK: Moving a card to another lane

    /// The title of a card moved to `lane` (nil: "No lane"): its first lane tag becomes the
    /// target's, its other lane tags go (each with the blank before it; the `#` stays when
    /// another `#` follows at once, so no new tag appears); with none, the target's tag is added
    /// at the end. Every other character stays where it was; a card already in `lane` keeps its title.
    public func title(_ title: String, movedTo lane: Int?) -> String {
        precondition(lane.map { tags.indices.contains($0) } ?? true, "no such lane")
        guard placement(ofTitle: title).lane != lane else { return title }
        let tokens = Swimlanes.tagTokens(in: title).filter { self.lane(ofTag: $0.tag) != nil }
        guard let first = tokens.first else {
            guard let lane else { return title }
            let needsBlank = !(title.last?.isWhitespace ?? true)
            return title + (needsBlank ? " " : "") + "#" + tags[lane]
        }
        var out = ""
        var at = title.startIndex
        for token in tokens {
            if token.range == first.range, let lane {
                out += title[at..<token.range.lowerBound] + "#" + tags[lane]
                at = token.range.upperBound
                continue
            }
            // Remove the token with one blank beside it: the one before, or at the start the one after.
            // A `#` right after it keeps the token's own `#`, so what follows does not become a tag.
            var lower = token.range.lowerBound, upper = token.range.upperBound
            if upper < title.endIndex, title[upper] == "#" {
                lower = title.index(after: lower)
            } else if lower > at, title[title.index(before: lower)].isWhitespace {
                lower = title.index(before: lower)
            } else if lower == title.startIndex, upper < title.endIndex, title[upper].isWhitespace {
                upper = title.index(after: upper)
            }
            out += title[at..<lower]
            at = upper
        }
        out += title[at...]
        return out
    }

    /// The card moved to `lane` (nil: "No lane"): only its title's lane tags change.
    public func card(_ card: Card, movedTo lane: Int?) -> Card {
        var moved = card
        moved.title = title(card.title, movedTo: lane)
        return moved
    }

    /// The `#tag` words of a title with where they stand, as `Card.tags(in:)` finds them.
    static func tagTokens(in text: String) -> [(range: Range<String.Index>, tag: String)] {
        var result: [(range: Range<String.Index>, tag: String)] = []
        var start: String.Index?
        var previous: Character = " "
        var i = text.startIndex
        while i < text.endIndex {
            let ch = text[i]
            if let s = start {
                if ch.isLetter || ch.isNumber || ch == "_" || ch == "-" || ch == "/" {
                    previous = ch
                    i = text.index(after: i)
                    continue
                }
                let tagStart = text.index(after: s)
                if tagStart < i { result.append((s..<i, String(text[tagStart..<i]))) }
                start = nil
            }
            if ch == "#" && previous.isWhitespace { start = i }
            previous = ch
            i = text.index(after: i)
        }
        if let s = start, text.index(after: s) < text.endIndex {
            result.append((s..<text.endIndex, String(text[text.index(after: s)...])))
        }
        return result
    }
}

// MARK: - In the settings sidecar

extension Swimlanes {
    /// `swimlanes "frontend" "backend"`
    public var line: String {
        "swimlanes " + tags.map(AcceptRules.quoted).joined(separator: " ")
    }

    /// The rest of a `swimlanes` line after its first word; `earlier` is the line of a previous one (1-based).
    static func parseLine(_ words: inout Words, _ source: Source, _ n: Int, earlier: Int?) throws(ParseError)
        -> Swimlanes
    {
        var tags: [String] = []
        while let word = try words.next(source, n) {
            guard let name = word.name else { throw source.error(n, "expected a lane tag, \(source.found(n))") }
            tags.append(
                name.hasPrefix("#") && Swimlanes.isTag(String(name.dropFirst())) ? String(name.dropFirst()) : name)
        }
        if let earlier {
            throw source.error(
                n, "a second swimlanes line (the first is on line \(earlier)); put all lanes on one line")
        }
        do throws(Problem) {
            return try Swimlanes(tags)
        } catch .empty {
            throw source.error(n, "swimlanes with no lane: name at least one tag, or remove the line")
        } catch {
            throw source.error(n, error.description)
        }
    }
}

extension AcceptRules {
    /// The board's swimlanes, or nil for plain columns. Setting keeps the line (and its comment)
    /// where it was; new lanes go at the end (after Lanes' header comment in a new file).
    public var swimlanes: Swimlanes? {
        get {
            for case .swimlanes(let s, _) in lines { return s }
            return nil
        }
        set {
            let index = lines.firstIndex { if case .swimlanes = $0 { true } else { false } }
            switch (index, newValue) {
            case (let i?, nil): lines.remove(at: i)
            case (let i?, let s?):
                guard case .swimlanes(let old, let comment) = lines[i], old != s else { return }
                lines[i] = .swimlanes(s, comment: comment)
            case (nil, nil): break
            case (nil, let s?):
                if lines.isEmpty { lines.append(.text(AcceptRules.header)) }
                lines.append(.swimlanes(s, comment: ""))
            }
        }
    }
}
