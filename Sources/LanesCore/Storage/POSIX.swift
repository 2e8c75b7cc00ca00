#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Thin wrappers over the system calls storage needs; no Foundation, so a forked child may use them.
enum POSIX {
    /// The system's message for an error number, e.g. "No space left on device".
    static func message(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// The folder part of a path: "." for a bare name, "/" for a file at the root.
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    static func lastComponent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    /// A hidden file beside `target` named after it: `.<name><suffix>` in the same folder
    /// (the lock's `.lanes-lock`, the accept rules' `.lanes`); a bare name gives a bare name.
    static func sidecar(of target: String, suffix: String) -> String {
        let name = "." + lastComponent(of: target) + suffix
        return target.contains("/") ? join(directory(of: target), name) : name
    }

    /// Whether two paths name the same folder (same device and inode; false when either is missing).
    static func sameFolder(_ a: String, _ b: String) -> Bool {
        guard case .success(let x) = status(a.isEmpty ? "." : a), case .success(let y) = status(b.isEmpty ? "." : b)
        else { return false }
        return x.st_dev == y.st_dev && x.st_ino == y.st_ino
    }

    static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    static func isRegular(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFREG }
    static func isSymlink(_ st: stat) -> Bool { (st.st_mode & S_IFMT) == S_IFLNK }

    /// `lstat`; the error number on failure.
    static func linkStatus(_ path: String) -> Result<stat, Errno> {
        var st = stat()
        return lstat(path, &st) == 0 ? .success(st) : .failure(Errno(errno))
    }

    static func status(_ path: String) -> Result<stat, Errno> {
        var st = stat()
        return stat(path, &st) == 0 ? .success(st) : .failure(Errno(errno))
    }

    static func status(fd: Int32) -> Result<stat, Errno> {
        var st = stat()
        return fstat(fd, &st) == 0 ? .success(st) : .failure(Errno(errno))
    }

    /// Follows symbolic links in the last path component until a non-link or a missing name.
    ///
    /// Links in the folder part are left to the kernel: they lead to the same folder
    /// whatever they are called. A dangling link resolves to the missing file it names.
    static func resolveFinalLinks(_ path: String) -> Result<String, Errno> {
        var current = path
        for _ in 0..<40 {
            var st = stat()
            guard lstat(current, &st) == 0 else {
                let code = errno
                return code == ENOENT ? .success(current) : .failure(Errno(code))
            }
            guard isSymlink(st) else { return .success(current) }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length >= 0 else { return .failure(Errno(errno)) }
            let destination = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = destination.hasPrefix("/") ? destination : join(directory(of: current), destination)
        }
        return .failure(Errno(ELOOP))
    }

    /// Reads from `fd` at offset 0 until end of file.
    static func readAll(_ fd: Int32, sizeHint: Int) -> Result<[UInt8], Errno> {
        // Read into uninitialised memory: zero-filling 40 MB first cost a pass of its own at launch.
        var capacity = max(sizeHint, 0) + 1
        while true {
            var failure: Errno?
            let bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                var count = 0
                while count < buffer.count {
                    let n = pread(fd, buffer.baseAddress! + count, buffer.count - count, off_t(count))
                    if n < 0 {
                        if errno == EINTR { continue }
                        failure = Errno(errno)
                        break
                    }
                    if n == 0 { break }
                    count += n
                }
                initialized = count
            }
            if let failure { return .failure(failure) }
            if bytes.count < capacity { return .success(bytes) }
            capacity *= 2  // the file grew while it was read: again, with room to spare
        }
    }

    /// The PID written as decimal text at the start of a file, if any.
    static func readPID(_ fd: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, 0) }
        guard n > 0 else { return nil }
        let text = String(decoding: buffer[..<n], as: UTF8.self)
        let digits = text.prefix { $0.isASCII && $0.isNumber }
        guard let pid = Int32(digits), pid > 0 else { return nil }
        return pid
    }

    /// Whether a process with this PID exists (it may belong to another user).
    static func processExists(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    /// Names in a folder, without "." and "..".
    static func entries(of directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }
}

/// An error number from a failed system call.
struct Errno: Error, Equatable {
    var code: Int32
    init(_ code: Int32) { self.code = code }
    var message: String { POSIX.message(code) }
}
