import DragKit

/// The `?` screen: every binding from the keymap table, scrollable, descriptions wrapped in full.
///
/// Each binding is a row `keys  action-name  what it does`; the description wraps under itself
/// (a hanging indent), so nothing is cut at any width. The title names the scroll keys, the
/// bottom border where the view is in the list.
public enum HelpView {
    /// The help's rows at a text width (the keys column is 14 cells, the action names' 19).
    public static func lines(keymap: Keymap, width: Int = 74) -> [String] {
        var out: [String] = []
        func para(_ text: String) {
            out += DisplayText.wrap(text, width: max(10, width))
        }
        para(
            "Mouse: press on a card, drag it, release where it belongs. Click selects; click the selected card to open it; the wheel scrolls a column; release outside or esc cancels. Alt-click marks a card, as does a plain click on its mark box (top-left of its border) where a terminal sends no modifiers (qterminal; xterm's ctrl-click is its menu)."
        )
        out.append("")
        let keysWidth = 14, nameWidth = 19
        let wide = width >= keysWidth + nameWidth + 20
        for action in Action.allCases {
            let keys = keymap.keys(for: action).map(\.description)
            guard !keys.isEmpty else { continue }
            let k = keys.joined(separator: " ")
            if wide {
                let head = k.padding(toLength: keysWidth) + " " + action.rawValue.padding(toLength: nameWidth) + " "
                let indent = TextWidth.width(of: head)
                let headOnly = TextWidth.width(of: k) > keysWidth
                if headOnly { out.append(k) }
                let prefix =
                    headOnly
                    ? String(repeating: " ", count: keysWidth + 1) + action.rawValue.padding(toLength: nameWidth) + " "
                    : head
                let body = DisplayText.wrap(action.summary, width: max(10, width - indent))
                for (i, line) in body.enumerated() {
                    out.append((i == 0 ? prefix : String(repeating: " ", count: indent)) + line)
                }
            } else {
                // Narrow: keys and name on one row, the description under them.
                out.append(k + "  (" + action.rawValue + ")")
                for line in DisplayText.wrap(action.summary, width: max(10, width - 4)) { out.append("    " + line) }
            }
        }
        out.append("")
        para(
            "Change keys in $XDG_CONFIG_HOME/lanes/config: \"bind KEY ACTION\", \"unbind KEY\"; \"set view compact\" starts in the compact view. lanes keys lists the actions."
        )
        return out
    }

    /// The box over the board: up to 78 cells wide, all the rows between the title bar and the status line.
    static func box(width: Int, height: Int) -> Rect {
        let w = min(width - 2, 78), h = max(0, height - 2)
        return Rect(x: (width - w) / 2, y: 1, width: w, height: h)
    }

    /// Rows of the list the box shows at once.
    public static func visibleRows(height: Int) -> Int { max(1, height - 4) }

    /// How far the list scrolls at a size: its last row at the bottom of the box.
    public static func maxScroll(keymap: Keymap, size: Size) -> Int {
        let b = box(width: size.width, height: size.height)
        return max(0, lines(keymap: keymap, width: b.width - 4).count - visibleRows(height: size.height))
    }

    /// The bindings as a Markdown table, for the README (a test keeps the README equal to it).
    public static func markdownTable(keymap: Keymap = Keymap()) -> String {
        var out = "| keys | action | what it does |\n|---|---|---|\n"
        for action in Action.allCases {
            let keys = keymap.keys(for: action).map { "`\($0.description.replacingOccurrences(of: "|", with: "\\|"))`" }
            guard !keys.isEmpty else { continue }
            out += "| \(keys.joined(separator: " ")) | `\(action.rawValue)` | \(action.summary) |\n"
        }
        return out
    }

    /// The bindings as the man page's KEYS entries (troff), for `Resources/lanes.1` (a test keeps it equal).
    public static func manPageKeys(keymap: Keymap = Keymap()) -> String {
        var out = ""
        for action in Action.allCases {
            let keys = keymap.keys(for: action).map(\.description)
            guard !keys.isEmpty else { continue }
            out +=
                ".TP\n.B \(troff(keys.joined(separator: ", ")))\n\(troff(action.summary)) (\\fI\(troff(action.rawValue))\\fP).\n"
        }
        return out
    }

    /// Text safe on a troff line: backslashes and hyphens escaped, no leading control character.
    static func troff(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    public static func draw(keymap: Keymap, scroll: Int, into buf: inout CellBuffer) {
        let b = box(width: buf.width, height: buf.height)
        guard b.width > 10, b.height > 3 else { return }
        let all = lines(keymap: keymap, width: b.width - 4)
        let rows = visibleRows(height: buf.height)
        let top = min(max(0, scroll), max(0, all.count - rows))
        let rowKeys =
            ["↑↓"]
            + [keymap.keys(for: .down).first, keymap.keys(for: .up).first].compactMap { $0?.description }
            .filter { $0 != "down" && $0 != "up" }
        ScrollBox.draw(
            all, top: top, visible: rows, box: b,
            title: " Keys · \(rowKeys.joined(separator: " ")) scroll · pgup pgdn · esc closes ",
            footer: { top, end in
                top + rows >= all.count
                    ? " \(top + 1)–\(end) of \(all.count) · end " : " \(top + 1)–\(end) of \(all.count) · ↓ more "
            }, into: &buf)
    }
}

extension String {
    func padding(toLength n: Int) -> String {
        count >= n ? self : self + String(repeating: " ", count: n - count)
    }
}
