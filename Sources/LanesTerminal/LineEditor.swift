/// A one-line text editor: cursor keys, Home/End, Backspace/Delete, Ctrl-U/K/W/A/E, wide characters.
public struct LineEditor: Hashable, Sendable {
    public private(set) var characters: [Character]
    /// Index in `characters` where typing goes.
    public private(set) var cursor: Int

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    /// The cursor's column in cells from the start of the text.
    public var cursorColumn: Int { TextWidth.width(of: String(characters[..<cursor])) }

    public enum Outcome: Hashable, Sendable { case editing, submit, cancel }

    public mutating func insert(_ s: String) {
        for ch in s where ch != "\n" && ch != "\r" {
            characters.insert(ch, at: cursor)
            cursor += 1
        }
    }

    /// Applies a key; Enter submits, Esc cancels.
    public mutating func handle(_ key: Key, _ mods: Modifiers) -> Outcome {
        if mods.contains(.ctrl), case .char(let c) = key {
            switch c {
            case "u": characters.removeSubrange(0..<cursor); cursor = 0
            case "k": characters.removeSubrange(cursor...)
            case "a": cursor = 0
            case "e": cursor = characters.count
            case "w":
                var i = cursor
                while i > 0 && characters[i - 1] == " " { i -= 1 }
                while i > 0 && characters[i - 1] != " " { i -= 1 }
                characters.removeSubrange(i..<cursor)
                cursor = i
            default: break
            }
            return .editing
        }
        switch key {
        case .enter: return .submit
        case .escape: return .cancel
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(characters.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = characters.count
        case .backspace:
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < characters.count { characters.remove(at: cursor) }
        case .char(let c):
            if !mods.contains(.alt) { insert(String(c)) }
        case .tab:
            insert(" ")
        default: break
        }
        return .editing
    }

    /// The slice of text to show in `width` cells so the cursor stays visible, and the cursor's column in it.
    public func visible(width: Int) -> (text: String, cursor: Int) {
        guard width > 1 else { return ("", 0) }
        // The character under the cursor (or the cell after the end) must fit too.
        let under = cursor < characters.count ? TextWidth.width(of: DisplayText.safe(String(characters[cursor]))) : 1
        var start = 0
        while start < cursor, TextWidth.width(of: DisplayText.safe(String(characters[start..<cursor]))) + under > width {
            start += 1
        }
        var shown = ""
        var used = 0
        for ch in characters[start...] {
            let w = TextWidth.width(of: DisplayText.safe(String(ch)))
            if used + w > width { break }
            shown += DisplayText.safe(String(ch))
            used += w
        }
        return (shown, TextWidth.width(of: DisplayText.safe(String(characters[start..<cursor]))))
    }
}
