import Foundation
import LanesCore
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// Runs a move between boards on a thread of its own, one at a time, so the screen keeps drawing
/// and answering while two stores are written (a PostgreSQL board behind a lock can take seconds).
/// The result comes back through `take()` when `descriptor` turns readable (the runner's epoll set).
public final class MoveThread: Sendable {
    public typealias Outcome = Result<CrossBoardMove.Outcome, any Error>

    /// What a move needs, carried to its thread: the stores are opened there and used by no one else.
    final class Work: @unchecked Sendable {
        let run: () throws -> CrossBoardMove.Outcome
        init(_ run: @escaping () throws -> CrossBoardMove.Outcome) { self.run = run }
    }

    private let state = Mutex<(running: Bool, result: Outcome?)>((false, nil))
    private let pipe = WakePipe()

    /// Readable when a finished move's result waits in `take()`.
    public var descriptor: Int32 { pipe.descriptor }

    public init() {}

    /// A move is running (or its result has not been taken yet).
    public var isBusy: Bool { state.withLock { $0.running || $0.result != nil } }

    /// Starts `run` on a new thread; false (nothing started) while another move is running.
    @discardableResult
    func start(_ run: @escaping () throws -> CrossBoardMove.Outcome) -> Bool {
        let free = state.withLock { s in
            guard !s.running && s.result == nil else { return false }
            s.running = true
            return true
        }
        guard free else { return false }
        let work = Work(run)
        let thread = Thread { [self] in
            let result = Outcome { try work.run() }
            state.withLock { $0 = (false, result) }
            pipe.wake()
        }
        thread.name = "lanes-move"
        thread.start()
        return true
    }

    /// The finished move's result, once; nil while it runs or when there is none.
    public func take() -> Outcome? {
        pipe.drain()
        return state.withLock { s in
            defer { if !s.running { s.result = nil } }; return s.running ? nil : s.result
        }
    }
}
