import DragKit
import Synchronization

/// A board kept in memory as a `BoardStore`: any number of handles share one board, and every
/// commit merges with what the other handles committed since its base, as the file store does.
///
/// For tests of what sits on top of a store (the app, undo, the contract every store passes):
/// no file, no server, the same answers.
public final class MemoryBoardStore: BoardStore {
    /// The board all handles share, with a version that moves on every commit.
    public final class Shared: Sendable {
        let state: Mutex<(board: Board, version: Int)>
        public init(_ board: Board) { state = Mutex((board, 0)) }
        public var board: Board { state.withLock { $0.board } }
    }

    public let shared: Shared
    private var seenVersion = -1
    public var displayName: String { "memory" }
    public var changeDescriptor: Int32? { nil }

    public init(_ shared: Shared) { self.shared = shared }

    public func load() throws -> Board {
        let (board, version) = shared.state.withLock { ($0.board, $0.version) }
        seenVersion = version
        return board
    }

    public func commit(base: Board, ours: Board) throws -> CommitOutcome {
        shared.state.withLock { state in
            var outcome = CommitOutcome(board: ours)
            if base == ours {
                outcome.board = state.board
            } else if base != state.board {
                let merged = BoardMerge.merge(base: base, ours: ours, theirs: state.board)
                outcome = CommitOutcome(
                    board: merged.board, conflicts: merged.conflicts, incomingChanges: merged.incomingChanges)
            }
            if outcome.board != state.board || base != ours {
                state.board = outcome.board
                state.version += 1
            }
            seenVersion = state.version
            return outcome
        }
    }

    public func refresh() throws -> Board? {
        shared.state.withLock { state in
            guard state.version != seenVersion else { return nil }
            seenVersion = state.version
            return state.board
        }
    }
}
