/// The config file: key bindings (`bind KEY ACTION`, `unbind KEY`) and view settings (`set view compact|cards`).
public struct AppConfig: Sendable {
    public var keymap = Keymap()
    /// Start in the compact view (one row per card).
    public var compact = false

    public init() {}

    /// Reads a config file's text; blank lines and `#` comments are skipped. Stops at the first bad line.
    public mutating func apply(config text: String, file: String) throws(ConfigError) {
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: " \t\r")
            if line.isEmpty || line.hasPrefix("#") { continue }
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            if words.first == "set" {
                guard words.count == 3, words[1] == "view", ["compact", "cards"].contains(words[2]) else {
                    throw ConfigError(
                        file: file, line: n + 1,
                        message: "expected \"set view compact\" or \"set view cards\", found \"\(line)\"")
                }
                compact = words[2] == "compact"
            } else {
                try keymap.apply(line: line, number: n + 1, file: file)
            }
        }
    }
}
