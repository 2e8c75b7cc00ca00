import DragKit

/// Mouse reports in the SGR, X10 and urxvt encodings, as one `MouseEvent` each.
extension InputDecoder {
    /// An X10 coordinate byte (value + 33) as a 0-based cell; bytes below 33 are taken as wrapped past 255.
    static func x10Coordinate(_ byte: UInt8) -> Int {
        byte >= 33 ? Int(byte) - 33 : Int(byte) + 223
    }

    /// Builds a mouse event from an xterm button code; nil for reports the app has no use for.
    ///
    /// `sgrRelease` is nil for X10 and urxvt, whose release is button code 3 and does not say
    /// which button was let go: the last pressed one is reported, as it is for drags that
    /// arrive without a button while one is held.
    mutating func mouse(code: Int, x: Int, y: Int, sgrRelease: Bool?) -> MouseEvent? {
        guard code >= 0, code & 128 == 0 else { return nil }  // buttons 8–11 (back/forward)
        var modifiers: Modifiers = []
        if code & 4 != 0 { modifiers.insert(.shift) }
        if code & 8 != 0 { modifiers.insert(.alt) }
        if code & 16 != 0 { modifiers.insert(.ctrl) }
        let x = max(0, x), y = max(0, y)
        let low = code & 3

        if code & 64 != 0 {
            if sgrRelease == true { return nil }
            let kind: MouseEvent.Kind
            switch low {
            case 0: kind = .wheelUp
            case 1: kind = .wheelDown
            case 2: kind = .wheelLeft
            default: kind = .wheelRight
            }
            return MouseEvent(kind, .none, x: x, y: y, modifiers: modifiers)
        }
        let button: MouseEvent.Button
        switch low {
        case 0: button = .left
        case 1: button = .middle
        case 2: button = .right
        default: button = .none
        }
        if code & 32 != 0 {
            if button != .none {
                heldButton = button
                return MouseEvent(.drag, button, x: x, y: y, modifiers: modifiers)
            }
            if sgrRelease == nil, let held = heldButton {
                return MouseEvent(.drag, held, x: x, y: y, modifiers: modifiers)
            }
            return MouseEvent(.motion, .none, x: x, y: y, modifiers: modifiers)
        }
        if sgrRelease == true || button == .none {
            let released = button == .none ? (heldButton ?? .none) : button
            heldButton = nil
            return MouseEvent(.release, released, x: x, y: y, modifiers: modifiers)
        }
        heldButton = button
        return MouseEvent(.press, button, x: x, y: y, modifiers: modifiers)
    }
}
