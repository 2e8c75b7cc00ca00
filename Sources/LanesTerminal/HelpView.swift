/// The `?` screen: every binding from the keymap table.
public enum HelpView {
    public static func lines(keymap: Keymap) -> [String] {
        var out = ["Mouse: press on a card, drag it, release where it belongs.",
                   "      click selects · wheel scrolls a column · release outside or esc cancels", ""]
        for action in Action.allCases {
            let keys = keymap.keys(for: action).map(\.description)
            guard !keys.isEmpty else { continue }
            let k = keys.joined(separator: " ")
            out.append(k.padding(toLength: max(k.count, 16)) + " " + action.summary)
        }
        return out
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
            out += ".TP\n.B \(troff(keys.joined(separator: ", ")))\n\(troff(action.summary)) (\\fI\(troff(action.rawValue))\\fP).\n"
        }
        return out
    }

    /// Text safe on a troff line: backslashes and hyphens escaped, no leading control character.
    static func troff(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\e").replacingOccurrences(of: "-", with: "\\-")
        return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
    }

    public static func draw(keymap: Keymap, scroll: Int, into buf: inout CellBuffer) {
        let all = lines(keymap: keymap)
        let w = min(buf.width - 2, 78), h = min(buf.height - 2, all.count + 2)
        guard w > 10, h > 3 else { return }
        let x0 = (buf.width - w) / 2, y0 = (buf.height - h) / 2
        buf.fill(x: x0, y: y0, width: w, height: h)
        buf.write("╭" + String(repeating: "─", count: w - 2) + "╮", x: x0, y: y0, style: Style(bold: true))
        buf.write(" Keys (any key closes) ", x: x0 + 2, y: y0, style: Style(bold: true))
        for r in 1..<(h - 1) {
            buf.write("│", x: x0, y: y0 + r, style: Style(bold: true))
            buf.write("│", x: x0 + w - 1, y: y0 + r, style: Style(bold: true))
            let i = scroll + r - 1
            if i < all.count { buf.write(DisplayText.truncate(all[i], to: w - 4), x: x0 + 2, y: y0 + r) }
        }
        buf.write("╰" + String(repeating: "─", count: w - 2) + "╯", x: x0, y: y0 + h - 1, style: Style(bold: true))
    }
}

extension String {
    func padding(toLength n: Int) -> String {
        count >= n ? self : self + String(repeating: " ", count: n - count)
    }
}
