import DragKit
import Foundation
import LanesCore
#if canImport(Glibc)
    import Glibc
#endif

/// One board as the runner hosts it, for `AppRunner.init(boards:…)`: the app, its storage, and
/// how a move between boards reaches it.
public struct HostedBoard {
    public var app: BoardApp
    /// The name on the board's tab.
    public var tabName: String
    public var storage: (any BoardStore)?
    /// The board's name in messages and in the recovery index.
    public var boardName: String
    public var copyInfo: BoardFileInfo
    public var flowSource: (@Sendable () throws -> (FlowHistory, FlowColumns))?
    /// The board's key in move records and a way to open a second store on it (the move runs
    /// on the loop's thread, beside the worker's own store); nil: no moves to or from it.
    public var mover: (key: String, open: () throws -> any BoardStore)?

    public init(
        app: BoardApp, tabName: String, storage: (any BoardStore)?, boardName: String, copyInfo: BoardFileInfo,
        flowSource: (@Sendable () throws -> (FlowHistory, FlowColumns))? = nil,
        mover: (key: String, open: () throws -> any BoardStore)? = nil
    ) {
        self.app = app
        self.tabName = tabName
        self.storage = storage
        self.boardName = boardName
        self.copyInfo = copyInfo
        self.flowSource = flowSource
        self.mover = mover
    }
}

/// What the runner keeps for one board: its storage worker, the board as last stored, the save under way.
///
/// A board still opening in the background has a host without a worker (`opening`) until the
/// `BoardLoader` hands it over; the host then takes the board's worker, names and mover.
final class BoardHost {
    var worker: StorageWorker?
    /// The board's name in messages and in the recovery index.
    var boardName: String
    /// How a recovery copy or a saved copy is written (the board's dialect and layout at start).
    var copyInfo: BoardFileInfo
    /// The board is still opening (nothing to save, no moves); its tab says so.
    var opening = false
    /// The board as last stored: the base of the next commit.
    var synced: Board
    /// The commit under way: its token and the board it sent, with what was stored since merged in
    /// (the base its answer is absorbed from, DECISIONS 41.11).
    var inFlight: (token: Int, ours: Board)?
    /// Why the last save failed; nil once stored.
    var unsaved: String?
    /// Set when the storage said the board can no longer be read or stored here (`BoardGone`).
    var gone: String?
    var nextRetry: Double?
    var pacing = SavePacing()
    /// The user chose to leave this board's last changes unstored (or saved them as a copy).
    var discarded = false
    /// Until when a change report is taken for our own move between boards, not another writer's.
    var ownMoveUntil = 0.0
    var flowSource: (@Sendable () throws -> (FlowHistory, FlowColumns))?
    var mover: (key: String, open: () throws -> any BoardStore)?

    init(
        worker: StorageWorker?, boardName: String, copyInfo: BoardFileInfo, synced: Board,
        flowSource: (@Sendable () throws -> (FlowHistory, FlowColumns))?,
        mover: (key: String, open: () throws -> any BoardStore)?
    ) {
        self.worker = worker
        self.boardName = boardName
        self.copyInfo = copyInfo
        self.synced = synced
        self.flowSource = flowSource
        self.mover = mover
    }
}
