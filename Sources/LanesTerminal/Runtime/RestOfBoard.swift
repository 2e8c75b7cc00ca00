import Foundation
import LanesCore
import Synchronization
#if canImport(Glibc)
    import Glibc
#endif

/// The rest of the first board's read: the board was shown from its first cards (`BoardPreview`),
/// and `finish` parses the whole file on a thread of its own after the first frame.
///
/// Until the whole board is in, the runner holds every byte of input here, unread, with nothing
/// saved (the board has no storage yet); then it decodes and handles them on the whole board, in
/// order, as if typed after it. A key acts on the board it was meant for, and nothing typed is lost.
public final class RestOfBoard: Sendable {
    /// The whole board, ready for the runner (as `Open` builds one): its app, store and names.
    /// Taken when run, so nothing it holds (the file's bytes) outlives the read.
    private let finish: Mutex<(@Sendable () throws -> HostedBoard)?>
    /// What to call the board in the words said while it is read.
    let name: String
    private let result = Mutex<Result<BoardLoader.Handover, any Error>?>(nil)
    private let started = Mutex<Bool>(false)
    private let pipe = WakePipe()
    /// Input that arrived while the board was read, in order.
    private let held = Mutex<[UInt8]>([])

    /// Readable once the whole board (or its error) waits in `take()`.
    public var descriptor: Int32 { pipe.descriptor }

    public init(name: String, finish: @escaping @Sendable () throws -> HostedBoard) {
        self.name = name
        self.finish = Mutex(finish)
    }

    /// Starts the whole read (once).
    public func start() {
        let first = started.withLock { s in
            defer { s = true }; return !s
        }
        guard first else { return }
        let thread = Thread { [self] in
            guard
                let job = finish.withLock({ f in
                    defer { f = nil }; return f
                })
            else { return }
            let r = Result { BoardLoader.Handover(try job()) }
            result.withLock { $0 = r }
            pipe.wake()
        }
        thread.name = "lanes-read"
        thread.start()
    }

    /// The whole board, or why it could not be read; nil while it is still being read.
    public func take() -> Result<HostedBoard, any Error>? {
        pipe.drain()
        return result.withLock { r in
            defer { r = nil }; return r
        }?.map(\.board)
    }

    /// Keeps input until the whole board is in.
    func hold(_ bytes: [UInt8]) { held.withLock { $0 += bytes } }

    /// The input held so far, handed over once.
    func takeHeld() -> [UInt8] {
        held.withLock { h in
            defer { h = [] }; return h
        }
    }

    /// Whether any input is held.
    var holdsInput: Bool { held.withLock { !$0.isEmpty } }

    /// What the status line says while the board is read and a key was pressed.
    var heldWords: String {
        "Still reading \(name): what you type is kept and acts once the whole board is in (nothing is saved until then)"
    }

    /// What the status line says while the rest is read, before any key.
    public static func readingWords(name: String, cards: Int) -> String {
        "Reading all \(cards) cards of \(name)…"
    }
}
