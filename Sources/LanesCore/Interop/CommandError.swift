/// A scripting command that cannot do what was asked; `status` is the process exit status.
public struct CommandError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// No such file, card or column, or the file cannot be used: exit status 1.
        case notFound
        /// Malformed input, an ambiguous name, a bad option: exit status 2.
        case badInput
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    public var status: Int32 { kind == .notFound ? 1 : 2 }

    /// The stderr line and exit status for any error a command throws.
    ///
    /// Parse errors print as `file:line: message` alone so editors can jump to them;
    /// everything else is prefixed with `lanes: `. Storage errors (missing, unreadable,
    /// not writable) count as "not found", but a read-only board is refused like bad input (2).
    public static func report(_ error: any Error) -> (message: String, status: Int32) {
        switch error {
        case let e as ParseError: return (e.description, 2)
        case let e as CommandError: return ("lanes: " + e.message, e.status)
        case StorageError.readOnly(let path): return ("lanes: " + StorageError.readOnly(path: path).description, 2)
        case let e as StorageError: return ("lanes: " + e.description, 1)
        default: return ("lanes: \(error)", 1)
        }
    }
}
