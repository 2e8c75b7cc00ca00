"""Issue #40: nothing lost to a crash, a careless program or a hostile member.

Each test reproduces one way a board, a secret or what was typed could be lost or leaked, and
checks that Lanes ends it in words and an exit status (1 or 2) with the board as it was.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from lanes_harness import board_md, cards_of, find_binary

THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0"]), ("Done", ["c0"])]


def run(*args, cwd, env=None):
    return subprocess.run([str(find_binary()), *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          timeout=60, env={**os.environ, **(env or {})})


def wait_until(cond, what: str, timeout: float = 20):
    deadline = time.monotonic() + timeout
    while True:
        got = cond()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def stopped_pid(pid_file: Path) -> int | None:
    """The process named in `pid_file` once it is stopped (state T), else None."""
    try:
        pid = int(pid_file.read_text())
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ValueError, IndexError):
        return None
    return pid if state == "T" else None


# Item 5: no secret printed, no write through a link out of the board's folder.

def test_workspace_save_refuses_a_url_with_a_password_without_printing_it(tmp_path):
    config = tmp_path / "config"
    for url, secret in [("postgresql://alice:s3cr3t-pw@db.example/lanes?board=team", "s3cr3t-pw"),
                        ("postgres://alice@db.example/lanes?PassWord=hunter2x&board=team", "hunter2x")]:
        r = run("workspace", "save", "team", url, cwd=tmp_path, env={"XDG_CONFIG_HOME": str(config)})
        assert r.returncode == 2, r
        assert "holds a password" in r.stderr, r.stderr
        assert secret not in r.stderr + r.stdout, f"the refusal printed the password: {r.stderr!r}"
        assert not (config / "lanes" / "workspaces" / "team").exists()


def test_rules_sidecar_linked_out_of_the_board_folder_is_not_written_through(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "board.md").write_text(board_md(THREE))
    victim = tmp_path / "home-file"
    victim.write_text("# someone's own file\n")
    # A cloned repository can ship the sidecar as a link to any file of the user's.
    os.symlink(victim, repo / ".board.md.lanes")
    r = run("rules", "board.md", "--column", "Done", "--from", "Doing", cwd=repo)
    assert r.returncode in (1, 2), r
    assert "outside its folder" in r.stderr and ".board.md.lanes" in r.stderr, r.stderr
    assert victim.read_text() == "# someone's own file\n", "Lanes wrote through the link"
    assert (repo / "board.md").read_text() == board_md(THREE)
    assert os.path.islink(repo / ".board.md.lanes")


def test_rules_sidecar_linked_within_the_board_folder_is_still_written(tmp_path):
    (tmp_path / "board.md").write_text(board_md(THREE))
    (tmp_path / "shared.lanes").write_text("")
    os.symlink("shared.lanes", tmp_path / ".board.md.lanes")
    r = run("rules", "board.md", "--column", "Done", "--from", "Doing", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "shared.lanes").read_text().endswith('accept "Done" from "Doing"\n')


# Item 4: what was typed is never lost and never misread.

# An editor that owns the terminal as real ones do (no line discipline), and returns only once
# the keys the test types have reached the terminal (the condition, not a pause), leaving them unread.
WAITING_EDITOR = r'''#!/usr/bin/python3
import array, fcntl, os, sys, termios, time
fd = os.open("/dev/tty", os.O_RDWR)
saved = termios.tcgetattr(fd)
raw = termios.tcgetattr(fd)
raw[3] &= ~(termios.ICANON | termios.ECHO)
termios.tcsetattr(fd, termios.TCSANOW, raw)
open(os.environ["EDITOR_STARTED"], "w").close()
deadline = time.monotonic() + 20
waiting = array.array("i", [0])
while waiting[0] < len(os.environ["EDITOR_EXPECTS"]) and time.monotonic() < deadline:
    fcntl.ioctl(fd, termios.FIONREAD, waiting)
    time.sleep(0.02)
termios.tcsetattr(fd, termios.TCSANOW, saved)
with open(sys.argv[1], "a") as f:
    f.write("    > edited\n")
'''


def test_keys_typed_while_the_editor_runs_are_discarded_not_replayed(lanes, tmp_path):
    editor = tmp_path / "editor.py"
    editor.write_text(WAITING_EDITOR)
    editor.chmod(0o755)
    started = tmp_path / "started"
    app = lanes(board_md([("A", ["first", "second"])]), wait_for="second",
                env={"EDITOR": str(editor), "VISUAL": "", "EDITOR_STARTED": str(started), "EDITOR_EXPECTS": "dd"})
    app.send_keys("E")
    app.wait_for(lambda _: started.exists(), what="the editor to start")
    # A stray `dd` typed while the editor held the terminal: two card deletions if replayed.
    app.send_keys("d", "d")
    app.wait_status("Keys typed while the editor ran were discarded, not taken as commands")
    assert "Card updated" in app.status(), app.dump()
    app.wait_file("## A\n\n- first\n    > edited\n- second\n")
    assert app.quit() == 0
    assert app.read_file() == b"## A\n\n- first\n    > edited\n- second\n"


def test_an_edit_that_does_not_parse_is_kept_in_a_file_the_status_names(lanes, tmp_path):
    editor = tmp_path / "editor.sh"
    # One badly indented line: taskell cannot keep it, so the card does not read back.
    editor.write_text("#!/bin/sh\nprintf '    > kept words\\n  > badly indented\\n' >> \"$1\"\n")
    editor.chmod(0o755)
    state = tmp_path / "state"
    start = board_md([("A", ["first", "second"])])
    app = lanes(start, wait_for="second", env={"EDITOR": str(editor), "VISUAL": "", "XDG_STATE_HOME": str(state)})
    app.send_keys("E")
    app.wait_status("Edit not applied")
    status = " ".join(r.strip() for r in app.status_rows())
    assert "card:3:" in status, status
    kept = sorted((state / "lanes" / "recovery").glob("card-edit*.md"))
    assert len(kept) == 1, (kept, status)
    assert "Your text is kept in" in status and kept[0].name[:20] in status.replace(" ", ""), status
    assert kept[0].read_text() == "- first\n    > kept words\n  > badly indented\n"
    assert app.quit() == 0
    assert app.read_file() == start.encode(), "the card is as it was"


def test_keys_typed_while_a_malformed_board_loads_do_not_reach_the_shell(tmux_server, lanes_bin, tmp_path):
    (tmp_path / "bad.md").write_text("## A\n\n- a0\n\njust prose, not a board\n")
    name = f"typeahead-{os.getpid()}"
    pending = tmp_path / "pending"
    # Lanes stops itself before it starts (SIGSTOP), so the keys are certainly typed while it runs;
    # afterwards the shell's side reports how many bytes wait to be read by the next command.
    script = (f"sh -c 'echo $$ > pid; kill -STOP $$; exec {lanes_bin} bad.md' 2>err; echo $? > status; "
              "/usr/bin/python3 -c 'import array,fcntl,termios; b=array.array(\"i\",[0]); "
              f"fcntl.ioctl(0, termios.FIONREAD, b); open(\"{pending}\",\"w\").write(str(b[0]))'; sleep 600")
    tmux_server.run("new-session", "-d", "-s", name, "-x", "80", "-y", "24", "-c", str(tmp_path), script)
    try:
        pid = wait_until(lambda: stopped_pid(tmp_path / "pid"), "the shell that execs lanes to stop itself")
        tmux_server.run("send-keys", "-t", name, "-l", "echo typed-at-lanes")
        tmux_server.run("send-keys", "-t", name, "Enter")
        # The terminal echoes what it queued: the keys are in its input before Lanes runs on.
        wait_until(lambda: "echo typed-at-lanes" in tmux_server.run("capture-pane", "-p", "-t", name),
                   "the typed line to be queued")
        os.kill(pid, signal.SIGCONT)
        wait_until(pending.exists, "lanes to end and the shell's side to look")
        assert (tmp_path / "status").read_text().strip() == "2"
        err = (tmp_path / "err").read_text()
        assert "bad.md:5:" in err, err
        assert "keys typed while the board was read were discarded" in err, err
        assert pending.read_text() == "0", f"{pending.read_text()} bytes typed at Lanes were left for the shell"
    finally:
        tmux_server.run("kill-session", "-t", name, check=False)


# Item 1: a save is atomic or recoverable, whatever the file is.

def test_a_kill_at_the_second_write_of_an_in_place_save_loses_and_doubles_nothing(tmp_path):
    """The issue's reproduction: a hard-linked board (saved in place), `lanes move` killed by
    strace exactly at its second pwrite; the next command finishes the save from the journal."""
    if shutil.which("strace") is None:
        pytest.fail("strace is not installed (scripts/ensure-deps test installs it)")
    titles = [f"card {i:06d}" for i in range(20000)]
    (tmp_path / "big.md").write_text(board_md([("To do", titles), ("Done", [])]))
    os.link(tmp_path / "big.md", tmp_path / "big-link.md")
    killed = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=pwrite64",
                             "-e", "inject=pwrite64:signal=SIGKILL:when=2",
                             str(find_binary()), "move", "big.md", "card 000005", "--to", "Done"],
                            cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert killed.returncode in (-9, 137), killed
    torn = cards_of((tmp_path / "big.md").read_text())
    # The kill landed in the window: the file on disk is new bytes followed by old ones.
    assert len(torn) != len(set(torn)) or sorted(torn) != sorted(titles), "the kill did not tear the file"
    assert (tmp_path / ".big.md.lanes-saving").exists()

    shown = run("show", "big.md", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    assert "was interrupted" in shown.stderr and ".big.md.lanes-saving" in shown.stderr, shown.stderr
    expected = board_md([("To do", [t for t in titles if t != "card 000005"]), ("Done", ["card 000005"])])
    assert (tmp_path / "big.md").read_text() == expected
    assert (tmp_path / "big-link.md").read_text() == expected
    assert os.stat(tmp_path / "big.md").st_ino == os.stat(tmp_path / "big-link.md").st_ino
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [".big.md.lanes-interrupted", "big-link.md", "big.md"], left
    assert cards_of((tmp_path / ".big.md.lanes-interrupted").read_text()) == torn, "the file as found is kept"


# Item 2: a half-written file is not a board.

REWRITTEN = board_md([("To do", ["a0", "a1", "a2", "from the other program"]), ("Doing", ["b0"]), ("Done", ["c0"])])


def test_a_command_while_another_program_rewrites_the_board_in_place_keeps_that_programs_bytes(tmp_path):
    """Shell `>`, Python open('w'), nano: the file is empty until the program writes it back. A
    command meanwhile used to read "everything deleted" and save by rename, so the program's bytes
    went to a file that no longer had a name."""
    board = tmp_path / "board.md"
    board.write_text(board_md(THREE))
    with open(board, "w") as writer:  # truncated, held open: the program is not done
        r = run("column", "add", "board.md", "Mine", cwd=tmp_path)
        assert r.returncode in (1, 2), r
        assert "being written by another program" in r.stderr, r.stderr
        writer.write(REWRITTEN)
    assert board.read_text() == REWRITTEN, "the other program's bytes are the board"
    r = run("column", "add", "board.md", "Mine", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    after = board.read_text()
    assert cards_of(after) == cards_of(REWRITTEN) and after.rstrip().endswith("## Mine"), after


def test_the_screen_saves_nothing_over_a_board_another_program_is_rewriting(lanes, tmp_path):
    app = lanes(board_md(THREE), wait_for="a2")
    board = app.board_path
    with open(board, "w") as writer:  # truncated, held open
        app.send_keys("a")
        app.send_literal("mine")
        app.send_keys("Enter")
        # The save waits for the other program and says so; the screen keeps the board it had.
        app.wait_status("being written by another program")
        assert "a2" in app.screen() and "No columns yet" not in app.screen(), app.dump()
        assert board.read_text() == ""
        writer.write(REWRITTEN)
    # Once it is done, the save merges with what it wrote: both kept.
    app.wait_file(board_md([("To do", ["a0", "mine", "a1", "a2", "from the other program"]), ("Doing", ["b0"]),
                            ("Done", ["c0"])]))
    assert app.quit() == 0
