import DragKit

/// A bordered box of text rows over the board, scrolled to a row: the help and the messages view.
enum ScrollBox {
    /// Draws `rows` (already wrapped to `box.width - 4`) from `top` on, with `title` on the top
    /// border and `footer(top, end)` on the bottom one (`end`: one past the last row shown).
    static func draw(
        _ all: [String], top: Int, visible: Int, box b: Rect, title: String,
        footer: (_ top: Int, _ end: Int) -> String, into buf: inout CellBuffer
    ) {
        let frame = Style(bold: true)
        buf.fill(x: b.minX, y: b.minY, width: b.width, height: b.height)
        buf.write("╭", x: b.minX, y: b.minY, style: frame)
        buf.write(repeating: "─", count: b.width - 2, x: b.minX + 1, y: b.minY, style: frame)
        buf.write("╮", x: b.maxX - 1, y: b.minY, style: frame)
        buf.write(DisplayText.truncate(title, to: b.width - 4), x: b.minX + 2, y: b.minY, style: frame)
        for r in 0..<visible {
            let y = b.minY + 1 + r
            buf.write("│", x: b.minX, y: y, style: frame)
            buf.write("│", x: b.maxX - 1, y: y, style: frame)
            let i = top + r
            if i < all.count { buf.write(all[i], x: b.minX + 2, y: y, maxX: b.maxX - 2) }
        }
        let y = b.minY + visible + 1
        buf.write("╰", x: b.minX, y: y, style: frame)
        buf.write(repeating: "─", count: b.width - 2, x: b.minX + 1, y: y, style: frame)
        buf.write("╯", x: b.maxX - 1, y: y, style: frame)
        let place = footer(top, min(all.count, top + visible))
        buf.write(place, x: b.maxX - 2 - TextWidth.width(of: place), y: y, style: frame)
    }
}
