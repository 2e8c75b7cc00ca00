"""lanes edit, lanes remove and lanes column …: the real binary on board files and on a board in a
real PostgreSQL server (scripts/pg-test-cluster; run alone, the module starts a cluster of its own).

Each command is one edit through the door; these check what a person sees: the file written in its
own dialect, the words on stdout and stderr, the exit status, and nothing written when refused.
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest

from pg_helpers import board_url as url


TASKELL = """## To do

- Fix login
- Write docs #docs

## Doing

- Review PR
"""

OBSIDIAN = """---

kanban-plugin: basic

---

## To do

- [ ] Fix login
- [ ] Write docs

## Done

- [x] Set up CI

%% kanban:settings
```
{"kanban-plugin":"basic"}
```
%%
"""


def lanes(lanes_bin, *args):
    return subprocess.run([str(lanes_bin), *args], capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)


def ok(lanes_bin, *args) -> str:
    r = lanes(lanes_bin, *args)
    assert r.returncode == 0, (args, r.stderr)
    return r.stdout


def test_edit_sets_every_field_in_the_file(lanes_bin, tmp_path):
    f = tmp_path / "board.md"
    f.write_text(TASKELL)
    out = ok(lanes_bin, "edit", str(f), "Fix", "--title", "Fix the login form", "--tag", "bug", "--due", "2024-01-31",
             "--description", "The form rejects valid passwords.\nOnly on Safari.", "--add-subtask", "Reproduce",
             "--add-subtask", "Patch", "--check", "1")
    assert out == ('Card 1 "Fix the login form #bug": Title changed; Tagged #bug; Due 2024-01-31; Card updated; '
                   'Ticked "Reproduce" (1 of 2).\n')
    assert f.read_text() == """## To do

- Fix the login form #bug
    @ 2024-01-31
    > The form rejects valid passwords.
    > Only on Safari.
    * [x] Reproduce
    * [ ] Patch
- Write docs #docs

## Doing

- Review PR
"""
    # --tick ticks the next open one; then every one is done, so the next --tick unticks all.
    assert "Ticked \"Patch\" (2 of 2)" in ok(lanes_bin, "edit", str(f), "1", "--tick")
    assert "Unticked all 2 sub-tasks" in ok(lanes_bin, "edit", str(f), "1", "--tick")
    ok(lanes_bin, "edit", str(f), "1", "--no-due", "--description", "", "--tag", "")
    assert f.read_text().startswith("## To do\n\n- Fix the login form\n    * [ ] Reproduce\n    * [ ] Patch\n- Write docs #docs\n")


def test_refused_edits_write_nothing_and_say_why(lanes_bin, tmp_path):
    f = tmp_path / "board.md"
    f.write_text(TASKELL)
    cases = [
        (["edit", str(f), "Fix", "--due", "soon"], 2, "\"soon\" is not a date"),
        (["edit", str(f), "Fix", "--title", "  "], 2, "the card title is empty"),
        (["edit", str(f), "Fix", "--check", "3"], 2, "This card has no such sub-task"),
        (["edit", str(f), "Fix", "--tick"], 2, "This card has no sub-tasks"),
        (["edit", str(f), "Fix", "--done"], 2, "taskell files have no done mark"),
        (["edit", str(f), "Fix"], 2, "nothing to change"),
        (["edit", str(f), "Nowhere", "--title", "x"], 1, 'no card matches "Nowhere"'),
        (["edit", str(f), "Fix", "--titel", "x"], 2, "Unknown option '--titel'"),
        (["remove", str(f), "Nowhere"], 1, 'no card matches "Nowhere"'),
        (["column", "add", str(f), "doing"], 2, "\"doing\" is the same name as the column \"Doing\""),
        (["column", "add", str(f), "Later", "--position", "5"], 2, "position 5 is outside the board's columns; use 1 to 3"),
        (["column", "rename", str(f), "To do", ""], 2, "the column title is empty"),
        (["column", "move", str(f), "Doing", "--position", "0"], 2, "use 1 to 2"),
        (["column", "delete", str(f), "To do"], 2, 'column "To do" has 2 cards; --yes deletes the column with them'),
        (["column", "limit", str(f), "Doing", "0"], 2, "A WIP limit is a whole number above 0"),
        (["column", "limit", str(f), "Doing", "two"], 2, 'the WIP limit "two" is no number'),
        (["column", "limit", str(f), "Nowhere", "2"], 1, 'no column matches "Nowhere"'),
        (["column", "frobnicate", str(f)], 2, "frobnicate"),
    ]
    for args, status, words in cases:
        r = lanes(lanes_bin, *args)
        assert (r.returncode, r.stdout) == (status, ""), (args, r.returncode, r.stdout, r.stderr)
        assert words in r.stderr, (args, r.stderr)
        assert f.read_text() == TASKELL, args


def test_column_commands_and_remove(lanes_bin, tmp_path):
    f = tmp_path / "board.md"
    f.write_text(TASKELL)
    assert ok(lanes_bin, "column", "add", str(f), "Review", "-p", "2") == 'Added column 2 "Review".\n'
    assert ok(lanes_bin, "column", "add", str(f), "Done") == 'Added column 4 "Done".\n'
    assert ok(lanes_bin, "column", "rename", str(f), "rev", "Check") == "Renamed the column to \"Check\".\n"
    assert ok(lanes_bin, "column", "move", str(f), "Check", "--position", "3") == "Moved column \"Check\" to position 3.\n"
    assert ok(lanes_bin, "column", "limit", str(f), "Doing", "1") == "Doing takes at most 1 card.\n"
    # The limit is the door's: lanes move is refused by it as the terminal's drop is.
    r = lanes(lanes_bin, "move", str(f), "Fix", "--to", "Doing")
    assert r.returncode == 2 and 'column "Doing" is full (WIP limit 1)' in r.stderr
    assert ok(lanes_bin, "columns", str(f)) == "1\tTo do\t2\n2\tDoing\t1/1\n3\tCheck\t0\n4\tDone\t0\n"
    assert ok(lanes_bin, "column", "limit", str(f), "Doing", "none") == "Doing has no WIP limit.\n"
    assert ok(lanes_bin, "column", "delete", str(f), "Check") == "Deleted column \"Check\".\n"
    assert ok(lanes_bin, "column", "delete", str(f), "Doing", "--yes") == "Deleted column \"Doing\" with its card.\n"
    assert ok(lanes_bin, "remove", str(f), "1", "Write") == "Deleted 2 cards.\n"
    assert ok(lanes_bin, "columns", str(f)) == "1\tTo do\t0\n2\tDone\t0\n"
    assert "- " not in f.read_text()


def test_obsidian_board_keeps_its_dialect_and_takes_done(lanes_bin, tmp_path):
    f = tmp_path / "board.md"
    f.write_text(OBSIDIAN)
    assert "Marked \"Fix login\" done" in ok(lanes_bin, "edit", str(f), "Fix", "--done", "--due", "2024-02-01")
    assert "Marked \"Set up CI\" not done" in ok(lanes_bin, "edit", str(f), "Set up", "--no-done")
    text = f.read_text()
    assert "- [x] Fix login @{2024-02-01}" in text
    assert "- [ ] Set up CI" in text
    assert text.startswith("---\n\nkanban-plugin: basic\n\n---\n") and text.endswith("```\n%%\n")


def test_a_writer_meanwhile_is_merged_not_overwritten(lanes_bin, tmp_path):
    """lanes edit beside another writer's change: both land (the door edit, then the merge)."""
    f = tmp_path / "board.md"
    f.write_text(TASKELL)
    ok(lanes_bin, "edit", str(f), "Fix", "--title", "Fix login now")
    ok(lanes_bin, "add", str(f), "--column", "Doing", "Other writer's card")
    ok(lanes_bin, "column", "rename", str(f), "Doing", "In progress")
    text = f.read_text()
    assert "- Fix login now\n" in text and "## In progress\n\n- Review PR\n- Other writer's card\n" in text


def test_every_new_command_on_a_postgresql_board(pg, lanes_bin, tmp_path):
    src = tmp_path / "board.md"
    src.write_text(TASKELL)
    ok(lanes_bin, "copy", str(src), url(pg, "lanes_admin", "cli-edits-schema"))   # sets up the schema
    u = url(pg, "alice", "cli-edits-%d" % os.getpid())
    ok(lanes_bin, "copy", str(src), u)
    ok(lanes_bin, "edit", u, "Fix", "--title", "Fix login form", "--due", "2024-03-01", "--description", "why",
       "--add-subtask", "Reproduce")
    ok(lanes_bin, "column", "add", u, "Done")
    ok(lanes_bin, "column", "rename", u, "Doing", "Active")
    ok(lanes_bin, "column", "limit", u, "Active", "2")
    ok(lanes_bin, "column", "move", u, "Done", "-p", "1")
    ok(lanes_bin, "remove", u, "Write docs")
    r = lanes(lanes_bin, "column", "delete", u, "Active")
    assert r.returncode == 2 and "--yes deletes the column with it" in r.stderr
    r = lanes(lanes_bin, "edit", u, "Fix", "--due", "someday")
    assert r.returncode == 2 and "\"someday\" is not a date" in r.stderr
    # Carol, a role without a grant, reads nothing and changes nothing.
    r = lanes(lanes_bin, "column", "add", url(pg, "carol", u.rsplit("=", 1)[1]), "Sneaky")
    assert r.returncode == 2, r.stderr
    out = tmp_path / "out.md"
    ok(lanes_bin, "copy", u, str(out))
    # Blank lines around an emptied column are the writer's layout; the content is what matters here.
    assert re.sub(r"\n{3,}", "\n\n", out.read_text()) == """## Done

## To do

- Fix login form
    @ 2024-03-01
    > why
    * [ ] Reproduce

## Active (2)

- Review PR
"""
    assert ok(lanes_bin, "columns", u) == "1\tDone\t0\n2\tTo do\t1\n3\tActive\t1/2\n"
