/// Why reading, saving or locking a board file failed.
public enum StorageError: Error, CustomStringConvertible, Sendable, Equatable {
    case notFound(path: String)
    case unreadable(path: String, reason: String)
    /// Nothing was replaced: the file on disk still holds what it held before.
    case writeFailed(path: String, reason: String)
    /// Someone else changed the file since we read or wrote it.
    case modifiedOnDisk(path: String)
    /// Another Lanes process holds the board; `byPID` is nil when its PID could not be read.
    case locked(path: String, byPID: Int32?)

    public var path: String {
        switch self {
        case .notFound(let path), .unreadable(let path, _), .writeFailed(let path, _),
             .modifiedOnDisk(let path), .locked(let path, _):
            return path
        }
    }

    public var description: String {
        switch self {
        case .notFound(let path):
            return "Cannot open \(path): the file does not exist."
        case .unreadable(let path, let reason):
            return "Cannot read \(path): \(reason)."
        case .writeFailed(let path, let reason):
            return "Cannot save \(path): \(reason). The file on disk is unchanged."
        case .modifiedOnDisk(let path):
            return "\(path) was changed by another program since Lanes read it; not saving over those changes."
        case .locked(let path, let pid?):
            return "\(path) is already open in another Lanes process (PID \(pid))."
        case .locked(let path, nil):
            return "\(path) is already open in another Lanes process."
        }
    }
}
