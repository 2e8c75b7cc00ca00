"""A live team board in PostgreSQL (#13), as people use it: two TUIs as two roles on one board.

Runs against the real server of scripts/pg-test-cluster (started by `make e2e`, or by the `pg`
fixture of test_postgres_cli when this module runs alone).
"""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest

from lanes_harness import Layout, board_md, line_between
from pg_helpers import CLUSTER_SCRIPT as SCRIPT, board_url as url, psql
from test_postgres_cli import BOARD, lanes as run_lanes

@pytest.fixture(scope="module")
def schema(pg, lanes_bin, tmp_path_factory):
    """The schema, set up (or found) by the administrator role, as in test_postgres_cli."""
    f = tmp_path_factory.mktemp("schema") / "setup.md"
    f.write_text(BOARD)
    r = run_lanes(lanes_bin, "copy", "--replace", str(f), url(pg, "lanes_admin", "setup"))
    assert r.returncode == 0, r.stderr
    return pg


TEAM = [("To do", ["t0", "t1", "t2"]), ("Doing", ["d0"]), ("Done", ["x0"])]


def start_team_board(lanes, schema, lanes_bin, tmp_path, name):
    """alice copies a Markdown board in and grants bob; one TUI each."""
    src = tmp_path / "team.md"
    src.write_text(board_md(TEAM))
    r = run_lanes(lanes_bin, "copy", str(src), url(schema, "alice", name))
    assert r.returncode == 0, r.stderr
    r = run_lanes(lanes_bin, "grant", url(schema, "alice", name), "bob")
    assert r.returncode == 0, r.stderr
    alice = lanes(None, wait_for="t0", args=[url(schema, "alice", name)], workdir=tmp_path / "alice")
    bob = lanes(None, wait_for="t0", args=[url(schema, "bob", name)], workdir=tmp_path / "bob")
    return alice, bob


def column_titles(app, L, k, lines=None):
    """The titles shown in column k, top to bottom (one-line titles)."""
    lines = lines if lines is not None else app.capture()
    out = []
    for i in range(12):
        try:
            x, y = L.title_point(k, i, dx=2)
        except IndexError:
            break
        if y >= len(lines) - 1:
            break
        t = app.text_at(x, y, 10, lines).strip()
        if not t:
            break
        out.append(t.strip("│ "))
    return out


def alices_move_reaches_bob_once(alice, bob, schema, lanes_bin, tmp_path, name, what):
    """After alice's `J` on t0: bob's screen shows it, the stored board has it exactly once, both quit."""
    after = [("To do", ["t1", "t0", "t2"]), ("Doing", ["d0"]), ("Done", ["x0"])]
    L = Layout.simple(100, 30, after)
    bob.wait_for(lambda l: column_titles(bob, L, 0, l) == ["t1", "t0", "t2"], timeout=10, what=what)
    out = tmp_path / "out.md"
    assert run_lanes(lanes_bin, "copy", url(schema, "bob", name), str(out)).returncode == 0
    assert out.read_text() == board_md(after), "applied exactly once"
    assert alice.quit() == 0 and bob.quit() == 0


def test_a_drag_in_one_tui_shows_in_the_other_and_the_cli_reaches_both(lanes, schema, lanes_bin, tmp_path):
    alice, bob = start_team_board(lanes, schema, lanes_bin, tmp_path, "live")
    L = Layout.simple(100, 30, TEAM)
    # alice drags t0 into Doing, below d0.
    start = L.title_point(0, 0)
    alice.drag([start] + line_between(start, L.lower(1, 0), 5))
    alice.wait_status("Dropped “t0” in Doing at position 2")
    after = [("To do", ["t1", "t2"]), ("Doing", ["d0", "t0"]), ("Done", ["x0"])]
    L2 = Layout.simple(100, 30, after)
    bob.wait_for(lambda l: column_titles(bob, L2, 1, l) == ["d0", "t0"], timeout=1.0,
                 what="alice's drop on bob's screen")
    # The CLI, a third writer, moves x0 to the top of To do: both screens show it.
    r = run_lanes(lanes_bin, "move", url(schema, "alice", "live"), "x0", "--to", "To do",
                  "--position", "1")
    assert r.returncode == 0, r.stderr
    final = [("To do", ["x0", "t1", "t2"]), ("Doing", ["d0", "t0"]), ("Done", [])]
    L3 = Layout.simple(100, 30, final)
    for app in (alice, bob):
        app.wait_for(lambda l, app=app: column_titles(app, L3, 0, l) == ["x0", "t1", "t2"], timeout=2,
                     what="the CLI's move on both screens")
    # A copy out gives every card exactly once, where it was put.
    out = tmp_path / "out.md"
    r = run_lanes(lanes_bin, "copy", url(schema, "bob", "live"), str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_text() == board_md(final)
    assert alice.quit() == 0 and bob.quit() == 0


def test_the_server_restarts_under_both_tuis_and_a_later_move_reaches_the_other(lanes, schema, lanes_bin, tmp_path):
    alice, bob = start_team_board(lanes, schema, lanes_bin, tmp_path, "restart")
    d, _ = schema
    r = subprocess.run([str(SCRIPT), "restart", d], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    # alice moves t0 down with the keyboard; it is saved once reconnected, and bob sees it.
    alice.send_keys("J")
    alices_move_reaches_bob_once(alice, bob, schema, lanes_bin, tmp_path, "restart",
                                 "alice's move after the restart on bob's screen")


def test_a_role_without_a_grant_is_told_so_by_lanes_show(schema, lanes_bin, tmp_path):
    src = tmp_path / "secret.md"
    src.write_text(board_md(TEAM))
    assert run_lanes(lanes_bin, "copy", str(src), url(schema, "alice", "secret")).returncode == 0
    r = run_lanes(lanes_bin, "show", url(schema, "carol", "secret"))
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert 'role carol has no access to board "secret"' in r.stderr
    assert r.stdout == ""
    assert psql(schema, "carol", "SELECT count(*) FROM lanes.cards") == "0"


def test_offline_is_said_and_the_move_is_saved_when_the_server_is_back(lanes, schema, lanes_bin, tmp_path):
    alice, bob = start_team_board(lanes, schema, lanes_bin, tmp_path, "offline")
    d, _ = schema
    bindir = sorted(Path("/usr/lib/postgresql").glob("*/bin"))[0]
    stop = ["runuser", "-u", "postgres", "--", str(bindir / "pg_ctl"), "-D", f"{d}/data", "-m", "fast", "-w", "stop"]
    r = subprocess.run(stop, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    try:
        alice.send_keys("J")
        alice.wait_status("Offline, reconnecting", timeout=10)
    finally:
        r = subprocess.run([str(SCRIPT), "restart", d], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr
    alices_move_reaches_bob_once(alice, bob, schema, lanes_bin, tmp_path, "offline",
                                 "the move alice made while offline on bob's screen")
