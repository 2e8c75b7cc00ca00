"""lanes copy / grant / revoke against a real PostgreSQL server (scripts/pg-test-cluster).

`make e2e` runs pytest under `pg-test-cluster with`, which exports LANES_PG_DIR and LANES_PG_PORT;
run alone, this module starts a cluster of its own and stops it at the end.
"""

from __future__ import annotations

import subprocess

import pytest

from pg_helpers import board_url as url, psql


BOARD = """## To do

- Fix login
    @ 2024-01-31
    > The form rejects valid passwords.
    * [x] Reproduce
- Write docs

## Doing

- Review PR

## Done

- Set up CI
"""


def lanes(lanes_bin, *args, cwd=None):
    return subprocess.run([str(lanes_bin), *args], capture_output=True, text=True, cwd=cwd,
                          stdin=subprocess.DEVNULL, timeout=60)


@pytest.fixture(scope="module")
def schema(pg, lanes_bin, tmp_path_factory):
    """The first copy into the database, by the administrator role, sets up the schema."""
    f = tmp_path_factory.mktemp("schema") / "setup.md"
    f.write_text(BOARD)
    r = lanes(lanes_bin, "copy", str(f), url(pg, "lanes_admin", "setup"))
    assert r.returncode == 0, r.stderr
    return pg


def test_copy_in_and_out_gives_the_same_board(schema, lanes_bin, tmp_path):
    src = tmp_path / "board.md"
    src.write_text(BOARD)
    u = url(schema, "alice", "roundtrip")
    r = lanes(lanes_bin, "copy", str(src), u)
    assert r.returncode == 0, r.stderr
    assert "Copied 4 cards in 3 columns" in r.stdout
    out = tmp_path / "out.md"
    r = lanes(lanes_bin, "copy", u, str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_text() == BOARD
    # Existing destinations need --replace, board and file alike.
    r = lanes(lanes_bin, "copy", str(src), u)
    assert r.returncode == 2 and "add --replace" in r.stderr
    r = lanes(lanes_bin, "copy", u, str(out))
    assert r.returncode == 2 and "add --replace" in r.stderr
    src.write_text(BOARD.replace("- Write docs\n", ""))
    assert lanes(lanes_bin, "copy", "--replace", str(src), u).returncode == 0
    assert lanes(lanes_bin, "copy", "--replace", u, str(out)).returncode == 0
    assert out.read_text() == BOARD.replace("- Write docs\n", "")


def test_a_role_without_a_grant_gets_exit_2_and_reads_nothing(schema, lanes_bin, tmp_path):
    src = tmp_path / "board.md"
    src.write_text(BOARD)
    assert lanes(lanes_bin, "copy", str(src), url(schema, "alice", "private")).returncode == 0
    r = lanes(lanes_bin, "copy", url(schema, "carol", "private"), str(tmp_path / "stolen.md"))
    assert r.returncode == 2
    assert "role carol has no access to board \"private\"" in r.stderr
    assert not (tmp_path / "stolen.md").exists()
    assert psql(schema, "carol", "SELECT count(*) FROM lanes.cards") == "0"
    assert psql(schema, "carol", "SELECT count(*) FROM lanes.boards") == "0"
    assert int(psql(schema, "alice", "SELECT count(*) FROM lanes.cards")) >= 4
    # Bob is no owner: he may not grant. Alice may, and revoke again.
    assert lanes(lanes_bin, "grant", url(schema, "alice", "private"), "bob").returncode == 0
    r = lanes(lanes_bin, "grant", url(schema, "bob", "private"), "carol")
    assert r.returncode == 2 and "may not grant" in r.stderr
    assert lanes(lanes_bin, "grant", url(schema, "alice", "private"), "carol").returncode == 0
    r = lanes(lanes_bin, "copy", url(schema, "carol", "private"), str(tmp_path / "shared.md"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "shared.md").read_text() == BOARD
    assert lanes(lanes_bin, "revoke", url(schema, "alice", "private"), "carol").returncode == 0
    assert psql(schema, "carol", "SELECT count(*) FROM lanes.cards") == "0"
    r = lanes(lanes_bin, "revoke", url(schema, "alice", "private"), "alice")
    assert r.returncode == 2 and "cannot be revoked" in r.stderr


def test_a_password_in_the_url_is_never_printed(schema, lanes_bin, tmp_path):
    src = tmp_path / "board.md"
    src.write_text(BOARD)
    r = lanes(lanes_bin, "copy", str(src), url(schema, "alice", "pw-board", password="hunter2"))
    assert r.returncode == 0, r.stderr
    assert "hunter2" not in r.stdout + r.stderr
    assert f"postgresql://alice@/lanes" in r.stdout
    r = lanes(lanes_bin, "copy", str(src), "postgresql://alice:hunter2@127.0.0.1:1/lanes?board=x")
    assert r.returncode == 1
    assert "offline" in r.stderr and "hunter2" not in r.stderr


def test_accept_rules_travel_with_the_board(schema, lanes_bin, tmp_path):
    src = tmp_path / "board.md"
    src.write_text(BOARD)
    (tmp_path / ".board.md.lanes").write_text('accept "Done" from "Doing"\n')
    u = url(schema, "alice", "ruled")
    assert lanes(lanes_bin, "copy", str(src), u).returncode == 0
    out = tmp_path / "out.md"
    r = lanes(lanes_bin, "copy", u, str(out))
    assert r.returncode == 0, r.stderr
    assert out.read_text() == BOARD
    assert (tmp_path / ".out.md.lanes").read_text() == 'accept "Done" from "Doing"\n'
    # A file-to-file copy takes them along too.
    r = lanes(lanes_bin, "copy", str(src), str(tmp_path / "plain.md"))
    assert r.returncode == 0, r.stderr
    assert (tmp_path / ".plain.md.lanes").read_text() == 'accept "Done" from "Doing"\n'
