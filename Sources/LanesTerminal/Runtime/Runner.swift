import DragKit
import Foundation
import LanesCore
#if canImport(Glibc)
import Glibc
#endif

/// Runs the app on a terminal: input → decoder → app → frame; saving and watching happen beside it.
///
/// The board's storage runs on a `StorageWorker` thread, so a frame never waits for a save and
/// a key typed during one is answered in the next frame. The runner keeps `synced`, the board as
/// last stored; when the app's board differs it sends a commit (one at a time — later changes
/// wait for its report, which coalesces them; a costly save also waits for the input to rest,
/// see `SavePacing`). Reports come back through the poll loop: a
/// stored board (with what others saved merged in) and boards changed elsewhere are merged
/// under the app's own later changes (`BoardApp.absorb`).
///
/// Quitting waits for the last save. When it failed, `q` asks (retry, save a copy, discard);
/// SIGTERM and SIGHUP cannot ask, so the board goes to a recovery copy (`RecoveryCopies`), the
/// next start says where, and `unsavedAtSignal` has the executable exit 128 + the signal.
public final class AppRunner {
    public private(set) var app: BoardApp
    let device: TerminalDevice
    let worker: StorageWorker?
    /// The board's name in messages and in the recovery index.
    let boardName: String
    /// How a recovery copy or a saved copy is written (the board's dialect and layout at start).
    let copyInfo: BoardFileInfo
    let recovery: RecoveryCopies
    var decoder = InputDecoder()
    var buffer = CellBuffer(width: 0, height: 0)
    /// The board as last stored: the base of the next commit.
    private(set) var synced: Board
    /// The commit under way: its token and the board it sent.
    private var inFlight: (token: Int, ours: Board)?
    /// Why the last save failed; nil once stored.
    private(set) var unsaved: String?
    /// Set when the storage said the board can no longer be read or stored here (`BoardGone`).
    private(set) var gone: String?
    private var nextRetry: Double?
    private var pacing = SavePacing()
    let now: () -> Double
    /// Where the board went when Lanes had to end unsaved (set on the way out).
    public private(set) var recoveryCopy: String?
    /// The signal that ended Lanes before its last changes were stored (the process should exit
    /// 128 + it, as if the signal had killed it); nil when everything was stored.
    public private(set) var unsavedAtSignal: Int32?
    /// What to say on stderr once the terminal is restored.
    private var farewell: String?
    /// Reads the board's history for flow metrics (`M`, the card detail); nil: the board has none.
    public var flowSource: (@Sendable () throws -> (FlowHistory, FlowColumns))?

    public init(app: BoardApp, device: TerminalDevice, storage: sending (any BoardStore)?, boardName: String = "board",
                copyInfo: BoardFileInfo = BoardFileInfo(dialect: .taskell),
                environment: [String: String] = ProcessInfo.processInfo.environment,
                clock: @escaping () -> Double = monotonicNow) {
        self.app = app
        self.device = device
        if let storage {
            worker = StorageWorker(storage: storage)
        } else {
            worker = nil
        }
        self.boardName = boardName
        self.copyInfo = copyInfo
        recovery = RecoveryCopies(environment: environment)
        synced = app.board
        now = clock
        self.app.copySuggestion = recovery.suggestedPath(for: boardName)
    }

    /// Runs until the user quits or a signal ends it; the board is saved on the way out.
    public func run() throws {
        // Said after the terminal is restored (defers run last-registered first), so it stays on screen.
        defer {
            if let farewell {
                FileHandle.standardError.write(Data(("lanes: " + DisplayText.safe(farewell) + "\n").utf8))
            }
        }
        try device.start()
        defer { device.stop() }
        worker?.start()
        defer { worker?.stop() }
        app.resize(device.size)
        while true {
            let t = now()
            app.tick(now: t)
            app.render(into: &buffer, now: t)
            device.trackAllMotion(app.wantsAllMotion)
            device.present(buffer)
            if app.wantsFlow(now: Int64(Date().timeIntervalSince1970)) {
                // After a frame that says "reading", so a long first read is not a frozen screen.
                app.flowRequested()
                let result = flowSource.map { source in Result { try source() } }
                    ?? .failure(NoHistory("this board has no history to read flow metrics from"))
                app.receiveFlow(result, now: Int64(Date().timeIntervalSince1970))
                continue
            }
            // The frame first, then the save: a change is on screen before it is compared and sent.
            submitIfNeeded(now: now())
            let held = inFlight == nil && nextRetry == nil ? pacing.deadline : nil
            var deadlines = [app.deadline(now: t), decoder.deadline, nextRetry, held].compactMap { $0 }
            if deadlines.isEmpty { deadlines = [t + 1] }
            let timeout = max(0, (deadlines.min() ?? t + 1) - t)
            var ending: Ending?
            for input in device.wait(timeout: timeout, wakingOn: worker?.reportDescriptor) {
                switch input {
                case .bytes(let bytes):
                    pacing.input(at: now())
                    for event in decoder.feed(bytes, now: now()) where ending == nil {
                        ending = handle(app.handle(event, now: now()))
                    }
                case .resized(let size):
                    app.resize(size)
                    device.invalidate()
                case .terminate(let signal):
                    ending = .signal(signal)
                case .resumed:
                    device.invalidate()
                }
                if ending != nil { break }
            }
            let after = now()
            if let d = decoder.deadline, after >= d {
                for event in decoder.flush(now: after) where ending == nil {
                    ending = handle(app.handle(event, now: after))
                }
            }
            takeReports()
            if let ending, finish(ending) { return }
        }
    }

    /// Why the loop may end.
    private enum Ending {
        /// `q`: only once everything is stored, else ask.
        case user
        /// SIGTERM, SIGHUP, SIGINT: end now, with a recovery copy if unsaved.
        case signal(Int32)
        /// The user chose to quit without storing the last changes (or saved a copy).
        case discard
    }

    /// Carries out effects; how the loop should end, if it should.
    private func handle(_ effects: [AppEffect]) -> Ending? {
        for effect in effects {
            switch effect {
            case .quit:
                return .user
            case .quitDiscarding:
                return .discard
            case .retrySaveAndQuit:
                unsaved = nil
                nextRetry = nil
                return .user
            case .saveCopyAndQuit(let path):
                let text = BoardFormat.serialize(app.board, info: copyInfo)
                do {
                    try recovery.prepareFolder(for: path)
                    try SafeFile.writeAtomically(Array(text.utf8), to: path, expecting: nil)
                    return .discard
                } catch {
                    app.askBeforeQuitting(because: "the copy could not be written either: \(error)")
                }
            case .suspend:
                device.suspendToShell()
                device.invalidate()
            case .editExternally(let id):
                editExternally(id)
            }
        }
        return nil
    }

    /// Whether the loop ends now.
    private func finish(_ ending: Ending) -> Bool {
        switch ending {
        case .discard:
            return true
        case .user:
            if let gone {
                if app.board == synced { return true }
                app.askBeforeQuitting(because: "not saved: \(gone)")
                return false
            }
            if flush(timeout: 10) { return true }
            app.askBeforeQuitting(because: unsaved ?? "the save did not finish in 10 s")
            return false
        case .signal(let signal):
            if flush(timeout: 3) { return true }
            unsavedAtSignal = signal
            let text = BoardFormat.serialize(app.board, info: copyInfo)
            let why = unsaved ?? "the save did not finish"
            do {
                let copy = try recovery.write(text, for: boardName)
                recoveryCopy = copy
                farewell = "\(boardName) was not saved (\(why)); your board is in \(copy)"
            } catch {
                farewell = "\(boardName) was not saved (\(why)) and no recovery copy could be written: \(error)"
            }
            return true
        }
    }

    /// Sends what is unsaved and waits until it is stored; false when that failed or took too long.
    private func flush(timeout: Double) -> Bool {
        guard let worker else { return true }
        let deadline = now() + timeout
        var tried = false
        while true {
            takeReports()
            if inFlight == nil {
                if app.board == synced { return true }
                if tried && unsaved != nil { return false }
                submit()
                tried = true
            }
            let left = deadline - now()
            if left <= 0 { return false }
            process(worker.waitForReports(timeout: left))
        }
    }

    private func submitIfNeeded(now t: Double) {
        guard worker != nil, inFlight == nil, gone == nil else { return }
        if let r = nextRetry, t < r { return }
        guard pacing.mayStart(at: t, unsaved: app.board != synced) else { return }
        submit()
    }

    private func submit() {
        guard let worker else { return }
        let ours = app.board
        inFlight = (worker.commit(base: synced, ours: ours), ours)
        nextRetry = nil
        pacing.started()
    }

    private func takeReports() {
        guard let worker else { return }
        process(worker.takeReports())
    }

    private func process(_ reports: [StorageWorker.Report]) {
        for report in reports {
            switch report {
            case .committed(let token, let outcome, let cpu):
                guard let sent = inFlight, sent.token == token else { continue }
                inFlight = nil
                pacing.saved(cost: cpu)
                synced = outcome.board
                let wasUnsaved = unsaved != nil
                unsaved = nil
                app.absorb(stored: outcome.board, base: sent.ours)
                if let first = outcome.conflicts.first {
                    let more = outcome.conflicts.count > 1 ? " (and \(outcome.conflicts.count - 1) more)" : ""
                    app.setStatus(DisplayText.safe(first.message) + more)
                } else if outcome.incomingChanges > 0 {
                    let n = outcome.incomingChanges
                    app.setStatus(n == 1 ? "Saved; 1 card changed elsewhere" : "Saved; \(n) cards changed elsewhere")
                } else if wasUnsaved {
                    app.setStatus("Saved")
                }
            case .commitFailed(let token, let message, let offline):
                guard let sent = inFlight, sent.token == token else { continue }
                inFlight = nil
                unsaved = message
                nextRetry = now() + (offline ? 1 : 2)
                app.setStatus(offline
                    ? "Offline, reconnecting… your changes are kept and will be saved"
                    : "NOT SAVED: \(DisplayText.safe(message)) — retrying; q asks before quitting")
            case .changed(let board):
                app.absorb(stored: board, base: synced)
                synced = board
            case .gone(let message):
                gone = message
                app.setStatus("NO LONGER SHARED: \(DisplayText.safe(message)) · changes from others are not shown and yours are not saved; q offers to save them as a file")
            case .refreshFailed(let message, let offline):
                app.setStatus(offline
                    ? "Offline, reconnecting…"
                    : "The board changed elsewhere and cannot be read: \(DisplayText.safe(message)). Not saving over it.")
            }
        }
    }

    private func editExternally(_ id: ItemID) {
        guard let path = app.board.indexPath(for: id) else { return }
        let card = app.board[path]
        let storesDoneMark = app.reading.storesDoneMark
        let text = CardText.render(card, storesDoneMark: storesDoneMark)
        let file: EditorFile
        do {
            file = try EditorFile(name: "card.md", contents: Array(text.utf8))
        } catch {
            app.setStatus("Cannot edit in $EDITOR: \(error)")
            return
        }
        defer { file.remove() }
        let env = ProcessInfo.processInfo.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        var outcome = ForegroundProgram.Outcome.exited(0)
        device.suspend {
            // `exec`: the editor takes the shell's place, so no shell stays between that a Ctrl-\ would end.
            outcome = ForegroundProgram.run("exec \(editor) \(shellQuote(file.path))")
        }
        device.invalidate()
        if let complaint = ForegroundProgram.complaint(outcome, editor: editor) {
            app.setStatus(DisplayText.safe(complaint))
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            app.setStatus("The editor left no card file (\(file.path) is gone); the card is as it was")
            return
        }
        guard let edited = String(data: data, encoding: .utf8) else {
            app.setStatus("The edited card is not UTF-8 text; the card is as it was")
            return
        }
        // Nothing changed in the editor: nothing to write (not even a card written anew the same).
        if edited == text {
            app.setStatus("No change: the card is as it was")
            return
        }
        do {
            let parsed = try CardText.parse(edited, original: card, storesDoneMark: storesDoneMark)
            if parsed == card {
                app.setStatus("No change: the card is as it was")
                return
            }
            app.finishExternalEdit(id, edited: parsed)
        } catch {
            app.setStatus("Edit not applied: \(error)")
        }
    }
}

func shellQuote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }

/// One card as a small Markdown file for `$EDITOR`, and back, keeping what the editor left alone.
///
/// The file is the card line (`- [ ] title`, `- [x] title` where the board keeps done marks,
/// `- title` in taskell), then taskell-style details (`    @ due`, `    > description`,
/// `    * [ ] sub-task`), then the card's other lines exactly as the board file holds them.
/// Reading it back, the card's own lines (the original's extra lines, when the file still ends
/// with them) are kept as they were; other lines after the details become extra lines, or,
/// on a board that cannot keep them (taskell), an error naming the line.
public enum CardText {
    public static func render(_ card: Card, storesDoneMark: Bool = true) -> String {
        var out = storesDoneMark ? (card.done ? "- [x] " : "- [ ] ") : "- "
        out += oneLine(card.title) + "\n"
        if let due = card.due { out += "    @ " + oneLine(due) + "\n" }
        for line in card.descriptionLines { out += "    > " + oneLine(line) + "\n" }
        for sub in card.subtasks { out += (sub.done ? "    * [x] " : "    * [ ] ") + oneLine(sub.title) + "\n" }
        for line in card.extraLines { out += line + "\n" }
        return out
    }

    /// The text on one line (a card's fields never hold line breaks; this keeps the file's lines its own).
    private static func oneLine(_ text: String) -> String {
        String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
    }

    /// The card the text describes; `original` is the card as it was (its identity and kept lines).
    public static func parse(_ text: String, original: Card, storesDoneMark: Bool = true) throws -> Card {
        var lines = text.utf8.split(separator: 10, omittingEmptySubsequences: false).map { line -> String in
            String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
        }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        var n = 0
        while n < lines.count && lines[n].isEmpty { n += 1 }
        // A `## ` heading above the card (how Lanes once wrote this file) is allowed.
        if n < lines.count, lines[n].hasPrefix("## ") {
            n += 1
            while n < lines.count && lines[n].isEmpty { n += 1 }
        }
        func fail(_ k: Int, _ message: String) -> ParseError {
            ParseError(file: "card", line: k + 1, message: message)
        }
        guard n < lines.count, lines[n].hasPrefix("- ") || lines[n] == "-" else {
            throw fail(n, "expected the card line (\"- title\") first")
        }
        var card = original
        let head = lines[n].count > 2 ? String(lines[n].dropFirst(2)) : ""
        card.done = false
        if storesDoneMark, head.count >= 3, head.hasPrefix("["), Array(head)[2] == "]",
           head.count == 3 || Array(head)[3] == " " {
            let mark = Array(head)[1]
            card.done = mark != " "
            card.title = String(head.dropFirst(head.count == 3 ? 3 : 4))
        } else {
            card.title = head
            card.done = storesDoneMark ? false : original.done
        }
        n += 1
        // The original's kept lines, when the file still ends with them, stay its kept lines.
        var end = lines.count
        let kept = original.extraLines
        if !kept.isEmpty, end - n >= kept.count, Array(lines[(end - kept.count)...]) == kept {
            end -= kept.count
        }
        var due: String?
        var description: [String] = []
        var subtasks: [Subtask] = []
        var stage = 0
        while n < end {
            let line = lines[n]
            if stage == 0, line.hasPrefix("    @ ") {
                due = String(line.dropFirst(6)); stage = 1
            } else if stage <= 2, line.hasPrefix("    > ") || line == "    >" {
                description.append(String(line.dropFirst(line == "    >" ? 5 : 6))); stage = 2
            } else if line.hasPrefix("    * [ ] ") || line.hasPrefix("    * [x] ") || line.hasPrefix("    * [X] ") {
                subtasks.append(Subtask(String(line.dropFirst(10)), done: !line.hasPrefix("    * [ ] "))); stage = 3
            } else {
                break
            }
            n += 1
        }
        var extra = Array(lines[n..<end])
        if end < lines.count {
            extra += kept
        }
        if !storesDoneMark, let k = extra.firstIndex(where: { !$0.isEmpty }) {
            throw fail(n + k, "a taskell card holds only \"    @ \" due, \"    > \" description and \"    * [ ] \" sub-task lines after its title; found \"\(extra[k])\"")
        }
        if !storesDoneMark { extra = [] }
        card.due = due
        card.descriptionLines = description
        card.subtasks = subtasks
        card.extraLines = extra
        return card
    }
}
