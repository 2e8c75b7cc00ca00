"""The generated corpus of the wild's shapes (wild_corpus.py) through the real binary.

200 seeded files holding every shape: each opens with `lanes show` and leaves the file as it
was; `lanes add` (end and top) and `lanes move` change only the card's own lines; and a sample
opens in the terminal, survives `E` with an editor that writes nothing, and quits with the file
byte for byte as it was.
"""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import wild_corpus
from checks import quit_and_check

FILES, SHAPES = wild_corpus.sample(200)
CHUNKS = 8


def run(lanes_bin: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(lanes_bin), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


def lines(data: bytes) -> list[str]:
    text = data.decode("utf-8-sig")
    return [l[:-1] if l.endswith("\r") else l for l in text.split("\n")]


def middles(a: list[str], b: list[str]) -> tuple[list[str], list[str]]:
    """What is left of two files after their common first and last lines."""
    p = 0
    while p < len(a) and p < len(b) and a[p] == b[p]:
        p += 1
    s = 0
    while s < len(a) - p and s < len(b) - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return a[p:len(a) - s], b[p:len(b) - s]


def test_the_sample_holds_every_shape():
    assert set(wild_corpus.SHAPES) <= SHAPES, sorted(set(wild_corpus.SHAPES) - SHAPES)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_every_file_opens_in_the_cli_and_takes_adds_and_moves_touching_only_its_lines(chunk, lanes_bin, tmp_path):
    for k in range(chunk, len(FILES), CHUNKS):
        data = FILES[k]
        board = tmp_path / f"corpus-{k}.md"
        board.write_bytes(data)
        context = f"file {k}:\n{data.decode('utf-8-sig')}"
        shown = run(lanes_bin, "show", str(board))
        assert shown.returncode == 0, f"{context}\n{shown.stderr}"
        assert board.read_bytes() == data, f"lanes show changed {context}"
        if "\n#" not in "\n" + data.decode("utf-8-sig"):
            continue
        for top in (False, True):
            board.write_bytes(data)
            title = f"Added {k} {'top' if top else 'end'}"
            r = run(lanes_bin, "add", str(board), "-c", "1", *(["--top"] if top else []), title)
            if r.returncode != 0:
                assert "no columns" in r.stderr or "column" in r.stderr, f"{context}\n{r.stderr}"
                break
            after = board.read_bytes()
            old, new = middles(lines(data), lines(after))
            assert [l for l in old if l] == [], f"add removed lines of {context}\n{after.decode()}"
            added = [l for l in new if l]
            assert len(added) == 1 and added[0].endswith(title), f"{context}\n{after.decode()}"
            assert len(new) <= 3, f"{context}\n{after.decode()}"
            assert after.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf")
            assert (b"\r\n" in after) == (b"\r\n" in data), f"line ending of {context}"
            # The card just added moves to the end of the first column: only its line moves.
            moved = run(lanes_bin, "move", str(board), title, "-t", "1")
            assert moved.returncode == 0, f"{context}\n{moved.stderr}"
            again = board.read_bytes()
            rest = lambda b: [l for l in lines(b) if l and not l.endswith(title)]
            assert rest(again) == rest(after), f"move changed other lines of {context}\n{again.decode()}"
            assert [l for l in lines(again) if l.endswith(title)] == added, f"{context}\n{again.decode()}"


def first_card_title(data: bytes) -> str | None:
    """The first card's title text in the first lane, as the board shows it (for waiting on it)."""
    seen_heading = False
    for line in lines(data):
        if line.startswith("#"):
            if seen_heading:
                return None
            seen_heading = True
        elif seen_heading and (line.startswith("- ") or line.startswith("* ") or line.startswith("+ ") or line[:3] == "1. "):
            rest = line.split(" ", 1)[1]
            if rest[:3] in ("[ ]", "[x]", "[X]", "[/]", "[-]"):
                rest = rest[4:]
            word = rest.split(" ")[0]
            return word if word.isalpha() and word.isascii() and len(word) > 2 else None
    return None


TERMINAL = [k for k, data in enumerate(FILES) if first_card_title(data)][:16]


@pytest.mark.parametrize("k", TERMINAL)
def test_a_sample_opens_in_the_terminal_and_survives_e_unchanged(k, lanes):
    data = FILES[k]
    app = lanes(data, wait_for=first_card_title(data), env={"EDITOR": "true", "VISUAL": ""})
    app.send_keys("E")
    app.wait_status("No change")
    assert app.board_path.read_bytes() == data
    quit_and_check(app, data)
