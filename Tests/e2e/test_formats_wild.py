"""Boards from the wild (docs/FORMATS.md): they open, `E` with no change writes nothing,
extra lines are shown and kept, and the CLI edits only its own lines."""

from __future__ import annotations

import os
import subprocess

import pytest
from pathlib import Path

from checks import quit_and_check
from lanes_harness import stat_key

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("LANES_BIN", ROOT / ".build" / "debug" / "lanes"))

DONE_CARD_BOARD = (
    "---\nkanban-plugin: board\n---\n\n"
    "## Doing\n\n"
    "- [x] Minimal Demo\n"
    "\t#blog\n"
    "\t<!-- task-id: 7f3a -->\n"
    "\t- [ ] a tab-indented sub-task\n"
    "    borrowed from Ana, give back by March\n"
    "- [ ] Second\n\n\n"
    "%% kanban:settings\n```\n{\"kanban-plugin\":\"board\"}\n```\n%%\n"
)


def test_e_with_no_change_writes_nothing_and_keeps_every_line(lanes, tmp_path):
    app = lanes(DONE_CARD_BOARD, wait_for="Minimal Demo", env={"EDITOR": "true", "VISUAL": ""})
    # The card's kept lines are marked on the board.
    app.wait_for(lambda s: any("≡" in line for line in s), what="the ≡ mark of the card with extra lines")
    before = stat_key(app.board_path)
    app.send_keys("E")
    app.wait_status("No change")
    assert app.board_path.read_bytes() == DONE_CARD_BOARD.encode()
    assert stat_key(app.board_path) == before, "the file was written"
    # The card view shows the kept lines instead of "No description".
    app.send_keys("Enter")
    app.wait_for("borrowed from Ana", what="the card's indented note in the card view")
    assert "No description" not in app.screen()
    app.send_keys("Escape")
    app.wait_for(lambda s: not any("─ Card ─" in line for line in s), what="the card view to close")
    quit_and_check(app, DONE_CARD_BOARD)


def test_an_editor_change_keeps_the_done_mark_and_extra_lines(lanes, tmp_path):
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nsed -i 's/Minimal Demo/Full Demo/' \"$1\"\n")
    editor.chmod(0o755)
    app = lanes(DONE_CARD_BOARD, wait_for="Minimal Demo", env={"EDITOR": str(editor), "VISUAL": ""})
    app.send_keys("E")
    app.wait_status("Card updated")
    expected = DONE_CARD_BOARD.replace("Minimal Demo", "Full Demo")
    app.wait_file(expected)
    quit_and_check(app, expected)


def test_a_damaged_settings_block_opens_and_says_so(lanes):
    board = ("---\nkanban-plugin: basic\n---\n\n## Hot\n\n- [ ] [[Lead]]\n\n## Closed\n\n- [ ] \n\n\n"
             "%% kanban:settings\n## Archive\n\n```\n```\n\n%%\n")
    app = lanes(board, wait_for="Lead")
    app.wait_status("kept as written")
    quit_and_check(app, board)


def test_cli_add_under_a_level_one_heading_uses_the_lanes_style(tmp_path):
    board = ("---\nkanban-plugin: board\n---\n\n# Todo\n\n* [ ] one\n* [ ] two\n\n# Done\n\n"
             "%% kanban:settings\n\n```\n{}\n```\n%%\n")
    path = tmp_path / "b.md"
    path.write_bytes(board.encode())
    out = subprocess.run([str(BIN), "add", str(path), "--column", "Todo", "three"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert path.read_text() == board.replace("* [ ] two\n", "* [ ] two\n* [ ] three\n")
    shown = subprocess.run([str(BIN), "show", str(path)], capture_output=True, text=True)
    assert shown.returncode == 0 and "three" in shown.stdout and "Done" in shown.stdout, shown.stdout + shown.stderr


FIXTURES = sorted(p for p in (ROOT / "Tests" / "Fixtures").glob("*.md"))
SHARED = (ROOT / ".." / "shared" / "fixtures").resolve()
FIXTURES += sorted(p for p in SHARED.glob("*.md") if p.name != "README.md") if SHARED.is_dir() else []


def first_lane(text: str) -> str:
    fence = None  # a `#` line inside a fenced code block is code, not a lane
    for line in text.splitlines():
        marker = line.lstrip(" ")[:3]
        if marker in ("```", "~~~"):
            fence = None if fence == marker else (fence or marker)
            continue
        if fence:
            continue
        if line.startswith("#") and " " in line and line.lstrip("#").startswith(" ") and "Archive" not in line:
            return line.lstrip("#").strip().split(" (")[0]
    raise AssertionError("no lane heading")


@pytest.mark.parametrize("fixture", FIXTURES, ids=[p.name for p in FIXTURES])
def test_every_fixture_opens_in_the_cli_and_the_terminal_and_is_kept(lanes, fixture, tmp_path):
    data = fixture.read_bytes()
    copy = tmp_path / fixture.name
    copy.write_bytes(data)
    shown = subprocess.run([str(BIN), "show", str(copy)], capture_output=True)
    assert shown.returncode == 0, shown.stderr.decode()
    lane = first_lane(data.decode("utf-8-sig"))
    assert lane in shown.stdout.decode()
    app = lanes(data, wait_for=lane[:8], board_name=fixture.name)
    quit_and_check(app, data)
