import DragKit
import Foundation
import CEpoll
import LanesCore
#if canImport(Glibc)
    import Glibc
#endif

/// Runs the workspace on a terminal: input → decoder → workspace → frame; saving and watching happen beside it.
///
/// Each board's storage runs on a `StorageWorker` thread of its own, so a frame never waits for
/// a save and a key typed during one is answered in the next frame; every board stays live,
/// shown or not. For each board the runner keeps `synced`, the board as last stored; when the
/// app's board differs it sends a commit (one at a time — later changes wait for its report,
/// which coalesces them; a costly save also waits for the input to rest, see `SavePacing`).
/// Reports come back through the poll loop (one epoll descriptor wakes it for all workers): a
/// stored board (with what others saved merged in) and boards changed elsewhere are merged
/// under the app's own later changes (`BoardApp.absorb`). A move between boards stores both
/// boards first, then runs `CrossBoardMove` on stores of its own on a `MoveThread`; the screen
/// keeps answering meanwhile, both boards' saves wait for it, and the cards it carries are held
/// in their board's door (`CardsInTransit`); the workers see its writes as another writer's.
///
/// Quitting waits for the last saves. When one failed, `q` asks (retry, save a copy, discard),
/// board by board; SIGTERM and SIGHUP cannot ask, so each unsaved board goes to a recovery copy
/// (`RecoveryCopies`), the next start says where, and `unsavedAtSignal` has the executable exit
/// 128 + the signal.
public final class AppRunner {
    public private(set) var workspace: Workspace
    /// The board shown.
    public var app: BoardApp { workspace.app }
    let device: TerminalDevice
    let hosts: [BoardHost]
    /// The boards opening after the first frame; nil when every board was open at start.
    let loader: BoardLoader?
    let recovery: RecoveryCopies
    var decoder = InputDecoder()
    var buffer = CellBuffer(width: 0, height: 0)
    let now: () -> Double
    /// Where the moves between boards keep their intent records; nil: no moves.
    public var moveJournal: MoveJournal?
    /// Runs a move between boards beside the loop.
    let mover = MoveThread()
    /// The move between boards asked for, until its result is taken.
    private var moving: MoveInFlight?
    /// `q` came while a move ran: quit once it is done.
    private var quitAfterMove = false
    /// The first board is shown from its first cards while this reads it whole (set before `run`):
    /// input is held until then, and nothing is saved. nil once the whole board is in.
    public var restOfFirstBoard: RestOfBoard? {
        didSet { if restOfFirstBoard != nil { hosts[0].opening = true } }
    }
    /// Why the first board could not be read whole (a `ParseError` says file and line); the
    /// session ended with the file untouched. The caller reports it as a failed open.
    public private(set) var loadFailure: (any Error)?
    /// Where a board went when Lanes had to end unsaved (set on the way out; the first of them).
    public private(set) var recoveryCopy: String?
    /// The signal that ended Lanes before its last changes were stored (the process should exit
    /// 128 + it, as if the signal had killed it); nil when everything was stored.
    public private(set) var unsavedAtSignal: Int32?
    /// What to say on stderr once the terminal is restored.
    private var farewell: [String] = []
    /// Set when `E`'s editor has run: input read after it in the same pass, and what was typed
    /// while it ran, is thrown away rather than taken as commands (`discarded` counts it).
    private var afterEditor: (ran: Bool, discarded: Int) = (false, 0)
    /// Wakes the loop when any worker reports (an epoll descriptor over them all), or the one worker's own.
    private var wakeDescriptor: Int32?
    private var ownsWakeDescriptor = false

    /// Reads the first board's history for flow metrics (`M`, the card detail); nil: the board has none.
    public var flowSource: (@Sendable () throws -> (FlowHistory, FlowColumns))? {
        get { hosts[0].flowSource }
        set { hosts[0].flowSource = newValue }
    }

    /// One board, as Lanes always ran: no tab bar.
    public convenience init(
        app: BoardApp, device: TerminalDevice, storage: sending (any BoardStore)?, boardName: String = "board",
        copyInfo: BoardFileInfo = BoardFileInfo(dialect: .taskell),
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: @escaping () -> Double = monotonicNow
    ) {
        self.init(
            boards: [
                HostedBoard(app: app, tabName: boardName, storage: storage, boardName: boardName, copyInfo: copyInfo)
            ],
            device: device, environment: environment, clock: clock)
    }

    /// Several boards, one tab each (with one board, no tab bar). The `later` boards get their tabs
    /// (after `boards`') at once and open in the background after the first frame (`BoardLoader`).
    public init(
        boards: [HostedBoard], later: [BoardLoader.Later] = [], device: TerminalDevice,
        environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: @escaping () -> Double = monotonicNow
    ) {
        self.device = device
        recovery = RecoveryCopies(environment: environment)
        now = clock
        var apps: [BoardApp] = []
        var hosts: [BoardHost] = []
        for b in boards {
            var app = b.app
            app.copySuggestion = recovery.suggestedPath(for: b.boardName)
            apps.append(app)
            // Each store is handed to its worker here and used by no one else from now on (the
            // caller gives the boards up: `HostedBoard` is how one store travels with its app).
            var worker: StorageWorker?
            if let store = b.storage {
                nonisolated(unsafe) let handed = store
                worker = StorageWorker(storage: handed)
            }
            hosts.append(
                BoardHost(
                    worker: worker, boardName: b.boardName,
                    copyInfo: b.copyInfo, synced: app.board, flowSource: b.flowSource, mover: b.mover))
        }
        for l in later {
            apps.append(Workspace.standIn(named: l.tabName, like: apps[0]))
            let host = BoardHost(
                worker: nil, boardName: l.tabName, copyInfo: BoardFileInfo(dialect: .taskell),
                synced: Board(columns: []),
                flowSource: nil, mover: nil)
            host.opening = true
            hosts.append(host)
        }
        self.hosts = hosts
        loader = later.isEmpty ? nil : BoardLoader(later, firstIndex: boards.count)
        workspace = Workspace(
            boards: apps,
            tabs: boards.map { Workspace.Tab(name: $0.tabName) }
                + later.map { Workspace.Tab(name: $0.tabName, loading: true) }, size: apps[0].size)
    }

    deinit {
        if ownsWakeDescriptor, let fd = wakeDescriptor { close(fd) }
    }

    /// One descriptor that turns readable when any worker has reports.
    private func makeWakeDescriptor() {
        var fds = hosts.compactMap { $0.worker?.reportDescriptor } + (loader.map { [$0.descriptor] } ?? [])
        if hosts.count > 1 { fds.append(mover.descriptor) }
        // Boards opening later bring workers of their own: those need the epoll descriptor to join.
        if fds.count <= 1 && loader == nil && restOfFirstBoard == nil { wakeDescriptor = fds.first; return }
        let ep = lanes_wake_epoll()
        guard ep >= 0 else { wakeDescriptor = fds.first; return }
        for fd in fds { _ = lanes_wake_epoll_add(ep, fd) }
        if let rest = restOfFirstBoard { _ = lanes_wake_epoll_add(ep, rest.descriptor) }
        wakeDescriptor = ep
        ownsWakeDescriptor = true
    }

    /// Runs until the user quits or a signal ends it; the boards are saved on the way out.
    public func run() throws {
        // Said after the terminal is restored (defers run last-registered first), so it stays on screen.
        defer {
            for line in farewell {
                FileHandle.standardError.write(Data(("lanes: " + DisplayText.safe(line) + "\n").utf8))
            }
        }
        try device.start()
        defer { device.stop() }
        for h in hosts { h.worker?.start() }
        defer { for h in hosts { h.worker?.stop() } }
        makeWakeDescriptor()
        workspace.resize(device.size)
        while true {
            // Said on the screen (an interrupted save that opening or refreshing a board finished).
            for note in StorageNotes.take() { workspace.boards[workspace.active].setStatus(DisplayText.safe(note)) }
            let t = now()
            workspace.tick(now: t)
            workspace.render(into: &buffer, now: t)
            device.trackAllMotion(workspace.wantsAllMotion)
            device.present(buffer)
            // The first frame is out: the other boards open now, beside the one shown, and the
            // first board's whole read starts.
            loader?.start()
            restOfFirstBoard?.start()
            let shown = workspace.active
            if workspace.app.wantsFlow(now: Int64(Date().timeIntervalSince1970)) {
                // After a frame that says "reading", so a long first read is not a frozen screen.
                workspace.boards[shown].flowRequested()
                let result =
                    hosts[shown].flowSource.map { source in Result { try source() } }
                    ?? .failure(NoHistory("this board has no history to read flow metrics from"))
                workspace.boards[shown].receiveFlow(result, now: Int64(Date().timeIntervalSince1970))
                continue
            }
            // The frame first, then the saves: a change is on screen before it is compared and sent.
            for i in hosts.indices { submitIfNeeded(i, now: now()) }
            var deadlines = [workspace.deadline(now: t), decoder.deadline].compactMap { $0 }
            for h in hosts {
                if let r = h.nextRetry { deadlines.append(r) }
                if h.inFlight == nil && h.nextRetry == nil, let d = h.pacing.deadline { deadlines.append(d) }
            }
            if deadlines.isEmpty { deadlines = [t + 1] }
            let timeout = max(0, (deadlines.min() ?? t + 1) - t)
            var ending: Ending?
            for input in device.wait(timeout: timeout, wakingOn: wakeDescriptor) {
                switch input {
                case .bytes(let bytes):
                    if afterEditor.ran {
                        afterEditor.discarded += bytes.count
                        continue
                    }
                    if let rest = restOfFirstBoard {
                        // Acted on once the whole board is in (`takeRest`); said at once.
                        rest.hold(bytes)
                        workspace.boards[0].setStatus(rest.heldWords)
                        continue
                    }
                    for h in hosts { h.pacing.input(at: now()) }
                    for event in decoder.feed(bytes, now: now()) where ending == nil {
                        if afterEditor.ran {
                            afterEditor.discarded += 1
                            continue
                        }
                        ending = handle(workspace.handle(event, now: now()))
                    }
                case .resized(let size):
                    workspace.resize(size)
                    device.invalidate()
                case .terminate(let signal):
                    ending = .signal(signal)
                case .resumed:
                    device.invalidate()
                }
                if ending != nil { break }
            }
            if afterEditor.ran { sayDiscardedAfterEditor() }
            let after = now()
            if let d = decoder.deadline, after >= d {
                for event in decoder.flush(now: after) where ending == nil {
                    ending = handle(workspace.handle(event, now: after))
                }
            }
            takeReports()
            takeOpened()
            startMoveIfStored()
            _ = takeMove()
            if quitAfterMove, moving == nil, ending == nil {
                quitAfterMove = false
                ending = .user
            }
            if ending == nil { ending = takeRest() }
            if let ending, finish(ending) { return }
        }
    }

    /// Why the loop may end.
    private enum Ending {
        /// `q`: only once everything is stored, else ask.
        case user
        /// SIGTERM, SIGHUP, SIGINT: end now, with a recovery copy if unsaved.
        case signal(Int32)
        /// The user chose to quit without storing the shown board's last changes (or saved a copy).
        case discard
    }

    /// Carries out effects; how the loop should end, if it should.
    private func handle(_ effects: [WorkspaceEffect]) -> Ending? {
        for effect in effects {
            switch effect {
            case .move(let move):
                perform(move)
            case .app(let effect):
                if let ending = handle(effect) { return ending }
            }
        }
        return nil
    }

    private func handle(_ effect: AppEffect) -> Ending? {
        let shown = workspace.active
        switch effect {
        case .quit:
            return .user
        case .quitDiscarding:
            return .discard
        case .retrySaveAndQuit:
            for h in hosts {
                h.unsaved = nil
                h.nextRetry = nil
            }
            return .user
        case .saveCopyAndQuit(let path):
            let text = BoardFormat.serialize(workspace.app.board, info: hosts[shown].copyInfo)
            do {
                try recovery.prepareFolder(for: path)
                try SafeFile.writeAtomically(Array(text.utf8), to: path, expecting: nil)
                return .discard
            } catch {
                workspace.boards[shown].copyNotWritten(to: path, because: "\(error)")
            }
        case .suspend:
            device.suspendToShell()
            device.invalidate()
        case .editExternally(let id):
            editExternally(id)
        }
        return nil
    }

    /// Whether the loop ends now.
    private func finish(_ ending: Ending) -> Bool {
        switch ending {
        case .discard:
            hosts[workspace.active].discarded = true
            if hosts.count == 1 { return true }
            return finish(.user)
        case .user:
            // Once: wait for the move. Again: quit now (its record stays; the next start on either board finishes or rolls it back).
            if let move = moving?.move, !quitAfterMove {
                quitAfterMove = true
                workspace.boards[workspace.active].setStatus(
                    "Quitting once the move to \(workspace.tabs[move.to].name) is done… q again quits now (the next start finishes the move or rolls it back)"
                )
                return false
            }
            for (i, h) in hosts.enumerated() where !h.discarded {
                if let gone = h.gone {
                    if workspace.boards[i].board == h.synced { continue }
                    workspace.show(i)
                    workspace.boards[i].askBeforeQuitting(because: "not saved: \(gone)")
                    return false
                }
                if flush(i, timeout: 10) { continue }
                workspace.show(i)
                workspace.boards[i].askBeforeQuitting(because: h.unsaved ?? "the save did not finish in 10 s")
                return false
            }
            return true
        case .signal(let signal):
            for (i, h) in hosts.enumerated() where !h.discarded {
                if flush(i, timeout: 3) { continue }
                unsavedAtSignal = signal
                let text = BoardFormat.serialize(workspace.boards[i].board, info: h.copyInfo)
                let why = h.unsaved ?? "the save did not finish"
                do {
                    let copy = try recovery.write(text, for: h.boardName)
                    if recoveryCopy == nil { recoveryCopy = copy }
                    farewell.append("\(h.boardName) was not saved (\(why)); your board is in \(copy)")
                } catch {
                    farewell.append(
                        "\(h.boardName) was not saved (\(why)) and no recovery copy could be written: \(error)")
                }
            }
            return true
        }
    }

    /// Sends what is unsaved on board `i` and waits until it is stored; false when that failed or took too long.
    private func flush(_ i: Int, timeout: Double) -> Bool {
        let h = hosts[i]
        guard let worker = h.worker else { return true }
        let deadline = now() + timeout
        var tried = false
        while true {
            takeReports()
            if h.inFlight == nil {
                if workspace.boards[i].board == h.synced { return true }
                if tried && h.unsaved != nil { return false }
                submit(i)
                tried = true
            }
            let left = deadline - now()
            if left <= 0 { return false }
            process(i, worker.waitForReports(timeout: left))
        }
    }

    private func submitIfNeeded(_ i: Int, now t: Double) {
        let h = hosts[i]
        guard h.worker != nil, h.inFlight == nil, h.gone == nil else { return }
        // Held while a move between boards writes this board: saved (merged) once it is done.
        if moving?.writes(board: i) == true { return }
        if let r = h.nextRetry, t < r { return }
        guard h.pacing.mayStart(at: t, unsaved: workspace.boards[i].board != h.synced) else { return }
        submit(i)
    }

    private func submit(_ i: Int) {
        let h = hosts[i]
        guard let worker = h.worker else { return }
        let ours = workspace.boards[i].board
        h.inFlight = (worker.commit(base: h.synced, ours: ours), ours)
        h.nextRetry = nil
        h.pacing.started()
    }

    private func takeReports() {
        for (i, h) in hosts.enumerated() {
            if let worker = h.worker { process(i, worker.takeReports()) }
        }
    }

    private func process(_ i: Int, _ reports: [StorageWorker.Report]) {
        let h = hosts[i]
        for report in reports {
            switch report {
            case .committed(let token, let outcome, let cpu):
                guard let sent = h.inFlight, sent.token == token else { continue }
                h.inFlight = nil
                h.pacing.saved(cost: cpu)
                h.synced = outcome.board
                let wasUnsaved = h.unsaved != nil
                h.unsaved = nil
                workspace.boards[i].absorb(stored: outcome.board, base: sent.ours, by: outcome.incomingWriter)
                if let first = outcome.conflicts.first {
                    let more = outcome.conflicts.count > 1 ? " (and \(outcome.conflicts.count - 1) more)" : ""
                    workspace.boards[i].setStatus(DisplayText.safe(first.message) + more)
                } else if outcome.incomingChanges > 0, now() >= h.ownMoveUntil {
                    // (Within a move's quiet time the change is our own move read back: its words stay.)
                    let n = outcome.incomingChanges
                    let how = outcome.incomingWriter.map { DisplayText.safe($0) } ?? "changed elsewhere"
                    workspace.boards[i].setStatus(n == 1 ? "Saved; 1 card \(how)" : "Saved; \(n) cards \(how)")
                } else if wasUnsaved {
                    workspace.boards[i].setStatus("Saved")
                }
                if outcome.incomingChanges > 0 || !outcome.conflicts.isEmpty { changedElsewhere(i) }
            case .commitFailed(let token, let message, let offline):
                guard let sent = h.inFlight, sent.token == token else { continue }
                h.inFlight = nil
                h.unsaved = message
                h.nextRetry = now() + (offline ? 1 : 2)
                workspace.boards[i].setStatus(
                    offline
                        ? "Offline, reconnecting… your changes are kept and will be saved"
                        : "NOT SAVED: \(DisplayText.safe(message)) — retrying; q asks before quitting")
            case .changed(let board, let writer):
                // Read while our commit is on its way (a PostgreSQL screen reads beside its commits):
                // the commit's board is taken in later against what we sent as it stands on this
                // board, so only what was done after sending counts as ours then (what we sent was
                // no later change, and this board's changes are no longer "ours" against it).
                if let sent = h.inFlight {
                    h.inFlight = (sent.token, BoardMerge.merge(base: h.synced, ours: sent.ours, theirs: board).board)
                }
                // Our own move between boards arriving: the move's words stay.
                let words = now() < h.ownMoveUntil ? workspace.boards[i].status : nil
                workspace.boards[i].absorb(stored: board, base: h.synced, by: writer)
                h.synced = board
                if let words { workspace.boards[i].setStatus(words) }
                changedElsewhere(i)
            case .gone(let message):
                h.gone = message
                workspace.boards[i].setStatus(
                    "NO LONGER SHARED: \(DisplayText.safe(message)) · changes from others are not shown and yours are not saved; q offers to save them as a file"
                )
                changedElsewhere(i)
            case .refreshFailed(let message, let offline):
                workspace.boards[i].setStatus(
                    offline
                        ? "Offline, reconnecting…"
                        : "The board changed elsewhere and cannot be read: \(DisplayText.safe(message)). Not saving over it."
                )
            }
        }
    }

    /// Boards the loader opened: each takes its tab's place, with a worker of its own (woken like the others).
    private func takeOpened() {
        guard let loader else { return }
        for (i, result) in loader.take() {
            let h = hosts[i]
            h.opening = false
            switch result {
            case .success(let b):
                install(b, at: i)
            case .failure(let error):
                workspace.failedToOpen(i, "\(error)")
            }
        }
    }

    /// A board opened beside the loop takes tab `i`'s place, with a storage worker of its own (woken like the others).
    private func install(_ b: HostedBoard, at i: Int) {
        let h = hosts[i]
        var app = b.app
        app.copySuggestion = recovery.suggestedPath(for: b.boardName)
        if let store = b.storage {
            nonisolated(unsafe) let handed = store
            let worker = StorageWorker(storage: handed)
            h.worker = worker
            worker.start()
            if ownsWakeDescriptor, let ep = wakeDescriptor { _ = lanes_wake_epoll_add(ep, worker.reportDescriptor) }
        }
        h.boardName = b.boardName
        h.copyInfo = b.copyInfo
        h.synced = app.board
        h.flowSource = b.flowSource
        h.mover = b.mover
        workspace.loaded(i, app)
    }

    /// The first board read whole: it takes the preview's place with its worker, and the input
    /// held meanwhile is handled on it, in order. A board that could not be read ends the session
    /// (nothing was saved or changed; `loadFailure` says why).
    private func takeRest() -> Ending? {
        guard let rest = restOfFirstBoard, let result = rest.take() else { return nil }
        restOfFirstBoard = nil
        let h = hosts[0]
        h.opening = false
        switch result {
        case .success(let b):
            install(b, at: 0)
            let held = rest.takeHeld()
            guard !held.isEmpty else { return nil }
            for h in hosts { h.pacing.input(at: now()) }
            var ending: Ending?
            for event in decoder.feed(held, now: now()) where ending == nil {
                if afterEditor.ran {
                    afterEditor.discarded += 1
                    continue
                }
                ending = handle(workspace.handle(event, now: now()))
            }
            if afterEditor.ran { sayDiscardedAfterEditor() }
            return ending
        case .failure(let error):
            loadFailure = error
            if rest.holdsInput {
                farewell.append("what you typed while \(rest.name) was read was not applied; the file was not changed")
            }
            return .discard
        }
    }

    /// Marks board `i`'s tab, unless the change is our own move between boards arriving.
    private func changedElsewhere(_ i: Int) {
        if now() < hosts[i].ownMoveUntil { return }
        workspace.changedElsewhere(i)
    }

    // MARK: Moves between boards

    /// Moves cards between two boards through `CrossBoardMove`: both boards are stored first, so
    /// the move reads what the screen shows; the workers take in its writes like another writer's.
    private func perform(_ move: CrossMove) {
        if let running = moving?.move {
            let words = "a move to \(workspace.tabs[running.to].name) is under way (one at a time); nothing was moved"
            workspace.moveFinished(move, result: .failure(CommandError(.badInput, words)))
            return
        }
        for i in [move.from, move.to] where hosts[i].opening || !workspace.tabs[i].isOpen {
            let why = hosts[i].opening ? "is still opening" : "could not be opened"
            workspace.moveFinished(
                move, result: .failure(CommandError(.badInput, "\(workspace.tabs[i].name) \(why); nothing was moved")))
            return
        }
        guard moveJournal != nil, hosts[move.from].mover != nil, hosts[move.to].mover != nil else {
            workspace.moveFinished(
                move, result: .failure(CommandError(.badInput, "moves between these boards are not possible here")))
            return
        }
        for i in [move.from, move.to] {
            if let gone = hosts[i].gone {
                workspace.moveFinished(
                    move,
                    result: .failure(CommandError(.badInput, "\(hosts[i].boardName) is no longer shared: \(gone)")))
                return
            }
        }
        // The cards it takes, as this screen names them, are held in their board's door until they are gone.
        let seen = move.cards.map { (card: $0.card, column: $0.column, row: $0.row) }
        let held = ((try? CrossBoardMove.paths(of: seen, in: workspace.boards[move.from].board)) ?? [])
            .map { workspace.boards[move.from].board[$0].id }
        workspace.boards[move.from].document.inTransit.hold(
            held, of: workspace.boards[move.from].board, toBoard: workspace.tabs[move.to].name)
        moving = MoveInFlight(move: move, held: held, phase: .waitingForSaves(sent: []))
        workspace.moveStarted(move)
        startMoveIfStored()
    }

    /// Starts the waiting move once both its boards are stored as shown (so it reads what the
    /// screen showed), sending their saves meanwhile; a save that fails refuses it in words.
    private func startMoveIfStored() {
        guard let waiting = moving, case .waitingForSaves(let sent) = waiting.phase else { return }
        let move = waiting.move
        for i in [move.from, move.to] {
            let h = hosts[i]
            if let gone = h.gone { return refuseWaitingMove("\(h.boardName) is no longer shared: \(gone)") }
            if h.inFlight != nil { return }
            if h.worker == nil || workspace.boards[i].board == h.synced { continue }
            if sent.contains(i), let why = h.unsaved {
                return refuseWaitingMove("\(h.boardName) is not saved yet (\(why)); nothing was moved")
            }
            submit(i)
            moving?.phase = .waitingForSaves(sent: sent.union([i]))
            return
        }
        guard let journal = moveJournal, let source = hosts[move.from].mover, let target = hosts[move.to].mover else {
            return
        }
        nonisolated(unsafe) let (openSource, openTarget) = (source.open, target.open)
        let (sourceKey, targetKey) = (source.key, target.key)
        mover.start {
            try move.run(
                from: CrossBoardMove.Endpoint(key: sourceKey, storage: try openSource()),
                to: CrossBoardMove.Endpoint(key: targetKey, storage: try openTarget()), journal: journal)
        }
        moving?.phase = .running
        // Its writes may be reported by the workers before its result comes back: ours, not another writer's.
        hosts[move.from].ownMoveUntil = .infinity
        hosts[move.to].ownMoveUntil = .infinity
    }

    private func refuseWaitingMove(_ words: String) {
        guard let waiting = moving else { return }
        moving = nil
        workspace.boards[waiting.move.from].document.inTransit.moveFinished(waiting.held, took: [])
        workspace.moveFinished(waiting.move, result: .failure(CommandError(.badInput, words)))
    }

    /// The move running beside the loop, when it has finished: its holds let go (but for cards it
    /// took, held until their board no longer has them), the words said. True when one finished.
    private func takeMove() -> Bool {
        guard let running = moving, running.phase == .running, let result = mover.take() else { return false }
        let (move, held) = (running.move, running.held)
        moving = nil
        var took = Set(held)
        // Its writes come back to both boards as changes from elsewhere (a read-back, or the next
        // save's merge); until then the move's words stay. Seconds: a loaded machine took over 2.
        let quiet = now() + 5
        if case .success(let outcome) = result {
            for k in outcome.keptOnSourceIndices where held.indices.contains(k) { took.remove(held[k]) }
        } else {
            took = []
        }
        hosts[move.from].ownMoveUntil = quiet
        hosts[move.to].ownMoveUntil = quiet
        workspace.boards[move.from].document.inTransit.moveFinished(held, took: took)
        // The cards it took leave the source on screen now, not when its file is read back: the
        // door's half of the move (no undo step: the store has them out already, and the next
        // save's merge agrees).
        let shown = workspace.boards[move.from].board
        if !took.isEmpty,
            let without = try? shown.applying(.sendCards(Array(took), toBoard: workspace.tabs[move.to].name)).board,
            without != shown
        {
            workspace.boards[move.from].absorb(stored: without, base: shown)
        }
        workspace.moveFinished(move, result: result)
        return true
    }

    /// Ends the pass after `E`'s editor: what was thrown away is said after the edit's own words.
    private func sayDiscardedAfterEditor() {
        let discarded = afterEditor.discarded
        afterEditor = (false, 0)
        guard discarded > 0 else { return }
        let shown = workspace.active
        let words = workspace.boards[shown].status
        workspace.boards[shown].setStatus(
            (words.isEmpty ? "" : words + ". ")
                + "Keys typed while the editor ran were discarded, not taken as commands")
    }

    private func editExternally(_ id: CardID) {
        let shown = workspace.active
        guard let path = app.board.indexPath(for: id) else { return }
        let card = app.board[path]
        if let refusal = app.document.inTransit.refusal(of: .replaceCard(card, seen: nil), on: app.board) {
            workspace.boards[shown].setStatus(DisplayText.safe(refusal.words))
            return
        }
        let storesDoneMark = app.board.capacity.doneMark
        let text = CardText.render(card, storesDoneMark: storesDoneMark)
        let file: EditorFile
        do {
            file = try EditorFile(name: "card.md", contents: Array(text.utf8))
        } catch {
            workspace.boards[shown].setStatus("Cannot edit in $EDITOR: \(error)")
            return
        }
        defer { file.remove() }
        let env = ProcessInfo.processInfo.environment
        let editor = [env["VISUAL"], env["EDITOR"]].compactMap { $0 }.first { !$0.isEmpty } ?? "vi"
        var outcome = ForegroundProgram.Outcome.exited(0)
        if ForegroundProgram.isMissing(editor, path: env["PATH"]) {
            // As the shell would say it (127), without leaving its words on the terminal's screen.
            workspace.boards[shown].setStatus(
                DisplayText.safe(ForegroundProgram.complaint(.exited(127), editor: editor) ?? ""))
            return
        }
        device.suspend {
            // `exec`: the editor takes the shell's place, so no shell stays between that a Ctrl-\ would end.
            outcome = ForegroundProgram.run("exec \(editor) \(shellQuote(file.path))")
        }
        // What was typed while the editor ran was meant for it (or typed blind): never a command here.
        afterEditor = (true, device.discardTypeahead())
        device.invalidate()
        if let complaint = ForegroundProgram.complaint(outcome, editor: editor) {
            workspace.boards[shown].setStatus(DisplayText.safe(complaint))
            return
        }
        guard let data = FileManager.default.contents(atPath: file.path) else {
            workspace.boards[shown].setStatus(
                "The editor left no card file (\(file.path) is gone); the card is as it was")
            return
        }
        guard let edited = String(data: data, encoding: .utf8) else {
            workspace.boards[shown].setStatus("The edited card is not UTF-8 text; the card is as it was")
            return
        }
        // Nothing changed in the editor: nothing to write (not even a card written anew the same).
        if edited == text {
            workspace.boards[shown].setStatus("No change: the card is as it was")
            return
        }
        do {
            let parsed = try CardText.parse(edited, original: card, storesDoneMark: storesDoneMark)
            if parsed == card {
                workspace.boards[shown].setStatus("No change: the card is as it was")
                return
            }
            workspace.boards[shown].finishExternalEdit(id, edited: parsed)
        } catch {
            // The text is what the user typed: kept where the status says, never deleted unread.
            workspace.boards[shown].setStatus(DisplayText.safe(keepUnparsedEdit(edited, error: error)))
        }
    }

    /// Keeps an edited card that does not read as a card in the recovery folder; the words that say so.
    private func keepUnparsedEdit(_ text: String, error: any Error) -> String {
        let first = recovery.suggestedPath(for: "card-edit")
        var path = first
        var n = 1
        while FileManager.default.fileExists(atPath: path) {  // never over an earlier one
            n += 1
            path = String(first.dropLast(3)) + "-\(n).md"
        }
        do {
            try recovery.prepareFolder(for: path)
            try SafeFile.writeAtomically(Array(text.utf8), to: path, expecting: nil)
            return "Edit not applied: \(error). Your text is kept in \(path); the card is as it was"
        } catch let keeping {
            return "Edit not applied: \(error); your text could not be kept either (\(keeping)); the card is as it was"
        }
    }
}

/// A move between boards the runner was asked for: the cards it holds on its source board (as
/// the app names them), and whether it still waits for the boards' saves or runs on the mover.
private struct MoveInFlight {
    enum Phase: Equatable {
        /// Both boards' saves go out first, without holding the screen; `sent`: the boards whose
        /// save it sent (a failure of one of them refuses the move).
        case waitingForSaves(sent: Set<Int>)
        case running
    }

    let move: CrossMove
    let held: [CardID]
    var phase: Phase

    /// Whether it is writing board `i` now (that board's saves wait for it).
    func writes(board i: Int) -> Bool { phase == .running && (move.from == i || move.to == i) }
}

func shellQuote(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'" }
