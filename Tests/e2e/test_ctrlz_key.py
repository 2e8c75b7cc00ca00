"""Ctrl-Z by key: NOT collected yet (the name does not start with test_).

The runner still answers AppEffect.suspend with `device.suspend { kill(getpid(), SIGSTOP) }`,
which stops Lanes alone (sh -c keeps waiting, no prompt) and, without job control, stops it for
good after handing the terminal back in cooked mode. Runner.swift belongs to the lead for #17;
once that line is `device.suspendToShell()`, rename this file to test_ctrlz_key.py and drop
"ctrl-z" from UNBOUND in test_fuzz.py. Both were run with that one-line change and pass.
"""

from __future__ import annotations

import os

from checks import quit_and_check
from lanes_harness import board_md
from test_hardening import START, ShellSession, alive, lanes_pid, send_hex


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
    sh = ShellSession(tmux_server, lanes_bin, tmp_path, f"cz{os.getpid()}")
    try:
        tmux_server.run("send-keys", "-t", sh.name, "C-z")
        sh.wait(lambda s: "Stopped" in s and s.rstrip().endswith("READY$"), "the job to stop and the prompt to return")
        sh.fg_then_quit()
    finally:
        sh.close()
