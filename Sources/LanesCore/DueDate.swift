/// A due date: `YYYY-MM-DD` (or Obsidian's `YYYY/M/D`), optionally followed by ` HH:MM`, on a real calendar day.
public struct DueDate: Hashable, Sendable {
    public var year: Int
    public var month: Int
    public var day: Int
    /// Minutes after midnight, when a time was given.
    public var minutes: Int?

    /// Parses `text`; throws a sentence saying what is wrong (`month 13 does not exist`).
    public init(parsing text: String) throws(DueDateError) {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 1 || parts.count == 2 else {
            throw DueDateError("“\(text)” is not a date: write YYYY-MM-DD, optionally followed by HH:MM")
        }
        let slashes = parts[0].contains("/")
        let ymd = parts[0].split(separator: slashes ? "/" : "-", omittingEmptySubsequences: false)
        let short = slashes ? 1...2 : 2...2
        guard ymd.count == 3, ymd[0].count == 4, short.contains(ymd[1].count), short.contains(ymd[2].count),
            let y = DueDate.digits(ymd[0]), let m = DueDate.digits(ymd[1]), let d = DueDate.digits(ymd[2])
        else {
            throw DueDateError("“\(parts[0])” is not a date: write YYYY-MM-DD (e.g. 2026-03-31)")
        }
        guard (1...12).contains(m) else {
            throw DueDateError("month \(m) does not exist in “\(parts[0])” (months are 01–12)")
        }
        let last = DueDate.days(inMonth: m, year: y)
        guard (1...last).contains(d) else {
            throw DueDateError(
                "day \(d) does not exist in “\(parts[0])” (\(DueDate.monthNames[m - 1]) \(y) has \(last) days)")
        }
        year = y
        month = m
        day = d
        if parts.count == 2 {
            let hm = parts[1].split(separator: ":", omittingEmptySubsequences: false)
            guard hm.count == 2, hm[0].count == 2, hm[1].count == 2, let h = DueDate.digits(hm[0]),
                let mi = DueDate.digits(hm[1]),
                h < 24, mi < 60
            else {
                throw DueDateError("“\(parts[1])” is not a time: write HH:MM from 00:00 to 23:59")
            }
            minutes = h * 60 + mi
        }
    }

    /// Days in a month of the Gregorian calendar.
    public static func days(inMonth month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August",
        "September", "October", "November", "December",
    ]

    private static func digits(_ s: Substring) -> Int? {
        guard !s.isEmpty, s.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(s)
    }
}

/// Why a due date was refused, as a sentence.
public struct DueDateError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    init(_ words: String) { description = words }
}
