import DragKit
import LanesCore

/// Where the board is looked at: the page, each column's scroll offset, the page breaks a resize
/// kept, and the layout they made last.
struct BoardViewport {
    var page = 0
    /// Each column's scroll offset, by identity: a column inserted or deleted elsewhere moves no other column's.
    var offsets: [ColumnID: Int] = [:]
    /// Set by a resize: shifts the page breaks so the kept column stays in its area (nil: canonical pages).
    var anchor: LayoutAnchor<Int>?
    /// The layout of the current state; nil until one is made.
    var last: ScreenLayout?

    /// The scroll offsets of `board`'s columns, in board order (what the layout takes).
    func scroll(of board: Board) -> [Int] { board.columns.map { offsets[$0.id] ?? 0 } }

    /// Sets the offsets of `board`'s columns from a list in board order (entries past its columns are ignored).
    mutating func setScroll(_ scroll: [Int], of board: Board) {
        for (i, c) in board.columns.enumerated() where i < scroll.count { offsets[c.id] = scroll[i] }
    }

    /// Scrolls the column at `section` of `board` by `rows` (until the next layout clamps it).
    mutating func scroll(section: Int, by rows: Int, of board: Board) {
        guard board.columns.indices.contains(section) else { return }
        offsets[board.columns[section].id, default: 0] += rows
    }

    /// Keeps a new layout of `board` and what it settled: its page and the clamped offsets, so
    /// the wheel and the keys start from what is shown.
    mutating func keep(_ layout: ScreenLayout, of board: Board) {
        page = layout.page
        for c in layout.columns where board.columns.indices.contains(c.section) {
            offsets[board.columns[c.section].id] = c.scroll
        }
        last = layout
    }
}
