"""Swimlanes in a real terminal (#26): lanes drawn, real mouse drags across lanes and lane × column,
the lane keys, and other writers (the lanes CLI on a file and on PostgreSQL, read back with psql) while the app is open.

The board at 80×24 with lanes frontend, backend (rows as the app draws them):
    row 1  column headers "To do 3", "Doing 1", "Done 0" (x 0, 27, 54; 26 wide)
    row 3  ▾ #frontend  2 cards      rows 4-6 "Fix login #frontend", rows 4-7 "Ship #backend #frontend"
    row 8  ▾ #backend  1 card        rows 9-11 "API #backend"
    row 12 ▾ No lane  1 card         rows 13-15 "Write docs"
"""

from __future__ import annotations

import subprocess
import time

import pytest

from lanes_harness import board_md, line_between
from pg_helpers import board_url as pg_url, psql
from test_swimlanes_cli import lanes as run_lanes

BOARD = [("To do", ["Fix login #frontend", "Write docs", "API #backend"]), ("Doing", ["Ship #backend #frontend"]),
         ("Done", [])]
LANES = 'swimlanes "frontend" "backend"\n'


def start(lanes, tmp_path, term="xterm-256color", board=BOARD):
    folder = tmp_path / "w"
    folder.mkdir(exist_ok=True)
    (folder / ".board.md.lanes").write_text(LANES)
    app = lanes(board_md(board), wait_for="#frontend  2 cards", term=term, width=80, height=24, workdir=folder)
    return app, folder


def drag(app, path, enc):
    app.mouse("press", *path[0], enc=enc)
    time.sleep(0.02)
    for a, b in zip(path, path[1:]):
        for p in line_between(a, b, 3):
            app.mouse("drag", *p, enc=enc)
            time.sleep(0.02)


@pytest.mark.parametrize("term,enc", [("xterm-256color", "sgr"), ("tmux-256color", "x10")])
def test_mouse_drag_across_lane_and_column_retags_the_card_in_the_file(lanes, tmp_path, term, enc):
    app, _ = start(lanes, tmp_path, term)
    assert app.capture()[8].startswith("▾ #backend  1 card ┄")
    drag(app, [(5, 5), (20, 9), (30, 10)], enc)
    app.wait_status("Over Doing · #backend, position 1 of 1")
    # The target lane's header and the target column's header are highlighted; the marker is in the cell.
    app.wait_for(lambda l: "◆" in l[1][27:53], what="Doing's header marked as the target")
    app.mouse("release", 30, 10, enc=enc)
    app.wait_status("Dropped “Fix login #frontend” in Doing · #backend at position 1")
    after = [("To do", ["Write docs", "API #backend"]), ("Doing", ["Ship #backend #frontend", "Fix login #backend"]),
             ("Done", [])]
    app.wait_file(board_md(after), what="the lane tag rewritten, the card in Doing")
    app.wait_for(lambda l: l[8].startswith("▾ #backend  2 cards"), what="lane backend counts 2 cards")
    app.send_keys("u")
    app.wait_file(board_md(BOARD), what="one undo puts card and tag back")
    assert app.quit() == 0


def test_drag_to_another_lane_in_one_column_and_a_refusal_in_words(lanes, tmp_path):
    board = [("To do", ["Fix login #frontend", "Write docs", "API #backend"]), ("Doing", ["Ship #backend #frontend"]),
             ("Done", [])]
    app, folder = start(lanes, tmp_path, board=board)
    # "API #backend" up into lane frontend, below "Fix login".
    drag(app, [(5, 10), (5, 8), (6, 7)], "sgr")
    app.mouse("release", 6, 7)
    app.wait_status("Dropped “API #backend” in To do · #frontend at position 2")
    after = [("To do", ["Fix login #frontend", "API #frontend", "Write docs"]), ("Doing", ["Ship #backend #frontend"]),
             ("Done", [])]
    app.wait_file(board_md(after))
    # Doing gets a WIP limit of 1 (W on Doing): its empty backend cell refuses, in words, and the card snaps back.
    app.send_keys("l", "W")
    app.wait_for(lambda l: "WIP limit" in app.status(l), what="the limit prompt")
    app.send_literal("1")
    app.send_keys("Enter")
    app.wait_for(lambda l: "Doing 1/1" in l[1], what="Doing at its limit")
    # Lane frontend now holds two cards in To do: backend's header is row 10, "Write docs" rows 15-17.
    drag(app, [(5, 16), (20, 12), (30, 11)], "sgr")
    app.wait_status("Column \"Doing\" is full (WIP limit 1)")
    app.mouse("release", 30, 11)
    app.wait_status("“Write docs” back in To do · No lane: column \"Doing\" is full (WIP limit 1)")
    limited = [(t if t != "Doing" else "Doing (1)", cards) for t, cards in after]
    app.wait_file(board_md(limited), what="nothing changed but the limit (kept in the column's title)")
    assert app.quit() == 0


def test_brace_keys_S_and_collapse(lanes, tmp_path):
    app, _ = start(lanes, tmp_path)
    app.send_keys("}")
    app.wait_status("Moved “Fix login #frontend” to lane #backend")
    app.wait_file(board_md([("To do", ["Write docs", "Fix login #backend", "API #backend"]),
                            ("Doing", ["Ship #backend #frontend"]), ("Done", [])]))
    app.send_keys("{")
    # The frontend cell of To do is empty: the card keeps its place in the column.
    app.wait_file(board_md([("To do", ["Write docs", "Fix login #frontend", "API #backend"]),
                            ("Doing", ["Ship #backend #frontend"]), ("Done", [])]))
    # A click on lane backend's header collapses it; a second expands it.
    app.mouse("press", 3, 8)
    app.mouse("release", 3, 8)
    app.wait_for(lambda l: l[8].startswith("▸ #backend  1 card (collapsed)"), what="lane backend collapsed")
    app.wait_for(lambda l: l[9].startswith("▾ No lane  1 card"), what="No lane right below it")
    app.mouse("press", 3, 8)
    app.mouse("release", 3, 8)
    app.wait_for(lambda l: l[8].startswith("▾ #backend  1 card ┄"), what="lane backend expanded")
    # S: plain columns for the session, and back.
    app.send_keys("S")
    app.wait_status("Columns only (S: swimlanes)")
    app.wait_for(lambda l: not any("#frontend  2 cards" in r for r in l), what="no lane headers")
    app.send_keys("S")
    app.wait_for(lambda l: l[3].startswith("▾ #frontend  2 cards"), what="lanes again")
    # A lifted card crosses into the lane below at its cell's edge.
    app.send_keys("Space", "Down", "Down", "Enter")
    app.wait_file(board_md([("To do", ["Write docs", "API #backend", "Fix login #backend"]),
                            ("Doing", ["Ship #backend #frontend"]), ("Done", [])]))
    assert app.quit() == 0


def test_another_writer_changes_lanes_and_cards_live(lanes, tmp_path):
    app, folder = start(lanes, tmp_path)
    app.send_keys("j")  # "API #backend", lane backend
    r = run_lanes("swimlanes", folder / "board.md", "--tag", "backend", "--tag", "frontend")
    assert r.returncode == 0, r.stderr
    app.wait_for(lambda l: l[3].startswith("▾ #backend  2 cards"), timeout=10, what="the lanes reordered live")
    r = run_lanes("add", folder / "board.md", "--column", "To do", "--top", "Deploy #frontend")
    assert r.returncode == 0, r.stderr
    app.wait_for(lambda l: "Deploy #frontend" in "".join(l), timeout=10, what="the other writer's card")
    # The selection stayed on "API" (now the 4th card of To do): } moves it to frontend (now the lane below).
    app.send_keys("}")
    app.wait_status("Moved “API #backend” to lane #frontend")
    # To the top of lane frontend in To do: before "Deploy", the other writer's card, kept.
    app.wait_file(board_md([("To do", ["API #frontend", "Deploy #frontend", "Fix login #frontend", "Write docs"]),
                            ("Doing", ["Ship #backend #frontend"]), ("Done", [])]))
    assert app.quit() == 0


def test_a_postgresql_board_in_lanes_with_another_writer(lanes, lanes_bin, pg, tmp_path):
    setup = tmp_path / "setup.md"
    setup.write_text(board_md(BOARD))
    assert run_lanes("copy", setup, pg_url(pg, "lanes_admin", "lanes-tui-setup")).returncode == 0  # the schema
    name = f"tui-lanes-{time.time_ns()}"
    alice = pg_url(pg, "alice", name)
    r = run_lanes("copy", setup, alice)
    assert r.returncode == 0, r.stderr
    assert run_lanes("swimlanes", alice, "--tag", "frontend", "--tag", "backend").returncode == 0
    app = lanes(None, wait_for="#frontend  2 cards", args=[alice], width=80, height=24, workdir=tmp_path / "app")
    drag(app, [(5, 5), (20, 9), (30, 10)], "sgr")
    app.mouse("release", 30, 10)
    app.wait_status("Dropped “Fix login #frontend” in Doing · #backend at position 1")
    # The stored row, read by psql, has the new lane tag (the save is asynchronous: poll for it).
    query = (f"SELECT c.title FROM lanes.cards c JOIN lanes.boards b ON b.id = c.board_id "
             f"WHERE b.name = '{name}' AND c.title LIKE 'Fix login%'")
    deadline = time.monotonic() + 10
    while psql(pg, "alice", query) != "Fix login #backend":
        assert time.monotonic() < deadline, "the move never reached the server: " + psql(pg, "alice", query)
        time.sleep(0.1)
    # Other writers: the CLI adds a card and changes the lanes; both show live without losing the move.
    assert run_lanes("add", alice, "--column", "To do", "--top", "Deploy #frontend").returncode == 0
    app.wait_for(lambda l: "Deploy #frontend" in "".join(l), timeout=10, what="the other writer's card, live")
    assert run_lanes("swimlanes", alice, "--tag", "backend", "--tag", "frontend").returncode == 0
    # backend first: "Ship #backend #frontend" now shows in backend, with "API" and "Fix login".
    app.wait_for(lambda l: l[3].startswith("▾ #backend  3 cards"), timeout=10, what="the lanes reordered live")
    out = tmp_path / "out.md"
    assert run_lanes("copy", alice, out).returncode == 0
    assert out.read_text() == board_md([("To do", ["Deploy #frontend", "Write docs", "API #backend"]),
                                        ("Doing", ["Ship #backend #frontend", "Fix login #backend"]), ("Done", [])])
    assert app.quit() == 0


@pytest.mark.parametrize("term,enc", [("xterm-256color", "sgr"), ("tmux-256color", "x10")])
def test_a_click_on_a_mark_box_in_a_lane_marks_that_card_and_marked_cards_drag_together(lanes, tmp_path, term, enc):
    app, _ = start(lanes, tmp_path, term)
    # "Write docs" is drawn at rows 13-15 in lanes (rows 6-8 without): its mark box is x 1-3 of row 13.
    app.mouse("press", 2, 13, enc=enc)
    app.mouse("release", 2, 13, enc=enc)
    app.wait_status("1 card marked: drag one to carry all · esc clears")
    app.wait_for(lambda l: l[13].startswith("╭─●───"), what="the mark on Write docs' border, in lane No lane")
    # "API #backend", rows 9-11 in lane backend.
    app.mouse("press", 2, 9, enc=enc)
    app.mouse("release", 2, 9, enc=enc)
    app.wait_status("2 cards marked: drag one to carry all · esc clears")
    app.wait_for(lambda l: l[9].startswith("╭─●───"), what="the mark on API's border")
    # Both into Done · #frontend by dragging one: each takes the lane's tag, in the order the lanes show them.
    drag(app, [(8, 10), (30, 6), (60, 5)], enc)
    app.wait_for(lambda l: "◆" in l[1][54:], what="Done's header marked as the target")
    app.mouse("release", 60, 5, enc=enc)
    after = [("To do", ["Fix login #frontend"]), ("Doing", ["Ship #backend #frontend"]),
             ("Done", ["API #frontend", "Write docs #frontend"])]
    app.wait_file(board_md(after), what="both marked cards retagged #frontend in Done")
    app.send_keys("u")
    app.wait_file(board_md(BOARD), what="one undo puts both back with their tags")
    assert app.quit() == 0
