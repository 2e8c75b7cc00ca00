import DragKit
import Foundation
@testable import LanesCore
import Testing

/// The file store's commit: merges with what others wrote, writes only the lines of what changed.
@Suite struct StoreCommitTests {
    let text = "## To do\n\n\n- a0\n- a1\n\n## Doing\n\n- b0\n\n\n## Done\n\n- c0\n"

    func store(_ dir: ScratchFolder) throws -> (FileBoardStore, Board, String) {
        let path = dir.file("b.md")
        writeBehindTheBack(Array(text.utf8), to: path)
        let (store, board, _) = try FileBoardStore.open(path, starter: nil)
        return (store, board, path)
    }

    @Test func aRenameChangesOnlyTheHeadingAndKeepsTheColumnsOddSpacing() throws {
        let dir = ScratchFolder(); defer { dir.remove() }
        let (store, board, path) = try store(dir)
        var ours = board
        ours.columns[0].title = "Backlog"
        _ = try store.commit(base: board, ours: ours)
        #expect(
            String(decoding: contents(of: path)!, as: UTF8.self)
                == text.replacingOccurrences(of: "## To do", with: "## Backlog"))
    }

    @Test func anOutsideAddAndOurMoveAreBothWrittenAndUntouchedLinesStay() throws {
        let dir = ScratchFolder(); defer { dir.remove() }
        let (store, board, path) = try store(dir)
        writeBehindTheBack(Array(text.replacingOccurrences(of: "- c0\n", with: "- c0\n- c1\n").utf8), to: path)
        var ours = board
        let a0 = ours.columns[0].cards.removeFirst()
        ours.columns[1].cards.append(a0)
        let outcome = try store.commit(base: board, ours: ours)
        #expect(outcome.conflicts.isEmpty && outcome.incomingChanges == 1)
        #expect(
            String(decoding: contents(of: path)!, as: UTF8.self)
                == "## To do\n\n\n- a1\n\n## Doing\n\n- b0\n- a0\n\n\n## Done\n\n- c0\n- c1\n")
        #expect(outcome.board.columns[1].cards.last?.id == a0.id, "our card keeps its identity")
        #expect(try store.refresh() == nil, "nothing new after our own write")
    }
}
