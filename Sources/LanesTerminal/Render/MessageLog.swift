import Foundation

/// The recent status messages, oldest first, for the messages view (like vim's `:messages`).
///
/// A message equal to the one before it counts as a repeat of it rather than a new entry, and
/// the log keeps the last `capacity` entries. A message longer than `longest` characters keeps
/// its first `longest` and says how many it left out (a 10 MB card title must not make every
/// frame of the view wrap 10 MB).
public struct MessageLog: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var text: String
        /// When it was last shown (seconds since 1970).
        public var time: Double
        /// How many times it was shown in a row.
        public var count = 1
    }

    public let capacity: Int
    public let longest: Int
    public private(set) var entries: [Entry] = []

    public init(capacity: Int = 200, longest: Int = 20_000) {
        self.capacity = max(1, capacity)
        self.longest = max(1, longest)
    }

    public mutating func record(_ text: String, at time: Double) {
        guard !text.isEmpty else { return }
        var kept = text
        if text.count > longest {
            let left = text.count - longest
            kept = String(text.prefix(longest)) + " … (\(left) more characters not kept)"
        }
        if var last = entries.last, last.text == kept {
            last.count += 1
            last.time = time
            entries[entries.count - 1] = last
            return
        }
        entries.append(Entry(text: kept, time: time))
        if entries.count > capacity { entries.removeFirst(entries.count - capacity) }
    }
}
