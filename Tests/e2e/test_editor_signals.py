"""The editor owns the terminal while it runs (#25 point 4), and a signal that ends Lanes with
unsaved work says so in its exit status (#25 point 6)."""

from __future__ import annotations

import itertools
import os
import signal
import stat
import subprocess

import pytest

from checks import quit_and_check
from lanes_harness import EXIT_MARK, LanesApp, board_md

THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]


def lanes_pid(app) -> int:
    shell = int(app.tmux.run("display", "-p", "-t", app.name, "#{pane_pid}").strip())
    # The pane's shell leads the session; lanes is its child, or its grandchild under a job's shell.
    out = subprocess.run(["ps", "-o", "pid=,comm=", "-s", str(shell)], capture_output=True, text=True).stdout
    pids = [int(line.split()[0]) for line in out.splitlines() if line.split()[1] == "lanes"]
    assert len(pids) == 1, out
    return pids[0]


def process_state(pid: int) -> str:
    return subprocess.run(["ps", "-o", "stat=", "-p", str(pid)], capture_output=True, text=True).stdout.strip()


_jobs = itertools.count(1)


@pytest.fixture
def lanes_job(tmux_server, lanes_bin, tmp_path):
    """Starts lanes as a job of an interactive bash, as a person does: lanes has its own process
    group in the foreground, the shell waits in another one (so Ctrl-C and Ctrl-\\ typed in the
    editor go to lanes' group only, and Ctrl-Z stops the job and gives the shell the terminal)."""
    apps: list[LanesApp] = []

    def start(board: str, env: dict[str, str], mark: bool = True) -> LanesApp:
        folder = tmp_path / f"job{len(apps)}"
        folder.mkdir()
        (folder / "board.md").write_text(board)
        app = LanesApp(tmux_server, f"job{os.getpid()}-{next(_jobs)}", lanes_bin, folder, "board.md",
                       "xterm-256color", 100, 30, env=env)
        apps.append(app)
        run = folder / "run.sh"
        script(run, "#!/bin/sh\nexec " + app.command().split("; s=$?")[0] + "\n")
        tmux_server.run("new-session", "-d", "-s", app.name, "-x", "100", "-y", "30", "-c", str(folder),
                        "env PS1='shell$ ' /bin/bash --norc --noprofile -i")
        app.started = True
        app.wait_for("shell$")
        # The mark is printed by the shell once the job ends: wait_exit reads it. (Not with `mark`
        # off: bash goes on to the rest of a command line when its job stops.)
        app.send_literal(f"./run.sh; printf '\\n{EXIT_MARK}%s\\n' $?\r" if mark else "./run.sh\r")
        app.wait_for("a0")
        return app

    yield start
    for app in apps:
        app.kill()


def script(path, text: str):
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


# An editor that, like vi or nano, survives Ctrl-C and Ctrl-\ itself, but keeps the terminal's
# signal keys on (cooked mode) so that the keys really are signals to the foreground group.
SURVIVING_EDITOR = """#!/usr/bin/python3
import signal, sys
def said(name):
    def handler(sig, frame):
        print("editor got " + name, flush=True)
    return handler
signal.signal(signal.SIGINT, said("INT"))
signal.signal(signal.SIGQUIT, said("QUIT"))
print("editor ready; type done", flush=True)
for line in sys.stdin:
    if line.strip() == "done":
        break
"""


def test_ctrl_c_and_ctrl_backslash_in_the_editor_are_the_editors(lanes_job, tmp_path):
    editor = script(tmp_path / "editor.py", SURVIVING_EDITOR)
    app = lanes_job(board_md(THREE), env={"EDITOR": str(editor), "VISUAL": ""})
    pid = lanes_pid(app)
    app.send_keys("E")
    app.wait_for("editor ready; type done")
    app.send_literal("\x1c")  # Ctrl-\: SIGQUIT to the foreground process group
    app.wait_for("editor got QUIT")
    app.send_literal("\x03")  # Ctrl-C: SIGINT to the foreground process group
    app.wait_for("editor got INT")
    app.send_literal("done\r")
    # Lanes is alive and has the terminal back: the board, the alternate screen, mouse tracking.
    app.wait_for(lambda l: any("a0" in x for x in l) and not any("editor got" in x for x in l),
                 what="the board back after the editor")
    assert app.fmt("#{alternate_on} #{mouse_button_flag}") == "1 1", app.dump()
    os.kill(pid, 0)  # still the same process
    assert app.read_file().decode() == board_md(THREE), "the card was changed"
    # Lanes' own handlers are back: SIGINT ends it again (saved, so status 0).
    os.kill(pid, signal.SIGINT)
    assert app.wait_exit() == 0, app.dump()
    assert app.read_file().decode() == board_md(THREE)


def test_an_editor_killed_by_ctrl_c_leaves_the_card_and_says_so(lanes_job, tmp_path):
    editor = script(tmp_path / "editor.sh", "#!/bin/sh\necho 'plain editor ready'\nexec sleep 60\n")
    app = lanes_job(board_md(THREE), env={"EDITOR": str(editor), "VISUAL": ""})
    app.send_keys("E")
    app.wait_for("plain editor ready")
    app.send_literal("\x1c")
    app.wait_status("was ended by SIGQUIT; the card is as it was")
    app.send_keys("E")
    app.wait_for("plain editor ready")
    app.send_literal("\x03")
    app.wait_status("was ended by SIGINT; the card is as it was")
    quit_and_check(app, board_md(THREE), keep=["run.sh"])


def test_a_missing_or_failing_editor_is_named(lanes, tmp_path):
    app = lanes(board_md(THREE), wait_for="a0", env={"EDITOR": str(tmp_path / "no-such-editor"), "VISUAL": ""})
    app.send_keys("E")
    app.wait_status("no-such-editor” was not found; set $VISUAL or $EDITOR. The card is as it was")
    quit_and_check(app, board_md(THREE))
    # Writes the card away, then fails: what it wrote is not taken.
    failing = script(tmp_path / "failing.sh", "#!/bin/sh\necho '- rewritten' > \"$1\"\nexit 3\n")
    app = lanes(board_md(THREE), wait_for="a0", env={"EDITOR": str(failing), "VISUAL": ""})
    app.send_keys("E")
    app.wait_status("failed (exit status 3); the card is as it was")
    quit_and_check(app, board_md(THREE))


def test_an_editor_that_stops_itself_does_not_hang_lanes(lanes, tmp_path):
    # Under `tmux new lanes` there is no shell to return to: nobody else would continue it.
    editor = script(tmp_path / "editor.sh",
                    "#!/bin/sh\necho 'stopping myself'\nkill -STOP $$\n"
                    "printf '    > written after the stop\\n' >> \"$1\"\n")
    app = lanes(board_md(THREE), wait_for="a0", env={"EDITOR": str(editor), "VISUAL": ""})
    app.send_keys("E")
    app.wait_status("Card updated")
    app.wait_file(board_md(THREE).replace("- a0\n", "- a0\n    > written after the stop\n"))
    app.quit()


def test_ctrl_z_in_the_editor_under_a_shell_stops_lanes_and_fg_brings_both_back(lanes_job, tmp_path):
    # With job control: Ctrl-Z in the editor stops the whole job, `fg` resumes editor and Lanes.
    editor = script(tmp_path / "editor.py", SURVIVING_EDITOR)
    app = lanes_job(board_md(THREE), env={"EDITOR": str(editor), "VISUAL": ""}, mark=False)
    app.send_keys("E")
    app.wait_for("editor ready; type done")
    app.send_literal("\x1a")  # Ctrl-Z: the job stops, the shell has the terminal
    app.wait_for(lambda l: any("Stopped" in x for x in l), what="the shell's job-stopped message")
    app.send_literal("fg\r")
    # Typed only once the job runs again: the shell flushes what was typed before it hands over.
    app.wait_for(lambda l: not process_state(lanes_pid(app)).startswith("T"), what="the job running again")
    app.send_literal("done\r")
    app.wait_for(lambda l: any("a0" in x for x in l) and app.fmt("#{alternate_on}") == "1",
                 what="the board back after fg and the editor's end")
    assert app.read_file().decode() == board_md(THREE)
    app.send_keys("q")
    app.wait_for(lambda l: app.fmt("#{alternate_on}") == "0", what="lanes to end")
    app.send_literal("echo lanes-exit=$?\r")
    app.wait_for("lanes-exit=0")


def test_sigterm_with_unsaved_work_exits_143_and_names_the_copy(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    os.chmod(app.board_path, 0o444)
    app.send_keys("J")
    app.wait_status("NOT SAVED")
    os.kill(lanes_pid(app), signal.SIGTERM)
    assert app.wait_exit() == 128 + signal.SIGTERM, app.dump()
    recovery = app.config_home / ".local" / "state" / "lanes" / "recovery"
    copies = [p for p in recovery.iterdir() if p.name.startswith("board.md.")]
    assert len(copies) == 1
    # Said on stderr once the terminal is restored (wrapped by the terminal: joined here).
    assert f"your board is in {copies[0]}" in "".join(app.capture()), app.dump()
    assert stat.S_IMODE(recovery.stat().st_mode) == 0o700


def test_sighup_with_unsaved_work_exits_129(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    os.chmod(app.board_path, 0o444)
    app.send_keys("J")
    app.wait_status("NOT SAVED")
    os.kill(lanes_pid(app), signal.SIGHUP)
    assert app.wait_exit() == 128 + signal.SIGHUP, app.dump()


def test_save_a_copy_at_the_suggested_path_makes_the_recovery_folder(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    recovery = app.config_home / ".local" / "state" / "lanes" / "recovery"
    assert not recovery.exists()
    os.chmod(app.board_path, 0o444)
    app.send_keys("J")
    app.wait_status("NOT SAVED")
    app.send_keys("q")
    app.wait_status("NOT SAVED — r retry")
    app.send_keys("s")
    app.wait_status("Save a copy to:")
    app.send_keys("Enter")  # the suggested path, in the recovery folder
    assert app.wait_exit() == 0, app.dump()
    assert stat.S_IMODE(recovery.stat().st_mode) == 0o700
    copies = [p for p in recovery.iterdir() if p.name.startswith("board.md.")]
    assert len(copies) == 1, list(recovery.iterdir())
    mine = [("To do", ["a1", "a0", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
    assert copies[0].read_text() == board_md(mine)
