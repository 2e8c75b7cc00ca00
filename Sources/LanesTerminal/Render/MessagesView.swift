import Foundation
import DragKit

/// The recent-messages screen: every status message of the session with its time, each whole
/// (wrapped under its time), newest at the bottom, scrollable, in the same box as the help.
public enum MessagesView {
    /// The time column: `HH:MM:SS` and a space.
    static let timeWidth = 9

    /// `HH:MM:SS` of a time in a time zone.
    static func clock(_ time: Double, zone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let c = calendar.dateComponents([.hour, .minute, .second], from: Date(timeIntervalSince1970: time))
        func two(_ n: Int?) -> String { let v = n ?? 0; return v < 10 ? "0\(v)" : "\(v)" }
        return "\(two(c.hour)):\(two(c.minute)):\(two(c.second))"
    }

    /// The view's rows at a text width: each message's first row after its time, the rest under
    /// the message (a hanging indent); a repeated message says how often it came.
    public static func lines(_ log: MessageLog, width: Int, zone: TimeZone = .current) -> [String] {
        guard !log.entries.isEmpty else { return ["No messages yet in this session."] }
        let textWidth = max(10, width - timeWidth)
        var out: [String] = []
        for e in log.entries {
            let text = DisplayText.safe(e.text) + (e.count > 1 ? " (×\(e.count))" : "")
            for (i, row) in DisplayText.wrap(text, width: textWidth).enumerated() {
                out.append((i == 0 ? clock(e.time, zone: zone) + " " : String(repeating: " ", count: timeWidth)) + row)
            }
        }
        return out
    }

    /// Rows of the list the box shows at once.
    public static func visibleRows(height: Int) -> Int { HelpView.visibleRows(height: height) }

    /// How far the list scrolls at a size: its last row at the bottom of the box.
    public static func maxScroll(_ log: MessageLog, size: Size, zone: TimeZone = .current) -> Int {
        let b = HelpView.box(width: size.width, height: size.height)
        return max(0, lines(log, width: b.width - 4, zone: zone).count - visibleRows(height: size.height))
    }

    public static func draw(
        _ log: MessageLog, scroll: Int, keymap: Keymap, zone: TimeZone = .current, into buf: inout CellBuffer
    ) {
        let b = HelpView.box(width: buf.width, height: buf.height)
        guard b.width > 10, b.height > 3 else { return }
        let all = lines(log, width: b.width - 4, zone: zone)
        let rows = visibleRows(height: buf.height)
        let top = min(max(0, scroll), max(0, all.count - rows))
        ScrollBox.draw(
            all, top: top, visible: rows, box: b, title: " Messages · ↑↓ pgup pgdn scroll · esc closes ",
            footer: { top, end in
                top > 0 && end < all.count
                    ? " \(top + 1)–\(end) of \(all.count) · ↑↓ more "
                    : top > 0
                        ? " \(top + 1)–\(end) of \(all.count) · ↑ more "
                        : end < all.count ? " 1–\(end) of \(all.count) · ↓ more " : " \(all.count) rows · all shown "
            }, into: &buf)
    }
}
