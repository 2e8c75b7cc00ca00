import DragKit
import LanesCore
import LanesTerminal

/// Long text in the line editor (issue #17): what one key costs in a prompt holding N characters,
/// opening `e` on a card whose title is N characters, and a paste of N characters into `/`.
/// Each key is measured with the frame it causes, as the runner draws one after every read.
func benchLongText(lengths: [Int], keys: Int = 30) -> [String: Double] {
    var results: [String: Double] = [:]
    let size = Size(width: 120, height: 40)
    for n in lengths {
        let title = String(repeating: "long text ", count: n / 10)
        let board = Board(columns: [
            Column(title: "To do", cards: [Card(id: CardID(1), title: title), Card(id: CardID(2), title: "short")])
        ])
        var buffer = CellBuffer(width: size.width, height: size.height)
        var now = 1.0
        var (app, initMs) = timed { () -> BoardApp in
            var a = BoardApp(board: board, title: "Lanes", status: "", keymap: Keymap())
            a.resize(size)
            return a
        }
        app.render(into: &buffer, now: now)
        let (_, openMs) = timed {
            now += 0.01
            _ = app.handle(.key(.char("e"), []), now: now)
            app.render(into: &buffer, now: now)
        }
        var perKey: [Double] = []
        for k in 0..<keys {
            // Typing (refused past the editor's limit), deleting and moving: each changes or redraws the prompt.
            let key: Key = [.char("x"), .backspace, .left][k % 3]
            let (_, t) = timed {
                now += 0.01
                _ = app.handle(.key(key, []), now: now)
                app.render(into: &buffer, now: now)
            }
            perKey.append(t * 1000)
        }
        _ = app.handle(.key(.escape, []), now: now + 0.01)

        // A paste of n characters into the filter prompt (refused whole above the editor's limit).
        var filterApp = BoardApp(
            board: Board(columns: [Column(title: "To do", cards: [Card(id: CardID(1), title: "a")])]),
            title: "Lanes", status: "", keymap: Keymap())
        filterApp.resize(size)
        _ = filterApp.handle(.key(.char("/"), []), now: now)
        let pasted = String(repeating: "p", count: n)
        let (_, pasteMs) = timed {
            _ = filterApp.handle(.paste(pasted), now: now + 0.02)
            filterApp.render(into: &buffer, now: now + 0.02)
        }
        results["longtext_\(n)_init_ms"] = initMs
        results["longtext_\(n)_open_e_ms"] = openMs
        results["longtext_\(n)_key_p50_us"] = perKey.median
        results["longtext_\(n)_key_p99_us"] = perKey.percentile(99)
        results["longtext_\(n)_paste_ms"] = pasteMs
        say(
            "  \(n) characters: app with the card \(fmt(initMs)) ms; e opens \(fmt(openMs)) ms; a key + frame p50 \(fmt(perKey.median)) µs, p99 \(fmt(perKey.percentile(99))) µs; paste into / \(fmt(pasteMs)) ms\(n > LineEditor.maxCharacters ? " (refused: over \(LineEditor.maxCharacters))" : "")"
        )
    }
    return results
}
