/// Which columns flow metrics count as started and done, by title; nil is the default
/// (started: the second column; done: the last).
public struct FlowColumns: Hashable, Sendable {
    /// This column and those right of it up to `done` are in progress.
    public var started: String?
    /// This column and those right of it are done.
    public var done: String?

    public init(started: String? = nil, done: String? = nil) {
        self.started = started
        self.done = done
    }

    public var isDefault: Bool { started == nil && done == nil }
}
