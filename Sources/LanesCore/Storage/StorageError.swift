/// Why reading, saving or locking a board file failed.
public enum StorageError: Error, CustomStringConvertible, Sendable, Equatable {
    case notFound(path: String)
    case unreadable(path: String, reason: String)
    /// Nothing was replaced: the file on disk still holds what it held before.
    case writeFailed(path: String, reason: String)
    /// Someone else changed the file since we read or wrote it.
    case modifiedOnDisk(path: String)
    /// The board has no write permission: Lanes shows it but does not change it.
    case readOnly(path: String)
    /// Another program is writing the file in place: it is not read until it has been left alone.
    case stillBeingWritten(path: String)
    /// A new board was to be written where a file already is, and replacing it was not asked for.
    case exists(path: String)

    public var path: String {
        switch self {
        case .notFound(let path), .unreadable(let path, _), .writeFailed(let path, _),
            .modifiedOnDisk(let path), .readOnly(let path), .stillBeingWritten(let path), .exists(let path):
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
        case .readOnly(let path):
            return "\(path) is read-only (no write permission): Lanes does not change it."
        case .stillBeingWritten(let path):
            return "\(path) is being written by another program; Lanes reads it when it is done."
        case .exists(let path):
            return "\(path) exists."
        }
    }
}
