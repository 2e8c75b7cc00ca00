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
    var pending: [UInt8] = []
    /// When bytes last arrived; deadlines count from here.
    var lastInput: Double = 0
    /// Inside `ESC[200~ … ESC[201~`: bytes are collected in `pasteBytes`, not decoded.
    var inPaste = false
    var pasteBytes: [UInt8] = []
    /// The button of the last press, for encodings whose release (and some drags) do not say.
    var heldButton: MouseEvent.Button?

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
        let direct: Int?? =
            pending.isEmpty
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

    mutating func finish(into out: inout [InputEvent]) {
        drain(final: true, into: &out)
        if inPaste { endPaste(into: &out) }
    }

    /// Decodes `pending` in place, keeping whatever is still unfinished.
    mutating func drain(final: Bool, into out: inout [InputEvent]) {
        var bytes: [UInt8] = []
        swap(&bytes, &pending)
        let used = bytes.withUnsafeBufferPointer { decode($0, final: final, into: &out) }
        bytes.removeFirst(used)
        pending = bytes
    }

    /// One decoding step: what the bytes at some position mean and how many of them it takes.
    enum Step {
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
    mutating func decode(_ p: UnsafeBufferPointer<UInt8>, final: Bool, into out: inout [InputEvent]) -> Int {
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
    mutating func scanPaste(
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
    static func pasteEndByte(_ index: Int) -> UInt8 {
        switch index {
        case 0: 0x1B
        case 1: 0x5B
        case 2: 0x32
        case 3: 0x30
        case 4: 0x31
        default: 0x7E
        }
    }

    mutating func endPaste(into out: inout [InputEvent]) {
        out.append(.paste(String(decoding: pasteBytes, as: UTF8.self)))
        pasteBytes.removeAll(keepingCapacity: false)
        inPaste = false
    }

    // MARK: - Plain bytes: control keys and UTF-8

    /// A byte that is not ESC: a control key, ASCII, or the start of a UTF-8 character.
    func plain(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        let byte = p[i]
        if byte < 0x80 { return .event(Self.asciiKey(byte), 1) }
        return utf8(p, i, final: final)
    }

    static func asciiKey(_ byte: UInt8) -> InputEvent {
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

    static let replacement = InputEvent.key(.char("\u{FFFD}"), [])

    /// Decodes one UTF-8 character at `i` (whose first byte is ≥ 0x80).
    ///
    /// An invalid byte becomes U+FFFD and decoding resumes at the byte that broke the
    /// sequence (Unicode's "maximal subpart" practice), so nothing after it is swallowed.
    func utf8(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
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
}
