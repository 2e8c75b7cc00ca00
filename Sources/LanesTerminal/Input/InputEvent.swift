import DragKit

/// Keyboard modifiers reported with a key or a mouse event.
public struct Modifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let shift = Modifiers(rawValue: 1)
    public static let alt = Modifiers(rawValue: 2)
    public static let ctrl = Modifiers(rawValue: 4)
}

/// A key as the decoder reports it. Printable text arrives as `.char`;
/// Ctrl-letter arrives as `.char(letter)` with `.ctrl`.
public enum Key: Hashable, Sendable {
    case char(Character)
    case enter, tab, backspace, escape
    case up, down, left, right
    case home, end, pageUp, pageDown, insert, delete
    case function(Int)
}

/// One mouse report, in 0-based cell coordinates.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case press, drag, release
        /// Motion with no button held (any-event tracking only).
        case motion
        case wheelUp, wheelDown, wheelLeft, wheelRight
    }

    public enum Button: Hashable, Sendable {
        case left, middle, right
        /// Unknown, e.g. an X10 release that does not say which button.
        case none
    }

    public var kind: Kind
    public var button: Button
    public var location: Point
    public var modifiers: Modifiers

    public init(_ kind: Kind, _ button: Button, x: Int, y: Int, modifiers: Modifiers = []) {
        self.kind = kind
        self.button = button
        self.location = Point(x: x, y: y)
        self.modifiers = modifiers
    }
}

/// Everything the terminal can tell the app, decoded from bytes.
public enum InputEvent: Hashable, Sendable {
    case key(Key, Modifiers)
    case mouse(MouseEvent)
    /// Bracketed paste: the text as pasted.
    case paste(String)
    case focusIn, focusOut

    public static func key(_ key: Key) -> InputEvent { .key(key, []) }
}
