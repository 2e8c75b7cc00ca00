#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Cell {
    /// The code points a terminal library gets for this cell, and the width the app gave it.
    ///
    /// Never a control character: a cell with C0, DEL or C1 anywhere in its text becomes
    /// U+FFFD. Only the first grapheme counts; one longer than `max` code points (what a
    /// `cchar_t` holds) keeps its first code point (and an emoji selector).
    func codePoints(max: Int) -> (scalars: [wchar_t], width: Int) {
        if let s = scalar {
            if CellBuffer.isControl(s.value) { return ([0xFFFD], 1) }
            let width = TextWidth.width(of: Character(s))
            return width == 0 ? ([0x20], 1) : ([wchar_t(bitPattern: s.value)], width)
        }
        let text = self.text
        guard let ch = text.first else { return ([0x20], 1) }
        if text.unicodeScalars.contains(where: { CellBuffer.isControl($0.value) }) { return ([0xFFFD], 1) }
        let width = TextWidth.width(of: ch)
        if width == 0 { return ([0x20], 1) }
        // Only what every terminal draws the same: no stray ZWJ, ZWSP, bidi mark or selector.
        var scalars = TextWidth.terminalScalars(of: ch).map { wchar_t(bitPattern: $0.value) }
        if scalars.count > max {
            scalars = scalars.count > 1 && scalars[1] == 0xFE0F ? [scalars[0], 0xFE0F] : [scalars[0]]
        }
        return (scalars, width)
    }
}
