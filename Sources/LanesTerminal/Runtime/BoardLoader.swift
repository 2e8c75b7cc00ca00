import Foundation
import LanesCore
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The boards of a workspace that open after the first frame: one after another, in tab order,
/// on a thread of their own, each handed back through `take()` when its descriptor turns readable.
///
/// The first board opens as it would alone; the others read their files (or connect) while the
/// person already works on it. A board that cannot be opened comes back as its error, said on its tab.
public final class BoardLoader: Sendable {
    /// A board to open later: its tab's name and how to open it (on the loader's thread).
    public struct Later: Sendable {
        public var tabName: String
        public var open: @Sendable () throws -> HostedBoard

        public init(tabName: String, open: @escaping @Sendable () throws -> HostedBoard) {
            self.tabName = tabName
            self.open = open
        }
    }

    /// An opened board travelling from the loader's thread to the loop's: the loader never touches it again.
    final class Handover: @unchecked Sendable {
        let board: HostedBoard
        init(_ board: HostedBoard) { self.board = board }
    }

    /// The boards to open, each with the index of its tab.
    let jobs: [(index: Int, later: Later)]
    private let results = Mutex<[(index: Int, result: Result<Handover, any Error>)]>([])
    private let pending = Mutex<Int>(0)
    private let started = Mutex<Bool>(false)
    private let pipe = WakePipe()

    /// Readable when an opened board (or its error) waits in `take()`.
    public var descriptor: Int32 { pipe.descriptor }

    /// `later[k]` is the board of tab `first + k`.
    public init(_ later: [Later], firstIndex first: Int) {
        jobs = later.enumerated().map { (first + $0.offset, $0.element) }
        pending.withLock { $0 = later.count }
    }

    /// Starts opening (once).
    public func start() {
        let first = started.withLock { s in
            defer { s = true }; return !s
        }
        guard first, !jobs.isEmpty else { return }
        let thread = Thread { [self] in
            for job in jobs {
                let result = Result { Handover(try job.later.open()) }
                results.withLock { $0.append((job.index, result)) }
                pipe.wake()
            }
        }
        thread.name = "lanes-open"
        thread.start()
    }

    /// The boards opened since the last call (tab index and the board, or why it did not open).
    public func take() -> [(index: Int, result: Result<HostedBoard, any Error>)] {
        pipe.drain()
        let taken = results.withLock { r in
            defer { r = [] }; return r
        }
        pending.withLock { $0 -= taken.count }
        return taken.map { ($0.index, $0.result.map(\.board)) }
    }

    /// Every board has been handed over by `take()`.
    public var isDone: Bool { pending.withLock { $0 == 0 } }
}
