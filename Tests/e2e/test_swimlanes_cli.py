"""End-to-end tests of `lanes swimlanes` and `lanes show` with lanes, through the real binary.

The binary is $LANES_BIN or .build/debug/lanes (build first). Each test works in its own temp folder.
"""

import os
import subprocess
from pathlib import Path

import pytest

from pg_helpers import board_url as pg_url, psql

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("LANES_BIN", ROOT / ".build" / "debug" / "lanes"))

BOARD = """## To do

- Fix login #frontend
    > The form loses the password
- Write docs

## Done

- Ship it #backend #frontend
- API #Backend

"""

SHOW_PLAIN = """Column 1: To do (2 cards)
  1. Fix login #frontend
  2. Write docs

Column 2: Done (2 cards)
  3. Ship it #backend #frontend
  4. API #Backend
"""

SHOW_LANES = """Lane 1: #frontend (2 cards)
  To do (1 card)
    1. Fix login #frontend
  Done (1 card)
    3. Ship it #backend #frontend   (also in #backend)

Lane 2: #backend (1 card)
  To do (0 cards)
    (no cards)
  Done (1 card)
    4. API #Backend

No lane (1 card)
  To do (1 card)
    2. Write docs
  Done (0 cards)
    (no cards)
"""

HEADER = "# Lanes accept rules: accept \"COLUMN\" from \"COLUMN\" … (a column without a rule accepts from all)\n"


@pytest.fixture(scope="session", autouse=True)
def binary_exists():
    if not BIN.exists():
        pytest.fail(f"lanes binary not found at {BIN}; run `swift build` or set LANES_BIN")


def lanes(*args, cwd=None):
    return subprocess.run([str(BIN), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=60)


@pytest.fixture
def board(tmp_path):
    path = tmp_path / "board.md"
    path.write_bytes(BOARD.encode())
    return path


def sidecar(board):
    return board.parent / f".{board.name}.lanes"


def test_set_print_show_and_remove_lanes_leave_the_board_file_alone(board):
    before = os.stat(board)
    assert lanes("show", board).stdout == SHOW_PLAIN
    r = lanes("swimlanes", board)
    assert (r.returncode, r.stdout, r.stderr) == (0, "No swimlanes: the board shows as columns. "
                                                     "lanes swimlanes BOARD --tag TAG … sets them.\n", "")
    assert not sidecar(board).exists()

    r = lanes("swimlanes", board, "--tag", "frontend", "--tag", "#backend")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == "Swimlanes: #frontend (2 cards), #backend (1 card); No lane (1 card).\n"
    assert sidecar(board).read_text() == HEADER + "swimlanes \"frontend\" \"backend\"\n"
    after = os.stat(board)
    assert board.read_bytes() == BOARD.encode()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns), "the board file was not rewritten"

    r = lanes("swimlanes", board)
    assert (r.returncode, r.stdout, r.stderr) == (0, "1\t#frontend\t2 cards\n2\t#backend\t1 card\n\tNo lane\t1 card\n", "")
    r = lanes("show", board)
    assert (r.returncode, r.stdout, r.stderr) == (0, SHOW_LANES, "")
    r = lanes("show", "--details", board)
    assert "    1. Fix login #frontend\n" + " " * 9 + "> The form loses the password\n" in r.stdout

    # Order is the order given.
    r = lanes("swimlanes", board, "--tag", "backend", "--tag", "frontend")
    assert r.returncode == 0
    assert sidecar(board).read_text() == HEADER + "swimlanes \"backend\" \"frontend\"\n"
    assert lanes("show", board).stdout.startswith("Lane 1: #backend (2 cards)\n  To do (0 cards)\n    (no cards)\n"
                                                  "  Done (2 cards)\n    3. Ship it #backend #frontend   (also in #frontend)\n")

    r = lanes("swimlanes", board, "--none")
    assert (r.returncode, r.stdout, r.stderr) == (0, "No swimlanes: the board shows as columns.\n", "")
    assert not sidecar(board).exists(), "a sidecar holding only Lanes' own header goes"
    assert lanes("show", board).stdout == SHOW_PLAIN
    assert board.read_bytes() == BOARD.encode()
    assert os.stat(board).st_ino == before.st_ino


def test_a_sidecar_with_comments_and_rules_keeps_them(board):
    text = "# Team settings\naccept \"Done\" from \"To do\"   # review later\n\n"
    sidecar(board).write_text(text)
    assert lanes("swimlanes", board, "--tag", "frontend").returncode == 0
    assert sidecar(board).read_text() == text + "swimlanes \"frontend\"\n"
    sidecar(board).write_text(sidecar(board).read_text().replace("swimlanes \"frontend\"", "swimlanes frontend  # by team"))
    assert lanes("swimlanes", board, "--tag", "backend", "--tag", "frontend").returncode == 0
    assert sidecar(board).read_text() == text + "swimlanes \"backend\" \"frontend\"  # by team\n"
    assert lanes("swimlanes", board, "--none").returncode == 0
    assert sidecar(board).read_text() == text
    assert board.read_bytes() == BOARD.encode()


@pytest.mark.parametrize("args, message", [
    (["--tag", "front end"], "lanes: --tag: \"front end\" is not a tag: a tag is letters, digits, _, - and / (no spaces, no #)\n"),
    (["--tag", "frontend", "--tag", "FrontEnd"], "lanes: --tag: lane \"FrontEnd\" is named twice (tags are compared ignoring case)\n"),
])
def test_bad_tags_are_refused_and_nothing_is_written(board, args, message):
    sidecar(board).write_text("# mine\n")
    r = lanes("swimlanes", board, *args)
    assert (r.returncode, r.stdout, r.stderr) == (2, "", message)
    assert sidecar(board).read_text() == "# mine\n"
    assert board.read_bytes() == BOARD.encode()


def test_tag_and_none_together_is_a_usage_error(board):
    r = lanes("swimlanes", board, "--tag", "a", "--none")
    assert r.returncode == 2
    assert "give either --tag (one or more) or --none" in r.stderr
    assert not sidecar(board).exists()


@pytest.mark.parametrize("line, message", [
    ("swimlanes \"front end\"", "\"front end\" is not a tag: a tag is letters, digits, _, - and / (no spaces, no #)"),
    ("swimlanes a A", "lane \"A\" is named twice (tags are compared ignoring case)"),
    ("swimlanes", "swimlanes with no lane: name at least one tag, or remove the line"),
])
def test_a_bad_lanes_line_is_reported_with_file_and_line(board, line, message):
    text = "# mine\n" + line + "\n"
    sidecar(board).write_text(text)
    for command in (["show", board], ["swimlanes", board], ["swimlanes", board, "--tag", "x"]):
        r = lanes(*command)
        assert (r.returncode, r.stdout, r.stderr) == (2, "", f"{sidecar(board)}:2: {message}\n"), command
    assert sidecar(board).read_text() == text
    assert board.read_bytes() == BOARD.encode()


# --- PostgreSQL: the lanes travel in the board's settings text (accept_rules), no schema change ---



def test_swimlanes_on_a_postgresql_board(pg, board, tmp_path):
    setup = tmp_path / "setup.md"
    setup.write_text(BOARD)
    assert lanes("copy", setup, pg_url(pg, "lanes_admin", "lanes-setup")).returncode == 0  # the schema
    sidecar(board).write_text("# kept\n")
    alice = pg_url(pg, "alice", "team-lanes")
    r = lanes("copy", board, alice)
    assert r.returncode == 0, r.stderr
    plain = tmp_path / "plain.md"
    assert lanes("copy", alice, plain).returncode == 0
    r = lanes("swimlanes", alice, "--tag", "frontend", "--tag", "backend")
    assert (r.returncode, r.stdout, r.stderr) == (0, "Swimlanes: #frontend (2 cards), #backend (1 card); No lane (1 card).\n", "")
    assert psql(pg, "alice", "SELECT accept_rules FROM lanes.boards WHERE name = 'team-lanes'") \
        == "# kept\nswimlanes \"frontend\" \"backend\""
    # Another role with access sees them: they are the board's, not this client's.
    assert lanes("grant", alice, "bob").returncode == 0
    r = lanes("show", pg_url(pg, "bob", "team-lanes"))
    assert (r.returncode, r.stdout, r.stderr) == (0, SHOW_LANES, "")
    # Copied out, they come back in the sidecar; the board file is as it was copied out before the lanes.
    out = tmp_path / "out.md"
    assert lanes("copy", alice, out).returncode == 0
    assert out.read_text() == plain.read_text()
    assert sidecar(out).read_text() == "# kept\nswimlanes \"frontend\" \"backend\"\n"
    r = lanes("swimlanes", pg_url(pg, "bob", "team-lanes"), "--none")
    assert r.returncode == 0, r.stderr
    assert lanes("swimlanes", alice).stdout.startswith("No swimlanes")
    assert psql(pg, "alice", "SELECT accept_rules FROM lanes.boards WHERE name = 'team-lanes'") == "# kept"
