"""The workspace in a real terminal (tmux): several boards as tabs, `m` between boards, drags onto tabs.

Every board here is a real file (or a real PostgreSQL board of scripts/pg-test-cluster); every
gesture is a real SGR mouse sequence typed into the pane. After each move, every card is
counted exactly once over the boards' files. Row 0 is the tab bar: the board is drawn one row
lower than `Layout` (which describes a board alone) says.
"""

from __future__ import annotations

import subprocess
import time
from collections import Counter
from pathlib import Path

import pytest

from lanes_harness import Layout, board_md, cards_of, line_between

A = [("To do", ["a0", "a1", "a2"]), ("Done", ["a3"])]
B = [("Backlog", ["b0"]), ("Doing", ["b1", "b2"])]
C = [("Ideas", ["c0"])]
ALL = sorted(t for board in (A, B) for _, cards in board for t in cards)


def below_tabs(p: tuple[int, int]) -> tuple[int, int]:
    return (p[0], p[1] + 1)


def tab_x(app, name: str, lines=None) -> int:
    """The column of the middle of the tab whose label starts with `name` on row 0."""
    row = (lines or app.capture())[0]
    i = row.index(" " + name + " (")
    return i + 1 + len(name) // 2


def every_card_once(*paths: Path, expected=ALL) -> None:
    titles = [t for p in paths for t in cards_of(p.read_text())]
    counts = Counter(titles)
    assert sorted(titles) == sorted(expected), f"cards over the boards: {dict(counts)}"


def wait_cards(app, paths, expected_by_path: dict[Path, list[str]], what: str) -> None:
    """Waits until each file holds exactly those cards (in file order), then checks none is doubled."""
    deadline = time.monotonic() + 10
    while True:
        got = {p: cards_of(p.read_text()) for p in paths}
        if got == expected_by_path:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: files hold {got}, expected {expected_by_path}\n{app.dump()}")
        time.sleep(0.05)
    every_card_once(*paths, expected=sorted(t for v in expected_by_path.values() for t in v))


@pytest.fixture
def two(lanes, tmp_path):
    """A.md and B.md side by side; returns (app, a, b)."""
    d = tmp_path / "boards"
    d.mkdir()
    (d / "A.md").write_text(board_md(A))
    (d / "B.md").write_text(board_md(B))
    app = lanes(None, wait_for="a0", args=["A.md", "B.md"], workdir=d)
    app.wait_for(lambda l: l[0].startswith(" A.md (4) │ B.md (3) │"), what="the tab bar")
    return app, d / "A.md", d / "B.md"


def test_files_and_a_folder_open_as_tabs_and_switch_by_key_and_click(lanes, tmp_path):
    d = tmp_path / "ws"
    (d / "more").mkdir(parents=True)
    (d / "A.md").write_text(board_md(A))
    (d / "B.md").write_text(board_md(B))
    (d / "more" / "C.md").write_text(board_md(C))
    (d / "more" / "notes.txt").write_text("not a board\n")
    (d / "more" / "bad.md").write_text("just prose\n")
    app = lanes(None, wait_for="a0", args=["A.md", "B.md", "more"], workdir=d)
    app.wait_for(lambda l: l[0].startswith(" A.md (4) │ B.md (3) │ C.md (1) │"), what="three tabs")
    status = " ".join(r.strip() for r in app.status_rows())
    assert "Opened 3 boards; skipped 2 files:" in status
    assert "bad.md (line 1:" in status and "notes.txt (not a Markdown file)" in status
    assert "Lanes · A.md" in app.capture()[1]

    app.send_keys("C-n")
    app.wait_for(lambda l: "Lanes · B.md" in l[1] and "b0" in app.screen(), what="B shown after ctrl-n")
    app.send_keys("C-p")
    app.wait_for(lambda l: "Lanes · A.md" in l[1], what="A shown after ctrl-p")
    x = tab_x(app, "C.md")
    app.mouse("press", x, 0)
    app.mouse("release", x, 0)
    app.wait_for(lambda l: "Lanes · C.md" in l[1] and "c0" in app.screen(), what="C shown after a click on its tab")
    assert app.quit() == 0


def test_m_with_completion_moves_a_card_between_two_files_and_u_brings_it_back(two):
    app, a, b = two
    app.send_keys("j", "m")  # a1
    app.wait_for(lambda l: "Move “a1” to board:column[:N] (tab completes):" in l[-1], what="the move prompt")
    app.send_keys("Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:"), what="the board completed")
    app.send_keys("D", "Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Doing"), what="the column completed")
    app.send_keys("Enter")
    app.wait_status("Moved “a1” to B.md, “Doing” at 3 · u undoes")
    wait_cards(app, [a, b], {a: ["a0", "a2", "a3"], b: ["b0", "b1", "b2", "a1"]}, "after m")
    app.wait_for(lambda l: l[0].startswith(" A.md (3) │ B.md (4) │"), what="the counts on the tabs")
    assert "●" not in app.capture()[0], "our own move is no change made elsewhere"

    app.send_keys("u")
    app.wait_status("Undid the move: “a1” back on A.md, “To do”")
    wait_cards(app, [a, b], {a: ["a0", "a1", "a2", "a3"], b: ["b0", "b1", "b2"]}, "after undo")
    assert app.quit() == 0


def test_m_refuses_a_full_column_in_words_and_moves_nothing(two):
    app, a, b = two
    app.send_keys("m")
    app.send_literal("B.md:Doing")
    app.send_keys("Enter")
    app.wait_status("Moved “a0” to B.md")
    app.wait_for(lambda l: l[0].startswith(" A.md (3) │ B.md (4) │"), what="the move on both tabs")
    # Doing (b1, b2, a0) gets a WIP limit of 3 on B.
    b_before = b.read_text()
    app.send_keys("C-n", "l", "W")
    app.send_literal("3")
    app.send_keys("Enter")
    deadline = time.monotonic() + 10
    while b.read_text() == b_before:
        assert time.monotonic() < deadline, "the WIP limit was not saved\n" + app.dump()
        time.sleep(0.05)
    before = (a.read_bytes(), b.read_bytes())
    app.send_keys("C-p")
    app.wait_for(lambda l: "Lanes · A.md" in l[1], what="A shown")
    app.send_keys("m")
    app.send_literal("B.md:Doing")
    app.send_keys("Enter")
    app.wait_status("Not moved: column \"Doing\" of")
    assert "is full (WIP limit 3)" in " ".join(app.status_rows())
    assert (a.read_bytes(), b.read_bytes()) == before, "a refused move changes neither board"
    every_card_once(a, b)
    # The prompt is open again with what was typed (another column is a few keys away); esc closes it.
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Doing"), what="the text kept in the prompt")
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    assert app.quit() == 0


def drag_to_tab(app, name: str, hold: bool):
    """Presses on a0 (column 0, card 0), drags it onto the tab `name`; with `hold`, waits for the spring-load."""
    L = Layout.simple(100, 29, A)
    start = below_tabs(L.title_point(0, 0))
    x = tab_x(app, name)
    app.mouse("press", *start)
    time.sleep(0.02)
    app.mouse("drag", start[0] + 1, start[1])
    app.wait_status("Picked up")
    for p in line_between((start[0] + 1, start[1]), (x, 0), 5):
        app.mouse("drag", *p)
        time.sleep(0.02)
    if hold:
        app.wait_status("Carrying “a0” from A.md")
        app.wait_for(lambda l: "Lanes · B.md" in l[1], what="B opened under the held card")
    return x


def test_a_card_released_on_a_tab_goes_to_the_end_of_that_boards_first_column(two):
    app, a, b = two
    x = drag_to_tab(app, "B.md", hold=False)
    app.mouse("release", x, 0)
    app.wait_status("Moved “a0” to B.md, “Backlog” at 2")
    wait_cards(app, [a, b], {a: ["a1", "a2", "a3"], b: ["b0", "a0", "b1", "b2"]}, "after the release on the tab")
    assert "Lanes · A.md" in app.capture()[1], "the source board stays shown"
    assert app.quit() == 0


def test_holding_on_a_tab_opens_the_board_where_the_card_drops(two):
    app, a, b = two
    x = drag_to_tab(app, "B.md", hold=True)
    # Into Doing, on the upper half of b2: it lands between b1 and b2.
    LB = Layout.simple(100, 29, B)
    target = below_tabs(LB.upper(1, 1))
    for p in line_between((x, 0), target, 5):
        app.mouse("drag", *p)
        time.sleep(0.02)
    app.wait_for(lambda l: "▸ a0" in l[target[1]], what="the carried card under the pointer")
    app.mouse("release", *target)
    app.wait_status("Moved “a0” to B.md, “Doing” at 2")
    wait_cards(app, [a, b], {a: ["a1", "a2", "a3"], b: ["b0", "b1", "a0", "b2"]}, "after the spring-loaded drop")
    # One undo puts it back where it was.
    app.send_keys("u")
    app.wait_status("Undid the move: “a0” back on A.md, “To do”")
    wait_cards(app, [a, b], {a: ["a0", "a1", "a2", "a3"], b: ["b0", "b1", "b2"]}, "after undo")
    assert app.quit() == 0


def test_esc_while_carrying_brings_the_card_back(two):
    app, a, b = two
    before = (a.read_bytes(), b.read_bytes())
    drag_to_tab(app, "B.md", hold=True)
    app.send_keys("Escape")
    app.wait_status("Cancelled: “a0” stays on A.md")
    app.wait_for(lambda l: "Lanes · A.md" in l[1], what="A shown again")
    app.mouse("release", 50, 20)
    time.sleep(0.3)
    assert (a.read_bytes(), b.read_bytes()) == before
    every_card_once(a, b)
    assert app.quit() == 0


def test_a_release_outside_any_column_brings_the_card_back(two):
    app, a, b = two
    before = (a.read_bytes(), b.read_bytes())
    drag_to_tab(app, "B.md", hold=True)
    app.mouse("drag", 95, 29)
    app.mouse("release", 95, 29)
    app.wait_status("Released outside a column: “a0” stays on A.md")
    assert (a.read_bytes(), b.read_bytes()) == before
    assert app.quit() == 0


def test_marked_cards_drag_onto_a_tab_together(two):
    app, a, b = two
    app.send_keys("v", "j", "j", "v")  # a0 and a2
    app.wait_status("2 cards marked")
    x = drag_to_tab(app, "B.md", hold=False)
    app.mouse("release", x, 0)
    app.wait_status("Moved 2 cards to B.md, “Backlog” at 2")
    wait_cards(app, [a, b], {a: ["a1", "a3"], b: ["b0", "a0", "a2", "b1", "b2"]}, "after the multi-card drop")
    assert app.quit() == 0


def test_another_writer_on_the_background_board_marks_its_tab(two, lanes_bin):
    app, a, b = two
    r = subprocess.run([str(lanes_bin), "add", str(b), "--column", "Backlog", "from elsewhere"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    app.wait_for(lambda l: l[0].startswith(" A.md (4) │ B.md (4) ● │"), what="B's tab marked with its new count")
    app.send_keys("C-n")
    app.wait_for(lambda l: "from elsewhere" in app.screen() and "●" not in l[0], what="the mark cleared once B is shown")
    assert app.quit() == 0


def test_a_saved_workspace_opens_with_at_name(lanes, lanes_bin, tmp_path):
    d = tmp_path / "saved"
    d.mkdir()
    (d / "A.md").write_text(board_md(A))
    (d / "B.md").write_text(board_md(B))
    # The app's harness gives the session XDG_CONFIG_HOME=<workdir>-config.
    config = tmp_path / "elsewhere-config"
    config.mkdir()
    env = {"XDG_CONFIG_HOME": str(config), "HOME": str(config), "PATH": "/usr/bin:/bin"}
    r = subprocess.run([str(lanes_bin), "workspace", "save", "pair", "A.md", "B.md"], cwd=d, env=env, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert (config / "lanes" / "workspaces" / "pair").read_text() == f"{d / 'A.md'}\n{d / 'B.md'}\n"
    app = lanes(None, wait_for="a0", args=["@pair"], workdir=tmp_path / "elsewhere")
    app.wait_for(lambda l: l[0].startswith(" A.md (4) │ B.md (3) │"), what="the saved workspace's tabs")
    assert app.quit() == 0


# ----------------------------------------------------------------------------- a file and a PostgreSQL board

from pg_helpers import board_url as url  # noqa: E402  (the pg fixture is conftest's)
from test_postgres_cli import lanes as run_lanes  # noqa: E402

TEAM = [("Inbox", ["t0"]), ("Doing", ["t1"])]


@pytest.fixture(scope="module")
def schema(pg, lanes_bin, tmp_path_factory):
    """The schema, set up (or found) by the administrator role, as in test_postgres_cli."""
    f = tmp_path_factory.mktemp("schema") / "setup.md"
    f.write_text(board_md([("x", [])]))
    r = run_lanes(lanes_bin, "copy", "--replace", str(f), url(pg, "lanes_admin", "setup"))
    assert r.returncode == 0, r.stderr
    return pg


def team_cards(lanes_bin, schema, name, tmp_path) -> list[str]:
    out = tmp_path / f"{name}-now.md"
    r = run_lanes(lanes_bin, "copy", "--replace", url(schema, "alice", name), str(out))
    assert r.returncode == 0, r.stderr
    return cards_of(out.read_text())


def wait_team(app, lanes_bin, schema, name, tmp_path, a, want_a, want_team, what):
    deadline = time.monotonic() + 15
    while True:
        got = (cards_of(a.read_text()), team_cards(lanes_bin, schema, name, tmp_path))
        if got == (want_a, want_team):
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: A.md {got[0]}, team {got[1]}; expected {want_a}, {want_team}\n{app.dump()}")
        time.sleep(0.2)
    titles = got[0] + got[1]
    assert len(titles) == len(set(titles)) == 6, f"every card exactly once: {titles}"


def test_m_and_a_drag_move_cards_between_a_file_and_a_postgresql_board(lanes, lanes_bin, schema, tmp_path):
    name = f"ws27_{int(time.time() * 1000) % 10**9}"
    src = tmp_path / "team.md"
    src.write_text(board_md(TEAM))
    r = run_lanes(lanes_bin, "copy", str(src), url(schema, "alice", name))
    assert r.returncode == 0, r.stderr
    d = tmp_path / "mixed"
    d.mkdir()
    a = d / "A.md"
    a.write_text(board_md(A))
    app = lanes(None, wait_for="a0", args=["A.md", url(schema, "alice", name)], workdir=d)
    app.wait_for(lambda l: l[0].startswith(f" A.md (4) │ {name} (2) │"), what="a file tab and a database tab")

    # m with completion: the database board, then its column.
    app.send_keys("m", "w", "Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith(f"{name}:"), what="the database board completed")
    app.send_keys("D", "Tab", "Enter")
    app.wait_status(f"Moved “a0” to {name}, “Doing” at 2")
    wait_team(app, lanes_bin, schema, name, tmp_path, a, ["a1", "a2", "a3"], ["t0", "t1", "a0"], "after m")
    app.send_keys("u")
    app.wait_status(f"Undid the move: “a0” back on A.md, “To do”")
    wait_team(app, lanes_bin, schema, name, tmp_path, a, ["a0", "a1", "a2", "a3"], ["t0", "t1"], "after undo")

    # The other way, with the mouse: t1 from the database board dropped on A's tab.
    app.send_keys("C-n")
    app.wait_for(lambda l: "t1" in app.screen() and f"{name}" in l[1], what="the database board shown")
    LT = Layout.simple(100, 29, TEAM)
    start = below_tabs(LT.title_point(1, 0))
    x = tab_x(app, "A.md")
    app.mouse("press", *start)
    time.sleep(0.02)
    app.mouse("drag", start[0] + 1, start[1])
    app.wait_status("Picked up “t1”")
    for p in line_between((start[0] + 1, start[1]), (x, 0), 5):
        app.mouse("drag", *p)
        time.sleep(0.02)
    app.mouse("release", x, 0)
    app.wait_status("Moved “t1” to A.md, “To do” at 4")
    wait_team(app, lanes_bin, schema, name, tmp_path, a, ["a0", "a1", "a2", "t1", "a3"], ["t0"], "after the drop on A's tab")
    assert app.quit() == 0


def test_m_with_a_position_then_undo_and_ctrl_r_redo(two):
    """`board:column:N` puts the card at row N; u moves it back; ctrl-r makes the move again, both crash-safe moves."""
    app, a, b = two
    app.send_keys("j", "m")  # a1
    app.send_literal("B.md:Doing:2")
    app.send_keys("Enter")
    app.wait_status("Moved “a1” to B.md, “Doing” at 2 · u undoes")
    wait_cards(app, [a, b], {a: ["a0", "a2", "a3"], b: ["b0", "b1", "a1", "b2"]}, "after m at position 2")
    app.send_keys("u")
    app.wait_status("Undid the move: “a1” back on A.md, “To do” · ctrl-r redoes")
    wait_cards(app, [a, b], {a: ["a0", "a1", "a2", "a3"], b: ["b0", "b1", "b2"]}, "after undo")
    app.send_keys("C-r")
    app.wait_status("Redid the move: moved “a1” to B.md, “Doing” at 2 · u undoes")
    wait_cards(app, [a, b], {a: ["a0", "a2", "a3"], b: ["b0", "b1", "a1", "b2"]}, "after redo")
    app.wait_for(lambda l: l[0].startswith(" A.md (3) │ B.md (4) │"), what="the counts after redo")
    assert app.quit() == 0


def test_a_board_that_cannot_be_opened_in_the_background_says_why_on_its_tab(lanes, tmp_path):
    """The first board opens at once; a later one that is not a board is said on its tab and in its place."""
    d = tmp_path / "ws"
    d.mkdir()
    (d / "A.md").write_text(board_md(A))
    (d / "B.md").write_text(board_md(B))
    (d / "C.md").write_bytes(b"## Ideas\n\n- c0 \xff\xfe not UTF-8\n")
    app = lanes(None, wait_for="a0", args=["A.md", "B.md", "C.md"], workdir=d)
    app.wait_for(lambda l: l[0].startswith(" A.md (4) │ B.md (3) │ C.md (!) │"), what="the tab of the board that did not open")
    app.send_keys("C-p")
    app.wait_for(lambda l: "Could not open C.md:" in app.screen(), what="why, in its place")
    app.send_keys("a")
    app.wait_status("C.md could not be opened")
    app.send_keys("C-p")
    app.wait_for(lambda l: "Lanes · B.md" in l[1] and "b0" in app.screen(), what="B still works")
    assert app.quit() == 0


def test_a_lifted_card_is_carried_to_another_board_by_keyboard_and_dropped_there(two):
    """space lifts a1, ctrl-n carries it onto B, l and j choose Doing before b2, space drops it there."""
    app, a, b = two
    app.send_keys("j", "Space")
    app.wait_status("Picked up")
    app.send_keys("C-n")
    app.wait_for(lambda l: "Lanes · B.md" in l[1], what="B shown under the carried card")
    app.wait_status("Carrying “a1” from A.md → “Backlog” at 1")
    app.send_keys("l", "j")
    app.wait_status("Carrying “a1” from A.md → “Doing” at 2")
    assert "▸ a1" in app.screen()
    app.send_keys("Space")
    app.wait_status("Moved “a1” to B.md, “Doing” at 2 · u undoes")
    wait_cards(app, [a, b], {a: ["a0", "a2", "a3"], b: ["b0", "b1", "a1", "b2"]}, "after the keyboard carry")
    # Esc while carrying: nothing moves.
    app.send_keys("C-p")
    app.wait_for(lambda l: "Lanes · A.md" in l[1], what="A shown")
    before = (a.read_bytes(), b.read_bytes())
    app.send_keys("Space")  # a2: the selection kept its row when a1 left
    app.wait_status("Picked up “a2”")
    app.send_keys("C-n")
    app.wait_status("Carrying “a2” from A.md")
    app.send_keys("Escape")
    app.wait_status("Cancelled: “a2” stays on A.md")
    assert (a.read_bytes(), b.read_bytes()) == before
    assert app.quit() == 0
