#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A child process whose standard output is read as a stream (no Foundation: LanesCore has none).
///
/// Standard input comes from a file (or /dev/null) and standard error goes to a temporary file,
/// so neither can fill a pipe while the output is being read.
final class Subprocess {
    private var pid: pid_t = 0
    private var output: Int32 = -1
    private let errorPath: String
    private var buffer: [UInt8] = []
    private var start = 0
    private(set) var atEnd = false

    /// Starts `arguments[0]` (looked up on PATH) with the rest as its arguments.
    init(_ arguments: [String], input: String = "/dev/null", environment: [String: String] = [:]) throws(NoHistory) {
        var template = Array("/tmp/lanes-flow-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw NoHistory("cannot create a temporary file: \(POSIX.message(errno))") }
        close(fd)
        errorPath = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        var pipeFDs: [Int32] = [0, 0]
        guard pipe(&pipeFDs) == 0 else { throw NoHistory("cannot start \(arguments[0]): \(POSIX.message(errno))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_TRUNC, 0o600)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        posix_spawn_file_actions_addclose(&actions, pipeFDs[1])
        var env: [String] = []
        var index = 0
        while let entry = environ[index] {
            let text = String(cString: entry)
            let name = text.split(separator: "=", maxSplits: 1).first.map(String.init) ?? text
            if environment[name] == nil { env.append(text) }
            index += 1
        }
        for (k, v) in environment { env.append(k + "=" + v) }
        var cargs = arguments.map { strdup($0) } + [nil]
        var cenv = env.map { strdup($0) } + [nil]
        defer {
            for p in cargs { free(p) }
            for p in cenv { free(p) }
        }
        let rc = posix_spawnp(&pid, arguments[0], &actions, nil, &cargs, &cenv)
        close(pipeFDs[1])
        guard rc == 0 else {
            close(pipeFDs[0])
            unlink(errorPath)
            throw NoHistory("cannot run \(arguments[0]): \(POSIX.message(rc))")
        }
        output = pipeFDs[0]
    }

    deinit {
        if output >= 0 { close(output) }
        if pid > 0 {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        unlink(errorPath)
    }

    /// Reads more output into the buffer; false at the end.
    private func fill() -> Bool {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = 1 << 16
        let old = buffer.count
        buffer.reserveCapacity(old + chunk)
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress! + old, chunk) }
            if n < 0 && errno == EINTR { continue }
            buffer.removeLast(chunk - max(n, 0))
            if n <= 0 { atEnd = true }
            return n > 0
        }
    }

    /// The next byte without taking it; nil at the end.
    func peek() -> UInt8? {
        while start >= buffer.count {
            if atEnd || !fill() { return nil }
        }
        return buffer[start]
    }

    /// The bytes up to `delimiter` (taken, the delimiter too, not returned); nil at the end
    /// (what is left without a delimiter is returned last).
    func read(until delimiter: UInt8) -> ArraySlice<UInt8>? {
        var searchFrom = start
        while true {
            if let i = buffer[searchFrom...].firstIndex(of: delimiter) {
                let slice = buffer[start..<i]
                start = i + 1
                return slice
            }
            searchFrom = buffer.count
            let offset = searchFrom - start
            if atEnd || !fill() {
                guard start < buffer.count else { return nil }
                let slice = buffer[start...]
                start = buffer.count
                return slice
            }
            searchFrom = start + offset
        }
    }

    /// Exactly `count` bytes; nil when the output ends first.
    func read(count: Int) -> ArraySlice<UInt8>? {
        while buffer.count - start < count {
            if atEnd || !fill() { return nil }
        }
        defer { start += count }
        return buffer[start..<start + count]
    }

    /// Reads what is left, waits for the process; its exit status and standard error.
    func finish() -> (status: Int32, error: String) {
        while !atEnd { _ = fill(); start = buffer.count }
        close(output)
        output = -1
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        pid = 0
        let errorBytes = (try? SafeFile.read(errorPath).bytes) ?? []
        var text = String(decoding: errorBytes, as: UTF8.self)
        let code: Int32 = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        while text.hasSuffix("\n") { text.removeLast() }
        return (code, text)
    }

    /// Runs a command to its end: its output (trailing newline removed), exit status and error text.
    static func run(_ arguments: [String]) throws(NoHistory) -> (output: String, status: Int32, error: String) {
        let p = try Subprocess(arguments)
        var bytes: [UInt8] = []
        while let chunk = p.read(count: 1) {
            bytes.append(contentsOf: chunk); if let more = p.readAvailable() { bytes.append(contentsOf: more) }
        }
        let (status, error) = p.finish()
        var text = String(decoding: bytes, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        return (text, status, error)
    }

    /// Whatever is already buffered (taken).
    private func readAvailable() -> ArraySlice<UInt8>? {
        guard start < buffer.count else { return nil }
        defer { start = buffer.count }
        return buffer[start...]
    }
}
