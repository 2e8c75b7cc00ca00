import DragKit
import Foundation
import LanesCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs the app on a terminal: input → decoder → app → frame, and saves after every change.
public final class AppRunner {
    public private(set) var app: BoardApp
    let device: TerminalDevice
    let store: BoardStore?
    var decoder = InputDecoder()
    var buffer = CellBuffer(width: 0, height: 0)
    var savedRevision = 0
    var saveFailed = false
    var nextRetry: Double?
    var nextDiskCheck = 0.0
    let now: () -> Double

    public init(app: BoardApp, device: TerminalDevice, store: BoardStore?, clock: @escaping () -> Double = monotonicNow) {
        self.app = app
        self.device = device
        self.store = store
        self.now = clock
        savedRevision = app.revision
    }

    /// Runs until the user quits or a signal ends it; the board is saved on the way out.
    public func run() throws {
        try device.start()
        defer { device.stop() }
        app.resize(device.size)
        while true {
            let t = now()
            app.tick(now: t)
            app.render(into: &buffer, now: t)
            device.present(buffer)
            var deadlines = [app.deadline(now: t), decoder.deadline, nextRetry, nextDiskCheck].compactMap { $0 }
            if deadlines.isEmpty { deadlines = [t + 1] }
            let timeout = max(0, (deadlines.min() ?? t + 1) - t)
            var quit = false
            for input in device.wait(timeout: timeout) {
                switch input {
                case .bytes(let bytes):
                    for event in decoder.feed(bytes, now: now()) {
                        if handle(app.handle(event, now: now())) { quit = true }
                    }
                case .resized(let size):
                    app.resize(size)
                    device.invalidate()
                case .terminate:
                    quit = true
                case .resumed:
                    device.invalidate()
                }
                if quit { break }
            }
            let after = now()
            if let d = decoder.deadline, after >= d {
                for event in decoder.flush(now: after) where !quit {
                    if handle(app.handle(event, now: after)) { quit = true }
                }
            }
            saveIfNeeded(now: after)
            if quit {
                saveIfNeeded(now: after, force: true)
                return
            }
            if after >= nextDiskCheck {
                nextDiskCheck = after + 1
                checkDisk()
            }
        }
    }

    /// Carries out effects; true when the app should quit.
    private func handle(_ effects: [AppEffect]) -> Bool {
        for effect in effects {
            switch effect {
            case .quit:
                return true
            case .suspend:
                saveIfNeeded(now: now(), force: true)
                device.suspend { _ = kill(getpid(), SIGSTOP) }
                device.invalidate()
            case .editExternally(let id):
                editExternally(id)
            }
        }
        return false
    }

    private func saveIfNeeded(now t: Double, force: Bool = false) {
        guard let store else { return }
        guard app.revision != savedRevision || force || saveFailed else { return }
        if saveFailed && !force, let r = nextRetry, t < r { return }
        do {
            switch try store.save(app.board) {
            case .unchanged, .saved:
                break
            case .conflict(let kept, let disk):
                app.replaceBoard(disk, status: "The file changed on disk: your version is kept in \(kept)")
            }
            savedRevision = app.revision
            if saveFailed { app.setStatus("Saved") }
            saveFailed = false
            nextRetry = nil
        } catch {
            saveFailed = true
            nextRetry = t + 2
            app.setStatus("NOT SAVED: \(error) — will retry; nothing is lost while Lanes runs")
        }
    }

    private func checkDisk() {
        guard let store, !saveFailed, app.revision == savedRevision, !app.isBusy,
              store.looksChangedOnDisk(), store.changedOnDisk() else { return }
        do {
            let disk = try store.reload()
            app.replaceBoard(disk, status: "Reloaded: the file changed on disk")
            savedRevision = app.revision
        } catch {
            app.setStatus("The file changed on disk and cannot be read: \(error). Not overwriting it.")
            saveFailed = true
            nextRetry = now() + 2
        }
    }

    private func editExternally(_ id: ItemID) {
        guard let path = app.board.indexPath(for: id) else { return }
        let card = app.board[path]
        let file: EditorFile
        do {
            file = try EditorFile(name: "card.md", contents: Array(CardText.render(card).utf8))
        } catch {
            app.setStatus("Cannot edit in $EDITOR: \(error)")
            return
        }
        defer { file.remove() }
        let env = ProcessInfo.processInfo.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        var status: Int32 = 0
        device.suspend {
            status = runShell("\(editor) \(shellQuote(file.path))")
        }
        device.invalidate()
        guard status == 0, let data = FileManager.default.contents(atPath: file.path),
              let edited = String(data: data, encoding: .utf8) else {
            app.finishExternalEdit(id, edited: nil)
            return
        }
        do {
            app.finishExternalEdit(id, edited: try CardText.parse(edited, id: id))
        } catch {
            app.setStatus("Edit not applied: \(error)")
        }
    }
}

/// Runs a command line with /bin/sh and waits for it; its exit status.
func runShell(_ command: String) -> Int32 {
    var pid: pid_t = 0
    let args = ["/bin/sh", "-c", command]
    var cargs = args.map { strdup($0) } + [nil]
    defer { for p in cargs where p != nil { free(p) } }
    guard posix_spawn(&pid, "/bin/sh", nil, nil, &cargs, environ) == 0 else { return -1 }
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
}

func shellQuote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

/// One card as a small taskell-style Markdown file, for editing in $EDITOR.
public enum CardText {
    public static func render(_ card: Card) -> String {
        var b = Board(columns: [Column(title: "Card", cards: [card])])
        _ = b.makeID()
        return BoardFormat.serialize(b, as: .taskell)
    }

    public static func parse(_ text: String, id: ItemID) throws -> Card {
        let (board, _) = try BoardFormat.parse(text, file: "card")
        guard let card = board.columns.first?.cards.first, board.cardCount == 1 else {
            throw ParseError(file: "card", line: 1, message: "expected exactly one card (\"- title\")")
        }
        var c = card
        c.id = id
        return c
    }
}
