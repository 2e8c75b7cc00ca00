#if canImport(Glibc)
    import Glibc
#endif

/// Wakes a poll loop when files in a folder may have changed (inotify on Linux).
///
/// It watches the folders of the given files, not the files: a save by rename replaces the
/// file's inode, which a watch on the file itself would lose. Events are only a hint to look
/// (the caller stats the files); where inotify is missing the caller looks on a timer.
final class FileWatcher {
    let descriptor: Int32

    init?(files: [String]) {
        #if os(Linux)
            let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
            guard fd >= 0 else { return nil }
            let mask = UInt32(
                IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MODIFY)
            var watched = Set<String>()
            for file in files {
                let folder = POSIX.directory(of: (try? POSIX.resolveFinalLinks(file).get()) ?? file)
                guard watched.insert(folder).inserted else { continue }
                if inotify_add_watch(fd, folder, mask) < 0 {
                    close(fd)
                    return nil
                }
            }
            descriptor = fd
        #else
            return nil
        #endif
    }

    deinit { close(descriptor) }

    /// Reads and forgets every pending event; whether there was any.
    @discardableResult
    func drain() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 8192)
        var any = false
        while true {
            let n = read(descriptor, &buffer, buffer.count)
            if n > 0 { any = true; continue }
            if n < 0 && errno == EINTR { continue }
            return any
        }
    }
}
