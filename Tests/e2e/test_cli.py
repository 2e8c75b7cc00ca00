"""End-to-end tests of the scripting commands through the real `lanes` binary.

The binary is $LANES_BIN or .build/debug/lanes (build first). Every test works in
its own temp folder. Trello fixtures are the committed ones in Tests/Fixtures; the real
files in <package root>/../shared/fixtures are used where that folder exists (in CI) and
their tests are skipped, with the reason, where it does not.
"""

import fcntl
import json
import os
import pty
import select
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("LANES_BIN", ROOT / ".build" / "debug" / "lanes"))
FIXTURES = ROOT / "Tests" / "Fixtures"
SHARED = (ROOT / ".." / "shared" / "fixtures").resolve()
# The interop tests on real exports run only where the shared folder is beside the package.
needs_shared = pytest.mark.skipif(not SHARED.is_dir(), reason=f"interop suite skipped: {SHARED} is not there "
                                  "(real Trello exports; present in CI)")

BOARD = """## To do

- Write docs
    @ 2024-01-31
    > About the docs
    * [x] outline
    * [ ] draft
- Write tests
- Fix bug

## Doing (2)

- Review

## Done

- Fix bug

"""

OBSIDIAN = """---

kanban-plugin: board

---

## Doing

- [ ] Fix bug #urgent @{2025/6/30}
    - [x] find it


## Complete

**Complete**
- [x] Ship it




%% kanban:settings
```
{"kanban-plugin":"board"}
```
%%
"""

BROKEN = "## To do\n\n- A card\n  two-space detail\n"


@pytest.fixture(scope="session", autouse=True)
def binary_exists():
    if not BIN.exists():
        pytest.fail(f"lanes binary not found at {BIN}; run `swift build` or set LANES_BIN")


def fixture(name, folder=FIXTURES):
    path = folder / name
    if not path.exists():
        pytest.fail(f"fixture missing: {path}")
    return path


def lanes(*args, cwd=None):
    return subprocess.run([str(BIN), *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=60)


def write(path, text):
    path.write_bytes(text.encode())
    return path


def only_files(folder):
    return sorted(p.name for p in folder.iterdir())


@pytest.fixture
def board(tmp_path):
    return write(tmp_path / "board.md", BOARD)


# --- help, version, completions ---------------------------------------------------------


@pytest.mark.parametrize("command", [[], ["open"], ["show"], ["columns"], ["add"], ["move"], ["rules"], ["export"],
                                     ["import"], ["import", "trello"]])
def test_help_for_every_command(command):
    r = lanes(*command, "--help")
    assert r.returncode == 0, r.stderr
    assert "USAGE: lanes" in r.stdout
    assert r.stderr == ""


def test_root_help_keeps_the_terminal_ui_as_default():
    r = lanes("--help")
    assert "lanes [FILE]" in r.stdout
    assert "open (default)" in r.stdout
    for name in ["show", "columns", "add", "move", "rules", "export", "import"]:
        assert f"\n  {name} " in r.stdout


def test_version():
    r = lanes("--version")
    assert r.returncode == 0 and r.stdout.strip() == "0.1.0"


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_scripts(shell):
    r = lanes("--generate-completion-script", shell)
    assert r.returncode == 0, r.stderr
    for name in ["show", "move", "export", "trello", "include-archived"]:
        assert name in r.stdout


def test_bash_completion_script_is_valid_bash(tmp_path):
    script = write(tmp_path / "lanes.bash", lanes("--generate-completion-script", "bash").stdout)
    r = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def test_plain_lanes_file_still_opens_the_terminal_ui(tmp_path):
    path = write(tmp_path / "b.md", BOARD)
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["TERM"] = "xterm-256color"
        os.environ["XDG_CONFIG_HOME"] = str(tmp_path / "config")
        os.execv(str(BIN), [str(BIN), str(path)])
    seen = b""
    deadline = time.time() + 20
    try:
        while b"Write docs" not in seen and time.time() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    break
        assert b"Lanes \xc2\xb7 b.md" in seen and b"Write docs" in seen
        os.write(fd, b"q")
        deadline = time.time() + 20
        while time.time() < deadline:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            ready, _, _ = select.select([fd], [], [], 0.2)
            if ready:
                try:
                    os.read(fd, 65536)
                except OSError:
                    pass
        else:
            pytest.fail("lanes did not quit on q")
        assert os.waitstatus_to_exitcode(status) == 0
    finally:
        try:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)
    assert path.read_text() == BOARD


# --- show and columns ---------------------------------------------------------------------


def test_show(board):
    r = lanes("show", board)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        "Column 1: To do (3 cards)\n"
        "  1. Write docs   due 2024-01-31   sub-tasks 1/2\n"
        "  2. Write tests\n"
        "  3. Fix bug\n"
        "\n"
        "Column 2: Doing (1 card, limit 2)\n"
        "  4. Review\n"
        "\n"
        "Column 3: Done (1 card)\n"
        "  5. Fix bug\n"
    )


def test_show_details_and_obsidian(tmp_path):
    path = write(tmp_path / "o.md", OBSIDIAN)
    r = lanes("show", "--details", path)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        "Column 1: Doing (1 card)\n"
        "  1. Fix bug #urgent   due 2025/6/30   sub-tasks 1/1\n"
        "       [x] find it\n"
        "\n"
        "Column 2: Complete (1 card)\n"
        "  2. [x] Ship it\n"
    )


def test_columns(board):
    r = lanes("columns", board)
    assert r.returncode == 0
    assert r.stdout == "1\tTo do\t3\n2\tDoing\t1/2\n3\tDone\t1\n"


# --- add -------------------------------------------------------------------------------------


def test_add_appends_and_prepends(board):
    r = lanes("add", board, "--column", "done", "Celebrate")
    assert r.returncode == 0, r.stderr
    assert r.stdout == 'Added card 6 to "Done" at position 2.\n'
    r = lanes("add", board, "-c", "1", "--top", "Plan")
    assert r.returncode == 0, r.stderr
    assert r.stdout == 'Added card 1 to "To do" at position 1.\n'
    text = board.read_text()
    assert text.startswith("## To do\n\n- Plan\n- Write docs\n    @ 2024-01-31\n")
    assert text.endswith("## Done\n\n- Fix bug\n- Celebrate\n\n")  # the file's trailing blank line stays
    assert only_files(board.parent) == ["board.md"]


def test_add_errors_leave_the_file_alone(board):
    cases = [
        (["--column", "Later", "x"], 1, 'lanes: no column matches "Later"; the columns are "To do", "Doing", "Done"; '
                                       'lanes column add BOARD "Later" adds it\n'),
        (["--column", "Do", "x"], 2, 'lanes: "Do" matches 2 columns: 2 "Doing", 3 "Done"; give the column\'s number or more of its title\n'),
        (["--column", "Done", "  "], 2, "lanes: the card title is empty\n"),
    ]
    for args, status, message in cases:
        r = lanes("add", board, *args)
        assert (r.returncode, r.stderr, r.stdout) == (status, message, "")
    assert board.read_text() == BOARD


def test_add_to_a_full_column_needs_force(board):
    write(board, BOARD.replace("## Doing (2)", "## Doing (1)"))
    r = lanes("add", board, "--column", "Doing", "More")
    assert r.returncode == 2
    assert r.stderr == 'lanes: column "Doing" is full (WIP limit 1); --force adds anyway\n'
    assert lanes("add", board, "--column", "Doing", "--force", "More").returncode == 0
    assert "- Review\n- More\n" in board.read_text()


# --- move --------------------------------------------------------------------------------------


def test_move_by_number_prefix_and_position(board):
    r = lanes("move", board, "4", "--to", "Done")
    assert r.returncode == 0, r.stderr
    assert r.stdout == 'Moved "Review" to "Done" at position 2 (now card 5).\n'
    r = lanes("move", board, "write t", "--to", "done", "--position", "1")
    assert r.returncode == 0, r.stderr
    text = board.read_text()
    assert text.startswith(
        "## To do\n\n- Write docs\n    @ 2024-01-31\n    > About the docs\n    * [x] outline\n    * [ ] draft\n"
        "- Fix bug\n\n## Doing (2)\n\n")
    assert text.endswith("## Done\n\n- Write tests\n- Fix bug\n- Review\n\n")
    assert lanes("columns", board).stdout == "1\tTo do\t2\n2\tDoing\t0/2\n3\tDone\t3\n"


def test_move_keeps_obsidian(tmp_path):
    path = write(tmp_path / "o.md", OBSIDIAN)
    r = lanes("move", path, "ship", "--to", "Doing", "-p", "1")
    assert r.returncode == 0, r.stderr
    assert path.read_text() == OBSIDIAN.replace(
        "- [ ] Fix bug #urgent @{2025/6/30}\n    - [x] find it\n",
        "- [x] Ship it\n- [ ] Fix bug #urgent @{2025/6/30}\n    - [x] find it\n",
    ).replace("**Complete**\n- [x] Ship it\n", "**Complete**\n")


def test_move_errors_leave_the_file_alone(board):
    cases = [
        (["Fix bug", "--to", "Doing"], 2,
         'lanes: "Fix bug" matches 2 cards: 3 "Fix bug" (in To do), 5 "Fix bug" (in Done); '
         "give the card's number or more of its title\n"),
        (["Nothing", "--to", "Doing"], 1,
         'lanes: no card matches "Nothing"; lanes show lists the cards and their numbers\n'),
        (["42", "--to", "Doing"], 1,
         'lanes: no card matches "42"; lanes show lists the cards and their numbers\n'),
        (["Review", "--to", "Nowhere"], 1,
         'lanes: no column matches "Nowhere"; the columns are "To do", "Doing", "Done"; '
         'lanes column add BOARD "Nowhere" adds it\n'),
        (["Review", "--to", "Done", "--position", "3"], 2,
         'lanes: position 3 is outside column "Done"; use 1 to 2\n'),
        (["1", "--to", "Doing"], 0, None),  # fills Doing to its limit of 2
        (["2", "--to", "Doing"], 2, 'lanes: column "Doing" is full (WIP limit 2); --force moves anyway\n'),
    ]
    for args, status, message in cases:
        before = board.read_bytes()
        r = lanes("move", board, *args)
        assert r.returncode == status, (args, r.stderr)
        if message is not None:
            assert r.stderr == message
            assert r.stdout == ""
            assert board.read_bytes() == before
    assert only_files(board.parent) == ["board.md"]


def test_bad_options_exit_2(board):
    for args in [["move", board, "Review"], ["move", board, "Review", "--to", "Done", "--position", "x"],
                 ["export", board, "--format", "xml"], ["add", board, "x"], ["show"], ["frobnicate", "--x"],
                 ["import", "trello", "x.json"], ["import", "trello", "x.json", "-o", "y.md", "--dialect", "org"]]:
        r = lanes(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stderr.startswith("Error: "), r.stderr
        assert r.stdout == ""
    assert board.read_text() == BOARD


def test_missing_board_is_not_found(tmp_path):
    for args in [["show", "none.md"], ["columns", "none.md"], ["export", "none.md"],
                 ["add", "none.md", "-c", "A", "x"], ["move", "none.md", "x", "--to", "A"]]:
        r = lanes(*args, cwd=tmp_path)
        assert r.returncode == 1, (args, r.stderr)
        # And how to make one.
        assert r.stderr == ("lanes: Cannot open none.md: the file does not exist; "
                            "`lanes none.md` creates it from the starter board\n")
    assert only_files(tmp_path) == []


@pytest.mark.parametrize("args", [["show"], ["columns"], ["export"], ["export", "--format", "obsidian"],
                                  ["add", "--column", "To do", "x"], ["move", "A card", "--to", "To do"]])
def test_malformed_board_names_file_and_line(tmp_path, args):
    path = write(tmp_path / "broken.md", BROKEN)
    r = lanes(args[0], path, *args[1:])
    assert r.returncode == 2
    assert r.stderr.startswith(f"{path}:4: ")
    assert r.stderr.count("\n") == 1
    assert r.stdout == ""
    assert path.read_text() == BROKEN
    assert only_files(tmp_path) == ["broken.md"]


def test_add_waits_for_another_writers_moment_then_saves(board):
    """The only lock is the few milliseconds of a write: flock on the board file itself."""
    import threading
    with open(board, "rb") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        threading.Timer(0.5, lambda: fcntl.flock(f, fcntl.LOCK_UN)).start()
        t0 = time.monotonic()
        r = lanes("add", board, "-c", "Done", "x")
        waited = time.monotonic() - t0
    assert r.returncode == 0, r.stderr
    assert waited >= 0.45, f"lanes add did not wait for the lock ({waited:.2f} s)"
    assert "- x" in board.read_text()
    assert only_files(board.parent) == ["board.md"], "no lock file is left beside the board"


# --- export ---------------------------------------------------------------------------------------


def test_export_json(board):
    r = lanes("export", board, "--format", "json")
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["version"] == 1 and data["dialect"] == "taskell"
    assert [c["title"] for c in data["columns"]] == ["To do", "Doing", "Done"]
    assert [c["wipLimit"] for c in data["columns"]] == [None, 2, None]
    first = data["columns"][0]["cards"][0]
    assert first == {
        "id": 1, "title": "Write docs", "done": False, "due": "2024-01-31", "dueDate": "2024-01-31",
        "tags": [], "description": "About the docs",
        "subtasks": [{"title": "outline", "done": True}, {"title": "draft", "done": False}],
    }
    assert list(first.keys()) == ["id", "title", "done", "due", "dueDate", "tags", "description", "subtasks"]
    assert [c["id"] for col in data["columns"] for c in col["cards"]] == [1, 2, 3, 4, 5]
    assert lanes("export", board).stdout == r.stdout  # json is the default


def test_export_markdown_and_conversions(board, tmp_path):
    assert lanes("export", board, "--format", "markdown").stdout == BOARD
    assert lanes("export", board, "--format", "taskell").stdout == BOARD
    obsidian = lanes("export", board, "--format", "obsidian").stdout
    assert obsidian.startswith("---\n\nkanban-plugin: board\n\n---\n\n## To do\n\n- [ ] Write docs @{2024-01-31}\n"
                               "    About the docs\n    - [x] outline\n    - [ ] draft\n- [ ] Write tests\n")
    # The converted board reads back with the same cards.
    converted = write(tmp_path / "conv.md", obsidian)
    again = json.loads(lanes("export", converted).stdout)
    original = json.loads(lanes("export", board).stdout)
    assert again["dialect"] == "obsidian"
    assert again["columns"] == original["columns"]
    o = write(tmp_path / "o.md", OBSIDIAN)
    assert lanes("export", o, "-f", "taskell").stdout == (
        "## Doing\n\n- Fix bug #urgent\n    @ 2025/6/30\n    * [x] find it\n\n## Complete\n\n- Ship it\n"
    )
    assert board.read_text() == BOARD


# --- import trello ----------------------------------------------------------------------------------


def test_import_committed_trello_export(tmp_path):
    src = fixture("trello-export-conference.json")
    out = tmp_path / "conference.md"
    r = lanes("import", "trello", src, "-o", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"Imported 3 lists and 4 cards into {out} (taskell).\n"
    assert out.read_text() == (
        "## To do (4)\n\n"
        "- Open the call for papers\n"
        "- Book the venue #Blocker\n    @ 2027-02-15\n"
        "    > Two rooms, one for talks and one for workshops.\n    > Ask about the projector.\n"
        "    * [x] Get a quote\n    * [x] Visit the rooms\n    * [ ] Sign the contract\n\n"
        "## In progress\n\n"
        "- Hotel block for speakers #Travel-plans #green\n    @ 2027-01-31\n"
        "    * [x] Count the speakers\n    * [ ] Ask three hotels\n    * [ ] Pay the deposit\n\n"
        "## Done\n\n"
        "- Website: \u201cCall for speakers\u201d page\n    @ 2026-12-01\n    > Live at /speakers \u2713\n"
    )
    assert only_files(tmp_path) == ["conference.md"]


def test_import_committed_rest_lists_as_obsidian(tmp_path):
    out = tmp_path / "api.md"
    r = lanes("import", "trello", fixture("trello-rest-lists.json"), "-o", out, "--dialect", "obsidian")
    assert r.returncode == 0, r.stderr
    assert lanes("columns", out).stdout == "1\tBacklog\t2\n2\tDoing\t1\n3\tShipped\t0\n"
    assert out.read_text().startswith("---\n\nkanban-plugin: board\n\n---\n\n## Backlog\n\n- [ ] Sketch the onboarding\n")


@needs_shared
def test_import_real_trello_export(tmp_path):
    src = fixture("trello-export-nextcloud-deck.json", SHARED)
    out = tmp_path / "deck.md"
    r = lanes("import", "trello", src, "-o", out)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f"Imported 1 list and 1 card into {out} (taskell).\n"
    assert out.read_text() == "## TODO\n\n- Name Card 7\n"
    assert only_files(tmp_path) == ["deck.md"]


@needs_shared
def test_import_real_rest_lists_as_obsidian(tmp_path):
    out = tmp_path / "api.md"
    r = lanes("import", "trello", fixture("taskell-trello-api-lists.json", SHARED), "-o", out, "--dialect", "obsidian")
    assert r.returncode == 0, r.stderr
    cols = lanes("columns", out).stdout
    assert cols == "1\tList 1\t4\n2\tList 2\t3\n3\tList 3\t5\n4\tList 4\t1\n5\tList 5\t2\n"
    assert out.read_text().startswith("---\n\nkanban-plugin: board\n\n---\n\n## List 1\n\n- [ ] Item 1\n")


SAMPLE = {
    "labels": [{"id": "lb", "name": "Needs review", "color": "blue"}],
    "lists": [
        {"id": "b", "name": "Second", "closed": False, "pos": 2000},
        {"id": "x", "name": "Archived list", "closed": True, "pos": 1500},
        {"id": "a", "name": "First", "closed": False, "pos": 1000},
    ],
    "cards": [
        {"id": "c2", "name": "Later", "idList": "a", "pos": 20, "closed": False, "desc": "", "due": None},
        {"id": "c1", "name": "Sooner", "idList": "a", "pos": 10, "closed": False,
         "desc": "Two\nlines", "due": "2030-05-06T10:00:00.000Z", "idLabels": ["lb"]},
        {"id": "c3", "name": "Gone", "idList": "a", "pos": 15, "closed": True, "desc": "", "due": None},
        {"id": "c4", "name": "Hidden", "idList": "x", "pos": 1, "closed": False},
    ],
    "checklists": [
        {"id": "k", "idCard": "c1", "name": "Todo", "pos": 1, "checkItems": [
            {"id": "i2", "name": "second", "state": "incomplete", "pos": 2},
            {"id": "i1", "name": "first", "state": "complete", "pos": 1},
        ]},
    ],
}


def test_import_orders_by_pos_and_skips_archived(tmp_path):
    src = tmp_path / "sample.json"
    src.write_text(json.dumps(SAMPLE))
    out = tmp_path / "out.md"
    assert lanes("import", "trello", src, "-o", out).returncode == 0
    assert out.read_text() == (
        "## First\n\n- Sooner #Needs-review\n    @ 2030-05-06\n    > Two\n    > lines\n"
        "    * [x] first\n    * [ ] second\n- Later\n\n## Second\n\n"
    )
    r = lanes("import", "trello", src, "-o", out, "--include-archived", "--force")
    assert r.returncode == 0, r.stderr
    assert lanes("columns", out).stdout == "1\tFirst\t3\n2\tArchived list\t1\n3\tSecond\t0\n"
    assert "- Gone\n" in out.read_text()


def test_import_refuses_existing_output_unless_forced(tmp_path):
    src = fixture("trello-export-conference.json")
    out = write(tmp_path / "existing.md", "mine\n")
    r = lanes("import", "trello", src, "-o", out)
    assert r.returncode == 2
    assert r.stderr == f"lanes: {out} already exists; --force replaces it\n"
    assert out.read_text() == "mine\n"
    r = lanes("import", "trello", src, "-o", out, "--force", "--dialect", "obsidian")
    assert r.returncode == 0, r.stderr
    assert "- [ ] Open the call for papers" in out.read_text()
    assert only_files(tmp_path) == ["existing.md"]


def test_import_malformed_json_names_the_line(tmp_path):
    src = write(tmp_path / "bad.json", '{\n  "lists": [\n    {"id": "a" "name": "x"}\n  ]\n}\n')
    out = tmp_path / "out.md"
    r = lanes("import", "trello", src, "-o", out)
    assert r.returncode == 2
    assert r.stderr == f"""{src}:3: expected "," or "}}" in the object, found '"'\n"""
    assert only_files(tmp_path) == ["bad.json"]


def test_import_wrong_shape_and_missing_file(tmp_path):
    src = write(tmp_path / "board.json", '{"name": "not trello"}')
    r = lanes("import", "trello", src, "-o", tmp_path / "out.md")
    assert r.returncode == 2
    assert r.stderr == f'{src}:1: expected "lists" (an array) in the Trello export\n'
    r = lanes("import", "trello", tmp_path / "none.json", "-o", tmp_path / "out.md")
    assert r.returncode == 1
    assert r.stderr == f"lanes: Cannot open {tmp_path / 'none.json'}: the file does not exist.\n"
    assert only_files(tmp_path) == ["board.json"]
