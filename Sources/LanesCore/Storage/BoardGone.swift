/// The board can no longer be read here: deleted, or this role's access was revoked.
/// Nothing more will come from the store; what the screen shows is all the user has.
public struct BoardGone: Error, Hashable, Sendable, CustomStringConvertible {
    /// Words for the status line, e.g. `role bob no longer has access to board “Team”`.
    public var message: String
    public init(message: String) { self.message = message }
    public var description: String { message }
}
