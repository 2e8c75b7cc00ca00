#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which authors of a history's changes are agents: roles a server marks, or authors the user names.
///
/// A pattern is a shell pattern (`*`, `?`, `[…]`, as fnmatch reads it) matched against the whole
/// author, and against each part of a git author: the name before ` <` and the email between `<`
/// and `>`. So `--agent claude` names the author `claude <bot@example.com>`, `--agent '*@bots.example'`
/// every author of that domain, and `--agent 'claude <bot@example.com>'` that one author.
public struct FlowAgents: Hashable, Sendable {
    /// Authors named exactly (a server's marked roles).
    public var names: Set<String>
    public var patterns: [String]
    /// Whether the source or the user says who the agents are; if not, every author is a person
    /// because nothing says otherwise, and the output says so.
    public var named: Bool

    public init(names: Set<String> = [], patterns: [String] = [], named: Bool? = nil) {
        self.names = names
        self.patterns = patterns
        self.named = named ?? (!names.isEmpty || !patterns.isEmpty)
    }

    public func isAgent(_ author: String) -> Bool {
        if names.contains(author) { return true }
        guard !patterns.isEmpty else { return false }
        var parts = [author]
        let bytes = Array(author.utf8)
        if bytes.last == UInt8(ascii: ">"),
            let open = bytes.indices.last(where: {
                $0 + 1 < bytes.count && bytes[$0] == UInt8(ascii: " ") && bytes[$0 + 1] == UInt8(ascii: "<")
            })
        {
            parts.append(String(decoding: bytes[..<open], as: UTF8.self))
            parts.append(String(decoding: bytes[(open + 2)..<(bytes.count - 1)], as: UTF8.self))
        }
        return patterns.contains { p in parts.contains { fnmatch(p, $0, 0) == 0 } }
    }
}
