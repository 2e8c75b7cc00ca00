#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Words the storage layer has for the person, found on the way to a board (an interrupted save it
/// finished): the command prints them on stderr, the screen shows them on the status line.
public enum StorageNotes {
    private nonisolated(unsafe) static var notes: [String] = []
    private nonisolated(unsafe) static var lock = pthread_mutex_t()
    private static let ready: Bool = {
        pthread_mutex_init(&lock, nil)
        return true
    }()

    /// Where a test's notes go instead (task-local, so tests side by side keep theirs apart).
    final class Collector: @unchecked Sendable {
        private var notes: [String] = []
        private var lock = pthread_mutex_t()
        init() { pthread_mutex_init(&lock, nil) }
        func add(_ words: String) {
            pthread_mutex_lock(&lock)
            notes.append(words)
            pthread_mutex_unlock(&lock)
        }
        var all: [String] {
            pthread_mutex_lock(&lock)
            defer { pthread_mutex_unlock(&lock) }
            return notes
        }
    }
    @TaskLocal static var collector: Collector? = nil

    /// Runs `body` with the notes it makes kept apart; its result and those notes.
    static func collecting<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let c = Collector()
        let result = try $collector.withValue(c) { try body() }
        return (result, c.all)
    }

    static func add(_ words: String) {
        if let collector {
            collector.add(words)
            return
        }
        _ = ready
        pthread_mutex_lock(&lock)
        notes.append(words)
        pthread_mutex_unlock(&lock)
    }

    /// The notes not yet taken, oldest first.
    public static func take() -> [String] {
        _ = ready
        pthread_mutex_lock(&lock)
        defer { pthread_mutex_unlock(&lock) }
        let taken = notes
        notes = []
        return taken
    }
}

extension SafeFile {
    /// `finishInterruptedSave`, its words kept in `StorageNotes`.
    static func finishInterruptedSaveNoting(_ path: String, lockHeld: Bool = false) throws {
        if let words = try finishInterruptedSave(of: path, lockHeld: lockHeld) { StorageNotes.add(words) }
    }
}
