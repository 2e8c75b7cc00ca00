"""A team board taken away under an open screen (#22, point 4), and the title bar (point 7).

bob has the board open; alice revokes him, deletes the board or renames it. Within a second
bob's screen says so in words, shows no later change, and `q` offers to save what bob had not
saved as a file. Real server (scripts/pg-test-cluster), real terminal (tmux).
"""

from __future__ import annotations

import re
import time

import pytest

from lanes_harness import Layout, board_md
from pg_helpers import board_url as url
from test_postgres_cli import BOARD, lanes as run_lanes
from test_postgres_tui import TEAM, column_titles, start_team_board


@pytest.fixture(scope="module")
def schema(pg, lanes_bin, tmp_path_factory):
    """The schema, set up (or found) by the administrator role, with a board name of this module's
    own (test_postgres_cli's first copy expects "setup" not to exist yet)."""
    f = tmp_path_factory.mktemp("schema") / "setup.md"
    f.write_text(BOARD)
    r = run_lanes(lanes_bin, "copy", "--replace", str(f), url(pg, "lanes_admin", "setup-revoke"))
    assert r.returncode == 0, r.stderr
    return pg


@pytest.mark.parametrize("how", ["revoke", "delete", "rename"])
def test_losing_the_board_reaches_the_open_screen_within_a_second(lanes, schema, lanes_bin, tmp_path, how):
    name = f"gone-{how}"
    alice, bob = start_team_board(lanes, schema, lanes_bin, tmp_path, name)
    _, port = schema
    # The title bar: who, where, which board.
    bob.wait_for(lambda l: f"bob@local:{port} · {name}" in l[0], timeout=2, what="role@server · board in bob's title bar")
    L = Layout.simple(100, 30, TEAM)
    before = column_titles(bob, L, 0)
    assert before == ["t0", "t1", "t2"]

    if how == "revoke":
        r = run_lanes(lanes_bin, "revoke", url(schema, "alice", name), "bob")
        words = f"role bob no longer has access to board “{name}”"
    elif how == "delete":
        r = run_lanes(lanes_bin, "delete", "--yes", url(schema, "alice", name))
        words = f"board “{name}” was deleted"
    else:
        r = run_lanes(lanes_bin, "rename", url(schema, "alice", name), name + "-2")
        words = f"was renamed “{name}-2”"
    assert r.returncode == 0, r.stderr
    # The message wraps onto the rows above the status line: read the rows joined, as a person reads them.
    bob.wait_for(lambda l: "NO LONGER SHARED" in (t := " ".join(r.strip() for r in l)) and words in t, timeout=1.0,
                 what=f"bob's screen saying the board is gone ({how})")

    if how != "delete":
        # A later change by alice does not reach bob's screen (it reaches alice's).
        target = url(schema, "alice", name if how == "revoke" else name + "-2")
        r = run_lanes(lanes_bin, "move", target, "x0", "--to", "To do", "--position", "1")
        assert r.returncode == 0, r.stderr
        moved = [("To do", ["x0", "t0", "t1", "t2"]), ("Doing", ["d0"]), ("Done", [])]
        L2 = Layout.simple(100, 30, moved)
        if how == "revoke":
            alice.wait_for(lambda l: column_titles(alice, L2, 0, l) == ["x0", "t0", "t1", "t2"], timeout=2,
                           what="the CLI's move on alice's screen")
        time.sleep(0.5)   # a second look for bob, after alice's screen had it
        assert column_titles(bob, L, 0) == ["t0", "t1", "t2"]

    # bob changes something; it cannot be saved, and q offers a file copy.
    bob.send_keys("J")
    bob.wait_for(lambda l: column_titles(bob, L, 0, l) == ["t1", "t0", "t2"], timeout=2, what="bob's own move on his screen")
    bob.send_keys("q")
    bob.wait_status("s save a copy", timeout=3)
    bob.send_keys("s")
    status = bob.wait_status("Save a copy to: ", timeout=2)
    copy = tmp_path / f"bob-{how}.md"
    bob.send_keys("C-u")
    bob.send_literal(str(copy))
    bob.wait_status(str(copy)[-20:], timeout=2)
    bob.send_keys("Enter")
    assert bob.wait_exit() == 0
    assert copy.read_text() == board_md([("To do", ["t1", "t0", "t2"]), ("Doing", ["d0"]), ("Done", ["x0"])])
    assert status
    assert alice.quit() == 0
