import Foundation
#if canImport(Glibc)
    import Glibc
#endif

/// A file for handing text to `$EDITOR`: mode 600, in a fresh mode-700 directory of its own.
///
/// The directory comes from `mkdtemp` under `$TMPDIR` (or /tmp) and the file is created with
/// `O_EXCL | O_NOFOLLOW`, so no other user can predict, pre-create, read or redirect it.
/// `remove()` deletes the directory with whatever the editor left in it (swap, backup files).
struct EditorFile {
    let directory: String
    let path: String

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(name: String, contents: [UInt8], temporaryDirectory: String? = nil) throws(Failure) {
        let env = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 }
        var base = temporaryDirectory ?? env ?? "/tmp"
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/lanes-card-XXXXXX").utf8CString)
        guard mkdtemp(&template) != nil else {
            throw Failure(description: "cannot create a private folder in \(base): \(String(cString: strerror(errno)))")
        }
        directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        path = directory + "/" + name
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            rmdir(directory)
            throw Failure(description: "cannot create \(path): \(reason)")
        }
        var written = 0
        var failure: String?
        contents.withUnsafeBytes { raw in
            while written < raw.count {
                let n = write(fd, raw.baseAddress! + written, raw.count - written)
                if n > 0 {
                    written += n
                } else if n < 0 && errno == EINTR {
                    continue
                } else {
                    failure = n < 0 ? String(cString: strerror(errno)) : "nothing was written"
                    return
                }
            }
        }
        if close(fd) != 0 && failure == nil { failure = String(cString: strerror(errno)) }
        if let failure {
            remove()
            throw Failure(description: "cannot write \(path): \(failure)")
        }
    }

    /// Deletes the file and its directory, with anything else the editor put there.
    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
