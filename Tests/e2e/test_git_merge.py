"""`lanes merge` as git's merge driver, in real repositories with the real git.

Two clones of one repository each change the board with the built `lanes` binary (or by
hand), then `git pull` merges them through the driver that `lanes git-setup` registered.
HOME and git's global/system configuration point into the temp folder, so nothing here
reads or touches the user's own git setup.
"""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("LANES_BIN", ROOT / ".build" / "debug" / "lanes")).resolve()

BOARD = """## To do

- Write docs
    > About the docs
- Write tests
- Fix bug

## Doing

- Review

## Done

- Release 0.1

"""


@pytest.fixture
def env(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    e = {
        "HOME": str(home),
        "PATH": "/usr/bin:/bin",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(home / "gitconfig"),
        "GIT_AUTHOR_NAME": "A", "GIT_AUTHOR_EMAIL": "a@example.com",
        "GIT_COMMITTER_NAME": "A", "GIT_COMMITTER_EMAIL": "a@example.com",
        "LANG": "C.UTF-8",
    }
    (home / "gitconfig").write_text("[init]\n\tdefaultBranch = main\n[pull]\n\trebase = false\n")
    return e


def run(env, cwd, *args, check=True):
    p = subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True, timeout=60)
    if check and p.returncode != 0:
        raise AssertionError(f"{args} exited {p.returncode}\nstdout: {p.stdout}\nstderr: {p.stderr}")
    return p


def lanes(env, cwd, *args, check=True):
    return run(env, cwd, str(BIN), *args, check=check)


def git(env, cwd, *args, check=True):
    return run(env, cwd, "git", *args, check=check)


@pytest.fixture
def clones(tmp_path, env):
    """A bare origin with a board whose merge driver is set up, and two clones of it (both set up)."""
    assert BIN.exists(), f"build lanes first: {BIN}"
    origin = tmp_path / "origin.git"
    git(env, tmp_path, "init", "-q", "--bare", str(origin))
    one, two = tmp_path / "one", tmp_path / "two"
    git(env, tmp_path, "clone", "-q", str(origin), str(one))
    (one / "board.md").write_text(BOARD)
    lanes(env, one, "git-setup", "board.md")
    git(env, one, "add", "board.md", ".gitattributes")
    git(env, one, "commit", "-q", "-m", "board")
    git(env, one, "push", "-q", "origin", "HEAD:main")
    git(env, tmp_path, "clone", "-q", str(origin), str(two))
    lanes(env, two, "git-setup", "board.md")
    return one, two


def show(env, cwd):
    return lanes(env, cwd, "show", "board.md").stdout


def test_moves_of_different_cards_merge_cleanly(env, clones):
    one, two = clones
    lanes(env, one, "move", "board.md", "Write tests", "--to", "Doing")
    git(env, one, "commit", "-q", "-am", "tests in progress")
    git(env, one, "push", "-q", "origin", "HEAD:main")

    lanes(env, two, "move", "board.md", "Review", "--to", "Done", "--position", "1")
    git(env, two, "commit", "-q", "-am", "reviewed")
    pull = git(env, two, "pull", "-q", "--no-edit", "origin", "main")
    assert "CONFLICT" not in pull.stdout + pull.stderr

    text = (two / "board.md").read_text()
    assert "<<<<<<<" not in text and ">>>>>>>" not in text
    assert text == """## To do

- Write docs
    > About the docs
- Fix bug

## Doing

- Write tests

## Done

- Review
- Release 0.1

"""
    assert git(env, two, "status", "--porcelain").stdout == ""


def test_a_colliding_edit_exits_1_and_keeps_both_titles(env, clones):
    one, two = clones
    (one / "board.md").write_text(BOARD.replace("- Fix bug", "- Fix the login bug"))
    git(env, one, "commit", "-q", "-am", "retitle")
    git(env, one, "push", "-q", "origin", "HEAD:main")

    (two / "board.md").write_text(BOARD.replace("- Fix bug", "- Fix bug on Safari"))
    git(env, two, "commit", "-q", "-am", "retitle too")
    pull = git(env, two, "pull", "--no-edit", "origin", "main", check=False)
    out = pull.stdout + pull.stderr
    assert pull.returncode != 0
    assert "CONFLICT (content): Merge conflict in board.md" in out
    assert "lanes merge: board.md: \"Fix bug on Safari ⟷ Fix the login bug\" was edited here and elsewhere: both titles kept" in out
    assert "board.md" in git(env, two, "diff", "--name-only", "--diff-filter=U").stdout

    text = (two / "board.md").read_text()
    assert "<<<<<<<" not in text and "=======" not in text
    assert text == BOARD.replace("- Fix bug", "- Fix bug on Safari ⟷ Fix the login bug")
    # A valid board: the CLI reads it.
    assert "Fix bug on Safari ⟷ Fix the login bug" in show(env, two)


def test_the_driver_contract_directly(env, tmp_path):
    base, ours, theirs = tmp_path / "base.md", tmp_path / "ours.md", tmp_path / "theirs.md"
    base.write_text(BOARD)
    ours.write_text(BOARD.replace("- Review\n", "- Review\n- Pair up\n"))
    theirs.write_text(BOARD.replace("- Release 0.1\n", "- Release 0.1\n- Release 0.2\n"))
    p = lanes(env, tmp_path, "merge", str(base), str(ours), str(theirs), "board.md", check=False)
    assert (p.returncode, p.stderr) == (0, "")
    assert ours.read_text() == BOARD.replace("- Review\n", "- Review\n- Pair up\n").replace("- Release 0.1\n", "- Release 0.1\n- Release 0.2\n")

    # Unparseable input: exit 2 with file:line, and OURS untouched.
    before = ours.read_bytes()
    theirs.write_text("## To do\n- card\n\n- after a blank\n")
    p = lanes(env, tmp_path, "merge", str(base), str(ours), str(theirs), "board.md", check=False)
    assert p.returncode == 2
    assert p.stderr.startswith("board.md (theirs):4: ")
    assert ours.read_bytes() == before


def test_collision_words_carry_no_control_sequences(env, tmp_path):
    base, ours, theirs = tmp_path / "base.md", tmp_path / "ours.md", tmp_path / "theirs.md"
    base.write_text(BOARD)
    ours.write_text(BOARD.replace("- Review\n", "- Review \x1b[31mred\n"))
    theirs.write_text(BOARD.replace("- Review\n", "- Review \x07bell\n"))
    p = lanes(env, tmp_path, "merge", str(base), str(ours), str(theirs), "board.md", check=False)
    assert p.returncode == 1
    assert "\x1b" not in p.stderr and "\x07" not in p.stderr
    assert "\"Review ^[[31mred ⟷ Review ^Gbell\" was edited here and elsewhere: both titles kept" in p.stderr
    # The file keeps the bytes as they were written.
    assert "- Review \x1b[31mred ⟷ Review \x07bell\n" in ours.read_text()


def test_git_setup_is_idempotent(env, clones):
    one, _ = clones
    attributes = (one / ".gitattributes").read_bytes()
    config = (one / ".git" / "config").read_bytes()
    assert attributes == b"/board.md merge=lanes\n"
    driver = git(env, one, "config", "merge.lanes.driver").stdout.strip()
    assert driver.startswith(f"if [ -x {BIN} ]; then exec {BIN} merge %O %A %B %P; fi; ")
    again = lanes(env, one, "git-setup", "board.md")
    assert "already set up" in again.stdout
    assert (one / ".gitattributes").read_bytes() == attributes
    assert (one / ".git" / "config").read_bytes() == config
    assert git(env, one, "check-attr", "merge", "board.md").stdout.strip() == "board.md: merge: lanes"


def test_git_setup_quotes_odd_paths_and_sees_them_from_anywhere(env, tmp_path):
    repo = tmp_path / "repo"
    (repo / "sub").mkdir(parents=True)
    git(env, repo, "init", "-q")
    (repo / "sub" / "my board*.md").write_text(BOARD)
    lanes(env, repo, "git-setup", "sub/my board*.md")
    assert (repo / ".gitattributes").read_text() == '"/sub/my board\\\\*.md" merge=lanes\n'
    assert git(env, repo, "check-attr", "merge", "sub/my board*.md").stdout.strip() == "sub/my board*.md: merge: lanes"
    # The same board named from its own folder: nothing to add.
    again = lanes(env, repo / "sub", "git-setup", "my board*.md")
    assert "already set up" in again.stdout
    assert (repo / ".gitattributes").read_text().count("merge=lanes") == 1


def test_no_common_ancestor_merges_both_boards(env, tmp_path):
    base, ours, theirs = tmp_path / "base.md", tmp_path / "ours.md", tmp_path / "theirs.md"
    base.write_text("")  # git's %O for a file both branches added
    ours.write_text(BOARD.replace("- Review\n", "- Review\n- Pair up\n"))
    theirs.write_text(BOARD.replace("- Release 0.1\n", "- Release 0.1\n- Release 0.2\n"))
    p = lanes(env, tmp_path, "merge", str(base), str(ours), str(theirs), check=False)
    assert (p.returncode, p.stderr) == (0, "")
    assert ours.read_text() == BOARD.replace("- Review\n", "- Review\n- Pair up\n").replace("- Release 0.1\n", "- Release 0.1\n- Release 0.2\n")


def test_git_setup_outside_a_repository_fails(env, tmp_path):
    (tmp_path / "board.md").write_text(BOARD)
    p = lanes(env, tmp_path, "git-setup", "board.md", check=False)
    assert p.returncode == 1
    assert "not in a git repository" in p.stderr
