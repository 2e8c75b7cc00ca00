/// The outcomes the door handed the commands (`BoardCommands.door`) while `recording` ran, in order.
///
/// A long-lived writer that runs the commands' own functions (the MCP server, `lanes mcp`) keeps their
/// inverse edits as its own undo steps, as `BoardDocument` keeps the terminal's; the commands
/// themselves stay as they are. The recording is per thread (a task-local value), so commands run
/// elsewhere meanwhile are not recorded.
public final class DoorRecording: @unchecked Sendable {
    /// Every outcome in the order the door gave it; only the recording's own thread appends.
    public private(set) var outcomes: [EditOutcome] = []

    @TaskLocal static var current: DoorRecording?

    init() {}

    func add(_ outcome: EditOutcome) { outcomes.append(outcome) }

    /// Runs `body`; returns its result with the door's outcomes in the order given (also when
    /// `body` throws after some: they are on the board `body` was changing, which a caller drops).
    public static func recording<T>(_ body: () throws -> T) rethrows -> (result: T, outcomes: [EditOutcome]) {
        let recording = DoorRecording()
        let result = try $current.withValue(recording) { try body() }
        return (result, recording.outcomes)
    }
}
