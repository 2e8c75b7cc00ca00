"""The first hour of daily use (#42): what a person sees says one thing, once, and truly.

Each test reads the words a user reads: the tmux screen, or a command's stdout and stderr.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from lanes_harness import board_md, cards_of

ROOT = Path(__file__).resolve().parents[2]


def run(lanes_bin, *args, cwd, env=None) -> subprocess.CompletedProcess:
    e = dict(os.environ, LC_ALL="C.UTF-8", HOME=str(cwd), XDG_CONFIG_HOME=str(cwd / "config"))
    e.update(env or {})
    return subprocess.run([str(lanes_bin), *map(str, args)], cwd=cwd, capture_output=True, text=True, env=e,
                          timeout=60)


def prompt_row(app) -> str:
    """The prompt's own row (the last one), as shown."""
    return app.capture()[app.height - 1]


def note_row(app) -> str:
    """The row above the prompt, where it says why it refused or what Tab found."""
    return app.capture()[app.height - 2]


# --- the compact view: the mark takes no letter of the title --------------------------------------

OPS = [("To do", ["Set up hosting #ops", "Buy SSL certificate #ops", "Write the docs"]), ("Done", ["Plan"])]


def test_a_marked_card_in_the_compact_view_shows_its_whole_title(lanes):
    app = lanes(board_md(OPS), wait_for="Set up hosting", width=80, height=20)
    app.send_keys("z")
    app.wait_status("Compact view: one line per card")
    app.send_keys("v")
    app.wait_status("1 card marked")
    app.send_keys("j", "v")
    app.wait_status("2 cards marked")
    lines = app.wait_for(lambda l: any("●Buy SSL certificate" in r for r in l), what="the second mark")
    # The mark stands on the row's first cell (the mark box), before the whole title.
    assert any("●Set up hosting" in r for r in lines), app.dump()
    assert not any("S●t" in r or "B●y" in r for r in lines), app.dump()
    # The unmarked card keeps its blank first cell.
    assert any(r.startswith(" Write the docs") for r in lines), app.dump()


# --- a bad config line: its place and what is wrong, no usage --------------------------------------

def test_a_bad_config_line_stops_lanes_with_file_and_line_and_no_usage(lanes, tmp_path):
    config = tmp_path / "w0-config" / "lanes" / "config"
    config.parent.mkdir(parents=True)
    config.write_text("bind j down\nbind k sideways\n")
    app = lanes(board_md(OPS), wait_for=None, width=200, height=30)
    assert app.wait_exit() == 2, app.dump()
    screen = app.screen()
    assert f"{config}:2: " in screen and "sideways" in screen, app.dump()
    assert "USAGE" not in screen and "OPTIONS" not in screen and "lanes --help" not in screen, app.dump()


# --- messages: each said once, undo names what it put back, a count that is true --------------------

THREE = [("To do", ["a0", "a1"]), ("Doing", ["b0"]), ("Review", ["r0"]), ("Done", ["c0"])]


def test_the_messages_list_a_delete_once_and_undo_says_what_it_put_back(lanes):
    app = lanes(board_md(THREE), wait_for="a0", width=100, height=30)
    app.send_keys("d")
    app.wait_status("Deleted “a0” (u undoes)")
    app.send_keys("^")
    app.wait_for(lambda l: any("Messages" in r for r in l), what="the messages view")
    rows = [r for r in app.capture() if "Deleted" in r]
    assert len(rows) == 1 and "Deleted “a0” (u undoes)" in rows[0], app.dump()
    app.send_keys("Escape")
    app.wait_for(lambda l: not any("Messages" in r for r in l), what="the board again")
    # A column moved and moved back: the undo names it once, in its own words.
    app.send_keys("l", "l", ">")
    app.wait_status("Moved column “Review”")
    app.send_keys("u")
    text = app.wait_status("Undid move column “Review”")
    assert "Moved column" not in text, text


def test_eight_cards_added_elsewhere_are_counted_as_eight(lanes, tmp_path, lanes_bin):
    app = lanes(board_md(THREE), wait_for="a0", width=100, height=30)
    # Eight `lanes add` on a copy, put in place at once: one change of eight cards.
    copy = app.board_path.with_name("copy.md")
    copy.write_text(app.board_path.read_text())
    for i in range(8):
        p = run(lanes_bin, "add", copy, "--column", "Doing", f"n{i}", cwd=copy.parent)
        assert p.returncode == 0, p.stderr
    os.replace(copy, app.board_path)
    app.wait_status("8 cards changed elsewhere")
    app.wait_for("n7")


# --- the m prompt keeps what was typed ----------------------------------------------------------

A = [("To do", ["a0", "a1"]), ("Done", ["a2"])]
B = [("Backlog", ["b0"]), ("Doing", ["b1"]), ("Done", ["b2"])]


def test_the_move_prompt_keeps_the_text_it_refuses_and_tab_goes_through_matches(lanes, tmp_path):
    d = tmp_path / "boards"
    d.mkdir()
    (d / "A.md").write_text(board_md(A))
    (d / "B.md").write_text(board_md(B))
    app = lanes(None, wait_for="a0", args=["A.md", "B.md"], workdir=d, width=120, height=24)
    app.wait_for(lambda l: l[0].startswith(" A.md (3) │ B.md (3) │"), what="the tab bar")
    app.send_keys("m")
    app.wait_for(lambda l: "to board:column[:N]" in l[-1], what="the move prompt")
    app.send_literal("B.md:Do")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Do"), what="the text typed")
    # Two columns start with "Do": Tab puts the first in the line, Tab again the next.
    app.send_keys("Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Doing"), what="the first match")
    assert "1 of 2: B.md:Doing, B.md:Done" in note_row(app), app.dump()
    app.send_keys("Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Done"), what="the second match")
    app.send_keys("Tab")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Doing"), what="round to the first again")
    # Back to the ambiguous text: Enter refuses it, and the prompt stays open with it.
    app.send_keys("BSpace", "BSpace", "BSpace")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Do"), what="the text erased back")
    app.send_keys("Enter")
    app.wait_for(lambda l: "could be Doing, Done on B.md" in l[-2], what="the refusal above the prompt")
    assert prompt_row(app).rstrip().endswith("B.md:Do"), app.dump()
    assert "to board:column[:N]" in prompt_row(app), app.dump()
    # A column that is not there: refused, the text kept.
    app.send_literal("x")
    app.send_keys("Enter")
    app.wait_for(lambda l: "B.md has no column “Dox”; its columns: Backlog, Doing, Done" in l[-2],
                 what="no such column")
    assert prompt_row(app).rstrip().endswith("B.md:Dox"), app.dump()
    # A row past the end: the target's door refuses the move, and the prompt opens again with the text.
    app.send_keys("BSpace")
    app.send_literal("ne:9")
    app.send_keys("Enter")
    app.wait_for(lambda l: "Not moved: position 9 is outside column \"Done\" of B.md; use 1 to 2" in l[-2],
                 what="the row refused")
    app.wait_for(lambda l: l[-1].rstrip().endswith("B.md:Done:9"), what="the text kept")
    assert "to board:column[:N]" in prompt_row(app), app.dump()
    # Finished rightly, it moves.
    app.send_keys("BSpace", "BSpace")
    app.send_keys("Enter")
    app.wait_status("Moved “a0” to B.md, “Done”")
    assert cards_of((d / "B.md").read_text()) == ["b0", "b1", "b2", "a0"]


# --- save a copy: a path that cannot be written is kept in the prompt --------------------------------

def test_a_copy_that_cannot_be_written_keeps_its_path_in_the_prompt(lanes, tmp_path):
    app = lanes(board_md(THREE), wait_for="a0", width=120, height=24)
    os.chmod(app.board_path, 0o444)
    app.send_keys("J")
    app.wait_status("NOT SAVED")
    app.send_keys("q")
    app.wait_for(lambda l: "s save a copy" in app.status(), what="the quit question")
    app.send_keys("s")
    app.wait_for(lambda l: "Save a copy to: " in l[-1], what="the save-a-copy prompt")
    app.send_keys("C-u")
    app.send_keys("Enter")
    app.wait_for(lambda l: "Type the path to write the copy to" in l[-2], what="an empty path asked again")
    bad = tmp_path / "no-such-folder-file" / "x"
    (tmp_path / "no-such-folder-file").write_text("a file, not a folder\n")
    app.send_literal(str(bad))
    app.send_keys("Enter")
    app.wait_for(lambda l: "The copy could not be written" in l[-2], what="the refusal")
    assert prompt_row(app).rstrip().endswith(str(bad)[-40:]), app.dump()
    good = tmp_path / "copy.md"
    app.send_keys("C-u")
    app.send_literal(str(good))
    app.send_keys("Enter")
    assert app.wait_exit() == 0
    assert cards_of(good.read_text()) == ["a1", "a0", "b0", "r0", "c0"]


# --- columns land where a person means them ---------------------------------------------------------

def test_column_add_after_and_before_a_column_and_refusals_in_words(tmp_path, lanes_bin):
    board = tmp_path / "b.md"
    board.write_text(board_md([("To do", ["a"]), ("Doing", []), ("Done", ["c"])]))

    def columns() -> list[str]:
        p = run(lanes_bin, "columns", board, cwd=tmp_path)
        return [line.split("\t")[1] for line in p.stdout.splitlines()]

    p = run(lanes_bin, "column", "add", board, "Review", "--after", "Doing", cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == (0, 'Added column 3 "Review".\n', "")
    assert columns() == ["To do", "Doing", "Review", "Done"]
    p = run(lanes_bin, "column", "add", board, "Ideas", "--before", "to", cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == (0, 'Added column 1 "Ideas".\n', "")
    assert columns() == ["Ideas", "To do", "Doing", "Review", "Done"]
    before = board.read_bytes()
    # A column that is not there: said, with the columns there are and how to add one; nothing added.
    p = run(lanes_bin, "column", "add", board, "QA", "--after", "Testing", cwd=tmp_path)
    assert p.returncode == 1 and p.stdout == "", p
    assert p.stderr == ('lanes: no column matches "Testing"; the columns are "Ideas", "To do", "Doing", "Review", '
                        '"Done"; lanes column add BOARD "Testing" adds it\n')
    # Two places for one column: refused in words, one line, no usage.
    p = run(lanes_bin, "column", "add", board, "QA", "--after", "Doing", "--before", "Done", cwd=tmp_path)
    assert (p.returncode, p.stdout) == (2, "")
    assert p.stderr == ('lanes: --after "Doing" and --before "Done" are two places for one column; '
                        'give one of them (nothing was added)\n')
    p = run(lanes_bin, "column", "add", board, "QA", "--position", "2", "--after", "Doing", cwd=tmp_path)
    assert p.returncode == 2 and "are two places for one column" in p.stderr, p.stderr
    assert board.read_bytes() == before
    # An ambiguous one is refused too ("Do": Doing and Done).
    p = run(lanes_bin, "column", "add", board, "QA", "--before", "Do", cwd=tmp_path)
    assert p.returncode == 2 and '"Do" matches 2 columns' in p.stderr, p.stderr
    assert board.read_bytes() == before


# --- a newcomer's next step ---------------------------------------------------------------------------

def test_a_missing_target_board_says_how_to_make_one(tmp_path, lanes_bin):
    (tmp_path / "plan.md").write_text(board_md([("To do", ["Alpha"]), ("Done", [])]))
    p = run(lanes_bin, "move", "plan.md", "Alpha", "--to-board", "team.md", "--to", "Inbox", cwd=tmp_path)
    assert (p.returncode, p.stdout) == (1, "")
    assert p.stderr == ("lanes: Cannot open team.md: the file does not exist; "
                        "`lanes team.md` creates it from the starter board\n")
    # A name a shell would split is quoted so the line can be typed as it is.
    p = run(lanes_bin, "show", "my plan.md", cwd=tmp_path)
    assert p.stderr == ("lanes: Cannot open my plan.md: the file does not exist; "
                        "`lanes 'my plan.md'` creates it from the starter board\n")
    # What is missing is no board: no such advice.
    p = run(lanes_bin, "import", "trello", "none.json", "-o", "out.md", cwd=tmp_path)
    assert p.returncode == 1 and "starter board" not in p.stderr, p.stderr


def test_lanes_help_starts_with_a_five_line_tour(tmp_path, lanes_bin):
    p = run(lanes_bin, "help", cwd=tmp_path)
    assert (p.returncode, p.stderr) == (0, "")
    lines = p.stdout.split("\n")
    assert [line.split(":")[0] for line in lines[:5]] == ["Open", "Drag", "Keys", "Git", "Team"], p.stdout
    assert "lanes plan.md" in lines[0] and "mouse" in lines[1] and "?" in lines[2]
    assert "lanes git-setup" in lines[3] and "lanes copy plan.md postgresql://" in lines[4]
    assert lines[5] == "" and lines[6].startswith("OVERVIEW: "), p.stdout
    # Then the reference: usage and every subcommand.
    assert "USAGE: lanes [FILE]" in p.stdout and "SUBCOMMANDS:" in p.stdout and "column" in p.stdout
    tour = run(lanes_bin, "help", "tour", cwd=tmp_path).stdout
    assert all(line in tour for line in lines[:5]), tour


def test_the_starter_board_card_says_the_whole_step(lanes, tmp_path, lanes_bin):
    # `lanes plan.md` makes the board from the starter board, as a newcomer's first command does.
    app = lanes(None, wait_for="Created plan.md from the starter board", args=["plan.md"], width=120)
    assert app.quit() == 0
    shown = run(lanes_bin, "show", app.workdir / "plan.md", cwd=tmp_path).stdout
    assert "Press a to add a card below this one" in shown, shown
    assert not re.search(r"with a$", shown, re.M), shown


def test_make_run_builds_links_and_opens_the_release_build():
    # What make would run, as make prints it: the optimized build, and that build linked and opened.
    p = subprocess.run(["make", "-n", "run", "BOARD=x.md"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    build = next(l for l in lines if l.startswith("swift build"))
    assert build.startswith("swift build -c release --static-swift-stdlib ") and build.endswith(" --product lanes")
    assert "./scripts/link-lanes .build/release/lanes" in lines and ".build/release/lanes x.md" in lines, lines
    # make install copies that same build.
    p = subprocess.run(["make", "-n", "install", "PREFIX=/p"], cwd=ROOT, capture_output=True, text=True)
    assert build in p.stdout.splitlines(), p.stdout
    assert "install -m 755 .build/release/lanes /p/bin/lanes" in p.stdout, p.stdout


# --- a card moved into a hand-written file keeps the blank line before the next heading -------------

def test_a_card_moved_into_an_empty_hand_written_column_keeps_a_blank_line_before_the_next(tmp_path, lanes_bin):
    (tmp_path / "plan.md").write_text(board_md([("To do", ["Alpha", "Beta"]), ("Done", [])]))
    team = tmp_path / "team.md"
    team.write_text("## Inbox\n\n## Later\n\n- three\n")
    # Reading and showing it changes nothing.
    run(lanes_bin, "show", team, cwd=tmp_path)
    assert team.read_text() == "## Inbox\n\n## Later\n\n- three\n"
    p = run(lanes_bin, "move", "plan.md", "Alpha", "--to-board", team, "--to", "Inbox", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == f'Moved "Alpha" to {team}, "Inbox" at position 1.\n'
    assert team.read_text() == "## Inbox\n\n- Alpha\n\n## Later\n\n- three\n"
    # No blank lines at all: none comes between the heading and its card (as the file does), and
    # the next heading gets the blank line taskell writes between columns (the file shows none of its own).
    tight = tmp_path / "tight.md"
    tight.write_text("## Inbox\n## Later\n- three\n")
    run(lanes_bin, "show", tight, cwd=tmp_path)
    assert tight.read_text() == "## Inbox\n## Later\n- three\n"
    p = run(lanes_bin, "move", "plan.md", "Beta", "--to-board", tight, "--to", "Inbox", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert tight.read_text() == "## Inbox\n- Beta\n\n## Later\n- three\n"


# --- the commands speak one quote ------------------------------------------------------------------

def test_the_commands_quote_names_one_way(tmp_path, lanes_bin):
    board = tmp_path / "b.md"
    board.write_text(board_md([("To do", ["Fix login"]), ("Done", [])]))
    outs = [
        run(lanes_bin, "add", board, "--column", "To do", "Write docs", cwd=tmp_path),
        run(lanes_bin, "move", board, "Write docs", "--to", "Done", cwd=tmp_path),
        run(lanes_bin, "column", "rename", board, "Done", "Shipped", cwd=tmp_path),
        run(lanes_bin, "edit", board, "Fix", "--due", "someday", cwd=tmp_path),
        run(lanes_bin, "column", "add", board, "to DO", cwd=tmp_path),
        run(lanes_bin, "remove", board, "Write docs", cwd=tmp_path),
    ]
    said = "".join(p.stdout + p.stderr for p in outs)
    assert 'Renamed the column to "Shipped".' in said, said
    assert '"someday" is not a date' in said and 'the column "To do"' in said, said
    assert 'Deleted "Write docs".' in said, said
    assert "“" not in said and "”" not in said, said


# --- metrics before the history: the columns say why there are none ------------------------------------

def test_metrics_before_the_history_say_there_is_none_yet(tmp_path, lanes_bin):
    env = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.com",
           "GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@example.com"}
    (tmp_path / "plan.md").write_text(board_md([("To do", ["a"]), ("Doing", []), ("Done", [])]))
    for git in (["git", "init", "-q"], ["git", "add", "plan.md"], ["git", "commit", "-qm", "one"]):
        assert subprocess.run(git, cwd=tmp_path, env=dict(os.environ, **env), capture_output=True).returncode == 0
    p = run(lanes_bin, "metrics", "plan.md", "--now", "2020-01-01", cwd=tmp_path, env=env)
    assert p.returncode == 0, p.stderr
    line = next(l for l in p.stdout.splitlines() if l.startswith("columns · "))
    assert re.fullmatch(r"columns · none yet: the board has no history up to now \(the history starts "
                        r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; a later --now reads it\)", line), line
    assert "Now: no columns yet" in p.stdout, p.stdout
    p = run(lanes_bin, "metrics", "plan.md", cwd=tmp_path, env=env)
    assert "columns · not started: To do · in progress: Doing · done: Done" in p.stdout, p.stdout


# --- an editor that is not there leaves nothing on the shell's screen ---------------------------------

def test_a_missing_editor_is_said_on_the_status_line_and_not_left_on_the_shell_screen(tmux_server, lanes_bin, tmp_path):
    import time
    name = f"ed{os.getpid()}"
    (tmp_path / "b.md").write_text(board_md([("To do", ["a0", "a1"]), ("Doing", ["b0"])]))
    tmux_server.run("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "-c", str(tmp_path),
                    "env PS1='READY$ ' LC_ALL=C.UTF-8 TERM=xterm-256color bash --norc --noprofile -i")

    def screen() -> str:
        return tmux_server.run("capture-pane", "-p", "-t", name)

    def wait(pred, what: str) -> str:
        deadline = time.monotonic() + 10
        while not pred(s := screen()):
            assert time.monotonic() < deadline, f"timed out waiting for {what}:\n{s}"
            time.sleep(0.03)
        return s

    def type_line(line: str) -> None:
        tmux_server.run("send-keys", "-t", name, "-l", line)
        tmux_server.run("send-keys", "-t", name, "Enter")

    try:
        wait(lambda s: "READY$" in s, "the shell prompt")
        type_line("export VISUAL= EDITOR=no-such-editor-42")
        type_line(f"sh -c '{lanes_bin} b.md; echo back-in-sh'")
        wait(lambda s: "a0" in s and "Doing" in s, "the board")
        tmux_server.run("send-keys", "-t", name, "E")
        wait(lambda s: "The editor “no-such-editor-42” was not found; set $VISUAL or $EDITOR" in s,
             "the status line saying so")
        # Ctrl-Z: the shell's own screen has no "not found" of the shell's on it.
        tmux_server.run("send-keys", "-t", name, "C-z")
        shell = wait(lambda s: "Stopped" in s and s.rstrip().endswith("READY$"), "the shell prompt after ctrl-z")
        assert "not found" not in shell, shell
        type_line("fg")
        wait(lambda s: "a0" in s and "Doing" in s and "READY$ fg" not in s, "the board after fg")
        tmux_server.run("send-keys", "-t", name, "q")
        wait(lambda s: "back-in-sh" in s, "lanes to end")
    finally:
        tmux_server.run("kill-session", "-t", name, check=False)
