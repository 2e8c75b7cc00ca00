import Foundation
@testable import LanesCore

/// A scratch git repository whose commits are made at given times.
final class FlowRepo {
    let path: String
    /// The author of the commits made from now on.
    var author = (name: "Flow Test", email: "flow@example.org")

    init() throws {
        path = NSTemporaryDirectory() + "lanes-flow-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try git("init", "-q", "-b", "main")
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    @discardableResult
    func git(_ args: String..., at time: Int64? = nil) throws -> String {
        try gitArgs(args, at: time)
    }

    @discardableResult
    func gitArgs(_ args: [String], at time: Int64? = nil) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        p.arguments = ["-C", path] + args
        var env = ProcessInfo.processInfo.environment
        env["GIT_AUTHOR_NAME"] = author.name
        env["GIT_AUTHOR_EMAIL"] = author.email
        env["GIT_COMMITTER_NAME"] = "Flow Test"
        env["GIT_COMMITTER_EMAIL"] = "flow@example.org"
        env["GIT_CONFIG_GLOBAL"] = "/dev/null"
        env["GIT_CONFIG_NOSYSTEM"] = "1"
        if let time {
            env["GIT_COMMITTER_DATE"] = "@\(time) +0000"
            env["GIT_AUTHOR_DATE"] = "@\(time) +0000"
        }
        p.environment = env
        let out = Pipe(), err = Pipe()
        p.standardOutput = out
        p.standardError = err
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        guard p.terminationStatus == 0 else {
            throw NSError(
                domain: "git", code: Int(p.terminationStatus),
                userInfo: [NSLocalizedDescriptionKey: "git \(args): " + String(decoding: errData, as: UTF8.self)])
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func write(_ name: String, _ text: String) throws {
        try text.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
    }

    /// Writes the file and commits everything at `time`; returns the commit hash.
    @discardableResult
    func commit(_ name: String, _ text: String, at time: Int64, message: String = "change") throws -> String {
        try write(name, text)
        try git("add", "-A")
        try git("commit", "-q", "--allow-empty", "-m", message, at: time)
        return try git("rev-parse", "HEAD")
    }
}
