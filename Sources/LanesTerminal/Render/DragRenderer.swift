import DragKit
import LanesCore

/// Where the insertion marker goes: a column and a gap in its current layout.
public struct Marker: Hashable, Sendable {
    public var section: Int
    public var gap: Int
}

/// What the board view must show differently because of a drag.
public struct DragDecorations: Hashable, Sendable {
    /// The dragged card's original, drawn as an empty slot.
    public var hidden: CardID?
    /// Where the card would land: a section and a gap in its current layout.
    public var marker: Marker?
    /// Text shown on the marker (the lifted card's title in a keyboard drag).
    public var markerLabel: String?
    public var targetSection: Int?
    public var refusedSection: Int?
    /// A card just dropped, drawn highlighted for a moment.
    public var flash: CardID?
    /// The other cards a multi-card drag carries: drawn dimmed in place.
    public var dimmed: Set<CardID> = []
    /// How many cards the drag carries besides the grabbed one (the ghost's "+N").
    public var extraCount = 0
    /// A column dragged by its header: the gap between columns (board order) where it would land.
    public var columnGap: Int?

    public init() {}
}

/// Draws a drag from the coordinator's events alone: ghost, hidden original,
/// drop marker, target highlight, snap-back and drop flash, and the words on the status line.
///
/// It keeps its own copy of what it needs (the dragged card, its start
/// frame) and never asks the arena or the draggables anything.
public struct DragRenderer: Sendable {
    struct Animation: Sendable {
        var card: Card
        var from: Rect
        var to: Rect
        var start: Double
        var duration: Double
    }

    public private(set) var start: DragStart?
    public private(set) var card: Card?
    public private(set) var location: Point = .zero
    public private(set) var hover: Hover = .none
    /// The title of a column dragged by its header.
    public private(set) var columnTitle: String?
    private var snapBack: Animation?
    private var flashItem: CardID?
    private var quietOverSource = false
    private var flashUntil = 0.0
    /// Seconds a snap-back takes.
    public var snapDuration = 0.15
    /// Seconds a dropped card stays highlighted.
    public var flashDuration = 0.4
    /// How often animations redraw.
    public var frameInterval = 1.0 / 30

    public init() {}

    public var isDragging: Bool { start != nil }

    /// Takes one event; returns the words for the status line, if the event deserves any.
    public mutating func handle(_ event: DragEvent, board: Board, now: Double) -> String? {
        switch event {
        case .tapped, .beganOutside, .notDraggable:
            return nil
        case .began(let s) where s.kind == .section:
            start = s
            card = nil
            location = s.origin
            hover = .none
            snapBack = nil
            quietOverSource = true
            columnTitle = board.columns.indices.contains(s.source.item) ? board.columns[s.source.item].title : "column"
            return "Picked up column \(columnName(s.source.item, board)): drop it between two columns"
        case .began(let s):
            start = s
            // By identity: when a whole drag arrives at once, the drop is already applied.
            card = board.indexPath(for: CardID(s.item)).flatMap { board.item(at: $0) }
            location = s.origin
            hover = .none
            snapBack = nil
            quietOverSource = true
            if s.carried.count > 1 {
                return "Picked up \(s.carried.count) cards with “\(title(card))”"
            }
            return
                "Picked up “\(title(card))” from \(columnName(s.source.section, board)), position \(s.source.item + 1)"
        case .moved(let p, let h):
            let old = hover
            location = p
            hover = h
            guard h != old else { return nil }
            // Hovering where it was picked up adds nothing to "Picked up …" (a lifted group's
            // first hover is its home, counted without the others it carries).
            if quietOverSource, let t = h.target, let s = start, t.section == s.source.section,
                t.index == s.source.item || (s.viaKeyboard && old == .none)
            {
                return nil
            }
            quietOverSource = false
            return describe(hover: h, board: board)
        case .targetChanged:
            return nil
        case .dropped(let d) where start?.kind == .section:
            let name = columnName(d.to.item, board)
            end(now: now, snap: false)
            return d.isNoOp ? "Column \(name) back in place" : "Moved column \(name) to position \(d.to.item + 1)"
        case .dropped(let d) where !d.carried.isEmpty:
            let n = d.carried.count
            end(now: now, snap: false)
            flashItem = CardID(d.item)
            flashUntil = now + flashDuration
            if d.isNoOp { return "Dropped \(n) cards back in place" }
            return
                "Dropped \(n) cards in \(columnName(d.to.section, board)) at positions \(d.carried[0].to.item + 1)–\(d.carried[n - 1].to.item + 1)"
        case .dropped(let d):
            let t = title(card)
            end(now: now, snap: false)
            flashItem = CardID(d.item)
            flashUntil = now + flashDuration
            if d.isNoOp { return "Dropped “\(t)” back in place" }
            return "Dropped “\(t)” in \(columnName(d.to.section, board)) at position \(d.to.item + 1)"
        case .endedOutside where start?.kind == .section, .cancelled where start?.kind == .section:
            let name = DisplayText.truncate(DisplayText.safe(columnTitle ?? "column"), to: 30)
            let vanished: Bool = if case .cancelled(_, _, .itemVanished) = event { true } else { false }
            end(now: now, snap: false)
            return vanished ? "Cancelled: the column was renamed or removed" : "Column “\(name)” back in place"
        case .endedOutside(_, let source, _):
            let t = title(card)
            let refused = hover
            end(now: now, snap: true)
            if case .refused = refused {
                return
                    "“\(t)” back in \(columnName(source.section, board)): \(refusal(refused, board: board, inSentence: true))"
            }
            return "Released outside: “\(t)” back in \(columnName(source.section, board))"
        case .dropRefused(_, let source, _, let why):
            let t = title(card)
            end(now: now, snap: true)
            return "“\(t)” back in \(columnName(source.section, board)): \(Self.sentence(why, inSentence: true))"
        case .cancelled(_, let source, let reason):
            let t = title(card)
            end(now: now, snap: reason != .itemVanished)
            switch reason {
            case .itemVanished: return "Cancelled: the card was deleted elsewhere"
            default:
                return "Cancelled: “\(t)” back in \(columnName(source.section, board)), position \(source.item + 1)"
            }
        }
    }

    /// What the board view should show differently right now.
    public func decorations(now: Double) -> DragDecorations {
        var d = DragDecorations()
        if let s = start, s.kind == .section {
            d.columnGap = hover.target?.gap
        } else if let s = start {
            if s.hidesOriginal { d.hidden = CardID(s.item) }
            if s.carried.count > 1 {
                d.extraCount = s.carried.count - 1
                d.dimmed = Set(s.carried.filter { $0 != s.item }.map(CardID.init))
            }
            switch hover {
            case .target(let t):
                d.targetSection = t.section
                // Over its own place a pointer-dragged card needs no marker: the empty slot says where it goes.
                let home =
                    !s.viaKeyboard && s.carried.isEmpty && t.section == s.source.section && t.index == s.source.item
                if !home { d.marker = Marker(section: t.section, gap: t.gap) }
                if s.viaKeyboard {
                    d.markerLabel = title(card) + (s.carried.count > 1 ? " +\(s.carried.count - 1)" : "")
                }
            case .refused(let section, _):
                d.refusedSection = section
            case .none:
                break
            }
        } else if let a = snapBack, now < a.start + a.duration {
            d.hidden = a.card.id
        }
        if let f = flashItem, now < flashUntil { d.flash = f }
        return d
    }

    /// When the next animation frame is due (nil: nothing is animating).
    public func deadline(now: Double) -> Double? {
        var next: Double?
        if let a = snapBack, now < a.start + a.duration { next = now + frameInterval }
        if flashItem != nil {
            let end = flashUntil
            next = min(next ?? end, end)
        }
        return next
    }

    /// Forgets finished animations.
    public mutating func tick(now: Double) {
        if let a = snapBack, now >= a.start + a.duration { snapBack = nil }
        if flashItem != nil, now >= flashUntil { flashItem = nil }
    }

    /// The floating card and where it is, if anything floats.
    public func ghost(now: Double) -> (card: Card, frame: Rect)? {
        if let s = start, let c = card, s.kind == .item {
            // A keyboard-lifted card rides on the marker instead of covering the cards below it.
            return s.viaKeyboard ? nil : (c, s.ghostFrame(at: location))
        }
        if let a = snapBack, now < a.start + a.duration {
            let t = max(0, min(1, (now - a.start) / a.duration))
            let eased = 1 - (1 - t) * (1 - t)
            let x = Double(a.from.minX) + Double(a.to.minX - a.from.minX) * eased
            let y = Double(a.from.minY) + Double(a.to.minY - a.from.minY) * eased
            return (a.card, Rect(x: Int(x.rounded()), y: Int(y.rounded()), width: a.from.width, height: a.from.height))
        }
        return nil
    }

    /// The ghost of a column dragged by its header: its title and where the header floats.
    public func columnGhost() -> (title: String, frame: Rect)? {
        guard let s = start, s.kind == .section, let t = columnTitle else { return nil }
        return (t, s.ghostFrame(at: location))
    }

    private mutating func end(now: Double, snap: Bool) {
        if snap, let s = start, let c = card {
            let from = s.ghostFrame(at: location)
            if from != s.itemFrame {
                snapBack = Animation(card: c, from: from, to: s.itemFrame, start: now, duration: snapDuration)
            }
        }
        start = nil
        card = nil
        columnTitle = nil
        hover = .none
    }

    func describe(hover: Hover, board: Board) -> String {
        switch hover {
        case .none:
            return "Dragging “\(title(card))”: release here to put it back"
        case .target(let t) where start?.kind == .section:
            return
                "Column \(columnName(start?.source.item ?? 0, board)) to position \(t.index + 1) of \(board.columns.count)"
        case .target(let t):
            let carried = max(1, start?.carried.count ?? 1)
            let count = board.numberOfItems(inSection: t.section) - (t.section == start?.source.section ? 1 : 0)
            if carried > 1 { return "\(carried) cards over \(columnName(t.section, board)), position \(t.index + 1)" }
            return "Over \(columnName(t.section, board)), position \(t.index + 1) of \(count + 1)"
        case .refused:
            return refusal(hover, board: board)
        }
    }

    /// Why a place refuses the card: the door's words (the same a key or a command gets), or,
    /// when the place itself refuses, that it does.
    private func refusal(_ hover: Hover, board: Board, inSentence: Bool = false) -> String {
        if let why = hover.refusal { return Self.sentence(why, inSentence: inSentence) }
        return "\(columnName(hover.section ?? -1, board)) refuses this card"
    }

    /// The door's words for the status line: safe, at most 80 columns, and a sentence of its own
    /// (first letter capitalized) unless it follows other words.
    static func sentence(_ words: String, inSentence: Bool = false) -> String {
        let text = inSentence ? words : words.prefix(1).uppercased() + words.dropFirst()
        return DisplayText.truncate(DisplayText.safe(text), to: 80)
    }

    private func title(_ card: Card?) -> String {
        DisplayText.truncate(DisplayText.safe(card?.title ?? "card"), to: 40)
    }

    private func columnName(_ section: Int, _ board: Board) -> String {
        guard board.columns.indices.contains(section) else { return "column \(section + 1)" }
        return DisplayText.truncate(DisplayText.safe(board.columns[section].title), to: 30)
    }
}
