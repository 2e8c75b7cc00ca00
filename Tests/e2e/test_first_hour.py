"""The first hour of daily use (#42): what a person sees says one thing, once, and truly.

Each test reads the words a user reads: the tmux screen, or a command's stdout and stderr.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from lanes_harness import board_md, cards_of

ROOT = Path(__file__).resolve().parents[2]


def run(lanes_bin, *args, cwd, env=None) -> subprocess.CompletedProcess:
    e = dict(os.environ, LC_ALL="C.UTF-8", HOME=str(cwd), XDG_CONFIG_HOME=str(cwd / "config"))
    e.update(env or {})
    return subprocess.run([str(lanes_bin), *map(str, args)], cwd=cwd, capture_output=True, text=True, env=e,
                          timeout=60)


def prompt_row(app) -> str:
    """The prompt's own row (the last one), as shown."""
    return app.capture()[app.height - 1]


def note_row(app) -> str:
    """The row above the prompt, where it says why it refused or what Tab found."""
    return app.capture()[app.height - 2]


# --- the compact view: the mark takes no letter of the title --------------------------------------

OPS = [("To do", ["Set up hosting #ops", "Buy SSL certificate #ops", "Write the docs"]), ("Done", ["Plan"])]


def test_a_marked_card_in_the_compact_view_shows_its_whole_title(lanes):
    app = lanes(board_md(OPS), wait_for="Set up hosting", width=80, height=20)
    app.send_keys("z")
    app.wait_status("Compact view: one line per card")
    app.send_keys("v")
    app.wait_status("1 card marked")
    app.send_keys("j", "v")
    app.wait_status("2 cards marked")
    lines = app.wait_for(lambda l: any("●Buy SSL certificate" in r for r in l), what="the second mark")
    # The mark stands on the row's first cell (the mark box), before the whole title.
    assert any("●Set up hosting" in r for r in lines), app.dump()
    assert not any("S●t" in r or "B●y" in r for r in lines), app.dump()
    # The unmarked card keeps its blank first cell.
    assert any(r.startswith(" Write the docs") for r in lines), app.dump()


# --- a bad config line: its place and what is wrong, no usage --------------------------------------

def test_a_bad_config_line_stops_lanes_with_file_and_line_and_no_usage(lanes, tmp_path):
    config = tmp_path / "w0-config" / "lanes" / "config"
    config.parent.mkdir(parents=True)
    config.write_text("bind j down\nbind k sideways\n")
    app = lanes(board_md(OPS), wait_for=None, width=200, height=30)
    assert app.wait_exit() == 2, app.dump()
    screen = app.screen()
    assert f"{config}:2: " in screen and "sideways" in screen, app.dump()
    assert "USAGE" not in screen and "OPTIONS" not in screen and "lanes --help" not in screen, app.dump()


# --- messages: each said once, undo names what it put back, a count that is true --------------------

THREE = [("To do", ["a0", "a1"]), ("Doing", ["b0"]), ("Review", ["r0"]), ("Done", ["c0"])]


def test_the_messages_list_a_delete_once_and_undo_says_what_it_put_back(lanes):
    app = lanes(board_md(THREE), wait_for="a0", width=100, height=30)
    app.send_keys("d")
    app.wait_status("Deleted “a0” (u undoes)")
    app.send_keys("^")
    app.wait_for(lambda l: any("Messages" in r for r in l), what="the messages view")
    rows = [r for r in app.capture() if "Deleted" in r]
    assert len(rows) == 1 and "Deleted “a0” (u undoes)" in rows[0], app.dump()
    app.send_keys("Escape")
    app.wait_for(lambda l: not any("Messages" in r for r in l), what="the board again")
    # A column moved and moved back: the undo names it once, in its own words.
    app.send_keys("l", "l", ">")
    app.wait_status("Moved column “Review”")
    app.send_keys("u")
    text = app.wait_status("Undid move column “Review”")
    assert "Moved column" not in text, text


def test_eight_cards_added_elsewhere_are_counted_as_eight(lanes, tmp_path, lanes_bin):
    app = lanes(board_md(THREE), wait_for="a0", width=100, height=30)
    # Eight `lanes add` on a copy, put in place at once: one change of eight cards.
    copy = app.board_path.with_name("copy.md")
    copy.write_text(app.board_path.read_text())
    for i in range(8):
        p = run(lanes_bin, "add", copy, "--column", "Doing", f"n{i}", cwd=copy.parent)
        assert p.returncode == 0, p.stderr
    os.replace(copy, app.board_path)
    app.wait_status("8 cards changed elsewhere")
    app.wait_for("n7")


# --- the m prompt keeps what was typed ----------------------------------------------------------

A = [("To do", ["a0", "a1"]), ("Done", ["a2"])]
B = [("Backlog", ["b0"]), ("Doing", ["b1"]), ("Done", ["b2"])]


def test_the_move_prompt_keeps_the_text_it_refuses_and_tab_goes_through_matches(lanes, tmp_path):
    d = tmp_path / "boards"
    d.mkdir()
    (d / "A.md").write_text(board_md(A))
    (d / "B.md").write_text(board_md(B))
    app = lanes(None, wait_for="a0", args=["A.md", "B.md"], workdir=d, width=120, height=24)
    app.wait_for(lambda l: l[0].startswith(" A.md (3) │ B.md (3) │"), what="the tab bar")
    app.send_keys("m")
    app.wait_for(lambda l: "to board:column[:N]" in l[-1], what="the move prompt")
    app.send_literal("B.md:Do")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Do"), what="the text typed")
    # Two columns start with "Do": Tab puts the first in the line, Tab again the next.
    app.send_keys("Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Doing"), what="the first match")
    assert "1 of 2: B.md:Doing, B.md:Done" in note_row(app), app.dump()
    app.send_keys("Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Done"), what="the second match")
    app.send_keys("Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Doing"), what="round to the first again")
    # Back to the ambiguous text: Enter refuses it, and the prompt stays open with it.
    app.send_keys("BSpace", "BSpace", "BSpace")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Do"), what="the text erased back")
    app.send_keys("Enter")
    app.wait_for(lambda l: "could be Doing, Done on B.md" in l[-2], what="the refusal above the prompt")
    assert prompt_row(app).rstrip().endswith("B.md:Do"), app.dump()
    assert "to board:column[:N]" in prompt_row(app), app.dump()
    # A column that is not there: refused, the text kept.
    app.send_literal("x")
    app.send_keys("Enter")
    app.wait_for(lambda l: "B.md has no column “Dox”; its columns: Backlog, Doing, Done" in l[-2],
                 what="no such column")
    assert prompt_row(app).rstrip().endswith("B.md:Dox"), app.dump()
    # A row past the end: refused, kept.
    app.send_keys("BSpace")
    app.send_literal("ne:9")
    app.send_keys("Enter")
    app.wait_for(lambda l: "“Done” on B.md has 1 card: give a row from 1 to 2" in l[-2], what="the row refused")
    assert prompt_row(app).rstrip().endswith("B.md:Done:9"), app.dump()
    # Finished rightly, it moves.
    app.send_keys("BSpace", "BSpace")
    app.send_keys("Enter")
    app.wait_status("Moved “a0” to B.md, “Done”")
    assert cards_of((d / "B.md").read_text()) == ["b0", "b1", "b2", "a0"]


# --- save a copy: a path that cannot be written is kept in the prompt --------------------------------

def test_a_copy_that_cannot_be_written_keeps_its_path_in_the_prompt(lanes, tmp_path):
    app = lanes(board_md(THREE), wait_for="a0", width=120, height=24)
    os.chmod(app.board_path, 0o444)
    app.send_keys("J")
    app.wait_status("NOT SAVED")
    app.send_keys("q")
    app.wait_for(lambda l: "s save a copy" in app.status(), what="the quit question")
    app.send_keys("s")
    app.wait_for(lambda l: "Save a copy to: " in l[-1], what="the save-a-copy prompt")
    app.send_keys("C-u")
    app.send_keys("Enter")
    app.wait_for(lambda l: "Type the path to write the copy to" in l[-2], what="an empty path asked again")
    bad = tmp_path / "no-such-folder-file" / "x"
    (tmp_path / "no-such-folder-file").write_text("a file, not a folder\n")
    app.send_literal(str(bad))
    app.send_keys("Enter")
    app.wait_for(lambda l: "The copy could not be written" in l[-2], what="the refusal")
    assert prompt_row(app).rstrip().endswith(str(bad)[-40:]), app.dump()
    good = tmp_path / "copy.md"
    app.send_keys("C-u")
    app.send_literal(str(good))
    app.send_keys("Enter")
    assert app.wait_exit() == 0
    assert cards_of(good.read_text()) == ["a1", "a0", "b0", "r0", "c0"]
