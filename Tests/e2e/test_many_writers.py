"""One board, many writers (#12): the CLI, another program and a second Lanes change the board
while it is open; every change lands, nothing is reverted, undo is this session's own."""

from __future__ import annotations

import os
import subprocess
import time

from checks import quit_and_check
from lanes_harness import Layout, board_md, find_binary, line_between

THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]


def write_behind_the_back(path, text: str) -> None:
    """As editors and git do: a new file renamed over the old one."""
    tmp = path.with_name("." + path.name + ".other-tmp")
    tmp.write_text(text)
    tmp.replace(path)


def test_lanes_add_beside_an_open_board_shows_on_it(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    r = subprocess.run([str(find_binary()), "add", str(app.board_path), "--column", "Done", "from the CLI"],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    # How soon (within a second on a quiet machine) is a figure for `make bench`, not a pass or fail.
    app.wait_for("from the CLI", timeout=1.0, what="the CLI's card on the open board")
    app.wait_status("1 card changed elsewhere")
    after = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0", "from the CLI"])]
    quit_and_check(app, board_md(after))


def test_an_outside_edit_during_a_mouse_drag_keeps_both(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    start, over = L.title_point(0, 0), L.lower(1, 0)
    app.mouse("press", *start)
    for p in line_between(start, over, 5):
        app.mouse("drag", *p)
        time.sleep(0.02)
    app.wait_status("Over Doing, position 2 of 4")
    # Meanwhile another program renames b2 and adds a card to Done.
    outside = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2 renamed"]), ("Done", ["c0", "c1"])]
    write_behind_the_back(app.board_path, board_md(outside))
    app.wait_for("c1", timeout=3, what="the outside change on screen, card still in hand")
    assert app.status() != "", app.dump()
    app.mouse("drag", over[0], over[1])
    app.mouse("release", *over)
    app.wait_status("Dropped “a0” in Doing at position 2")
    both = [("To do", ["a1", "a2"]), ("Doing", ["b0", "a0", "b1", "b2 renamed"]), ("Done", ["c0", "c1"])]
    app.wait_file(board_md(both))
    quit_and_check(app, board_md(both))


def test_undo_after_an_outside_change_keeps_that_change(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    app.send_keys("J")   # a0 below a1: our own step
    mine = [("To do", ["a1", "a0", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
    app.wait_file(board_md(mine))
    outside = [("To do", ["a1", "a0", "a2", "theirs"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
    write_behind_the_back(app.board_path, board_md(outside))
    app.wait_status("1 card changed elsewhere", timeout=3)
    app.send_keys("u")
    app.wait_status("Undid")
    undone = [("To do", ["a0", "a1", "a2", "theirs"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
    app.wait_file(board_md(undone))
    app.send_keys("C-r")
    app.wait_status("Redid")
    app.wait_file(board_md(outside))
    quit_and_check(app, board_md(outside))


def test_quit_after_a_failed_save_asks_and_a_copy_can_be_saved(lanes, tmp_path):
    app = lanes(board_md(THREE), wait_for="a0")
    os.chmod(app.board_path, 0o444)
    app.send_keys("J")
    app.wait_status("NOT SAVED")
    assert "read-only" in app.status(), app.dump()
    app.send_keys("q")
    app.wait_status("NOT SAVED — r retry · s save a copy · d quit, discard · esc stay")
    app.send_keys("Escape")
    app.wait_status("Not quitting.")
    app.send_keys("q")
    app.wait_status("NOT SAVED — r retry")
    app.send_keys("s")
    app.wait_status("Save a copy to:")
    copy = tmp_path / "copy.md"
    app.send_keys("C-u")
    app.send_literal(str(copy))
    app.send_keys("Enter")
    code = app.wait_exit()
    assert code == 0, app.dump()
    mine = [("To do", ["a1", "a0", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
    assert copy.read_text() == board_md(mine)
    assert app.board_path.read_text() == board_md(THREE), "the read-only board was not written"


def lanes_pid(app) -> int:
    shell = int(app.tmux.run("display", "-p", "-t", app.name, "#{pane_pid}").strip())
    out = subprocess.run(["ps", "-o", "pid=,comm=", "--ppid", str(shell)], capture_output=True, text=True).stdout
    pids = [int(line.split()[0]) for line in out.splitlines() if line.split()[1] == "lanes"]
    assert len(pids) == 1, out
    return pids[0]


def test_sigterm_with_unsaved_work_leaves_a_recovery_copy_named_at_the_next_start(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    os.chmod(app.board_path, 0o444)
    app.send_keys("J")
    app.wait_status("NOT SAVED")
    os.kill(lanes_pid(app), 15)
    assert app.wait_exit() == 128 + 15, app.dump()  # 143: ended by SIGTERM with unsaved work
    # The message wraps at the pane's width wherever its path puts it: read it with the wraps joined
    # (a wrap at a space, stripped from the line's end, read "was not" + "saved" as "was notsaved").
    lines = "".join(app.capture(joined=True))
    assert "was not saved" in lines and "your board is in" in lines, app.dump()
    recovery = app.config_home / ".local" / "state" / "lanes" / "recovery"
    copies = sorted(p for p in recovery.iterdir() if p.name.startswith("board.md."))
    assert len(copies) == 1, list(recovery.iterdir())
    mine = [("To do", ["a1", "a0", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
    assert copies[0].read_text() == board_md(mine)
    assert app.board_path.read_text() == board_md(THREE)
    # The next start on that board says where the copy is (once).
    os.chmod(app.board_path, 0o644)
    again = lanes(None, wait_for="a0", workdir=app.workdir)
    again.wait_status("Unsaved changes of your last session on this board were kept in")
    quit_and_check(again, board_md(THREE))
