import DragKit

/// Turns the raw bytes a terminal sends into keys, mouse reports, pastes and focus changes.
///
/// Every complete sequence in a read becomes its own event, in order: a press, a hundred drags
/// and a release that arrive in one read come out as a hundred and two events. Bytes that end
/// in the middle of a sequence wait for the next `feed`, so where reads split the stream never
/// changes what comes out. Only a sequence that stays unfinished past `deadline` is resolved
/// by timing (`flush`), which is what tells a lone Esc from Alt-key.
///
/// Mouse reports are understood in SGR (1006), urxvt (1015) and X10/normal encodings at once,
/// because which one arrives depends on the terminal and on tmux/screen in between.
public struct InputDecoder: Sendable {
    /// How long a lone ESC (or ESC plus `[`/`O`, or part of a UTF-8 character) waits for more.
    public let escapeTimeout: Double
    /// How long a started control sequence (ESC `[` or ESC `O` and at least one more byte) waits.
    ///
    /// Longer than `escapeTimeout` because nobody types ESC `[` `<` by hand: such bytes are a
    /// mouse report or key that a slow link split, and printing its halves as text would be worse.
    public let sequenceTimeout: Double
    /// How long an unterminated bracketed paste waits for more bytes before it is delivered as is.
    public let pasteTimeout: Double

    /// Bytes of an unfinished sequence at the end of the last read.
    private var pending: [UInt8] = []
    /// When bytes last arrived; deadlines count from here.
    private var lastInput: Double = 0
    /// Inside `ESC[200~ … ESC[201~`: bytes are collected in `pasteBytes`, not decoded.
    private var inPaste = false
    private var pasteBytes: [UInt8] = []
    /// The button of the last press, for encodings whose release (and some drags) do not say.
    private var heldButton: MouseEvent.Button?

    public init(escapeTimeout: Double = 0.025, sequenceTimeout: Double = 0.25, pasteTimeout: Double = 1.0) {
        self.escapeTimeout = escapeTimeout
        self.sequenceTimeout = max(sequenceTimeout, escapeTimeout)
        self.pasteTimeout = pasteTimeout
    }

    /// Decodes bytes that arrived at time `now` (seconds).
    ///
    /// Complete sequences come out at once, in order; an incomplete trailing sequence is kept
    /// for the next call. If the previous call left bytes whose deadline has passed by `now`
    /// (the caller did not `flush`), they are flushed first.
    public mutating func feed(_ bytes: some Sequence<UInt8>, now: Double) -> [InputEvent] {
        var out: [InputEvent] = []
        if let due = deadline, now >= due { finish(into: &out) }

        var arrived = 0
        let direct: Int?? = pending.isEmpty
            ? bytes.withContiguousStorageIfAvailable { buffer -> Int in
                let used = decode(buffer, final: false, into: &out)
                if used < buffer.count { pending.append(contentsOf: buffer[used...]) }
                return buffer.count
            }
            : nil
        if let count = direct ?? nil {
            arrived = count
        } else {
            let before = pending.count
            pending.append(contentsOf: bytes)
            arrived = pending.count - before
            if arrived > 0 { drain(final: false, into: &out) }
        }
        if arrived > 0 { lastInput = now }
        return out
    }

    /// When pending bytes must be flushed if nothing else arrives (nil: nothing pending).
    public var deadline: Double? {
        if inPaste { return lastInput + pasteTimeout }
        guard let first = pending.first else { return nil }
        let startedSequence = first == 0x1B && pending.count >= 3 && (pending[1] == 0x5B || pending[1] == 0x4F)
        return lastInput + (startedSequence ? sequenceTimeout : escapeTimeout)
    }

    /// Resolves what is pending once the deadline has passed.
    ///
    /// A lone ESC becomes `.key(.escape)`; ESC plus an unfinished sequence becomes Alt and the
    /// sequence's first byte, then the remaining bytes as the keys they literally are; part of
    /// a UTF-8 character becomes U+FFFD; an unterminated paste is delivered with what it has.
    /// Before the deadline this does nothing (so a spurious wake-up cannot split a sequence);
    /// `flush(now: .infinity)` forces it.
    public mutating func flush(now: Double) -> [InputEvent] {
        guard let due = deadline, now >= due else { return [] }
        var out: [InputEvent] = []
        finish(into: &out)
        return out
    }

    // MARK: - Driving the decoder

    private mutating func finish(into out: inout [InputEvent]) {
        drain(final: true, into: &out)
        if inPaste { endPaste(into: &out) }
    }

    /// Decodes `pending` in place, keeping whatever is still unfinished.
    private mutating func drain(final: Bool, into out: inout [InputEvent]) {
        var bytes: [UInt8] = []
        swap(&bytes, &pending)
        let used = bytes.withUnsafeBufferPointer { decode($0, final: final, into: &out) }
        bytes.removeFirst(used)
        pending = bytes
    }

    /// One decoding step: what the bytes at some position mean and how many of them it takes.
    private enum Step {
        case event(InputEvent, Int)
        /// Consumed bytes that mean nothing to the app (an unknown sequence).
        case skip(Int)
        case pasteStart(Int)
        /// The bytes end in the middle of a sequence.
        case incomplete
    }

    /// Decodes as many bytes as form complete events and returns how many it used.
    ///
    /// With `final`, nothing is incomplete: every byte is used.
    private mutating func decode(_ p: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [InputEvent]) -> Int {
        var i = 0
        let n = p.count
        // The shortest mouse report is 6 bytes; a long read is nearly always a stream of them.
        if n >= 64 { out.reserveCapacity(out.count + n / 6) }
        while i < n {
            if inPaste {
                let (next, complete) = scanPaste(p, from: i, final: final, into: &out)
                i = next
                if !complete { return i }
                continue
            }
            let step: Step
            let byte = p[i]
            if byte == 0x1B {
                step = escape(p, i, final: final)
            } else {
                step = plain(p, i, final: final)
            }
            switch step {
            case .event(let event, let length):
                out.append(event)
                i += length
            case .skip(let length):
                i += length
            case .pasteStart(let length):
                inPaste = true
                pasteBytes.removeAll(keepingCapacity: true)
                i += length
            case .incomplete:
                if !final { return i }
                // Unreachable by construction; never loop forever if it were reached.
                out.append(.key(.char("\u{FFFD}")))
                i += 1
            }
        }
        return n
    }

    // MARK: - Bracketed paste

    /// Collects paste bytes up to `ESC[201~`; returns where decoding goes on and whether the paste ended.
    private mutating func scanPaste(
        _ p: UnsafeBufferPointer<UInt8>, from start: Int, final: Bool, into out: inout [InputEvent]
    ) -> (Int, Bool) {
        let n = p.count
        var k = start
        while k < n {
            if p[k] != 0x1B { k += 1; continue }
            var matched = 1
            while matched < 6, k + matched < n, p[k + matched] == Self.pasteEndByte(matched) { matched += 1 }
            if matched == 6 {
                pasteBytes.append(contentsOf: p[start..<k])
                endPaste(into: &out)
                return (k + 6, true)
            }
            if k + matched == n, !final {
                // Possibly the start of the terminator: wait for the rest.
                pasteBytes.append(contentsOf: p[start..<k])
                return (k, false)
            }
            k += 1
        }
        pasteBytes.append(contentsOf: p[start..<n])
        return (n, false)
    }

    /// The bytes of `ESC [ 2 0 1 ~`, the end of a paste.
    private static func pasteEndByte(_ index: Int) -> UInt8 {
        switch index {
        case 0: 0x1B
        case 1: 0x5B
        case 2: 0x32
        case 3: 0x30
        case 4: 0x31
        default: 0x7E
        }
    }

    private mutating func endPaste(into out: inout [InputEvent]) {
        out.append(.paste(String(decoding: pasteBytes, as: UTF8.self)))
        pasteBytes.removeAll(keepingCapacity: false)
        inPaste = false
    }

    // MARK: - Plain bytes: control keys and UTF-8

    /// A byte that is not ESC: a control key, ASCII, or the start of a UTF-8 character.
    private func plain(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        let byte = p[i]
        if byte < 0x80 { return .event(Self.asciiKey(byte), 1) }
        return utf8(p, i, final: final)
    }

    private static func asciiKey(_ byte: UInt8) -> InputEvent {
        switch byte {
        case 0x0D, 0x0A: return .key(.enter, [])
        case 0x09: return .key(.tab, [])
        case 0x7F, 0x08: return .key(.backspace, [])
        case 0x1B: return .key(.escape, [])
        case 0x00: return .key(.char(" "), .ctrl)
        case 0x01...0x1A: return .key(.char(Character(Unicode.Scalar(byte + 0x60))), .ctrl)
        case 0x1C...0x1F: return .key(.char(Character(Unicode.Scalar(byte + 0x40))), .ctrl)
        default: return .key(.char(Character(Unicode.Scalar(byte))), [])
        }
    }

    private static let replacement = InputEvent.key(.char("\u{FFFD}"), [])

    /// Decodes one UTF-8 character at `i` (whose first byte is ≥ 0x80).
    ///
    /// An invalid byte becomes U+FFFD and decoding resumes at the byte that broke the
    /// sequence (Unicode's "maximal subpart" practice), so nothing after it is swallowed.
    private func utf8(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        let lead = p[i]
        let length: Int
        var low: UInt8 = 0x80, high: UInt8 = 0xBF
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0: length = 3; value = 0; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xED: length = 3; value = 0x0D; high = 0x9F
        case 0xF0: length = 4; value = 0; low = 0x90
        case 0xF1...0xF3: length = 4; value = UInt32(lead & 0x07)
        case 0xF4: length = 4; value = 4; high = 0x8F
        default: return .event(Self.replacement, 1)
        }
        for k in 1..<length {
            guard i + k < p.count else { return final ? .event(Self.replacement, k) : .incomplete }
            let byte = p[i + k]
            if byte < low || byte > high { return .event(Self.replacement, k) }
            low = 0x80
            high = 0xBF
            value = value << 6 | UInt32(byte & 0x3F)
        }
        guard let scalar = Unicode.Scalar(value) else { return .event(Self.replacement, length) }
        return .event(.key(.char(Character(scalar)), []), length)
    }

    // MARK: - Escape sequences

    /// Bytes starting with ESC at `i`: a CSI or SS3 sequence, Alt-key, or a lone Esc.
    private mutating func escape(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        guard i + 1 < p.count else { return final ? .event(.key(.escape, []), 1) : .incomplete }
        switch p[i + 1] {
        case 0x5B: return csi(p, i, final: final)
        case 0x4F: return ss3(p, i, final: final)
        case 0x1B: return .event(.key(.escape, []), 1)
        default: return alt(p, i, final: final)
        }
    }

    /// ESC followed by a key: that key with `.alt`.
    private func alt(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        switch plain(p, i + 1, final: final) {
        case .event(.key(let key, let modifiers), let length):
            return .event(.key(key, modifiers.union(.alt)), length + 1)
        case let other:
            return other
        }
    }

    /// Longest CSI the decoder waits for; anything longer is garbage and dropped.
    private static let maxSequence = 256

    /// `ESC [` at `i`: mouse reports, keys, focus and paste markers.
    private mutating func csi(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        let n = p.count
        let body = i + 2
        let altBracket = Step.event(.key(.char("["), .alt), 2)
        guard body < n else { return final ? altBracket : .incomplete }

        switch p[body] {
        case 0x4D:  // X10/normal mouse: ESC [ M and three raw bytes.
            guard body + 3 < n else { return final ? altBracket : .incomplete }
            let event = mouse(
                code: Int(p[body + 1]) - 32,
                x: Self.x10Coordinate(p[body + 2]), y: Self.x10Coordinate(p[body + 3]),
                sgrRelease: nil)
            return event.map { .event(.mouse($0), 6) } ?? .skip(6)
        case 0x5B:  // Linux console F1–F5: ESC [ [ A … E.
            guard body + 1 < n else { return final ? altBracket : .incomplete }
            let key = p[body + 1]
            guard (0x40...0x7E).contains(key) else { return altBracket }
            if (0x41...0x45).contains(key) { return .event(.key(.function(Int(key) - 0x40), []), 4) }
            return .skip(4)
        default:
            break
        }

        var k = body
        var marker: UInt8 = 0
        if (0x3C...0x3F).contains(p[k]) {
            marker = p[k]
            k += 1
        }
        var params = Params()
        var current = 0
        var sawParameter = false
        var inSubparameter = false
        var malformed = false
        while true {
            guard k < n else {
                if final { return altBracket }
                return k - i > Self.maxSequence ? .skip(k - i) : .incomplete
            }
            let byte = p[k]
            switch byte {
            case 0x30...0x39:
                sawParameter = true
                if !inSubparameter { current = min(current &* 10 &+ Int(byte - 0x30), 1_000_000) }
            case 0x3B:
                sawParameter = true
                params.append(current)
                current = 0
                inSubparameter = false
            case 0x3A:
                inSubparameter = true
            case 0x3C...0x3F, 0x20...0x2F:
                malformed = true
            case 0x40...0x7E:
                if sawParameter { params.append(current) }
                let length = k + 1 - i
                if malformed { return .skip(length) }
                return csiFinal(byte, marker: marker, params, length: length)
            default:
                // A control byte or non-ASCII inside a sequence: the sequence was cut off.
                // Drop what was read of it and decode the interrupting byte on its own.
                return k == body ? altBracket : .skip(k - i)
            }
            k += 1
        }
    }

    private mutating func csiFinal(_ final: UInt8, marker: UInt8, _ params: Params, length: Int) -> Step {
        func result(_ event: InputEvent?) -> Step { event.map { .event($0, length) } ?? .skip(length) }
        func key(_ key: Key, _ extra: Modifiers = []) -> Step {
            .event(.key(key, Self.modifiers(params.count >= 2 ? params[1] : 1).union(extra)), length)
        }

        if marker == 0x3C {  // SGR: ESC [ < b ; x ; y M/m
            guard final == 0x4D || final == 0x6D, params.count >= 3 else { return .skip(length) }
            return result(mouse(
                code: params[0], x: params[1] - 1, y: params[2] - 1, sgrRelease: final == 0x6D
            ).map { .mouse($0) })
        }
        guard marker == 0 else { return .skip(length) }

        switch final {
        case 0x41: return key(.up)
        case 0x42: return key(.down)
        case 0x43: return key(.right)
        case 0x44: return key(.left)
        case 0x48: return key(.home)
        case 0x46: return key(.end)
        case 0x5A: return key(.tab, .shift)
        case 0x50...0x53:  // F1–F4 with modifiers: ESC [ 1 ; m P
            guard params.count == 0 || params[0] == 1 else { return .skip(length) }
            return key(.function(Int(final) - 0x4F))
        case 0x49: return params.count == 0 ? .event(.focusIn, length) : .skip(length)
        case 0x4F: return params.count == 0 ? .event(.focusOut, length) : .skip(length)
        case 0x4D:  // urxvt: ESC [ b ; x ; y M, b offset by 32 as in X10
            guard params.count >= 3 else { return .skip(length) }
            return result(mouse(code: params[0] - 32, x: params[1] - 1, y: params[2] - 1, sgrRelease: nil)
                .map { .mouse($0) })
        case 0x7E:
            switch params.count > 0 ? params[0] : 0 {
            case 1, 7: return key(.home)
            case 2: return key(.insert)
            case 3: return key(.delete)
            case 4, 8: return key(.end)
            case 5: return key(.pageUp)
            case 6: return key(.pageDown)
            case 11...15: return key(.function(params[0] - 10))
            case 17...21: return key(.function(params[0] - 11))
            case 23...24: return key(.function(params[0] - 12))
            case 200: return .pasteStart(length)
            case 27:  // xterm modifyOtherKeys: ESC [ 27 ; m ; code ~
                guard params.count >= 3 else { return .skip(length) }
                return result(Self.codepointKey(params[2], Self.modifiers(params[1])))
            default: return .skip(length)
            }
        case 0x75:  // fixterms/kitty: ESC [ code ; m u
            guard params.count >= 1 else { return .skip(length) }
            return result(Self.codepointKey(params[0], Self.modifiers(params.count >= 2 ? params[1] : 1)))
        default:
            return .skip(length)
        }
    }

    /// `ESC O` at `i`: application-mode cursor keys, F1–F4 and keypad.
    private func ss3(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        let n = p.count
        let altO = Step.event(.key(.char("O"), .alt), 2)
        var k = i + 2
        // Some terminals put a modifier here: ESC O 5 A, or ESC O 1 ; 5 A (the last number counts).
        var number = 0
        var sawDigit = false
        while k < n, p[k] == 0x3B || (0x30...0x39).contains(p[k]) {
            if p[k] == 0x3B {
                number = 0
            } else {
                number = min(number * 10 + Int(p[k] - 0x30), 1000)
                sawDigit = true
            }
            k += 1
        }
        guard k < n else { return final ? altO : .incomplete }
        let byte = p[k]
        guard (0x40...0x7E).contains(byte) else { return altO }
        let length = k + 1 - i
        let modifiers = Self.modifiers(sawDigit ? number : 1)
        let key: Key
        switch byte {
        case 0x41: key = .up
        case 0x42: key = .down
        case 0x43: key = .right
        case 0x44: key = .left
        case 0x48: key = .home
        case 0x46: key = .end
        case 0x50...0x53: key = .function(Int(byte) - 0x4F)
        case 0x4D: key = .enter
        case 0x70...0x79: key = .char(Character(Unicode.Scalar(byte - 0x70 + 0x30)))
        case 0x6A: key = .char("*")
        case 0x6B: key = .char("+")
        case 0x6C: key = .char(",")
        case 0x6D: key = .char("-")
        case 0x6E: key = .char(".")
        case 0x6F: key = .char("/")
        case 0x58: key = .char("=")
        default: return .skip(length)
        }
        return .event(.key(key, modifiers), length)
    }

    /// The modifiers of an xterm-style parameter: 1 + (1 shift, 2 alt, 4 ctrl, 8 meta).
    private static func modifiers(_ parameter: Int) -> Modifiers {
        guard parameter > 1 else { return [] }
        let bits = parameter - 1
        var result: Modifiers = []
        if bits & 1 != 0 { result.insert(.shift) }
        if bits & 2 != 0 || bits & 8 != 0 { result.insert(.alt) }
        if bits & 4 != 0 { result.insert(.ctrl) }
        return result
    }

    /// A key given as a Unicode code point (CSI u and modifyOtherKeys).
    private static func codepointKey(_ code: Int, _ modifiers: Modifiers) -> InputEvent? {
        switch code {
        case 13: return .key(.enter, modifiers)
        case 9: return .key(.tab, modifiers)
        case 127, 8: return .key(.backspace, modifiers)
        case 27: return .key(.escape, modifiers)
        default:
            guard code >= 32, let scalar = Unicode.Scalar(UInt32(clamping: code)) else { return nil }
            return .key(.char(Character(scalar)), modifiers)
        }
    }

    // MARK: - Mouse

    /// An X10 coordinate byte (value + 33) as a 0-based cell; bytes below 33 are taken as wrapped past 255.
    private static func x10Coordinate(_ byte: UInt8) -> Int {
        byte >= 33 ? Int(byte) - 33 : Int(byte) + 223
    }

    /// Builds a mouse event from an xterm button code; nil for reports the app has no use for.
    ///
    /// `sgrRelease` is nil for X10 and urxvt, whose release is button code 3 and does not say
    /// which button was let go: the last pressed one is reported, as it is for drags that
    /// arrive without a button while one is held.
    private mutating func mouse(code: Int, x: Int, y: Int, sgrRelease: Bool?) -> MouseEvent? {
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

/// Up to four numeric CSI parameters, without allocating; later ones are dropped.
private struct Params {
    private var a = 0, b = 0, c = 0, d = 0
    private(set) var count = 0

    mutating func append(_ value: Int) {
        switch count {
        case 0: a = value
        case 1: b = value
        case 2: c = value
        case 3: d = value
        default: return
        }
        count += 1
    }

    /// The parameter at `index`, 0 when absent.
    subscript(index: Int) -> Int {
        guard index < count else { return 0 }
        switch index {
        case 0: return a
        case 1: return b
        case 2: return c
        default: return d
        }
    }
}
