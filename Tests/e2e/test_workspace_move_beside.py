"""A move between boards runs beside the screen (#27): a real slow store, a real terminal.

The target is a PostgreSQL board whose row psql (as postgres, in a session of its own) holds
locked FOR UPDATE, so the move's commit really waits on the server. Meanwhile the screen must
keep answering — help opens and closes, the selection moves, a card is added — the status must
say the move is under way, an edit of the card on its way is refused in words, and nothing is
saved to either board. Once psql commits, the move finishes, the held card typed meanwhile is
saved, and every card is on exactly one board.
"""

from __future__ import annotations

import os
import select
import subprocess
import time

import pytest

from lanes_harness import board_md, cards_of
from pg_helpers import board_url as url, psql_bin
from test_postgres_cli import lanes as run_lanes

A = [("To do", ["a0", "a1", "a2"]), ("Done", ["a3"])]
TEAM = [("Inbox", ["t0"]), ("Doing", ["t1"])]


@pytest.fixture(scope="module")
def schema(pg, lanes_bin, tmp_path_factory):
    f = tmp_path_factory.mktemp("schema") / "setup.md"
    f.write_text(board_md([("x", [])]))
    r = run_lanes(lanes_bin, "copy", "--replace", str(f), url(pg, "lanes_admin", "setup"))
    assert r.returncode == 0, r.stderr
    return pg


class Holder:
    """psql as postgres in a session of its own, holding a transaction open."""

    def __init__(self, pg):
        d, port = pg
        self.p = subprocess.Popen([psql_bin(), "-X", "-At", "-v", "ON_ERROR_STOP=1", "-h", d, "-p", port, "-U", "postgres", "-d", "lanes"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)

    def ask(self, sql: str) -> str:
        marker = f"marker-{time.monotonic_ns()}"
        self.p.stdin.write(f"{sql}\nSELECT '{marker}';\n")
        self.p.stdin.flush()
        data = b""
        deadline = time.monotonic() + 10
        while marker.encode() not in data:
            ready, _, _ = select.select([self.p.stdout.fileno()], [], [], max(0, deadline - time.monotonic()))
            if not ready:
                raise AssertionError(f"psql did not answer: {data!r}")
            data += os.read(self.p.stdout.fileno(), 65536)
        return data.decode().split(marker)[0]

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=10)


def team_cards(lanes_bin, schema, name, tmp_path) -> list[str]:
    out = tmp_path / f"{name}-now.md"
    r = run_lanes(lanes_bin, "copy", "--replace", url(schema, "alice", name), str(out))
    assert r.returncode == 0, r.stderr
    return cards_of(out.read_text())


def test_a_move_to_a_locked_postgresql_board_leaves_the_screen_answering_then_finishes(lanes, lanes_bin, schema, tmp_path):
    name = f"beside{int(time.time() * 1000) % 10**9}"
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

    holder = Holder(schema)
    try:
        out = holder.ask(f"BEGIN; SELECT id FROM lanes.boards WHERE name = '{name}' FOR UPDATE;")
        assert out.strip().splitlines()[-1].isdigit(), out

        app.send_keys("m")
        app.wait_for(lambda l: "Move “a0” to board:column[:N]" in l[-1], what="the move prompt")
        app.send_literal(f"{name}:Doing")
        app.send_keys("Enter")
        app.wait_status(f"Moving “a0” to {name}, “Doing”…")

        # The move waits on the server; the screen answers: help opens and closes.
        time.sleep(0.3)
        app.send_keys("?")
        app.wait_for("Mouse: press on a card, drag it", what="the help")
        app.send_keys("Escape")
        app.wait_for(lambda l: "Mouse: press on a card" not in "\n".join(l) and "a0" in "\n".join(l), what="the help closed")
        # The card on its way cannot be edited; its neighbour can, and a new card is typed.
        app.send_keys("x")
        app.wait_status(f"“a0” is moving to {name}; edit it there once the move is done")
        app.send_keys("j", "a")
        app.wait_for(lambda l: "New card:" in l[-1], what="the new-card prompt")
        app.send_literal("typed while it moved")
        app.send_keys("Enter")
        app.wait_for("typed while it moved", what="the typed card on the screen")
        # A second move is refused while one runs.
        app.send_keys("m")
        app.wait_status("One move between boards at a time")
        # Still waiting: nothing written to either board.
        time.sleep(0.5)
        assert cards_of(a.read_text()) == ["a0", "a1", "a2", "a3"], "A.md's saves wait for the move"
        waiting = holder.ask(f"SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = 'lanes';")
        assert waiting.strip().splitlines()[-1] != "0", f"the move waits on the server's lock: {waiting}"

        holder.ask("COMMIT;")
    finally:
        holder.close()

    app.wait_status(f"Moved “a0” to {name}, “Doing” at 2", timeout=15)
    deadline = time.monotonic() + 15
    want = (["a1", "typed while it moved", "a2", "a3"], ["t0", "t1", "a0"])
    while True:
        got = (cards_of(a.read_text()), team_cards(lanes_bin, schema, name, tmp_path))
        if got == want:
            break
        if time.monotonic() > deadline:
            raise AssertionError(f"A.md {got[0]}, team {got[1]}; expected {want}\n{app.dump()}")
        time.sleep(0.2)
    titles = got[0] + got[1]
    assert len(titles) == len(set(titles)) == 7, f"every card exactly once: {titles}"
    app.wait_for(lambda l: l[0].startswith(f" A.md (4) │ {name} (3)"), what="the counts on the tabs")
    assert app.quit() == 0


# ----------------------------------------------------------------------------- lanes DIR

def big(head: str, cards: int = 400) -> str:
    return head + "".join(f"- card {i} with a title long enough\n" for i in range(cards))


def test_a_folder_opens_before_its_files_are_read_and_a_late_non_board_is_said_and_left_alone(lanes, tmp_path):
    """A first, then a large file that starts as a board and goes wrong past the 4 KB read up front,
    a small README (decided up front, as before) and a board after it: the late one's tab says why
    it is no board, the others work, and it is byte for byte as it was after a move and quitting."""
    d = tmp_path / "folder"
    d.mkdir()
    (d / "A.md").write_text(board_md(A))
    broken = big("## Backlog\n\n") + "stray text\n"
    (d / "B-late.md").write_text(broken)
    (d / "C.md").write_text(board_md([("Ideas", ["c0"])]))
    (d / "README.md").write_text("# About these boards\n\nProse.\n")
    app = lanes(None, wait_for="a0", args=[str(d)], workdir=tmp_path / "cwd")
    app.wait_for(lambda l: l[0].startswith(" A.md (4) │ B-late.md (!) │ C.md (1) │"), what="the late file's tab marked")
    status = " ".join(r.strip() for r in app.status_rows())
    assert "skipped 1 file: README.md (line 1: expected \"## \" column heading" in status, status
    app.send_keys("C-n")
    app.wait_for("Could not open B-late.md:", what="the late file's place")
    app.wait_for(lambda l: "B-late.md is not a board (line 403:" in "\n".join(l), what="why, in words")
    app.send_keys("a")
    app.wait_status("B-late.md could not be opened")
    app.send_keys("C-n")
    app.wait_for(lambda l: "Lanes · C.md" in l[1] and "c0" in app.screen(), what="C shown")
    app.send_keys("C-p", "C-p")
    app.wait_for(lambda l: "Lanes · A.md" in l[1], what="A shown")
    app.send_keys("m")
    app.wait_for(lambda l: "Move “a0” to board:column[:N]" in l[-1], what="the move prompt")
    app.send_literal("B-late.md:Backlog")
    app.send_keys("Enter")
    app.wait_status("Not moved: B-late.md could not be opened; nothing was moved")
    # The prompt is open again with what was typed; esc closes it.
    app.wait_for(lambda l: l[-1].rstrip().endswith("B-late.md:Backlog"), what="the text kept in the prompt")
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    assert app.quit() == 0
    assert (d / "B-late.md").read_text() == broken, "never written"
    assert cards_of((d / "A.md").read_text()) == ["a0", "a1", "a2", "a3"]
