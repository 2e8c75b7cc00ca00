"""Lanes behind PgBouncer (#43), as teams run it: a private pgbouncer in front of the test server.

Transaction pooling hands each transaction whichever server connection is free, so nothing may
live in a session: no named prepared statement (`prepared statement "lanes_0" already exists`
before #43), no session SET (it stayed on the server connection for the next client), no LISTEN
(lost: the URL's `listen=PORT` names the server's own port, where Lanes keeps a session of its
own for it). Session pooling keeps a client's server connection, LISTEN included.
"""

from __future__ import annotations

import subprocess
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from lanes_harness import Layout, board_md
from pg_helpers import Pooler, board_url as url, psql_bin
from test_postgres_cli import BOARD, lanes as run_lanes
from test_postgres_tui import TEAM, column_titles


@pytest.fixture(scope="module")
def schema(pg, lanes_bin, tmp_path_factory):
    """The schema, set up (or found) by the administrator role, directly."""
    f = tmp_path_factory.mktemp("schema") / "setup.md"
    f.write_text(BOARD)
    r = run_lanes(lanes_bin, "copy", "--replace", str(f), url(pg, "lanes_admin", "setuppool"))
    assert r.returncode == 0, r.stderr
    return pg


@pytest.fixture
def pooler(schema, tmp_path, request):
    """A pgbouncer of this test's own: transaction pooling, two server connections per role (so
    clients share them), unless the test is parametrised with (mode, pool size)."""
    mode, size = getattr(request, "param", ("transaction", 2))
    p = Pooler(schema, mode=mode, pool_size=size)
    yield p
    p.close()


def team_board(schema, lanes_bin, tmp_path, name: str) -> None:
    src = tmp_path / f"{name}.md"
    src.write_text(board_md(TEAM))
    r = run_lanes(lanes_bin, "copy", "--replace", str(src), url(schema, "alice", name))
    assert r.returncode == 0, r.stderr
    r = run_lanes(lanes_bin, "grant", url(schema, "alice", name), "bob")
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("pooler", [("transaction", 2), ("session", 2)], indirect=True, ids=["transaction", "session"])
def test_commands_through_the_pooler_all_land_and_converge(pooler, schema, lanes_bin, tmp_path):
    """Twelve adds and moves at once, as two roles, through two pooled server connections: every one
    exits 0 and the board holds each exactly once (before #43: 4 of 6 failed on "lanes_0")."""
    name = f"pool-{pooler.port}"
    team_board(schema, lanes_bin, tmp_path, name)
    jobs = []
    for i in range(8):
        role = ("alice", "bob")[i % 2]
        jobs.append((role, ("add", "--column", "Doing", f"pooled {i}")))
    jobs += [("alice", ("move", "t0", "--to", "Done")), ("bob", ("move", "t1", "--to", "Done")),
             ("alice", ("move", "d0", "--to", "To do")), ("bob", ("show",))]

    def run(job):
        role, args = job
        return job, run_lanes(lanes_bin, args[0], pooler.url(role, name), *args[1:])

    with ThreadPoolExecutor(max_workers=len(jobs)) as ex:
        results = list(ex.map(run, jobs))
    for (role, args), r in results:
        assert r.returncode == 0, f"{role} {' '.join(args)}: exit {r.returncode}: {r.stderr}"
    out = tmp_path / "out.md"
    r = run_lanes(lanes_bin, "copy", pooler.url("bob", name), str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    for i in range(8):
        assert text.count(f"- pooled {i}\n") == 1, text
    done = text.split("## Done", 1)[1]
    assert "- t0\n" in done and "- t1\n" in done, text
    assert "- d0\n" in text.split("## Doing", 1)[0], text
    # The direct server says the same.
    direct = tmp_path / "direct.md"
    assert run_lanes(lanes_bin, "copy", url(schema, "alice", name), str(direct)).returncode == 0
    assert direct.read_text() == text


@pytest.mark.parametrize("pooler", [("transaction", 1)], indirect=True)
def test_nothing_lanes_did_stays_on_the_pooled_server_connection(pooler, schema, lanes_bin, tmp_path):
    """One server connection for every client of a role: what Lanes' commands leave on it is what
    the next client meets. No prepared statement, no lock or statement timeout, no LISTEN (with
    `listen=`, as README says for transaction pooling, a command never LISTENs)."""
    name = f"leak-{pooler.port}"
    team_board(schema, lanes_bin, tmp_path, name)
    for args in (("add", "--column", "Doing", "leak check"), ("move", "t0", "--to", "Done"), ("show",)):
        r = run_lanes(lanes_bin, args[0], pooler.url("alice", name, listen_port=schema[1]), *args[1:])
        assert r.returncode == 0, r.stderr
    # psql through the same pool (the same one server connection), a transaction each statement.
    backend = pooler.psql("alice", "SELECT pg_backend_pid()")
    assert pooler.psql("alice", "SELECT count(*) FROM pg_prepared_statements") == "0"
    assert pooler.psql("alice", "SHOW lock_timeout") == "0"
    assert pooler.psql("alice", "SHOW statement_timeout") == "0"
    assert pooler.psql("alice", "SELECT count(*) FROM pg_listening_channels()") == "0"
    assert pooler.psql("alice", "SELECT pg_backend_pid()") == backend, "the pool has one server connection"
    # ... and inside Lanes' own transactions the timeouts hold (SET LOCAL): a lock is answered in words.
    holder = subprocess.Popen(
        [psql_bin(), "-X", "-q", "-At", "-h", schema[0], "-p", schema[1],
         "-U", "postgres", "-d", "lanes"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        text=True)
    try:
        holder.stdin.write("BEGIN; LOCK TABLE lanes.boards IN ACCESS EXCLUSIVE MODE; SELECT 'held';\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "held"
        r = run_lanes(lanes_bin, "add", pooler.url("bob", name), "--column", "Doing", "waits")
        assert r.returncode == 1, (r.returncode, r.stderr)
        assert "held a lock on the board's tables for over 10 s" in r.stderr, r.stderr
    finally:
        holder.stdin.write("ROLLBACK;\n")
        holder.stdin.close()
        holder.wait(timeout=30)


def test_a_screen_through_transaction_pooling_sees_another_writers_change(pooler, schema, lanes, lanes_bin, tmp_path):
    """Two screens through the pooler (LISTEN on the server's own port, `listen=`), a command
    through it too: each screen shows the others' changes, and the stored board has them once."""
    name = f"screen-{pooler.port}"
    team_board(schema, lanes_bin, tmp_path, name)
    port = schema[1]
    alice = lanes(None, wait_for="t0", args=[pooler.url("alice", name, listen_port=port)], workdir=tmp_path / "alice")
    bob = lanes(None, wait_for="t0", args=[pooler.url("bob", name, listen_port=port)], workdir=tmp_path / "bob")
    # alice moves t0 down with the keyboard (her screen commits through the pool): bob sees it.
    alice.send_keys("J")
    first = [("To do", ["t1", "t0", "t2"]), ("Doing", ["d0"]), ("Done", ["x0"])]
    L1 = Layout.simple(100, 30, first)
    bob.wait_for(lambda l: column_titles(bob, L1, 0, l) == ["t1", "t0", "t2"], timeout=10,
                 what="alice's move, committed through the pooler, on bob's screen")
    # A command through the pool: both screens show it.
    r = run_lanes(lanes_bin, "move", pooler.url("bob", name), "x0", "--to", "To do", "--position", "1")
    assert r.returncode == 0, r.stderr
    after = [("To do", ["x0", "t1", "t0", "t2"]), ("Doing", ["d0"]), ("Done", [])]
    L2 = Layout.simple(100, 30, after)
    for app in (alice, bob):
        app.wait_for(lambda l, app=app: column_titles(app, L2, 0, l) == ["x0", "t1", "t0", "t2"], timeout=10,
                     what="the command's move, through the pooler, on the screen")
    out = tmp_path / "out.md"
    assert run_lanes(lanes_bin, "copy", url(schema, "bob", name), str(out)).returncode == 0
    assert out.read_text() == board_md(after)
    assert alice.quit() == 0 and bob.quit() == 0


@pytest.mark.parametrize("pooler", [("transaction", 1)], indirect=True)
def test_a_screen_shows_others_changes_while_its_own_commit_waits(pooler, schema, lanes, lanes_bin, tmp_path):
    """alice's screen goes through a pool of one server connection, which a psql transaction holds:
    her move waits in the pool, yet cards bob adds directly reach her screen meanwhile (it reads on
    its `listen=` connection, 43.9), her move still shown; once the pool is free the move is saved,
    and her screen and the stored board agree, each card once. Before 43.9 her screen read nothing
    while its commit waited."""
    name = f"beside-{pooler.port}"
    team_board(schema, lanes_bin, tmp_path, name)
    port = schema[1]
    alice = lanes(None, wait_for="t0", args=[pooler.url("alice", name, listen_port=port)], workdir=tmp_path / "alice")

    def doing_on_alices_screen(cards, what):
        shown = [("To do", ["t0", "t1", "t2"]), ("Doing", ["d0", *cards]), ("Done", ["x0"])]
        L = Layout.simple(100, 30, shown)
        alice.wait_for(lambda l: column_titles(alice, L, 1, l) == ["d0", *cards], timeout=10, what=what)

    # Her screen listens: a card bob adds (directly, past the pool) shows up.
    r = run_lanes(lanes_bin, "add", url(schema, "bob", name), "--column", "Doing", "b0")
    assert r.returncode == 0, r.stderr
    doing_on_alices_screen(["b0"], "bob's first card on alice's screen")
    holder = subprocess.Popen(
        [psql_bin(), "-X", "-q", "-At", "-h", "127.0.0.1", "-p", str(pooler.port), "-U", "alice", "-d", "lanes"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        holder.stdin.write("BEGIN; SELECT 'held';\n")
        holder.stdin.flush()
        assert holder.stdout.readline().strip() == "held"
        alice.send_keys("J")  # t0 down: her commit now waits for the pool's one connection
        moved = [("To do", ["t1", "t0", "t2"]), ("Doing", ["d0", "b0"]), ("Done", ["x0"])]
        L = Layout.simple(100, 30, moved)
        alice.wait_for(lambda l: column_titles(alice, L, 0, l) == ["t1", "t0", "t2"], timeout=10,
                       what="alice's move on her screen")
        r = run_lanes(lanes_bin, "add", url(schema, "bob", name), "--column", "Doing", "b1")
        assert r.returncode == 0, r.stderr
        during = [("To do", ["t1", "t0", "t2"]), ("Doing", ["d0", "b0", "b1"]), ("Done", ["x0"])]
        L = Layout.simple(100, 30, during)
        alice.wait_for(lambda l: column_titles(alice, L, 1, l) == ["d0", "b0", "b1"]
                       and column_titles(alice, L, 0, l) == ["t1", "t0", "t2"], timeout=10,
                       what="bob's second card beside alice's unsaved move, while her commit waits")
        # Her move is not stored yet: the commit still waits in the pool.
        out = tmp_path / "during.md"
        assert run_lanes(lanes_bin, "copy", url(schema, "bob", name), str(out)).returncode == 0
        assert out.read_text() == board_md([("To do", ["t0", "t1", "t2"]), ("Doing", ["d0", "b0", "b1"]),
                                            ("Done", ["x0"])])
    finally:
        holder.stdin.write("ROLLBACK;\n")
        holder.stdin.close()
        holder.wait(timeout=30)
    # The pool is free: her move is saved, once, beside bob's cards, and her screen shows the stored board.
    out = tmp_path / "after.md"
    deadline = time.monotonic() + 15
    while True:
        assert run_lanes(lanes_bin, "copy", "--replace", url(schema, "bob", name), str(out)).returncode == 0
        if out.read_text() == board_md(during) or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    assert out.read_text() == board_md(during), "alice's move saved once, bob's cards kept"
    # After her commit's answer, one more card from bob: her screen shows the stored board with it.
    r = run_lanes(lanes_bin, "add", url(schema, "bob", name), "--column", "Done", "b2")
    assert r.returncode == 0, r.stderr
    final = [("To do", ["t1", "t0", "t2"]), ("Doing", ["d0", "b0", "b1"]), ("Done", ["x0", "b2"])]
    L = Layout.simple(100, 30, final)
    alice.wait_for(lambda l: [column_titles(alice, L, k, l) for k in range(3)] == [c for _, c in final], timeout=10,
                   what="the stored board, and bob's last card, on alice's screen")
    assert run_lanes(lanes_bin, "copy", "--replace", url(schema, "bob", name), str(out)).returncode == 0
    assert out.read_text() == board_md(final)
    assert alice.quit() == 0


def test_a_listen_that_is_no_port_is_refused_in_words(schema, lanes_bin):
    d, port = schema
    r = run_lanes(lanes_bin, "show", f"postgresql://alice@/lanes?host={d}&port={port}&listen=db:abc&board=setuppool")
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert "listen=db:abc is not HOST:PORT or PORT" in r.stderr, r.stderr
