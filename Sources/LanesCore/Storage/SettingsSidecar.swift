/// The settings file beside a board file (`.<name>.lanes`): where it is, and reading it.
/// Its text is `AcceptRules`' own (`AcceptRules.parse`, `serialized()`); `FileBoardStore`
/// writes it with the board.
public enum SettingsSidecar {
    /// The sidecar beside a board: `.<name>.lanes` in the folder of the board's real file
    /// (symlinks followed, like the lock `.<name>.lanes-lock`).
    public static func path(forBoard path: String) -> String {
        POSIX.sidecar(of: (try? POSIX.resolveFinalLinks(path).get()) ?? path, suffix: ".lanes")
    }

    /// Reads a rules file; no file means no rules. Errors are `file:line: message`.
    public static func read(_ path: String) throws -> (rules: AcceptRules, fingerprint: FileFingerprint?) {
        let bytes: [UInt8]
        let fingerprint: FileFingerprint
        do {
            (bytes, fingerprint) = try SafeFile.read(path)
        } catch StorageError.notFound {
            return (AcceptRules(), nil)
        }
        return (try AcceptRules.parse(bytes, file: path), fingerprint)
    }
}
