"""A member's raw SQL (psql) reaches open Lanes screens, and reaches nothing else (schema migration 4).

Row-level security lets a member write their board's rows with plain SQL. The schema's triggers
then raise the board's version, stamp the written rows and send the board's NOTIFY, as Lanes'
own commits do: an open screen shows the change. They run as the writer, so a raw write to a board
one is not a member of raises nothing and notifies nobody.
"""

from __future__ import annotations

import os
import select
import subprocess
import time

import pytest

from lanes_harness import board_md
from pg_helpers import board_url as url, psql, psql_bin

TEAM = [("To do", ["t0", "t1", "t2"]), ("Doing", ["d0"]), ("Done", ["x0"])]


def run_lanes(lanes_bin, *args):
    return subprocess.run([str(lanes_bin), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


@pytest.fixture(scope="module")
def schema(pg, lanes_bin, tmp_path_factory):
    """The schema, set up (or brought up to date) by its owner, lanes_admin."""
    f = tmp_path_factory.mktemp("schema") / "setup.md"
    f.write_text(board_md(TEAM))
    r = run_lanes(lanes_bin, "copy", "--replace", str(f), url(pg, "lanes_admin", "raw-writes-setup"))
    assert r.returncode == 0, r.stderr
    return pg


def team_board(schema, lanes_bin, tmp_path, name, grant=("bob",)):
    """alice's board `name` (fresh: the test's own) with TEAM on it; returns its id."""
    src = tmp_path / f"{name}.md"
    src.write_text(board_md(TEAM))
    r = run_lanes(lanes_bin, "copy", str(src), url(schema, "alice", name))
    assert r.returncode == 0, r.stderr
    for role in grant:
        r = run_lanes(lanes_bin, "grant", url(schema, "alice", name), role)
        assert r.returncode == 0, r.stderr
    return int(psql(schema, "postgres", f"SELECT id FROM lanes.boards WHERE name = '{name}'"))


def test_a_members_psql_update_insert_and_delete_show_on_open_screens(lanes, schema, lanes_bin, tmp_path):
    name = f"raw-live-{os.getpid()}"
    b = team_board(schema, lanes_bin, tmp_path, name)
    alice = lanes(None, wait_for="t0", args=[url(schema, "alice", name)], workdir=tmp_path / "alice")
    bob = lanes(None, wait_for="t0", args=[url(schema, "bob", name)], workdir=tmp_path / "bob")
    version = int(psql(schema, "postgres", f"SELECT version FROM lanes.boards WHERE id = {b}"))

    # bob, in psql, retitles t1: both screens show it.
    out = psql(schema, "bob", f"UPDATE lanes.cards SET title = 'renamed in psql' WHERE board_id = {b} AND title = 't1'")
    assert out == "UPDATE 1"
    for app in (alice, bob):
        app.wait_for("renamed in psql", timeout=10, what="bob's psql UPDATE on the open screen")
    assert int(psql(schema, "postgres", f"SELECT version FROM lanes.boards WHERE id = {b}")) == version + 1

    # A card inserted and one deleted in one transaction: one new version, both on the screens.
    doing = psql(schema, "bob", f"SELECT id FROM lanes.columns WHERE board_id = {b} AND title = 'Doing'")
    psql(schema, "bob", f"""BEGIN;
        INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ({b}, 424242, {doing}, 'zz', 'added in psql', 1);
        INSERT INTO lanes.card_deletions (board_id, id) SELECT board_id, id FROM lanes.cards WHERE board_id = {b} AND title = 'x0';
        COMMIT;""")
    for app in (alice, bob):
        app.wait_for(lambda lines: any("added in psql" in l for l in lines) and not any(" x0" in l for l in lines),
                     timeout=10, what="bob's psql INSERT and DELETE on the open screen")
    assert int(psql(schema, "postgres", f"SELECT version FROM lanes.boards WHERE id = {b}")) == version + 2

    # A column renamed in psql.
    psql(schema, "bob", f"UPDATE lanes.columns SET title = 'Finished' WHERE board_id = {b} AND title = 'Done'")
    for app in (alice, bob):
        app.wait_for("Finished", timeout=10, what="bob's psql column rename on the open screen")

    # Lanes' own move on top of the raw changes still commits once, and the history has them all.
    alice.send_keys("J")
    bob.wait_for(lambda lines: any("t0" in l for l in lines), timeout=10)
    out = tmp_path / "out.md"
    assert run_lanes(lanes_bin, "copy", url(schema, "bob", name), str(out)).returncode == 0
    text = out.read_text()
    assert "renamed in psql" in text and "added in psql" in text and "x0" not in text and "## Finished" in text
    assert text.count("- t0") == 1
    kinds = psql(schema, "alice", f"SELECT string_agg(kind, ',' ORDER BY id) FROM lanes.history WHERE board_id = {b} AND role = 'bob'")
    assert kinds.split(",")[:4] == ["edited", "added", "deleted", "edited"], kinds
    assert alice.quit() == 0 and bob.quit() == 0


class Listener:
    """psql as postgres LISTENing on a channel; `notified()` says whether anything arrived since the last look."""

    def __init__(self, pg, channel: str):
        d, port = pg
        self.p = subprocess.Popen([psql_bin(), "-X", "-At", "-h", d, "-p", port, "-U", "postgres", "-d", "lanes"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        self.fd = self.p.stdout.fileno()
        self.channel = channel
        self.ask(f'LISTEN "{channel}";')

    def ask(self, sql: str) -> list[str]:
        """Runs `sql` and a marker query; returns the lines psql printed before the marker."""
        marker = f"marker-{time.monotonic_ns()}"
        self.p.stdin.write(f"{sql}\nSELECT '{marker}';\n")
        self.p.stdin.flush()
        data = b""
        deadline = time.monotonic() + 10
        while marker.encode() not in data:
            left = deadline - time.monotonic()
            ready, _, _ = select.select([self.fd], [], [], max(0, left))
            if not ready:
                raise AssertionError(f"psql did not answer: {data!r}")
            data += os.read(self.fd, 65536)
        return [l.strip() for l in data.decode().split(marker)[0].splitlines()]

    def notified(self) -> bool:
        return any(f'notification "{self.channel}"' in l for l in self.ask("SELECT 1;"))

    def close(self):
        self.p.stdin.close()
        self.p.wait(timeout=10)


@pytest.mark.parametrize("role", ["bob", "carol", "dave"])
def test_a_raw_write_to_a_board_one_is_not_a_member_of_raises_and_notifies_nothing(schema, lanes_bin, tmp_path, role):
    """Board P (alice's, bob a member) and board Q (alice's alone): bob, carol and dave write Q's rows raw."""
    psql(schema, "postgres", "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'dave') THEN CREATE ROLE dave LOGIN; END IF; END $$")
    p = team_board(schema, lanes_bin, tmp_path, f"raw-p-{role}-{os.getpid()}", grant=("bob",))
    q = team_board(schema, lanes_bin, tmp_path, f"raw-q-{role}-{os.getpid()}", grant=())
    channel = psql(schema, "postgres", f"SELECT channel FROM lanes.board_names WHERE board_id = {q}")
    state = lambda: psql(schema, "postgres", f"SELECT version || '|' || (SELECT string_agg(title || seq, ',' ORDER BY id) FROM lanes.cards WHERE board_id = {q}) FROM lanes.boards WHERE id = {q}")  # noqa: E731
    before = state()
    listener = Listener(schema, channel)
    try:
        assert not listener.notified()
        qcol = psql(schema, "postgres", f"SELECT id FROM lanes.columns WHERE board_id = {q} LIMIT 1")
        pcol = psql(schema, "postgres", f"SELECT id FROM lanes.columns WHERE board_id = {p} LIMIT 1")
        qcard = psql(schema, "postgres", f"SELECT id FROM lanes.cards WHERE board_id = {q} LIMIT 1")
        attacks = [
            f"UPDATE lanes.cards SET title = 'x' WHERE board_id = {q}",
            f"UPDATE lanes.cards SET seq = seq + 1000 WHERE board_id = {q}",
            f"DELETE FROM lanes.cards WHERE board_id = {q}",
            f"INSERT INTO lanes.card_deletions (board_id, id) SELECT board_id, id FROM lanes.cards WHERE board_id = {q}",
            f"INSERT INTO lanes.card_deletions (board_id, id) VALUES ({q}, {qcard})",
            f"UPDATE lanes.columns SET title = 'x' WHERE board_id = {q}",
            f"UPDATE lanes.boards SET accept_rules = 'x' WHERE id = {q}",
            f"UPDATE lanes.boards SET version = version + 1 WHERE id = {q}",
            f"INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ({q}, 990001, {qcol}, 'zz', 'planted', 999999)",
            # Rows of one's own board that name the other board's column, or claim a far version.
            f"INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ({p}, 990002, {qcol}, 'zz', 'planted', 1)",
            f"UPDATE lanes.cards SET column_id = {qcol} WHERE board_id = {p}",
            # A statement on one's own board and the other one's at once: only one's own is touched.
            f"UPDATE lanes.cards SET title = title || '~' WHERE board_id IN ({p}, {q})",
        ]
        for sql in attacks:
            r = subprocess.run([psql_bin(), "-X", "-At", "-h", schema[0], "-p", schema[1], "-U", role, "-d", "lanes", "-c", sql],
                               capture_output=True, text=True, stdin=subprocess.DEVNULL)
            assert r.returncode != 0 or r.stdout.strip() in ("UPDATE 0", "DELETE 0", "INSERT 0 0") or (role == "bob" and str(p) in sql), (role, sql, r.stdout, r.stderr)
            assert state() == before, f"{role}: {sql} changed board Q"
            assert not listener.notified(), f"{role}: {sql} notified board Q's channel"
        # The trigger functions cannot be called, dropped or switched off.
        for sql in ["SELECT lanes.stamp_written_rows()", "SELECT lanes.raise_board_version()",
                    "DROP FUNCTION lanes.stamp_written_rows() CASCADE",
                    "ALTER TABLE lanes.cards DISABLE TRIGGER cards_stamp_update",
                    "DROP TRIGGER boards_raise_version ON lanes.boards",
                    "SET session_replication_role = replica"]:
            r = subprocess.run([psql_bin(), "-X", "-At", "-h", schema[0], "-p", schema[1], "-U", role, "-d", "lanes", "-c", sql],
                               capture_output=True, text=True, stdin=subprocess.DEVNULL)
            assert r.returncode != 0, (role, sql, r.stdout)
        # The owner's own raw write does raise Q's version and notify its channel.
        psql(schema, "alice", f"UPDATE lanes.cards SET title = 'owner was here' WHERE board_id = {q} AND title = 't0'")
        assert listener.notified()
        assert state() != before
    finally:
        listener.close()
