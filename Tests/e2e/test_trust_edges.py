"""Issue #40: nothing lost to a crash, a careless program or a hostile member.

Each test reproduces one way a board, a secret or what was typed could be lost or leaked, and
checks that Lanes ends it in words and an exit status (1 or 2) with the board as it was.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

from lanes_harness import board_md, find_binary

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
