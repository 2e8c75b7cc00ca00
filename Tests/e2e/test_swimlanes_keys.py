"""K/J and paging in swimlanes, in a real terminal (#26): real key sequences through tmux, the
screen waited for, then the Markdown file read back: every card exactly once, the tags as they
must be.

Both boards have lanes frontend, backend (`.board.md.lanes`); cards are drawn three rows each
(border, title, border) under their lane's header row.
"""

from __future__ import annotations

import re

from lanes_harness import board_md, cards_of, every_once

LANES = 'swimlanes "frontend" "backend"\n'

# To do: A (frontend), B (backend) and N (no lane) interleaved in the column.
MIXED = [("To do", ["A1 #frontend", "B1 #backend", "A2 #frontend", "N1", "B2 #backend", "A3 #frontend"]), ("Done", [])]


def start(lanes, tmp_path, board, wait_for, width=80, height=40):
    folder = tmp_path / "w"
    folder.mkdir(exist_ok=True)
    (folder / ".board.md.lanes").write_text(LANES)
    return lanes(board_md(board), wait_for=wait_for, width=width, height=height, workdir=folder)


def wait_board(app, board, what=""):
    """The file is exactly `board`, and holds each of its cards once."""
    app.wait_file(board_md(board), what=what)
    text = app.read_file().decode()
    titles = [t for _, cards in board for t in cards]
    assert every_once(text, titles) == [], text


def row_of(lines, text):
    """The one row of the board (the status line left out) showing `text`."""
    rows = [y for y, l in enumerate(lines[:-1]) if text in l]
    assert len(rows) == 1, (text, rows, "\n".join(lines))
    return rows[0]


def test_K_and_J_move_a_card_among_its_own_lanes_cards_and_undo_restores_the_file(lanes, tmp_path):
    app = start(lanes, tmp_path, MIXED, "#frontend  3 cards")
    # The selection starts on A1 (first card of lane frontend). J: after A2, the next card of its
    # lane in the column, not after B1, the next card of the column.
    app.send_keys("J")
    app.wait_status("Moved “A1 #frontend” to position 2 of lane #frontend in To do")
    wait_board(app, [("To do", ["B1 #backend", "A2 #frontend", "A1 #frontend", "N1", "B2 #backend", "A3 #frontend"]),
                     ("Done", [])], what="A1 after A2")
    app.send_keys("J")
    app.wait_status("Moved “A1 #frontend” to position 3 of lane #frontend in To do")
    wait_board(app, [("To do", ["B1 #backend", "A2 #frontend", "N1", "B2 #backend", "A3 #frontend", "A1 #frontend"]),
                     ("Done", [])], what="A1 after A3, past N1 and B2 of the other lanes")
    app.send_keys("J")
    app.wait_status("Already the last card of lane #frontend here")
    app.send_keys("K")
    app.wait_status("Moved “A1 #frontend” to position 2 of lane #frontend in To do")
    after_k = [("To do", ["B1 #backend", "A2 #frontend", "N1", "B2 #backend", "A1 #frontend", "A3 #frontend"]), ("Done", [])]
    wait_board(app, after_k, what="A1 back before A3")
    # On screen: lane frontend shows A2, A1, A3 in that order, between its header and backend's.
    lines = app.wait_for(lambda l: "#backend  2 cards" in "".join(l), what="the lanes")
    front, back = row_of(lines, "#frontend  3 cards"), row_of(lines, "#backend  2 cards")
    a2, a1, a3 = (row_of(lines, t) for t in ("A2 #frontend", "A1 #frontend", "A3 #frontend"))
    assert front < a2 < a1 < a3 < back, "\n".join(lines)
    # Down the lanes as drawn: A3, then B1 (first of lane backend). K has nowhere to go in its lane.
    app.send_keys("j", "j")
    app.send_keys("K")
    app.wait_status("Already the first card of lane #backend here")
    app.send_keys("J")
    app.wait_status("Moved “B1 #backend” to position 2 of lane #backend in To do")
    wait_board(app, [("To do", ["A2 #frontend", "N1", "B2 #backend", "B1 #backend", "A1 #frontend", "A3 #frontend"]),
                     ("Done", [])], what="B1 after B2, the tags untouched")
    # Four moves, four undos: the file as it was.
    for k in range(4):
        app.send_keys("u")
    wait_board(app, MIXED, what="four undos restore the board")
    # The help lists both keys with what they do in lanes.
    app.send_keys("?")
    app.wait_for(lambda l: "Keys ·" in l[1], what="the help")
    text = ""
    for _ in range(20):
        lines = app.capture()
        text += " " + re.sub(r"\s+", " ", " ".join(r[2:78].replace("│", " ") for r in lines[2:38]))
        if "· end" in lines[38] or "K move-up" in text and "J move-down" in text:
            break
        app.send_keys("PageDown")
        app.wait_for(lambda l, before=lines[2:38]: l[2:38] != before, what="the help to scroll")
    assert "K move-up move the card up one place (in swimlanes: among its lane's cards)" in text, text
    assert "J move-down move the card down one place (in swimlanes: among its lane's cards)" in text, text
    app.send_keys("Escape")
    app.wait_for(lambda l: "Keys ·" not in l[1], what="the help closed")
    assert app.quit() == 0


def front(c, n):
    return [f"f{c}-{k} #frontend" for k in range(n)]


def back(c, n):
    return [f"b{c}-{k} #backend" for k in range(n)]


# Six columns, three a page at 80×24. C0: 8 frontend then 8 backend cards; C3: 6 frontend then 8 backend.
WIDE = [("C0", front(0, 8) + back(0, 8)), ("C1", front(1, 1)), ("C2", back(2, 1)),
        ("C3", front(3, 6) + back(3, 8)), ("C4", back(4, 2)), ("C5", [])]


def test_paging_keeps_the_lane_in_view_and_the_lane_keys_act_on_the_new_pages_card(lanes, tmp_path):
    app = start(lanes, tmp_path, WIDE, "#frontend  15 cards", width=80, height=24)
    assert "page 1/2" in app.capture()[0]
    # Down the lanes to b0-7, deep in lane backend: the lanes scroll so it is on screen.
    app.send_keys(*["j"] * 15)
    app.wait_for(lambda l: any("b0-7 #backend" in r for r in l[3:22]), what="b0-7 scrolled into view")
    # ]: page 2 (C3, C4, C5). Lane backend stays where the eye was, its first card there (b3-0) selected.
    app.send_keys("]")
    app.wait_status("Page 2 of 2")
    lines = app.wait_for(lambda l: l[4].startswith("│ b3-0 #backend"), what="b3-0 at the top of the lanes")
    assert "C3" in lines[1] and "C0" not in lines[1], "\n".join(lines)
    # The lane keys act on that card: { takes it up to lane frontend (after f3-5), the tag rewritten.
    app.send_keys("{")
    app.wait_status("Moved “b3-0 #backend” to lane #frontend")
    paged = [("C0", front(0, 8) + back(0, 8)), ("C1", front(1, 1)), ("C2", back(2, 1)),
             ("C3", front(3, 6) + ["b3-0 #frontend"] + back(3, 8)[1:]), ("C4", back(4, 2)), ("C5", [])]
    wait_board(app, paged, what="b3-0 retagged #frontend, at the end of lane frontend in C3")
    text = app.read_file().decode()
    assert [t for t in cards_of(text) if t.startswith("b3-0")] == ["b3-0 #frontend"], text
    # [: back to page 1, lane frontend (now the selection's lane) at the top, its first card (f0-0) selected.
    app.send_keys("[")
    app.wait_status("Page 1 of 2")
    app.wait_for(lambda l: any(r.startswith("│ f0-0 #frontend") for r in l[3:8]), what="f0-0 near the top of the lanes")
    # J moves that card among lane frontend's cards in C0: after f0-1.
    app.send_keys("J")
    app.wait_status("Moved “f0-0 #frontend” to position 2 of lane #frontend in C0")
    final = [("C0", ["f0-1 #frontend", "f0-0 #frontend"] + front(0, 8)[2:] + back(0, 8))] + paged[1:]
    wait_board(app, final, what="f0-0 after f0-1 in C0")
    # A lifted card: ] is refused in words (the lift stays), and the card carried right along lane
    # backend flips to page 2 when it reaches C3, where it drops in the same lane.
    app.send_keys(*["j"] * 7)  # b0-0: past f0-2 … f0-7 and into lane backend
    app.send_keys("Space")
    app.wait_status("Picked up “b0-0 #backend” from C0 · #backend, position 1")
    app.send_keys("]")
    app.wait_status("Drop the card first (space or enter), or esc to cancel")
    assert "page 1/2" in app.capture()[0]
    app.send_keys("Right", "Right", "Right")
    # The page and the status may reach the screen in two frames: wait for both.
    app.wait_for(lambda l: "page 2/2" in l[0] and "C3" in l[1] and "Over C3 · #backend, position 1 of 8" in app.status(l),
                 what="page 2 with the lifted card over C3 · #backend, position 1 of 8")
    app.send_keys("Enter")
    app.wait_status("Dropped “b0-0 #backend” in C3 · #backend at position 1")
    dropped = [("C0", final[0][1][:8] + back(0, 8)[1:])] + final[1:3] + [
        ("C3", front(3, 6) + ["b3-0 #frontend", "b0-0 #backend"] + back(3, 8)[1:])] + final[4:]
    wait_board(app, dropped, what="b0-0 in C3, first of lane backend, its tag kept")
    app.wait_for(lambda l: l[1].startswith("C3 15"), what="C3 counts 15 cards")
    assert app.quit() == 0
