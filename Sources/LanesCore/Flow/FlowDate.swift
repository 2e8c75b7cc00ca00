/// UTC calendar arithmetic for flow metrics: days, ISO 8601 text, ISO weeks (no Foundation).
public enum FlowDate {
    /// Days since 1970-01-01 of a civil date (proleptic Gregorian), Howard Hinnant's `days_from_civil`.
    public static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The civil date of a day number (inverse of `days`).
    public static func civil(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// The UTC day a moment falls on.
    public static func day(of time: FlowTime) -> Int {
        Int(time >= 0 ? time / 86_400 : (time - 86_399) / 86_400)
    }

    private static func pad(_ n: Int, _ width: Int) -> String {
        let s = String(abs(n))
        return (n < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - s.count)) + s
    }

    /// `2026-11-25`
    public static func date(_ day: Int) -> String {
        let (y, m, d) = civil(day)
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    /// `2026-11-25T16:56:13Z`
    public static func iso(_ time: FlowTime) -> String {
        let d = day(of: time)
        let s = Int(time - FlowTime(d) * 86_400)
        return date(d) + "T\(pad(s / 3600, 2)):\(pad(s / 60 % 60, 2)):\(pad(s % 60, 2))Z"
    }

    /// The ISO 8601 week of a day, `2026-W48` (weeks start on Monday; week 1 holds the year's first Thursday).
    public static func week(_ day: Int) -> String {
        let weekday = ((day % 7) + 7 + 3) % 7  // Monday 0 (1970-01-01 was a Thursday)
        let thursday = day - weekday + 3
        let year = civil(thursday).year
        let number = (thursday - days(year: year, month: 1, day: 1)) / 7 + 1
        return "\(pad(year, 4))-W\(pad(number, 2))"
    }

    /// Reads a moment: `YYYY-MM-DD` (midnight UTC), `YYYY-MM-DDTHH:MM[:SS]` with `Z` or `±HH:MM`
    /// (a space may stand for `T`; no zone means UTC). `endOfDay` reads a bare date as its last second.
    public static func parse(_ text: String, endOfDay: Bool = false) -> FlowTime? {
        let chars = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= chars.count else { return nil }
            var n = 0
            for c in chars[from..<from + count] {
                guard c >= 48 && c <= 57 else { return nil }
                n = n * 10 + Int(c - 48)
            }
            return n
        }
        guard chars.count >= 10, let y = number(0, 4), chars[4] == 45, let mo = number(5, 2), chars[7] == 45,
            let d = number(8, 2), (1...12).contains(mo), d >= 1
        else { return nil }
        let monthDays = [
            31, (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31,
        ]
        guard d <= monthDays[mo - 1] else { return nil }
        let dayNumber = days(year: y, month: mo, day: d)
        if chars.count == 10 { return FlowTime(dayNumber) * 86_400 + (endOfDay ? 86_399 : 0) }
        guard chars[10] == UInt8(ascii: "T") || chars[10] == UInt8(ascii: " "),
            let h = number(11, 2), chars.count > 13, chars[13] == 58, let mi = number(14, 2), h < 24, mi < 60
        else { return nil }
        var i = 16
        var s = 0
        if i < chars.count && chars[i] == 58 {
            guard let sec = number(i + 1, 2), sec < 60 else { return nil }
            s = sec
            i += 3
        }
        var offset = 0
        if i < chars.count {
            if chars[i] == UInt8(ascii: "Z") && i + 1 == chars.count {
                offset = 0
            } else if chars[i] == UInt8(ascii: "+") || chars[i] == UInt8(ascii: "-") {
                guard let oh = number(i + 1, 2), i + 3 < chars.count, chars[i + 3] == 58, let om = number(i + 4, 2),
                    i + 6 == chars.count, oh < 24, om < 60
                else { return nil }
                offset = (oh * 3600 + om * 60) * (chars[i] == UInt8(ascii: "+") ? 1 : -1)
            } else {
                return nil
            }
        }
        return FlowTime(dayNumber) * 86_400 + FlowTime(h * 3600 + mi * 60 + s - offset)
    }
}
