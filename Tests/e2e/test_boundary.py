"""The process boundary: what Lanes does before it draws, and the exit statuses `--help` names.

Nothing may be created on disk before Lanes knows it can run: without a terminal, on a
terminal that cannot place the cursor, or for a mistyped subcommand, it says why in words,
exits 2 and leaves the folder as it was. The `$EDITOR` file is private and goes away.
Cases without a terminal run `lanes` as a plain subprocess; the others run it in tmux.
"""

from __future__ import annotations

import fcntl
import os
import re
import stat
import subprocess
from pathlib import Path

import pytest

from checks import quit_and_check
from lanes_harness import board_md, find_binary

BIN = find_binary()
BOARD = board_md([("To do", ["Write docs", "Fix bug"]), ("Doing", ["Review"]), ("Done", ["Fix bug"])])
BROKEN = "## To do\n\n- A card\n  two-space detail\n"
SHOW_HINT = "`lanes show FILE` prints a board as text (`lanes --help` lists every command)."


def run(*args, cwd, stdin=subprocess.DEVNULL, env=None):
    full_env = dict(os.environ, TERM="xterm-256color", LC_ALL="C.UTF-8", XDG_CONFIG_HOME=str(cwd / ".config-none"))
    full_env.update(env or {})
    return subprocess.run([str(BIN), *map(str, args)], cwd=cwd, stdin=stdin, capture_output=True, text=True,
                          timeout=60, env=full_env)


def listing(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def words(app) -> str:
    """The pane's text as one line of words (a message may wrap)."""
    return " ".join(app.screen().split())


# --- no terminal ------------------------------------------------------------------------------


@pytest.mark.parametrize("args", [[], ["board.md"], ["open", "board.md"], ["new.md"]])
def test_without_a_terminal_nothing_is_created(tmp_path, args):
    r = run(*args, cwd=tmp_path)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == ("lanes: the board opens in a terminal, and standard input and output are not one; "
                        f"nothing was opened or created. {SHOW_HINT}\n")
    assert listing(tmp_path) == []


def test_without_a_terminal_an_existing_board_is_untouched(tmp_path):
    board = tmp_path / "board.md"
    board.write_text(BOARD)
    before = board.stat()
    r = run("board.md", cwd=tmp_path)
    assert r.returncode == 2 and "standard input and output are not one" in r.stderr
    after = board.stat()
    assert (after.st_mtime_ns, after.st_ino, board.read_text()) == (before.st_mtime_ns, before.st_ino, BOARD)
    assert listing(tmp_path) == ["board.md"]  # no lock file, no temporary file


def test_output_piped_from_a_terminal_says_which_side(tmp_path):
    master, slave = os.openpty()
    try:
        r = run("board.md", cwd=tmp_path, stdin=slave)
    finally:
        os.close(slave)
        os.close(master)
    assert r.returncode == 2
    assert r.stderr == ("lanes: the board opens in a terminal, and standard output is not one; "
                        f"nothing was opened or created. {SHOW_HINT}\n")
    assert listing(tmp_path) == []


# --- a mistyped subcommand --------------------------------------------------------------------


@pytest.mark.parametrize("typed, meant", [("shwo", "show"), ("mvoe", "move"), ("ad", "add"), ("exprot", "export"),
                                          ("colums", "columns` or `lanes column"), ("Show", "show")])
def test_a_mistyped_subcommand_gets_did_you_mean_and_no_file(tmp_path, typed, meant):
    r = run(typed, cwd=tmp_path)
    assert (r.returncode, r.stdout) == (2, "")
    assert r.stderr == (f'lanes: "{typed}" is neither a subcommand nor a file here; did you mean `lanes {meant}`? '
                        f"(`lanes open {typed}` creates a board named {typed}.)\n")
    assert listing(tmp_path) == []


def test_a_typo_in_a_terminal_creates_no_file_either(lanes, tmp_path):
    folder = tmp_path / "typo"
    app = lanes(None, wait_for=None, args=["shwo", "board.md"], workdir=folder, width=400)
    assert app.wait_exit() == 2
    assert 'lanes: "shwo" is neither a subcommand nor a file here; did you mean `lanes show`?' in words(app)
    assert listing(folder) == []


def test_an_existing_file_with_a_near_name_is_a_board_not_a_typo(tmp_path):
    (tmp_path / "shwo").write_text(BOARD)
    r = run("shwo", cwd=tmp_path)
    # It goes on to open the board, which needs a terminal: the terminal message, not the typo one.
    assert r.returncode == 2 and "did you mean" not in r.stderr
    assert "standard input and output are not one" in r.stderr
    assert (tmp_path / "shwo").read_text() == BOARD


def test_explicit_open_creates_a_board_with_that_name(lanes, tmp_path):
    folder = tmp_path / "explicit"
    app = lanes(None, wait_for="Created shwo from the starter board", args=["open", "shwo"], workdir=folder,
                board_name="shwo")
    starter = (Path(__file__).resolve().parents[2] / "Resources" / "starter.md").read_bytes()
    app.wait_file(starter)
    quit_and_check(app, starter)


# --- a terminal that cannot place the cursor --------------------------------------------------


@pytest.mark.parametrize("term, message", [
    ("dumb", 'lanes: the terminal type "dumb" (TERM) cannot move the cursor (terminfo has no cup), and the board '
             "needs that; run Lanes in a terminal emulator such as xterm. " + SHOW_HINT),
    ("vt-no-such-type", 'lanes: terminfo has no entry for the terminal type "vt-no-such-type" (TERM); install it '
                        "(Debian: ncurses-term) or set TERM to a known type such as xterm-256color. " + SHOW_HINT),
])
def test_a_terminal_without_cursor_addressing_is_refused_in_words(lanes, tmp_path, term, message):
    folder = tmp_path / term
    app = lanes(BOARD, wait_for=None, term=term, workdir=folder, width=400)
    assert app.wait_exit() == 2
    assert message in words(app), app.dump()
    assert (folder / "board.md").read_text() == BOARD
    assert listing(folder) == ["board.md"]
    # A board that does not exist yet is not created.
    empty = tmp_path / (term + "-new")
    other = lanes(None, wait_for=None, term=term, workdir=empty, width=400)
    assert other.wait_exit() == 2
    assert listing(empty) == []


# --- exit statuses, exactly as --help names them ----------------------------------------------


def help_statuses() -> dict[int, list[str]]:
    """{status: [meaning, ...]} from the root --help, e.g. 1: ["not found: file", ...]."""
    text = " ".join(subprocess.run([str(BIN), "--help"], capture_output=True, text=True).stdout.split())
    m = re.search(r"Exit status: 0 success; 1 (.*?); 2 (.*?)\. Errors go to stderr", text)
    assert m, text
    statuses: dict[int, list[str]] = {0: ["success"]}
    for status, part in [(1, m.group(1)), (2, m.group(2))]:
        meanings = []
        # "not found (file, card, column) or the file cannot be used (locked by ..., unreadable, ...)"
        for head, items in re.findall(r"(?:^| or )([^()]+?) \(([^()]*)\)", part):
            meanings += [f"{head}: {item.strip()}" for item in items.split(", ")]
        statuses[status] = meanings
    return statuses


def test_help_lists_these_meanings():
    assert help_statuses() == {
        0: ["success"],
        1: ["not found: file", "not found: card", "not found: column",
            "the file cannot be used: unreadable", "the file cannot be used: cannot be created"],
        2: ["bad input or usage: malformed file", "bad input or usage: a read-only board to change",
            "bad input or usage: ambiguous card",
            "bad input or usage: bad option", "bad input or usage: a move refused by a WIP limit or an accept rule",
            "bad input or usage: a mistyped subcommand", "bad input or usage: no usable terminal"],
    }


def test_every_meaning_exits_with_the_status_help_gives_it(lanes, tmp_path):
    want = {meaning: status for status, meanings in help_statuses().items() for meaning in meanings}
    got: dict[str, int] = {}
    (tmp_path / "board.md").write_text(BOARD)
    (tmp_path / "broken.md").write_text(BROKEN)
    (tmp_path / "a-folder").mkdir()

    def cli(*args, **kw):
        return run(*args, cwd=tmp_path, **kw).returncode

    def tui(name, *args, term="xterm-256color", board=None):
        folder = tmp_path / name
        folder.mkdir()
        if board is not None:
            (folder / "board.md").write_text(board)
        app = lanes(None, wait_for=None, args=list(args), term=term, workdir=folder, width=400)
        return app.wait_exit()

    got["success"] = cli("show", "board.md")
    got["not found: file"] = cli("show", "none.md")
    got["not found: card"] = cli("move", "board.md", "Nothing", "--to", "Done")
    got["not found: column"] = cli("move", "board.md", "Review", "--to", "Nowhere")
    (tmp_path / "readonly.md").write_text(BOARD)
    os.chmod(tmp_path / "readonly.md", 0o444)
    got["bad input or usage: a read-only board to change"] = cli("add", "readonly.md", "-c", "Done", "x")
    assert (tmp_path / "readonly.md").read_text() == BOARD
    got["the file cannot be used: unreadable"] = cli("show", "a-folder")
    got["the file cannot be used: cannot be created"] = tui("create", "no-such-folder/new.md")
    got["bad input or usage: malformed file"] = cli("show", "broken.md")
    got["bad input or usage: ambiguous card"] = cli("move", "board.md", "Fix bug", "--to", "Doing")
    got["bad input or usage: bad option"] = cli("show", "board.md", "--frobnicate")
    (tmp_path / ".board.md.lanes").write_text('accept "Done" from "Doing"\n')
    got["bad input or usage: a move refused by a WIP limit or an accept rule"] = cli(
        "move", "board.md", "Write docs", "--to", "Done")
    os.unlink(tmp_path / ".board.md.lanes")
    got["bad input or usage: a mistyped subcommand"] = cli("shwo")
    got["bad input or usage: no usable terminal"] = cli("board.md")
    assert got == want
    # Every way a terminal can be unusable has the same status.
    assert tui("dumb", "board.md", term="dumb", board=BOARD) == want["bad input or usage: no usable terminal"]
    assert tui("unknown", "board.md", term="vt-no-such-type", board=BOARD) == want["bad input or usage: no usable terminal"]
    # And a WIP limit: Doing (1) already holds its one card.
    (tmp_path / "wip.md").write_text("## To do\n\n- a\n- b\n\n## Doing (1)\n\n- c\n")
    assert cli("move", "wip.md", "a", "--to", "Doing") == want["bad input or usage: a move refused by a WIP limit or an accept rule"]
    # The board UI reports a malformed file and a missing folder with the same statuses.
    assert tui("malformed", "board.md", board=BROKEN) == want["bad input or usage: malformed file"]
    (tmp_path / "folder").mkdir()
    (tmp_path / "folder" / "sub").mkdir()
    app = lanes(None, wait_for=None, args=["sub"], workdir=tmp_path / "folder", width=400)
    assert app.wait_exit() == want["the file cannot be used: unreadable"]
    assert (tmp_path / "board.md").read_text() == BOARD


# --- the $EDITOR file -------------------------------------------------------------------------


def test_the_editor_file_is_private_and_removed(lanes, tmp_path):
    log = tmp_path / "editor.log"
    editor = tmp_path / "editor.sh"
    # Records what it was given: the file's mode, owner and type, its folder's, and what else is there.
    editor.write_text(
        "#!/bin/sh\n"
        f"log='{log}'\n"
        'printf "%s\\n" "$1" >> "$log"\n'
        'stat -c "%a %u %F" "$1" >> "$log"\n'
        'stat -c "%a %u %F" "$(dirname "$1")" >> "$log"\n'
        'ls -A "$(dirname "$1")" | tr "\\n" " " >> "$log"; echo >> "$log"\n'
        "printf '    > seen by the editor\\n' >> \"$1\"\n"
    )
    editor.chmod(editor.stat().st_mode | stat.S_IXUSR)
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    app = lanes(board_md([("A", ["first", "second"])]), wait_for="second",
                env={"EDITOR": str(editor), "VISUAL": "", "TMPDIR": str(tmpdir)})
    app.send_keys("E")
    app.wait_status("Card updated")
    app.send_keys("j", "E")
    app.wait_file(board_md([("A", ["first\n    > seen by the editor", "second\n    > seen by the editor"])]))
    entries = log.read_text().splitlines()
    assert len(entries) == 8, entries
    uid = os.getuid()
    paths = []
    for k in (0, 4):
        path, file_stat, dir_stat, listed = entries[k:k + 4]
        paths.append(Path(path))
        assert re.fullmatch(re.escape(str(tmpdir)) + r"/lanes-card-[A-Za-z0-9]{6}/card\.md", path), path
        assert file_stat == f"600 {uid} regular file"
        assert dir_stat == f"700 {uid} directory"
        assert listed.split() == ["card.md"]
    assert paths[0].parent != paths[1].parent  # a new private folder every time
    # Removed with its folder once the editor is done.
    assert not paths[0].exists() and not paths[1].exists() and listing(tmpdir) == []
    quit_and_check(app, board_md([("A", ["first\n    > seen by the editor", "second\n    > seen by the editor"])]))
