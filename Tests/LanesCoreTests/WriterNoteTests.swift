import DragKit
import Foundation
@testable import LanesCore
import Testing

/// The note beside a board file that names its writer for a screen with the board open.
@Suite struct WriterNoteTests {
    let text = "## To do\n\n- a0\n- a1\n\n## Done\n\n- c0\n"

    func open(_ path: String) throws -> (FileBoardStore, Board) {
        let (store, board, _) = try FileBoardStore.open(path, starter: nil)
        store.quietPeriod = 0
        return (store, board)
    }

    @Test func aScreensRefreshNamesTheAgentWhoseSaveItReadsAndNobodyAfterAnotherWriter() throws {
        let dir = ScratchFolder(); defer { dir.remove() }
        let path = dir.file("b.md")
        writeBehindTheBack(Array(text.utf8), to: path)
        let (agent, agentBoard) = try open(path)
        let (screen, _) = try open(path)
        let (cli, cliBoard) = try open(path)

        agent.writerNote = WriterNote(verb: "moved", writer: "agent claude-code")
        var ours = agentBoard
        ours.columns[1].cards.append(ours.columns[0].cards.removeFirst())
        _ = try agent.commit(base: agentBoard, ours: ours)
        #expect(try screen.refresh() != nil)
        #expect(screen.lastChangeWriter == "moved by agent claude-code")
        let noteText = String(decoding: contents(of: dir.file(".b.md.lanes-writer"))!, as: UTF8.self)
        #expect(noteText.hasPrefix("lanes writer note 1\n") && noteText.hasSuffix("\nmoved\nagent claude-code\n"))
        #expect(!String(decoding: contents(of: path)!, as: UTF8.self).contains("claude"))

        // The CLI writes after the agent: its save leaves no note, the agent's names another state.
        var theirs = cliBoard
        theirs.columns[0].cards.removeAll()
        let outcome = try cli.commit(base: cliBoard, ours: theirs)
        #expect(outcome.incomingChanges > 0 && outcome.incomingWriter == "moved by agent claude-code")
        #expect(try screen.refresh() != nil)
        #expect(screen.lastChangeWriter == nil)

        // The agent saves again and the screen saves its own change over it: the commit says who came in.
        var more = agent.known
        more.columns[0].cards.append(more.columns[1].cards.removeFirst())
        agent.writerNote = WriterNote(verb: "moved", writer: "agent claude-code")
        _ = try agent.commit(base: agent.known, ours: more)
        var mine = screen.known
        mine.columns[1].title = "Finished"
        let saved = try screen.commit(base: screen.known, ours: mine)
        #expect(saved.incomingWriter == "moved by agent claude-code")
        #expect(screen.lastChangeWriter == "moved by agent claude-code")
        // The screen's own save left the file in a state the note does not name.
        #expect(try agent.refresh() != nil)
        #expect(agent.lastChangeWriter == nil)
    }

    @Test func aNoteThatIsMalformedOversizedALinkOrForAnotherStateNamesNobody() throws {
        let dir = ScratchFolder(); defer { dir.remove() }
        let path = dir.file("b.md")
        writeBehindTheBack(Array(text.utf8), to: path)
        let fp = try #require(try SafeFile.fingerprint(path))
        let note = WriterNote(verb: "moved", writer: "agent x")
        note.put(beside: path, for: fp)
        #expect(WriterNote.find(beside: path, for: fp) == note)
        let other = try SafeFile.writeAtomically(Array((text + "- a2\n").utf8), to: path, expecting: fp)
        #expect(WriterNote.find(beside: path, for: other) == nil)  // stale: another state

        let notePath = dir.file(".b.md.lanes-writer")
        let good = note.bytes(for: other)
        for bad in [
            Array("lanes writer note 2".utf8) + good.drop(while: { $0 != 0x0A }),  // unknown header
            Array(String(decoding: good, as: UTF8.self).replacingOccurrences(of: "moved", with: "pwned").utf8),
            good + Array(repeating: 0x20, count: 1100),  // over 1 KiB
            Array(good.dropLast(3)),
        ] {
            writeBehindTheBack(bad, to: notePath)
            #expect(WriterNote.find(beside: path, for: other) == nil)
        }
        unlink(notePath)
        writeBehindTheBack(good, to: dir.file("elsewhere"))
        symlink(dir.file("elsewhere"), notePath)
        #expect(WriterNote.find(beside: path, for: other) == nil)  // a link is not followed
    }

    @Test func theNameIsOneShortLineAndTheVerbOneOfFive() {
        let n = WriterNote(
            verb: "exploded", writer: "  agent \u{1B}[31mred\nline\u{9B}x " + String(repeating: "y", count: 100))
        #expect(n.verb == "changed")
        #expect(!n.writer.contains("\u{1B}") && !n.writer.contains("\n") && !n.writer.contains("\u{9B}"))
        #expect(n.writer.count == 64 && n.writer.hasPrefix("agent [31mredlinex"))
        #expect(n.words.hasPrefix("changed by agent "))
    }
}
