import DragKit
import LanesCore

/// The look of the board: which style each part is drawn in.
public struct Theme: Hashable, Sendable {
    public var border = Style()
    public var selected = Style(fg: .yellow, bold: true)
    public var title = Style()
    public var hint = Style(dim: true)
    public var columnTitle = Style(bold: true)
    public var rule = Style(dim: true)
    public var target = Style(fg: .green, bold: true)
    public var refused = Style(fg: .red, bold: true)
    public var marker = Style(fg: .green, bold: true)
    public var ghost = Style(fg: .cyan, bold: true)
    public var slot = Style(dim: true)
    public var flash = Style(fg: .green, bold: true, reverse: true)
    /// Cards in the multi-selection (`v`, ctrl-click).
    public var marked = Style(fg: .magenta, bold: true)
    public var header = Style(bold: true)
    public var status = Style(reverse: true)
    /// A column header at its WIP limit, and over it.
    public var atLimit = Style(fg: .yellow, bold: true)
    public var overLimit = Style(fg: .red, bold: true)
    /// A done card's title.
    public var done = Style(dim: true)

    public init() {}
}

/// Everything the board view draws from; a plain value so frames can be compared in tests.
public struct BoardScene {
    public var board: Board
    public var layout: ScreenLayout
    public var selection: ItemPath?
    public var decorations: DragDecorations
    public var ghost: (card: Card, frame: Rect)?
    public var title: String
    public var status: String
    public var theme: Theme
    /// Cards that do not match are drawn dimmed; empty shows all.
    public var filter: String
    /// One row per card (title, then badges) instead of boxes.
    public var compact: Bool
    /// The multi-selection: cards a drag of any one of them carries together.
    public var marked: Set<CardID> = []
    /// A column dragged by its header: its title and where the ghost header floats.
    public var columnGhost: (title: String, frame: Rect)?
    /// Whether a status longer than the screen is wrapped onto the rows above the last (false for
    /// a prompt, which the app draws on the last row itself).
    public var wrapsStatus = true
    /// The key that opens the recent messages, named where a message longer than the screen is cut.
    public var messagesKey: String?
    /// While the board is still being read and holds only each column's first cards: every
    /// column's card count in the file (the headers and "▼ N more" say these).
    public var fileCardCounts: [Int]?

    public init(
        board: Board, layout: ScreenLayout, selection: ItemPath?, decorations: DragDecorations = DragDecorations(),
        ghost: (card: Card, frame: Rect)? = nil, title: String, status: String, theme: Theme = Theme(),
        filter: String = "", compact: Bool = false
    ) {
        self.filter = filter
        self.compact = compact
        self.board = board
        self.layout = layout
        self.selection = selection
        self.decorations = decorations
        self.ghost = ghost
        self.title = title
        self.status = status
        self.theme = theme
    }
}

/// Styles with one attribute changed, for the board view's parts.
extension Style {
    func withBold(_ on: Bool) -> Style {
        var s = self
        s.bold = on
        return s
    }

    func withReverse(_ on: Bool = true) -> Style {
        var s = self
        s.reverse = on
        return s
    }
}
