import DragKit
import LanesCore

/// The status line at the bottom of the board.
extension BoardView {
    /// The status line: a message wider than the screen wraps onto the rows above it (drawn over
    /// the board's bottom rows until the next message), up to every row but the title bar; only a
    /// message longer than the whole screen is cut, with `…`.
    static func drawStatus(_ scene: BoardScene, into buf: inout CellBuffer) {
        let size = scene.layout.size
        let y = size.height - 1
        guard y > 0 else { return }
        let lines = statusLines(
            scene.status, width: size.width, height: size.height, wraps: scene.wrapsStatus,
            messagesKey: scene.messagesKey)
        for (i, line) in lines.enumerated() {
            let row = y - (lines.count - 1) + i
            buf.fill(x: 0, y: row, width: size.width, height: 1, style: scene.theme.status)
            buf.write(line, x: 0, y: row, style: scene.theme.status)
        }
    }

    /// The rows the status takes on a screen of `width` × `height`, each starting with a space.
    static func statusLines(_ status: String, width: Int, height: Int, wraps: Bool = true, messagesKey: String? = nil)
        -> [String]
    {
        let text = DisplayText.safe(status)
        guard wraps, width > 2, TextWidth.width(of: text) > width - 1 else {
            return [DisplayText.truncate(" " + text, to: width)]
        }
        // Every row but the title bar may be taken: a message is read whole, and the next key
        // gives the board back.
        let most = max(1, height - 1)
        guard let key = messagesKey else {
            return DisplayText.wrap(text, width: width - 1, maxLines: most).map { " " + $0 }
        }
        var rows = DisplayText.wrap(text, width: width - 1, maxLines: most + 1)
        if rows.count > most {
            // Cut: the last row says which key shows the message whole.
            rows.removeLast(rows.count - most)
            let tail = 16 + TextWidth.width(of: key) < width - 1 ? "… \(key) shows it whole" : "…"
            var last = rows.removeLast()
            while !last.isEmpty && TextWidth.width(of: last) + TextWidth.width(of: tail) > width - 1 {
                last.removeLast()
            }
            rows.append(last + tail)
        }
        return rows.map { " " + $0 }
    }
}
