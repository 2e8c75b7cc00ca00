import DragKit

/// What waiting on the terminal can yield.
public enum TerminalInput: Hashable, Sendable {
    /// Raw bytes read from the terminal, to be decoded.
    case bytes([UInt8])
    /// The window changed size (rows and columns in cells).
    case resized(Size)
    /// SIGHUP, SIGTERM or SIGINT: save and leave.
    case terminate(signal: Int32)
    /// Back in the foreground after Ctrl-Z; the screen must be repainted whole.
    case resumed
}

/// The terminal as the app sees it: a screen to present cell buffers on and a source of input.
///
/// The curses implementation is the only code that talks to curses; tests use a headless one.
public protocol TerminalDevice: AnyObject {
    /// Enters the alternate screen with mouse tracking on.
    func start() throws
    /// Restores the terminal exactly as it was; safe to call twice.
    func stop()
    var size: Size { get }
    /// Shows a buffer, writing only what changed since the last one presented, and moves the
    /// terminal's cursor to the buffer's `cursor` (shown there), or hides it when that is nil.
    func present(_ buffer: CellBuffer)
    /// Forgets what is on screen: the next `present` repaints everything.
    func invalidate()
    /// Waits up to `timeout` seconds (nil: forever) for input or signals, or until `wakingOn`
    /// (another descriptor, e.g. the storage worker's reports) turns readable; that returns no input.
    func wait(timeout: Double?, wakingOn: Int32?) -> [TerminalInput]
    /// Hands the terminal to another program (an editor) and takes it back afterwards.
    func suspend(while body: () -> Void)
    /// Stops Lanes as Ctrl-Z does in a shell (its whole process group), the terminal restored meanwhile.
    func suspendToShell()
    /// Asks for reports of pointer motion with no button held (mode 1003), or stops them.
    func trackAllMotion(_ on: Bool)
    /// Throws away input typed but not yet read (typed while another program held the terminal);
    /// how many bytes were thrown away.
    func discardTypeahead() -> Int
}

extension TerminalDevice {
    public func suspendToShell() {}
    public func trackAllMotion(_ on: Bool) {}
    public func discardTypeahead() -> Int { 0 }
}

/// Input typed at a terminal that no Lanes screen will read (the board could not be opened):
/// thrown away, so it does not reach the shell as commands.
public enum Typeahead {
    /// Discards what is waiting on standard input when it is a terminal; the number of bytes.
    public static func discardStandardInput() -> Int { TerminalIO.discardTypeahead(0) }
}

extension TerminalDevice {
    /// Waits for terminal input or signals only.
    public func wait(timeout: Double?) -> [TerminalInput] { wait(timeout: timeout, wakingOn: nil) }
}
