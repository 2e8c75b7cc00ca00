import LanesCore

/// How `lanes` words an error that ends a command: its stderr line and exit status.
///
/// Core throws values (`CommandError` with the door's refusal, `StorageError`, `ParseError`);
/// the hints that name this program's options (`--force`, `--any`) are added here only.
enum ErrorWords {
    /// Parse errors print as `file:line: message` alone so editors can jump to them; everything
    /// else is prefixed with `lanes: `. Storage errors (missing, unreadable, not writable) count
    /// as "not found", but a read-only board, or a file in the way of a new one, is refused like
    /// bad input (2).
    static func report(_ error: any Error) -> (message: String, status: Int32) {
        switch error {
        case let e as ParseError: return (e.description, 2)
        case let e as CommandError: return ("lanes: " + e.message + hint(e.refused), e.status)
        case StorageError.readOnly(let path): return ("lanes: " + StorageError.readOnly(path: path).description, 2)
        case StorageError.exists(let path): return ("lanes: \(path) exists; add --replace to overwrite it", 2)
        case let e as StorageError: return ("lanes: " + e.description, 1)
        default: return ("lanes: \(error)", 1)
        }
    }

    /// What the command line can do about a refusal: force a full column or an accept rule, or
    /// accept from every column.
    static func hint(_ refused: CommandError.Refused?) -> String {
        guard let refused else { return "" }
        switch refused.asked {
        case .add where refused.refusal.forceLifts: return "; --force adds anyway"
        case .move where refused.refusal.forceLifts: return "; --force moves anyway"
        case .acceptRule where refused.refusal.reason == .name: return ", or use --any"
        default: return ""
        }
    }
}
