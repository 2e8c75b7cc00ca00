import DragKit

/// CSI and SS3 sequences: keys with modifiers, focus, paste markers, and where mouse reports start.
extension InputDecoder {
    /// Bytes starting with ESC at `i`: a CSI or SS3 sequence, Alt-key, or a lone Esc.
    mutating func escape(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        guard i + 1 < p.count else { return final ? .event(.key(.escape, []), 1) : .incomplete }
        switch p[i + 1] {
        case 0x5B: return csi(p, i, final: final)
        case 0x4F: return ss3(p, i, final: final)
        case 0x1B: return .event(.key(.escape, []), 1)
        default: return alt(p, i, final: final)
        }
    }

    /// ESC followed by a key: that key with `.alt`.
    func alt(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
        switch plain(p, i + 1, final: final) {
        case .event(.key(let key, let modifiers), let length):
            return .event(.key(key, modifiers.union(.alt)), length + 1)
        case let other:
            return other
        }
    }

    /// Longest CSI the decoder waits for; anything longer is garbage and dropped.
    static let maxSequence = 256

    /// `ESC [` at `i`: mouse reports, keys, focus and paste markers.
    mutating func csi(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
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

    mutating func csiFinal(_ final: UInt8, marker: UInt8, _ params: Params, length: Int) -> Step {
        func result(_ event: InputEvent?) -> Step { event.map { .event($0, length) } ?? .skip(length) }
        func key(_ key: Key, _ extra: Modifiers = []) -> Step {
            .event(.key(key, Self.modifiers(params.count >= 2 ? params[1] : 1).union(extra)), length)
        }

        if marker == 0x3C {  // SGR: ESC [ < b ; x ; y M/m
            guard final == 0x4D || final == 0x6D, params.count >= 3 else { return .skip(length) }
            return result(
                mouse(
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
            return result(
                mouse(code: params[0] - 32, x: params[1] - 1, y: params[2] - 1, sgrRelease: nil)
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
    func ss3(_ p: UnsafeBufferPointer<UInt8>, _ i: Int, final: Bool) -> Step {
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
    static func modifiers(_ parameter: Int) -> Modifiers {
        guard parameter > 1 else { return [] }
        let bits = parameter - 1
        var result: Modifiers = []
        if bits & 1 != 0 { result.insert(.shift) }
        if bits & 2 != 0 || bits & 8 != 0 { result.insert(.alt) }
        if bits & 4 != 0 { result.insert(.ctrl) }
        return result
    }

    /// A key given as a Unicode code point (CSI u and modifyOtherKeys).
    static func codepointKey(_ code: Int, _ modifiers: Modifiers) -> InputEvent? {
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
}

/// Up to four numeric CSI parameters, without allocating; later ones are dropped.
struct Params {
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
