"""A big board is drawn from its first cards while the rest of the file is read (#24 point 7):
what a person does at once is held, said in words, and done on the whole board once it is in;
nothing is saved before, and a file found malformed late is reported with its line and left as it was."""

from __future__ import annotations

import re

import pytest

from lanes_harness import HarnessError

COLUMNS = ["Backlog", "Doing", "Review", "Done"]
PER_COLUMN = 150_000   # 600,000 cards, 8 MB: well over the preview's 2 MB, seconds to parse in a debug build


def big_board(per_column: int = PER_COLUMN, tail: str = "", dialect: str = "taskell") -> str:
    obsidian = dialect == "obsidian"
    parts = ["---\n\nkanban-plugin: board\n\n---\n\n"] if obsidian else []
    marker = "- [ ] " if obsidian else "- "
    for k, name in enumerate(COLUMNS):
        parts.append(f"## {name}\n\n")
        parts.append("".join(f"{marker}{'ABCD'[k]} {i}\n" for i in range(1, per_column + 1)))
        parts.append("\n")
    text = "".join(parts).rstrip("\n") + "\n"
    if obsidian:
        text += '\n\n\n%% kanban:settings\n```\n{"kanban-plugin":"board"}\n```\n%%\n'
    return text + tail


def columns_of(text: str) -> dict[str, list[str]]:
    cols: dict[str, list[str]] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = line[3:]
            cols[current] = []
        elif line.startswith("- [ ] ") or line.startswith("- [x] "):
            cols[current].append(line[6:])
        elif line.startswith("- "):
            cols[current].append(line[2:])
    return cols


@pytest.mark.parametrize("dialect", ["taskell", "obsidian"])
def test_keys_pressed_while_the_rest_is_read_act_on_the_whole_board_and_every_card_stays_once(lanes, dialect):
    app = lanes(big_board(dialect=dialect), wait_for="B 1", width=120, height=40)
    lines = app.capture()
    # The first screen is up before the whole file is read: the status says so, and the headers
    # already count every card of the file.
    reading = app.status(lines)
    if "Reading all 600000 cards of board.md" not in reading:
        raise HarnessError(f"the first screen did not come from the preview (status {reading!r})\n{app.dump()}")
    assert f"Backlog {PER_COLUMN}" in lines[1] and f"Done {PER_COLUMN}" in lines[1], lines[1]
    before = app.read_file()
    # At once: move the selected card (A 1) to the next column, then type a new card there.
    app.send_keys("L", "a")
    app.send_literal("typed while it loaded")
    app.send_keys("Enter")
    held = app.wait_status("what you type is kept and acts once the whole board is in")
    assert "Still reading board.md" in held
    # Nothing is saved until the whole board is in.
    assert app.read_file() == before
    # Then the keys act: the move and the new card are on screen and saved.
    app.wait_for("typed while it loaded", timeout=60, what="the typed card, once the whole board is in")
    app.wait_for(lambda l: f"Backlog {PER_COLUMN - 1}" in l[1] and f"Doing {PER_COLUMN + 2}" in l[1], timeout=10,
                 what="the headers counting the moved and the typed card")

    def saved() -> bool:
        return b"typed while it loaded" in app.read_file()
    app.wait_for(lambda _l: saved(), timeout=30, what="the file holding the typed card")
    code = app.quit(timeout=30)
    assert code == 0, app.dump()
    cols = columns_of(app.read_file().decode())
    assert list(cols) == COLUMNS
    everything = [c for name in COLUMNS for c in cols[name]]
    assert len(everything) == 4 * PER_COLUMN + 1
    assert len(set(everything)) == len(everything), "a card is in the file twice"
    assert everything.count("typed while it loaded") == 1
    assert "A 1" in cols["Doing"] and "A 1" not in cols["Backlog"]
    assert "typed while it loaded" in cols["Doing"]
    for k, name in enumerate(COLUMNS):
        expected = {f"{'ABCD'[k]} {i}" for i in range(1, PER_COLUMN + 1)}
        if name == "Backlog":
            expected.discard("A 1")
        assert expected <= set(cols[name]), f"cards of {name} missing"


def test_a_file_found_malformed_late_is_reported_with_its_line_and_left_as_it_was(lanes):
    text = big_board(tail="stray line at the end\n")
    bad_line = text.count("\n")
    app = lanes(text, wait_for="B 1", width=120, height=40)
    assert "Reading all 600000 cards" in app.status()
    app.send_keys("L")   # held, then refused in words when the file turns out malformed
    code = app.wait_exit(timeout=60)
    assert code == 2, app.dump()
    screen = app.screen()
    assert re.search(rf"board\.md:{bad_line}: expected \"## \" column heading", screen), app.dump()
    assert "what you typed while board.md was read was not applied; the file was not changed" in screen.replace("\n", ""), app.dump()
    assert app.read_file() == text.encode()
