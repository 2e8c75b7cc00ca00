import DragKit
import LanesCore

/// The whole card in a box over the board: title, where it is, due date, tags, the full
/// description wrapped, the lines kept as written, the sub-tasks with their ticks; scrolled by the detail's `scroll`.
public enum CardDetailView {
    /// One row of the detail's content; `subtask` is the sub-task it belongs to, if any.
    public struct Line: Hashable, Sendable {
        public var text: String
        public var style: Style
        public var subtask: Int?
    }

    /// The box: up to 76 cells wide, centred, from row 1 to the row above the status line.
    public static func box(_ size: Size) -> Rect {
        let w = max(0, min(size.width - 2, 76)), h = max(0, size.height - 2)
        return Rect(x: (size.width - w) / 2, y: 1, width: w, height: h)
    }

    /// Text width inside the box (a border and a space each side).
    public static func innerWidth(_ size: Size) -> Int { max(1, box(size).width - 4) }

    /// Content rows the box shows at once.
    public static func visibleRows(_ size: Size) -> Int { max(1, box(size).height - 2) }

    /// Everything the view shows of a card, wrapped to `width` cells.
    public static func content(card: Card, column: String, storesDoneMark: Bool, width: Int, flow: [String]? = nil)
        -> [Line]
    {
        var out: [Line] = []
        func add(_ text: String, _ style: Style = Style(), subtask: Int? = nil, indent: Int = 0) {
            let pad = String(repeating: " ", count: indent)
            for (i, piece) in DisplayText.wrap(text, width: max(1, width - indent)).enumerated() {
                out.append(Line(text: (i == 0 ? "" : pad) + piece, style: style, subtask: subtask))
            }
        }
        func field(_ label: String, _ value: String) {
            let pad = 10
            for (i, piece) in DisplayText.wrap(value, width: max(1, width - pad)).enumerated() {
                out.append(
                    Line(
                        text: (i == 0 ? label.padding(toLength: pad) : String(repeating: " ", count: pad)) + piece,
                        style: Style()))
            }
        }
        let title = DisplayText.safe(card.title.isEmpty ? "(untitled)" : card.title)
        add((card.done ? "✓ " : "") + title, Style(bold: true, dim: card.done))
        out.append(Line(text: "", style: Style()))
        field("Column:", DisplayText.safe(column))
        field("Due:", card.due.map { DisplayText.safe($0) } ?? "none")
        field("Tags:", card.tags.isEmpty ? "none" : DisplayText.safe(card.tags.map { "#" + $0 }.joined(separator: " ")))
        field("Done:", storesDoneMark ? (card.done ? "yes" : "no") : "— (taskell files have no done mark)")
        if let flow, let first = flow.first {
            // Age and time in each column, from the board's history (`BoardApp.flowLines`).
            field("Age:", first)
            for line in flow.dropFirst() { field("", line) }
        }
        out.append(Line(text: "", style: Style()))
        if card.descriptionLines.isEmpty && card.extraLines.isEmpty {
            out.append(Line(text: "No description", style: Style(dim: true)))
        } else if !card.descriptionLines.isEmpty {
            out.append(Line(text: "Description", style: Style(bold: true)))
            for line in card.descriptionLines {
                if line.isEmpty { out.append(Line(text: "", style: Style())) } else { add(DisplayText.safe(line)) }
            }
        }
        if !card.extraLines.isEmpty {
            if !card.descriptionLines.isEmpty { out.append(Line(text: "", style: Style())) }
            let count = card.extraLines.count
            out.append(
                Line(
                    text: "Notes as written in the file (\(count) line\(count == 1 ? "" : "s"); E edits them)",
                    style: Style(bold: true)))
            for line in card.extraLines {
                // The indentation shows (a tab as four cells, at most half the width); the text as written.
                var indent = 0
                var rest = Substring(line)
                while let ch = rest.first, ch == " " || ch == "\t" {
                    indent += ch == "\t" ? 4 : 1
                    rest = rest.dropFirst()
                }
                indent = min(indent, width / 2)
                if rest.isEmpty { out.append(Line(text: "", style: Style())); continue }
                let pad = String(repeating: " ", count: indent)
                for piece in DisplayText.wrap(DisplayText.safe(rest), width: max(1, width - indent)) {
                    out.append(Line(text: pad + piece, style: Style()))
                }
            }
        }
        out.append(Line(text: "", style: Style()))
        if card.subtasks.isEmpty {
            out.append(Line(text: "No sub-tasks", style: Style(dim: true)))
        } else {
            let done = card.subtasks.filter(\.done).count
            out.append(Line(text: "Sub-tasks \(done)/\(card.subtasks.count)", style: Style(bold: true)))
            for (i, s) in card.subtasks.enumerated() {
                add((s.done ? "[x] " : "[ ] ") + DisplayText.safe(s.title), Style(dim: s.done), subtask: i, indent: 4)
            }
        }
        return out
    }

    /// The keys the view answers to, from the keymap (a key that is not bound is not named);
    /// within `width` cells by leaving out the least needed ones (never "esc close").
    public static func hint(keymap: Keymap, hasSubtasks: Bool, width: Int = .max) -> String {
        var parts: [String] = []
        func add(_ action: Action, _ words: String) {
            if let k = keymap.keys(for: action).first { parts.append("\(k) \(words)") }
        }
        if hasSubtasks {
            add(.lift, "tick")
            parts.append("↑↓ choose")
        } else {
            parts.append("↑↓ scroll")
        }
        add(.editTitle, "title")
        add(.setDue, "due")
        add(.setTags, "tags")
        add(.toggleDone, "done")
        add(.editExternal, "editor")
        parts.append("esc close")
        while parts.count > 1, TextWidth.width(of: parts.joined(separator: " · ")) > width {
            parts.remove(at: parts.count - 2)
        }
        return parts.joined(separator: " · ")
    }

    public static func draw(
        card: Card, column: String, scroll: Int, cursor: Int, keymap: Keymap, storesDoneMark: Bool,
        flow: [String]? = nil, into buf: inout CellBuffer
    ) {
        let size = Size(width: buf.width, height: buf.height)
        let b = box(size)
        guard b.width >= 12, b.height >= 4 else { return }
        let frame = Style(bold: true)
        buf.fill(x: b.minX, y: b.minY, width: b.width, height: b.height)
        buf.write("╭", x: b.minX, y: b.minY, style: frame)
        buf.write(repeating: "─", count: b.width - 2, x: b.minX + 1, y: b.minY, style: frame)
        buf.write("╮", x: b.maxX - 1, y: b.minY, style: frame)
        buf.write(" Card ", x: b.minX + 2, y: b.minY, style: frame)
        let lines = content(
            card: card, column: column, storesDoneMark: storesDoneMark, width: innerWidth(size), flow: flow)
        let rows = visibleRows(size)
        let scroll = min(max(0, scroll), max(0, lines.count - rows))
        for r in 0..<rows {
            let y = b.minY + 1 + r
            buf.write("│", x: b.minX, y: y, style: frame)
            buf.write("│", x: b.maxX - 1, y: y, style: frame)
            let i = scroll + r
            guard i < lines.count else { continue }
            let line = lines[i]
            var style = line.style
            let chosen = line.subtask != nil && line.subtask == cursor
            if chosen {
                style.reverse = true
                buf.fill(x: b.minX + 1, y: y, width: b.width - 2, height: 1, style: Style(reverse: true))
                buf.write("▸", x: b.minX + 1, y: y, style: Style(reverse: true))
            }
            buf.write(line.text, x: b.minX + 2, y: y, style: style, maxX: b.maxX - 2)
        }
        if lines.count > rows {
            let where_ = " \(scroll + 1)–\(min(lines.count, scroll + rows)) of \(lines.count) "
            buf.write(where_, x: b.maxX - 2 - TextWidth.width(of: where_), y: b.minY, style: frame)
        }
        let y = b.maxY - 1
        buf.write("╰", x: b.minX, y: y, style: frame)
        buf.write(repeating: "─", count: b.width - 2, x: b.minX + 1, y: y, style: frame)
        buf.write("╯", x: b.maxX - 1, y: y, style: frame)
        let keys = DisplayText.truncate(
            " " + hint(keymap: keymap, hasSubtasks: !card.subtasks.isEmpty, width: b.width - 6) + " ", to: b.width - 4)
        buf.write(keys, x: b.minX + 2, y: y, style: Style(dim: true))
    }
}
