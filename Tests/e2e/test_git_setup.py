"""`lanes git-setup`: the driver is registered by absolute path, `--check` says whether it can run,
and a driver whose program is gone says so on git's output instead of merging.

Real repositories with the real git; HOME and git's global configuration point into the temp folder.
"""

import os
import shutil
import subprocess

import pytest

from test_git_merge import BIN, BOARD, env, git, run  # noqa: F401  (env is a fixture)


@pytest.fixture
def linked(tmp_path, env):
    """`lanes` as a newcomer has it after `make run`: a symlink in a bin folder on PATH."""
    assert BIN.exists(), f"build lanes first: {BIN}"
    bindir = tmp_path / "home" / ".local" / "bin"
    bindir.mkdir(parents=True)
    (bindir / "lanes").symlink_to(BIN)
    env = dict(env, PATH=f"{bindir}:/usr/bin:/bin")
    return env, bindir / "lanes"


def called(env, cwd, *args, check=True):
    """Runs `lanes` by its bare name, as a person types it: the shell finds it on PATH."""
    return run(env, cwd, "lanes", *args, check=check)


def two_clones(env, tmp_path):
    origin = tmp_path / "origin.git"
    git(env, tmp_path, "init", "-q", "--bare", str(origin))
    one, two = tmp_path / "one", tmp_path / "two"
    git(env, tmp_path, "clone", "-q", str(origin), str(one))
    (one / "board.md").write_text(BOARD)
    called(env, one, "git-setup", "board.md")
    git(env, one, "add", "board.md", ".gitattributes")
    git(env, one, "commit", "-q", "-m", "board")
    git(env, one, "push", "-q", "origin", "HEAD:main")
    git(env, tmp_path, "clone", "-q", str(origin), str(two))
    called(env, two, "git-setup", "board.md")
    return one, two


def diverge(env, one, two):
    """Two clones that moved different cards: a merge git hands to the driver."""
    called(env, one, "move", "board.md", "Write tests", "--to", "Doing")
    git(env, one, "commit", "-q", "-am", "tests in progress")
    git(env, one, "push", "-q", "origin", "HEAD:main")
    called(env, two, "move", "board.md", "Review", "--to", "Done", "--position", "1")
    git(env, two, "commit", "-q", "-am", "reviewed")


def test_the_driver_is_the_absolute_path_lanes_was_called_by(tmp_path, linked):
    env, link = linked
    one, two = two_clones(env, tmp_path)
    driver = git(env, one, "config", "merge.lanes.driver").stdout.strip()
    # The symlink's path (it outlives rebuilds), not the bare word "lanes" git would look up on its own PATH.
    assert driver.startswith(f"if [ -x {link} ]; then exec {link} merge %O %A %B %P; fi; ")
    # git runs the driver with a PATH that has no lanes at all, and the merge still works.
    diverge(env, one, two)
    bare = dict(env, PATH="/usr/bin:/bin")
    pull = git(bare, two, "pull", "-q", "--no-edit", "origin", "main")
    assert "CONFLICT" not in pull.stdout + pull.stderr
    shown = run(bare, two, str(BIN), "show", "board.md").stdout
    assert "Write tests" in shown.split("Doing")[1].split("Done")[0]
    assert "Review" in shown.split("Done")[1]


def test_check_says_the_driver_can_run(tmp_path, linked):
    env, link = linked
    one, _ = two_clones(env, tmp_path)
    p = called(env, one, "git-setup", "--check", "board.md")
    top = os.path.realpath(one)
    assert p.stdout == (
        f"{top}: the merge driver runs {link} (this lanes); it can run\n"
        "  .gitattributes: /board.md merge=lanes\n"
        "  board.md: merged by the driver\n"
    )
    # A board git does not hand to the driver is named, with the command that registers it.
    (one / "other.md").write_text(BOARD)
    p = called(env, one, "git-setup", "--check", "other.md", check=False)
    assert p.returncode == 1
    assert "  other.md: not handed to the driver; lanes git-setup other.md registers it\n" in p.stdout
    # Nothing was changed by checking.
    assert (one / ".gitattributes").read_text() == "/board.md merge=lanes\n"


def test_check_without_a_driver_says_how_to_register_one(tmp_path, linked):
    env, _ = linked
    repo = tmp_path / "repo"
    git(env, tmp_path, "init", "-q", str(repo))
    p = called(env, repo, "git-setup", "--check", check=False)
    assert p.returncode == 1
    assert p.stdout == (
        f"{os.path.realpath(repo)}: no merge driver is registered in this clone's .git/config; "
        "lanes git-setup BOARD registers it\n"
        "  .gitattributes hands no board to the driver (lanes git-setup BOARD adds one)\n"
    )


def test_a_gone_program_is_said_in_words_by_check_and_by_the_driver(tmp_path, linked):
    env, link = linked
    one, two = two_clones(env, tmp_path)
    diverge(env, one, two)
    link.unlink()  # the clone lanes was built in is gone, or lanes moved

    check = run(env, two, str(BIN), "git-setup", "--check", "board.md", check=False)
    assert check.returncode == 1
    assert (f"the merge driver's program {link} no longer exists, so git cannot merge boards card by card here "
            "(the driver says so and leaves each board as a conflict). Run lanes git-setup BOARD again "
            f"with the lanes you use now (this one is {BIN})") in check.stdout

    ours = (two / "board.md").read_text()
    pull = git(env, two, "pull", "--no-edit", "origin", "main", check=False)
    out = pull.stdout + pull.stderr
    assert pull.returncode != 0
    assert (f"lanes merge driver: {link} no longer exists, so board.md was not merged (git leaves it as a conflict). "
            "Run lanes git-setup again with the lanes you use now, then git checkout -m on the board (lanes help git).") in out
    # Nothing was lost: the file is ours as it was, theirs is git's stage 3, and the board is marked unmerged.
    assert (two / "board.md").read_text() == ours
    assert git(env, two, "show", ":3:board.md").stdout == (one / "board.md").read_text()
    assert git(env, two, "diff", "--name-only", "--diff-filter=U").stdout == "board.md\n"

    # The way out the message names: register again with the lanes at hand, and merge the board again.
    run(env, two, str(BIN), "git-setup", "board.md")
    git(env, two, "checkout", "-m", "board.md")
    text = (two / "board.md").read_text()
    assert "<<<<<<<" not in text
    shown = run(env, two, str(BIN), "show", "board.md").stdout
    assert "Write tests" in shown.split("Doing")[1].split("Done")[0]
    assert "Review" in shown.split("Done")[1]


def test_a_path_with_spaces_and_quotes_is_quoted_for_the_shell(tmp_path, env):
    odd = tmp_path / "it's a bin"
    odd.mkdir()
    (odd / "lanes").symlink_to(BIN)
    one, two = None, None
    e = dict(env, PATH=f"{odd}:/usr/bin:/bin")
    one, two = two_clones(e, tmp_path)
    diverge(e, one, two)
    pull = git(dict(e, PATH="/usr/bin:/bin"), two, "pull", "-q", "--no-edit", "origin", "main")
    assert "CONFLICT" not in pull.stdout + pull.stderr
    p = run(e, one, "lanes", "git-setup", "--check")
    assert f"the merge driver runs {odd}/lanes (this lanes); it can run" in p.stdout


def test_git_setup_without_boards_is_a_usage_error(tmp_path, env):
    p = run(env, tmp_path, str(BIN), "git-setup", check=False)
    assert p.returncode == 2
    assert "name the board files to register: lanes git-setup BOARD…" in p.stderr
