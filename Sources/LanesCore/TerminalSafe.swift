/// Text made safe to write to a terminal: no byte of it can start a control sequence.
///
/// Every line the command line prints (stdout and stderr, error messages quoting a file) goes
/// through `escape`. C0 controls and DEL become caret notation (`^[` for ESC, `^G` for BEL, `^?`),
/// C1 controls (U+0080–U+009F, which some terminals read as ESC + letter: U+009B is CSI) and the
/// bidirectional overrides and isolates (which reorder the rest of a line) become `\u{9b}`-style
/// text. Tab and line feed are kept only where the output format needs them (`keepLayout`).
public enum TerminalSafe {
    /// `text` with every control character rendered visibly.
    public static func escape(_ text: String, keepLayout: Bool = true) -> String {
        guard needsEscaping(text, keepLayout: keepLayout) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if keepLayout && (v == 0x09 || v == 0x0A) {
                out.unicodeScalars.append(scalar)
            } else if v < 0x20 {
                out += "^" + String(Unicode.Scalar(UInt8(v + 0x40)))
            } else if v == 0x7F {
                out += "^?"
            } else if isHidden(v) {
                out += "\\u{" + String(v, radix: 16) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// C1 controls and the bidi embedding, override and isolate controls.
    private static func isHidden(_ v: UInt32) -> Bool {
        (0x80...0x9F).contains(v) || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// One scan of the bytes: false when nothing needs rendering (the common case).
    private static func needsEscaping(_ text: String, keepLayout: Bool) -> Bool {
        mayNeedEscaping(text.utf8, keepLayout: keepLayout)
    }

    /// False when no byte could start a control character (C0 — but tab and line feed with
    /// `keepLayout` —, DEL, C1 as C2 80–9F) or a bidi control (E2 80 AA–AE, E2 81 A6–A9).
    public static func mayNeedEscaping(_ utf8: some Collection<UInt8>, keepLayout: Bool) -> Bool {
        var previous: UInt8 = 0, beforePrevious: UInt8 = 0
        for b in utf8 {
            if b < 0x20 && !(keepLayout && (b == 0x09 || b == 0x0A)) { return true }
            if b == 0x7F { return true }
            if previous == 0xC2 && b >= 0x80 && b <= 0x9F { return true }
            if beforePrevious == 0xE2 && previous == 0x80 && b >= 0xAA && b <= 0xAE { return true }
            if beforePrevious == 0xE2 && previous == 0x81 && b >= 0xA6 && b <= 0xA9 { return true }
            beforePrevious = previous
            previous = b
        }
        return false
    }
}
