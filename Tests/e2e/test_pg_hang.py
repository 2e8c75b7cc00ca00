"""Never a hang (#43): a server, or the pooler in front of it, that stops answering in the middle of
a commit is answered in words within seconds, by the command line (exit 1) and by the screen, and
the work is saved at the next attempt once it answers again.

A stopped process is one the kernel still speaks TCP for (keepalives are answered), so only Lanes'
own patience finds it: at most PGConnection.answerSeconds (15 s) without a byte of answer.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time

import pytest

from lanes_harness import Layout, board_md
from pg_helpers import Pooler, board_url as url, psql, psql_bin
from test_postgres_cli import BOARD, lanes as run_lanes
from test_postgres_tui import TEAM, column_titles

# PGConnection.answerSeconds: past the lock timeout (10 s) by 5 s.
ANSWER_SECONDS = 15
SLACK = float(os.environ.get("LANES_E2E_SLACK", "4"))


@pytest.fixture(scope="module")
def schema(pg, lanes_bin, tmp_path_factory):
    f = tmp_path_factory.mktemp("schema") / "setup.md"
    f.write_text(BOARD)
    r = run_lanes(lanes_bin, "copy", "--replace", str(f), url(pg, "lanes_admin", "setuphang"))
    assert r.returncode == 0, r.stderr
    return pg


def team_board(schema, lanes_bin, tmp_path, name: str) -> None:
    src = tmp_path / f"{name}.md"
    src.write_text(board_md(TEAM))
    r = run_lanes(lanes_bin, "copy", "--replace", str(src), url(schema, "alice", name))
    assert r.returncode == 0, r.stderr
    r = run_lanes(lanes_bin, "grant", url(schema, "alice", name), "bob")
    assert r.returncode == 0, r.stderr


def wait_until(cond, what: str, timeout: float = 30):
    """Polls `cond` (a condition, not a time) until it is true; the timeout is a hang guard."""
    deadline = time.monotonic() + timeout * SLACK
    while time.monotonic() < deadline:
        v = cond()
        if v:
            return v
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def test_a_backend_that_stops_mid_commit_is_words_and_exit_1_and_the_next_try_saves(schema, lanes_bin, tmp_path):
    name = "hang-cli"
    team_board(schema, lanes_bin, tmp_path, name)
    d, port = schema
    b = psql(schema, "postgres", f"SELECT id FROM lanes.boards WHERE name = '{name}'")
    # The board row held, so the command's commit waits inside its transaction; its server process
    # is then stopped and the row let go: the commit has been sent and will never be answered.
    holder = subprocess.Popen([psql_bin(), "-X", "-q", "-At", "-h", d, "-p", port, "-U", "postgres", "-d", "lanes"],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    stopped = None
    try:
        holder.stdin.write(f"BEGIN; SELECT 'held' FROM lanes.boards WHERE id = {b} FOR UPDATE;\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "held"
        cmd = subprocess.Popen([str(lanes_bin), "add", url(schema, "alice", name), "--column", "Doing", "typed once"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        pid = wait_until(lambda: psql(schema, "postgres",
                                      "SELECT pid FROM pg_stat_activity WHERE application_name = 'lanes' "
                                      "AND wait_event_type = 'Lock' AND datname = 'lanes'"),
                         "the command's commit to wait for the board row")
        stopped = int(pid)
        os.kill(stopped, signal.SIGSTOP)
        holder.stdin.write("ROLLBACK;\n")
        holder.stdin.flush()
        out, err = cmd.communicate(timeout=ANSWER_SECONDS * SLACK + 60)
        assert cmd.returncode == 1, (cmd.returncode, out, err)
        assert "stopped answering (nothing for 15 s)" in err, err
        assert "nothing of what was being written was committed" in err, err
    finally:
        if stopped:
            os.kill(stopped, signal.SIGCONT)
        holder.stdin.close()
        holder.wait(timeout=30)
    # The server answers again: the same command saves the card, once.
    r = run_lanes(lanes_bin, "add", url(schema, "alice", name), "--column", "Doing", "typed once")
    assert r.returncode == 0, r.stderr
    r = run_lanes(lanes_bin, "show", url(schema, "bob", name))
    assert r.returncode == 0 and r.stdout.count("typed once") == 1, r.stdout + r.stderr


def test_a_pooler_that_stops_is_said_on_the_screen_and_the_move_is_saved_when_it_answers(schema, lanes, lanes_bin,
                                                                                        tmp_path):
    name = "hang-screen"
    team_board(schema, lanes_bin, tmp_path, name)
    pooler = Pooler(schema, mode="transaction", pool_size=2)
    try:
        alice = lanes(None, wait_for="t0", args=[pooler.url("alice", name, listen_port=schema[1])],
                      workdir=tmp_path / "alice")
        bob = lanes(None, wait_for="t0", args=[url(schema, "bob", name)], workdir=tmp_path / "bob")
        os.kill(pooler.pid(), signal.SIGSTOP)
        try:
            alice.send_keys("J")
            alice.wait_status("Offline, reconnecting… your changes are kept", timeout=ANSWER_SECONDS + 15)
        finally:
            os.kill(pooler.pid(), signal.SIGCONT)
        after = [("To do", ["t1", "t0", "t2"]), ("Doing", ["d0"]), ("Done", ["x0"])]
        L = Layout.simple(100, 30, after)
        bob.wait_for(lambda l: column_titles(bob, L, 0, l) == ["t1", "t0", "t2"], timeout=30,
                     what="alice's move, saved once the pooler answers, on bob's screen")
        alice.wait_status("Saved", timeout=30)
        out = tmp_path / "out.md"
        assert run_lanes(lanes_bin, "copy", url(schema, "bob", name), str(out)).returncode == 0
        assert out.read_text() == board_md(after), "saved exactly once"
        assert alice.quit() == 0 and bob.quit() == 0
    finally:
        pooler.close()


def test_a_commit_behind_a_queue_of_writers_is_refused_in_words(schema, lanes_bin, tmp_path):
    """lock_timeout bounds each lock wait, not a statement's: behind a queue, waiting for the board's
    row is one wait after another (the tuple, then each holder's transaction). A commit's wait for
    its board is bounded as a whole (12 s), and said as what it is; nothing is changed."""
    name = "hang-queue"
    team_board(schema, lanes_bin, tmp_path, name)
    d, port = schema
    b = psql(schema, "postgres", f"SELECT id FROM lanes.boards WHERE name = '{name}'")

    def session():
        return subprocess.Popen([psql_bin(), "-X", "-q", "-At", "-h", d, "-p", port, "-U", "postgres", "-d", "lanes"],
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)

    def waiting(app: str) -> int:
        return int(psql(schema, "postgres", f"SELECT count(*) FROM pg_stat_activity WHERE application_name = '{app}' "
                                            "AND wait_event_type = 'Lock' AND datname = 'lanes'"))

    first, second = session(), session()
    try:
        first.stdin.write(f"SET application_name = 'queue-1'; BEGIN; SELECT 'held' FROM lanes.boards WHERE id = {b} FOR UPDATE;\n")
        first.stdin.flush()
        assert first.stdout.readline().strip() == "held"
        second.stdin.write(f"SET application_name = 'queue-2'; BEGIN; SELECT 'next' FROM lanes.boards WHERE id = {b} FOR UPDATE;\n")
        second.stdin.flush()
        wait_until(lambda: waiting("queue-2") == 1, "the second writer to queue for the row")
        cmd = subprocess.Popen([str(lanes_bin), "add", url(schema, "alice", name), "--column", "Doing", "queued"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(lambda: waiting("lanes") == 1, "the command's commit to queue behind both")
        # The first writer lets go a few seconds in (within the lock timeout): the command's wait for
        # the tuple ends, and its wait for the second writer begins, with a lock timeout of its own.
        time.sleep(4)
        first.stdin.write("ROLLBACK;\n")
        first.stdin.flush()
        assert second.stdout.readline().strip() == "next"
        out, err = cmd.communicate(timeout=60 * SLACK)
        assert cmd.returncode == 1, (cmd.returncode, out, err)
        assert "kept it busy for over 12 s; nothing was changed" in err, err
    finally:
        for s in (first, second):
            try:
                s.stdin.write("ROLLBACK;\n")
                s.stdin.close()
            except (BrokenPipeError, ValueError):
                pass
            s.wait(timeout=30)
    r = run_lanes(lanes_bin, "show", url(schema, "bob", name))
    assert r.returncode == 0 and "queued" not in r.stdout, r.stdout + r.stderr
    r = run_lanes(lanes_bin, "add", url(schema, "alice", name), "--column", "Doing", "queued")
    assert r.returncode == 0, r.stderr
