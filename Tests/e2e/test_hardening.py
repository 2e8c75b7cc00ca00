"""Issue #17: nothing typed, pasted, opened or signalled breaks the board or the terminal.

Text doors (NUL and CR LF pastes), escape sequences in error messages, long pastes,
signals, job control, and the small command-line items.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from checks import quit_and_check
from lanes_harness import POLL, HarnessError, board_md

START = [("To do", ["a0", "a1"]), ("Doing", ["b0"])]
# A bad line carrying a title change (OSC 0), a clipboard write (OSC 52), a colour (CSI) and a bell.
HOSTILE = "\x1b]0;PWNED-TITLE\x07\x1b]52;c;UFdORUQtQ0xJUA==\x07\x1b[31mred\x1b[2J\x07\x9b31m"


def descendant_running(root: int, binary: Path) -> int:
    """The first process under `root` (depth first) whose executable is `binary`."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        todo = [root]
        while todo:
            pid = todo.pop()
            try:
                if pid != root and Path(f"/proc/{pid}/exe").resolve() == binary:
                    return pid
                for task in Path(f"/proc/{pid}/task").iterdir():
                    todo += [int(c) for c in (task / "children").read_text().split()]
            except (FileNotFoundError, PermissionError):
                continue
        time.sleep(POLL)
    raise HarnessError(f"no {binary.name} process under {root}")


def lanes_pid(app) -> int:
    """The lanes process in the app's pane."""
    return descendant_running(int(app.fmt("#{pane_pid}")), app.binary)


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


def send_hex(app, data: bytes) -> None:
    """Bytes to the pane exactly (NUL included), in pieces tmux accepts."""
    for i in range(0, len(data), 256):
        app.tmux.run("send-keys", "-t", app.name, "-H", *[f"{b:02x}" for b in data[i:i + 256]])


def paste(app, data: bytes) -> None:
    """A bracketed paste of `data` (tmux wraps it, since Lanes asked for bracketed paste)."""
    buf = app.workdir.parent / f"{app.name}-paste"
    buf.write_bytes(data)
    app.tmux.run("load-buffer", "-b", app.name, str(buf))
    app.tmux.run("paste-buffer", "-p", "-r", "-d", "-b", app.name, "-t", app.name)


def assert_restored(app) -> None:
    flags = app.fmt("#{alternate_on} #{mouse_any_flag} #{mouse_button_flag} #{mouse_sgr_flag}")
    assert flags == "0 0 0 0", f"terminal not restored: alternate/mouse any/button/sgr = {flags!r}"


def run_lanes(lanes_bin, *args, cwd, env=None, stdin=None) -> subprocess.CompletedProcess:
    e = dict(os.environ, LC_ALL="C.UTF-8", HOME=str(cwd), XDG_CONFIG_HOME=str(cwd / "config"))
    e.update(env or {})
    return subprocess.run([str(lanes_bin), *args], cwd=cwd, capture_output=True, env=e, timeout=30, stdin=stdin)


def assert_no_controls(data: bytes, what: str) -> None:
    bad = [b for b in set(data) if (b < 0x20 and b not in (0x09, 0x0A)) or b == 0x7F]
    assert not bad, f"{what} carries control bytes {sorted(bad)}: {data[:400]!r}"
    assert "\x9b" not in data.decode("utf-8", "replace"), f"{what} carries a C1 CSI"


# --------------------------------------------------------------------------- 1, 2: text doors


def test_nul_pasted_into_a_new_card_is_removed_with_words_and_the_file_reopens(lanes):
    app = lanes(board_md(START), wait_for="a0")
    app.send_keys("a")
    app.wait_status("New card:")
    paste(app, b"bad\x00card")
    app.wait_for("1 NUL byte was removed", what="the words about the removed NUL")
    app.send_keys("Enter")
    after = [("To do", ["a0", "badcard", "a1"]), ("Doing", ["b0"])]
    app.wait_file(board_md(after).encode())
    quit_and_check(app, board_md(after).encode())
    again = lanes(None, wait_for="badcard", workdir=app.workdir)
    quit_and_check(again, board_md(after).encode())


def test_crlf_pasted_into_a_column_rename_and_the_accept_prompt_keeps_board_and_rules_readable(lanes, lanes_bin):
    app = lanes(board_md(START), wait_for="a0")
    app.send_keys("R")
    app.wait_status("Column title:")
    app.send_keys("C-u")
    paste(app, b"New\r\nname")
    app.wait_for("1 line break became a space", what="the words about the pasted line break")
    app.send_keys("Enter")
    app.wait_for("New name", what="the renamed column")
    app.send_keys("l", "F")
    app.wait_status("Accepts from")
    paste(app, b"New\r\nname")
    app.send_keys("Enter")
    renamed = [("New name", ["a0", "a1"]), ("Doing", ["b0"])]
    app.wait_file(board_md(renamed).encode())
    rules = app.workdir / ".board.md.lanes"
    deadline = time.monotonic() + 5
    while b"accept" not in (rules.read_bytes() if rules.exists() else b"") and time.monotonic() < deadline:
        time.sleep(POLL)
    assert rules.read_bytes().endswith(b'accept "Doing" from "New name"\n'), rules.read_bytes()
    quit_and_check(app, board_md(renamed).encode(), keep=[".board.md.lanes"])
    shown = run_lanes(lanes_bin, "rules", "board.md", cwd=app.workdir)
    assert shown.returncode == 0, shown.stderr
    assert b'accept "Doing" from "New name"' in shown.stdout
    again = lanes(None, wait_for="New name", workdir=app.workdir)
    quit_and_check(again, board_md(renamed).encode(), keep=[".board.md.lanes"])


def test_the_command_line_refuses_a_title_with_a_line_separator(tmp_path, lanes_bin):
    (tmp_path / "b.md").write_text(board_md(START))
    r = run_lanes(lanes_bin, "add", "b.md", "--column", "1", "one\u2028two", cwd=tmp_path)
    assert r.returncode == 2
    assert b"the card title holds a line break (LINE SEPARATOR, U+2028) at character 4" in r.stderr
    assert (tmp_path / "b.md").read_text() == board_md(START)


# --------------------------------------------------------------------------- 4: escapes in messages


def test_a_malformed_line_with_escape_sequences_changes_no_title_clipboard_or_screen(lanes, tmux_server, lanes_bin, tmp_path):
    bad = ("## To do\n\n- a0\nnot a card " + HOSTILE + "\n").encode()
    tmux_server.run("set-option", "-s", "set-clipboard", "on")
    try:
        app = lanes(bad, wait_for=None, width=400)
        code = app.wait_exit()
        assert code == 2
        screen = app.screen()
        assert "board.md:4:" in screen and "^[]0;PWNED-TITLE^G" in screen, app.dump()
        assert "PWNED" not in app.fmt("#{pane_title}"), app.fmt("#{pane_title}")
        assert app.fmt("#{window_bell_flag}") == "0", "a BEL from the file reached the terminal"
        buffers = tmux_server.run("list-buffers", "-F", "#{buffer_sample}")
        assert "PWNED" not in buffers, f"OSC 52 from the file set a paste buffer: {buffers!r}"
    finally:
        tmux_server.run("set-option", "-s", "set-clipboard", "external")

    # The raw bytes written to a terminal (script(1) records them) carry no ESC, BEL or C1 from the file.
    (tmp_path / "b.md").write_bytes(bad)
    log = tmp_path / "typescript"
    subprocess.run(["script", "-q", "-e", "-c", f"{lanes_bin} b.md", str(log)], cwd=tmp_path,
                   env=dict(os.environ, LC_ALL="C.UTF-8", TERM="xterm-256color", HOME=str(tmp_path)),
                   stdin=subprocess.DEVNULL, capture_output=True, timeout=30)
    raw = log.read_bytes()
    body = raw[raw.index(b"\n") + 1:] if raw.startswith(b"Script started") else raw
    body = body.split(b"\nScript done")[0]
    assert b"b.md:4:" in body, raw
    assert_no_controls(body.replace(b"\r\n", b"\n"), "the error as written to the terminal")


def test_a_file_made_malformed_while_open_is_reported_on_the_status_line_safely(lanes):
    app = lanes(board_md(START), wait_for="a0", width=250)
    title = app.fmt("#{pane_title}")
    time.sleep(1.1)  # a different mtime second for the idle poll
    app.board_path.write_bytes(("## To do\n\n- a0\nbroken " + HOSTILE + "\n").encode())
    app.wait_status("cannot be read", timeout=10)
    assert 'found "broken ^[]0;PWNED-TITLE^G^[]52;c;' in app.status(), app.status()
    assert app.fmt("#{pane_title}") == title
    assert app.fmt("#{window_bell_flag}") == "0"
    app.send_keys("q")
    assert app.wait_exit() == 0
    assert_restored(app)
    assert b"broken" in app.read_file(), "the file someone else wrote was overwritten"


def test_cli_messages_quoting_file_text_are_sanitised(tmp_path, lanes_bin):
    (tmp_path / "bad.md").write_bytes(("## To do\n\n- a0\noops " + HOSTILE + "\n").encode())
    r = run_lanes(lanes_bin, "show", "bad.md", cwd=tmp_path)
    assert r.returncode == 2 and b"bad.md:4:" in r.stderr
    assert_no_controls(r.stderr, "lanes show's parse error")

    two = board_md([("To do", ["x " + HOSTILE + " 1", "x " + HOSTILE + " 2"]), ("Done", [])])
    (tmp_path / "b.md").write_text(two)
    r = run_lanes(lanes_bin, "move", "b.md", "x", "--to", "Done", cwd=tmp_path)
    assert r.returncode == 2 and b"matches 2 cards" in r.stderr, r.stderr
    assert_no_controls(r.stderr, "lanes move's ambiguity list")
    r = run_lanes(lanes_bin, "show", "b.md", cwd=tmp_path)
    assert r.returncode == 0 and b"^[]0;PWNED-TITLE^G" in r.stdout
    assert_no_controls(r.stdout, "lanes show's listing")

    (tmp_path / ".b.md.lanes").write_bytes(("accept Done frm " + HOSTILE + "\n").encode())
    r = run_lanes(lanes_bin, "rules", "b.md", cwd=tmp_path)
    assert r.returncode == 2 and b".b.md.lanes:1:" in r.stderr, r.stderr
    assert_no_controls(r.stderr, "the rules file's error")

    export = {"lists": [{"id": "l", "name": "L", "pos": 1}],
              "cards": [{"id": "c", "idList": "l", "name": "c", "pos": 1, "due": HOSTILE}]}
    (tmp_path / "t.json").write_text(json.dumps(export))
    r = run_lanes(lanes_bin, "import", "trello", "t.json", "--output", "out.md", cwd=tmp_path)
    assert r.returncode == 2 and b"due" in r.stderr, r.stderr
    assert_no_controls(r.stderr, "the Trello import error")


# --------------------------------------------------------------------------- 6: long text


def test_a_megabyte_paste_is_refused_at_once_and_the_prompt_stays_responsive(lanes):
    app = lanes(board_md(START), wait_for="a0")
    app.send_keys("/")
    app.wait_status("Filter:")
    t0 = time.monotonic()
    paste(app, b"y" * (1 << 20))
    app.wait_for("Paste refused (1048576 characters)", timeout=30, what="the refusal of the 1 MB paste")
    refused = time.monotonic() - t0
    paste(app, b"z" * 9000)
    app.wait_for(lambda l: app.status(l).rstrip().endswith("z" * 40), timeout=10, what="the 9,000-character paste")
    t1 = time.monotonic()
    app.send_literal("Q")
    app.wait_for(lambda l: app.status(l).rstrip().endswith("zQ"), timeout=5, what="a key after 9,000 characters")
    key = time.monotonic() - t1
    print(f"1 MB paste refused in {refused:.2f} s; a key at 9,000 characters shown in {key:.3f} s")
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    quit_and_check(app, board_md(START).encode())


def test_e_on_an_8000_character_title_opens_at_once(lanes):
    long = "w" * 7990 + " end-of-it"
    board = [("To do", [long, "a1"])]
    app = lanes(board_md(board), wait_for="a1")
    t0 = time.monotonic()
    app.send_keys("e")
    app.wait_for(lambda l: app.status(l).rstrip().endswith("end-of-it"), timeout=5, what="the edit prompt")
    app.send_literal("!")
    app.wait_for(lambda l: app.status(l).rstrip().endswith("end-of-it!"), timeout=5, what="a typed key")
    print(f"e on 8,000 characters and one key: {time.monotonic() - t0:.3f} s")
    app.send_keys("Enter")
    after = [("To do", [long + "!", "a1"])]
    app.wait_file(board_md(after).encode())
    quit_and_check(app, board_md(after).encode())


# --------------------------------------------------------------------------- 5, 7: signals


@pytest.mark.parametrize("sig", ["SIGUSR1", "SIGUSR2", "SIGALRM", "SIGVTALRM", "SIGPROF", "SIGXCPU"])
def test_a_signal_that_kills_restores_the_terminal_first(lanes, sig):
    app = lanes(board_md(START), wait_for="a0")
    pid = lanes_pid(app)
    os.kill(pid, getattr(signal, sig))
    code = app.wait_exit()
    assert code == 128 + getattr(signal, sig), app.dump()
    assert_restored(app)


@pytest.mark.parametrize("sig", ["SIGSEGV", "SIGABRT", "SIGQUIT", "SIGBUS", "SIGILL", "SIGFPE"])
def test_a_crash_signal_restores_the_terminal_and_really_dies(lanes, sig):
    app = lanes(board_md(START), wait_for="a0")
    pid = lanes_pid(app)
    os.kill(pid, getattr(signal, sig))
    deadline = time.monotonic() + 2
    while alive(pid) and time.monotonic() < deadline:
        time.sleep(POLL)
    assert not alive(pid), f"lanes still runs 2 s after {sig}"
    assert app.wait_exit() == 128 + getattr(signal, sig)
    assert_restored(app)


def test_a_signal_ignored_by_the_parent_stays_ignored(tmux_server, lanes_bin, tmp_path):
    (tmp_path / "b.md").write_text(board_md(START))
    name = f"ign{os.getpid()}"
    tmux_server.run("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "-c", str(tmp_path),
                    f"trap '' USR1; env LC_ALL=C.UTF-8 TERM=xterm-256color {lanes_bin} b.md; echo EXITED; sleep 30")
    try:
        deadline = time.monotonic() + 10
        while "Doing" not in tmux_server.run("capture-pane", "-p", "-t", name):
            assert time.monotonic() < deadline, "the board did not appear"
            time.sleep(POLL)
        pid = descendant_running(int(tmux_server.run("display-message", "-p", "-t", name, "#{pane_pid}").strip()), lanes_bin)
        os.kill(pid, signal.SIGUSR1)
        # A round trip through lanes after the signal: it answers a key, so the signal did not end it.
        tmux_server.run("send-keys", "-t", name, "/")
        deadline = time.monotonic() + 10
        while "Filter:" not in tmux_server.run("capture-pane", "-p", "-t", name):
            assert alive(pid), "SIGUSR1, ignored by the parent (like nohup does), killed lanes"
            assert time.monotonic() < deadline, "lanes stopped answering after SIGUSR1"
            time.sleep(POLL)
        assert alive(pid), "SIGUSR1, ignored by the parent (like nohup does), killed lanes"
        assert tmux_server.run("display-message", "-p", "-t", name, "#{alternate_on}").strip() == "1"
    finally:
        tmux_server.run("kill-session", "-t", name, check=False)


def test_sigpipe_is_ignored_and_sigtstp_without_job_control_changes_nothing(lanes):
    app = lanes(board_md(START), wait_for="a0")
    pid = lanes_pid(app)
    os.kill(pid, signal.SIGPIPE)
    os.kill(pid, signal.SIGTSTP)
    # A round trip through lanes after the signals: a stopped or dead lanes would not open the prompt.
    app.send_keys("/")
    app.wait_for(lambda l: "Filter:" in app.status(l), what="the filter prompt after SIGPIPE and SIGTSTP")
    app.send_keys("Escape")
    app.wait_for(lambda l: "Filter:" not in app.status(l), what="the filter prompt closed")
    assert alive(pid)
    assert Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "T", "stopped with no shell to continue it"
    assert app.fmt("#{alternate_on} #{mouse_button_flag}") == "1 1"
    # Input is still raw: a Ctrl-\ byte is a key, not SIGQUIT; the board still answers.
    send_hex(app, b"\x1c")
    app.send_keys("J")
    after = [("To do", ["a1", "a0"]), ("Doing", ["b0"])]
    app.wait_file(board_md(after).encode())
    assert alive(pid)
    quit_and_check(app, board_md(after).encode())


class ShellSession:
    """An interactive bash (job control on, prompt `READY$ `) in a tmux session of its own,
    running `sh -c 'lanes b.md; echo back-in-sh'` once the board is written to `folder`."""

    def __init__(self, tmux_server, lanes_bin, folder: Path, name: str):
        self.tmux, self.name = tmux_server, name
        (folder / "b.md").write_text(board_md(START))
        tmux_server.run("new-session", "-d", "-s", name, "-x", "100", "-y", "30", "-c", str(folder),
                        "env PS1='READY$ ' LC_ALL=C.UTF-8 TERM=xterm-256color bash --norc --noprofile -i")
        self.wait(lambda s: "READY$" in s, "the shell prompt")
        self.type(f"sh -c '{lanes_bin} b.md; echo back-in-sh'")
        self.wait(lambda s: "a0" in s and "Doing" in s, "the board")

    def screen(self) -> str:
        return self.tmux.run("capture-pane", "-p", "-t", self.name)

    def wait(self, pred, what: str, timeout: float = 10.0) -> None:
        deadline = time.monotonic() + timeout
        while not pred(self.screen()):
            if time.monotonic() > deadline:
                raise HarnessError(f"timed out waiting for {what}:\n{self.screen()}")
            time.sleep(POLL)

    def type(self, line: str) -> None:
        self.tmux.run("send-keys", "-t", self.name, "-l", line)
        self.tmux.run("send-keys", "-t", self.name, "Enter")

    def flags(self) -> str:
        return self.tmux.run("display-message", "-p", "-t", self.name, "#{alternate_on} #{mouse_button_flag}").strip()

    def fg_then_quit(self) -> None:
        """`fg` brings the board back; q ends lanes and sh goes on to its echo."""
        self.type("fg")
        self.wait(lambda s: "a0" in s and "Doing" in s and "READY$ fg" not in s, "the board after fg")
        self.tmux.run("send-keys", "-t", self.name, "q")
        self.wait(lambda s: "back-in-sh" in s and s.rstrip().endswith("READY$"), "lanes to end and sh to go on")

    def close(self) -> None:
        self.tmux.run("kill-session", "-t", self.name, check=False)


def test_a_stop_under_sh_c_stops_the_whole_job_and_the_shell_prompt_comes_back(lanes, tmux_server, lanes_bin, tmp_path):
    sh = ShellSession(tmux_server, lanes_bin, tmp_path, f"jc{os.getpid()}")
    try:
        shell = int(tmux_server.run("display-message", "-p", "-t", sh.name, "#{pane_pid}").strip())
        pid = descendant_running(shell, lanes_bin)
        os.kill(pid, signal.SIGTSTP)
        sh.wait(lambda s: "Stopped" in s and s.rstrip().endswith("READY$"), "the job to stop and the prompt to return")
        sh.wait(lambda s: sh.flags() == "0 0", "the terminal to be restored while stopped")
        sh.fg_then_quit()
    finally:
        sh.close()


# --------------------------------------------------------------------------- 9: small items


def test_small_items_import_alone_and_a_bad_due(tmp_path, lanes_bin):
    r = run_lanes(lanes_bin, "import", cwd=tmp_path)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert b"name the format to import from" in r.stderr

    export = {"lists": [{"id": "l", "name": "L", "pos": 1}],
              "cards": [{"id": "c", "idList": "l", "name": "c", "pos": 1, "due": "2024-13-45T99:99:99Z"}]}
    (tmp_path / "t.json").write_text(json.dumps(export))
    r = run_lanes(lanes_bin, "import", "trello", "t.json", "--output", "out.md", cwd=tmp_path)
    assert r.returncode == 2 and b'"2024-13-45T99:99:99Z"' in r.stderr, r.stderr
    assert not (tmp_path / "out.md").exists()



def test_a_config_that_is_not_utf8_stops_lanes_with_file_and_line(lanes, tmp_path):
    (tmp_path / "config" / "lanes").mkdir(parents=True)
    (tmp_path / "config" / "lanes" / "config").write_bytes(b"bind j down\nbind \xff\xfe up\n")
    app = lanes(board_md(START), wait_for=None, width=400, env={"XDG_CONFIG_HOME": str(tmp_path / "config")})
    assert app.wait_exit() == 2, app.dump()
    assert f"{tmp_path}/config/lanes/config:2: invalid UTF-8 at byte 6 of the line" in app.screen(), app.dump()
