import Foundation
import LanesCore
import LanesTerminal

/// One board file opened on its own: a big one is drawn from its first cards while the rest is read (#24).
extension Open {
    /// Files at least this big are shown from a preview first (a smaller one is parsed whole in
    /// about a frame's time: 2 MB is some 50,000 one-line cards, at the 1M board's rate 15 ms).
    static let previewFromBytes = 2 << 20
    /// Cards read per column for the first screen: more than any terminal shows at once.
    static let previewCards = 400

    /// Runs the app on `file`, already read: from a `BoardPreview` when the file is big and its
    /// shape allows one, the whole board following; else parsed whole first, as any board.
    static func run(_ file: String, reading: FileBoardStore.Reading, keymap: Keymap, compact: Bool) throws {
        let name = URL(fileURLWithPath: file).lastPathComponent
        let spec = file
        guard reading.size >= previewFromBytes, reading.acceptRules.swimlanes == nil,
            let preview = reading.preview(firstCards: previewCards)
        else {
            let opened = try Open.file(file, reading: reading)
            try runBoards([Open.hosted(opened, spec: spec, tabName: name, keymap: keymap, compact: compact)])
            return
        }
        var app = BoardApp(
            board: preview.board, title: "Lanes · \(name)", size: terminalWindowSize(),
            status: RestOfBoard.readingWords(name: name, cards: preview.totalCards), keymap: keymap)
        app.configure(compact: compact)
        app.fileCardCounts = preview.cardCounts
        let shown = HostedBoard(
            app: app, tabName: name, storage: nil, boardName: URL(fileURLWithPath: file).standardizedFileURL.path,
            copyInfo: BoardFileInfo(dialect: preview.dialect))
        let rest = RestOfBoard(name: name) {
            Open.hosted(
                try Open.file(spec, reading: reading), spec: spec, tabName: name, keymap: keymap, compact: compact)
        }
        try runBoards([shown], rest: rest)
    }

    /// The runner on these boards, its terminal's errors and its ending said as `run` says them.
    private static func runBoards(_ boards: [HostedBoard], rest: RestOfBoard? = nil) throws {
        let runner = AppRunner(boards: boards, device: CursesTerminal())
        runner.moveJournal = MoveJournal.standard()
        runner.restOfFirstBoard = rest
        do {
            try runner.run()
        } catch let error as CursesTerminalError {
            throw CommandError(.badInput, "\(error)")
        }
        // Read whole, the file turned out malformed: said as opening it would have said it.
        if let failure = runner.loadFailure { throw failure }
        if let signal = runner.unsavedAtSignal { Foundation.exit(128 + signal) }
    }
}
