import LanesCore

/// Turning card text into what may be shown: safe, measured and wrapped.
public enum DisplayText {
    /// The text with every control character replaced by a visible placeholder (`^[` for ESC).
    public static func safe(_ s: some StringProtocol) -> String {
        if !mayNeedSafing(s.utf8) { return String(s) }
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for ch in s {
            for piece in CellBuffer.safePieces(ch) { out.append(piece) }
        }
        return out
    }

    /// False when no byte could start a control or bidi control character: then every grapheme is its own safe piece.
    private static func mayNeedSafing(_ utf8: some Collection<UInt8>) -> Bool {
        TerminalSafe.mayNeedEscaping(utf8, keepLayout: false)
    }

    /// Cuts text to at most `width` cells, ending in `…` when something was cut.
    public static func truncate(_ s: String, to width: Int) -> String {
        guard width > 0 else { return "" }
        if TextWidth.width(of: s) <= width { return s }
        var out = ""
        var used = 0
        for ch in s {
            let w = TextWidth.width(of: ch)
            if used + w > width - 1 { break }
            out.append(ch)
            used += w
        }
        return out + "…"
    }

    /// Word-wraps safe text into lines of at most `width` cells; words longer
    /// than a line are broken; at most `maxLines`, the last ending in `…` if cut.
    public static func wrap(_ s: String, width: Int, maxLines: Int = .max) -> [String] {
        guard width > 0, maxLines > 0 else { return [] }
        var lines: [String] = []
        var line = ""
        var lineWidth = 0
        var word = ""
        var wordWidth = 0
        var truncated = false

        func pushLine() {
            lines.append(line)
            line = ""
            lineWidth = 0
        }
        func placeWord() {
            guard !word.isEmpty else { return }
            if lineWidth > 0 && lineWidth + 1 + wordWidth > width { pushLine() }
            if lineWidth > 0 {
                line.append(" ")
                lineWidth += 1
            }
            if wordWidth <= width - lineWidth {
                line += word
                lineWidth += wordWidth
            } else {
                for ch in word {
                    let w = TextWidth.width(of: ch)
                    if lineWidth + w > width { pushLine() }
                    line.append(ch)
                    lineWidth += w
                }
            }
            word = ""
            wordWidth = 0
        }

        for ch in s {
            if ch == " " || ch == "\t" {
                placeWord()
            } else {
                word.append(ch)
                wordWidth += TextWidth.width(of: ch)
            }
            if lines.count > maxLines { truncated = true; break }
        }
        if !truncated { placeWord() }
        if !line.isEmpty || lines.isEmpty { lines.append(line) }
        if lines.count > maxLines {
            lines.removeSubrange(maxLines...)
            truncated = true
        }
        if truncated, var last = lines.popLast() {
            while !last.isEmpty && TextWidth.width(of: last) > width - 1 { last.removeLast() }
            lines.append(last + "…")
        }
        return lines
    }
}
