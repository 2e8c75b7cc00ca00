"""`lanes --generate-completion-script bash|zsh|fish`, loaded in the real shells.

bash is driven as its programmable completion is: COMP_WORDS, COMP_CWORD, COMP_LINE and COMP_POINT
set, the script's function called, COMPREPLY read. zsh and fish complete only in an interactive
shell, so they run in tmux (a private server) and get a real TAB; the test reads the screen. Each
completes a real board's column names (running `lanes` itself, as the scripts do), card titles,
board files and saved workspaces. scripts/ensure-deps installs zsh and fish for this.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("LANES_BIN", ROOT / ".build" / "debug" / "lanes"))
SLACK = float(os.environ.get("LANES_E2E_SLACK", "4"))

BOARD = "## To do\n\n- Write docs\n- Fix bug\n\n## Doing\n\n- Review\n\n## Done\n"
OTHER = "## Inbox\n\n## Triage\n"


def script(shell: str) -> str:
    r = subprocess.run([str(BIN), "--generate-completion-script", shell], capture_output=True, text=True,
                       stdin=subprocess.DEVNULL, timeout=60)
    assert r.returncode == 0, r.stderr
    return r.stdout


@pytest.fixture
def place(tmp_path):
    """A folder with two boards and a saved workspace; the environment the shells run lanes in."""
    (tmp_path / "plan.md").write_text(BOARD)
    (tmp_path / "team board.md").write_text(OTHER)
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"), PATH=f"{BIN.parent}:{os.environ['PATH']}")
    r = subprocess.run([str(BIN), "workspace", "save", "sprint", "plan.md"], cwd=tmp_path, env=env,
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    return tmp_path, env


def test_each_shell_gets_a_script():
    assert "complete -o filenames -F _lanes lanes" in script("bash")
    assert script("zsh").startswith("#compdef lanes")
    assert "complete -c 'lanes'" in script("fish")


def bash_complete(place, words: list[str]) -> list[str]:
    """What bash's completion of `lanes` offers for the last of `words` (the word being typed)."""
    folder, env = place
    (folder / "lanes.bash").write_text(script("bash"))
    line = " ".join(shlex.quote(w) if w else "" for w in words)
    driver = f"""
source ./lanes.bash
COMP_WORDS=({' '.join(shlex.quote(w) for w in words)})
COMP_CWORD={len(words) - 1}
COMP_LINE={shlex.quote(line)}
COMP_POINT=${{#COMP_LINE}}
COMPREPLY=()
_lanes lanes {shlex.quote(words[-1])} {shlex.quote(words[-2])}
printf '%s\\n' "${{COMPREPLY[@]}}"
"""
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", driver], cwd=folder, env=env, capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return [w for w in r.stdout.split("\n") if w]


def test_bash_completes_column_names_by_running_lanes_on_the_board(place):
    assert bash_complete(place, ["lanes", "add", "plan.md", "--column", ""]) == ["To do", "Doing", "Done"]
    assert bash_complete(place, ["lanes", "move", "plan.md", "1", "--to", "D"]) == ["Doing", "Done"]
    assert bash_complete(place, ["lanes", "column", "rename", "plan.md", "Do"]) == ["Doing", "Done"]
    assert bash_complete(place, ["lanes", "flow", "plan.md", "--done", ""]) == ["To do", "Doing", "Done"]
    # --to names a column of the board --to-board names.
    assert bash_complete(place, ["lanes", "move", "plan.md", "1", "--to-board", "team board.md", "--to", ""]) == [
        "Inbox", "Triage"]
    # A board that is not there, or not a board, completes nothing (and says nothing).
    assert bash_complete(place, ["lanes", "add", "nope.md", "--column", ""]) == []


def test_bash_completes_cards_boards_and_workspaces(place):
    assert bash_complete(place, ["lanes", "edit", "plan.md", "F"]) == ["Fix bug"]
    assert bash_complete(place, ["lanes", "columns", "pl"]) == ["plan.md"]
    assert bash_complete(place, ["lanes", "open", "@"]) == ["@sprint"]
    assert bash_complete(place, ["lanes", "workspace", "show", ""]) == ["sprint"]
    assert "--json" in bash_complete(place, ["lanes", "show", "plan.md", "--j"])


class Tmux:
    """A shell in a tmux pane on a private server."""

    def __init__(self, name: str, folder: Path, env: dict[str, str], command: list[str]):
        self.socket, self.folder = name, folder
        self.run("new-session", "-d", "-x", "120", "-y", "30", "-s", "t", "-c", str(folder),
                 "env", *(f"{k}={v}" for k, v in env.items() if k in ("PATH", "HOME", "XDG_CONFIG_HOME")),
                 "TERM=xterm-256color", *command)

    def run(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, check=True).stdout

    def screen(self) -> str:
        return self.run("capture-pane", "-p", "-t", "t")

    def wait_for(self, text: str, bound: float = 10) -> str:
        """Waits until `text` is on the screen (the bound is a hang guard, not a timing)."""
        end = time.monotonic() + bound * SLACK
        while True:
            screen = self.screen()
            if text in screen:
                return screen
            assert time.monotonic() < end, f"{text!r} never appeared; the screen:\n{screen}"
            time.sleep(0.05)

    def type(self, *keys: str) -> None:
        self.run("send-keys", "-t", "t", *keys)

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)


def interactive(place, shell: str, setup: str):
    if not shutil.which(shell):
        pytest.fail(f"{shell} is not installed: scripts/ensure-deps test installs it", pytrace=False)
    folder, env = place
    command = ["zsh", "-f"] if shell == "zsh" else ["fish", "--no-config"]
    t = Tmux(f"lanes-comp-{shell}-{os.getpid()}", folder, env, command)
    t.type(setup, "Enter")
    t.type("echo READY", "Enter")
    t.wait_for("\nREADY")
    return t


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_complete_column_names_on_a_real_tab(place, shell):
    folder, _ = place
    if shell == "zsh":
        (folder / "functions").mkdir()
        (folder / "functions" / "_lanes").write_text(script("zsh"))
        setup = "fpath=($PWD/functions $fpath); autoload -Uz compinit; compinit -u -D; PS1='$ '; clear"
    else:
        (folder / "lanes.fish").write_text(script("fish"))
        setup = "source lanes.fish; function fish_prompt; echo '$ '; end; clear"
    t = interactive(place, shell, setup)
    try:
        t.type("lanes add plan.md --column Doi", "Tab")
        t.wait_for("lanes add plan.md --column Doing")
        t.type("C-u")
        if shell == "fish":
            t.type("C-k")
        # A title with a space comes back as one word, quoted for the shell.
        t.type("lanes move plan.md 1 --to T", "Tab")
        t.wait_for("--to To\\ do")
        t.type("C-u")
        if shell == "fish":
            t.type("C-k")
        t.type("lanes workspace show sp", "Tab")
        t.wait_for("lanes workspace show sprint")
    finally:
        t.kill()
