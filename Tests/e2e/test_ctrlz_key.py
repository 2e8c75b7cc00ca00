"""Ctrl-Z by key: NOT collected yet (the name does not start with test_).

The runner still answers AppEffect.suspend with `device.suspend { kill(getpid(), SIGSTOP) }`,
which stops Lanes alone (sh -c keeps waiting, no prompt) and, without job control, stops it for
good after handing the terminal back in cooked mode. Runner.swift belongs to the lead for #17;
once that line is `device.suspendToShell()`, rename this file to test_ctrlz_key.py and drop
"ctrl-z" from UNBOUND in test_fuzz.py. Both were run with that one-line change and pass.
"""

from __future__ import annotations

import os
import time

from checks import quit_and_check
from lanes_harness import POLL, HarnessError, board_md
from test_hardening import START, alive, descendant_running, lanes_pid, send_hex


def test_ctrl_z_without_job_control_is_a_key_that_changes_nothing(lanes):
    app = lanes(board_md(START), wait_for="a0")
    pid = lanes_pid(app)
    send_hex(app, b"\x1a\x1c\x1a")
    app.send_keys("J")
    after = [("To do", ["a1", "a0"]), ("Doing", ["b0"])]
    app.wait_file(board_md(after).encode())
    assert alive(pid) and open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[0] != "T"
    assert app.fmt("#{alternate_on} #{mouse_button_flag}") == "1 1"
    quit_and_check(app, board_md(after).encode())


def test_ctrl_z_under_sh_c_gives_the_shell_its_prompt_and_fg_brings_the_board_back(tmux_server, lanes_bin, tmp_path):
    (tmp_path / "b.md").write_text(board_md(START))
    name = f"cz{os.getpid()}"
    tmux_server.run("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "-c", str(tmp_path),
                    "env PS1='READY$ ' LC_ALL=C.UTF-8 TERM=xterm-256color bash --norc --noprofile -i")
    try:
        def screen():
            return tmux_server.run("capture-pane", "-p", "-t", name)

        def wait(pred, what, timeout=10.0):
            deadline = time.monotonic() + timeout
            while not pred(screen()):
                if time.monotonic() > deadline:
                    raise HarnessError(f"timed out waiting for {what}:\n{screen()}")
                time.sleep(POLL)

        wait(lambda s: "READY$" in s, "the shell prompt")
        tmux_server.run("send-keys", "-t", name, "-l", f"sh -c '{lanes_bin} b.md; echo back-in-sh'")
        tmux_server.run("send-keys", "-t", name, "Enter")
        wait(lambda s: "a0" in s and "Doing" in s, "the board")
        tmux_server.run("send-keys", "-t", name, "C-z")
        wait(lambda s: "Stopped" in s and s.rstrip().endswith("READY$"), "the job to stop and the prompt to return")
        tmux_server.run("send-keys", "-t", name, "-l", "fg")
        tmux_server.run("send-keys", "-t", name, "Enter")
        wait(lambda s: "a0" in s and "Doing" in s and "READY$ fg" not in s, "the board after fg")
        tmux_server.run("send-keys", "-t", name, "q")
        wait(lambda s: "back-in-sh" in s and s.rstrip().endswith("READY$"), "lanes to end and sh to go on")
    finally:
        tmux_server.run("kill-session", "-t", name, check=False)
