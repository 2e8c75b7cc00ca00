"""The README's examples work as written, right after the two commands.

Every ```sh block of README.md is run line by line, copied as written, in a fresh empty folder, by a
person whose `lanes` is the one `make run` left (scripts/link-lanes, into a temporary HOME's
~/.local/bin on PATH). A line that opens the board runs in a real terminal (tmux) and is quit with q
once the board is on the screen. The PostgreSQL lines name `db.example`; they run against the tests'
own server (scripts/pg-test-cluster), in a database of their own prepared as the README says (the
first creator has CREATE on it), with the same roles. The ```text and ```markdown examples (the
accept-rules file, the file format) are fed to lanes and must be read as they are written.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

import pytest

from lanes_harness import EXIT_MARK, LanesApp, watchdog
from pg_helpers import psql_run

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
SUBCOMMANDS = {"open", "show", "columns", "add", "move", "rules", "export", "import", "merge", "git-setup", "keys",
               "copy", "grant", "revoke", "help", "edit", "remove", "column"}
URL = re.compile(r"postgresql://(\w+)@db\.example/(\w+)\?")


def blocks(language: str) -> list[tuple[int, str]]:
    """(line number, text) of every fenced block of the README in `language`."""
    found, lines = [], README.read_text(encoding="utf-8").split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```" + language:
            start, body = i + 1, []
            i += 1
            while lines[i].strip() != "```":
                body.append(lines[i])
                i += 1
            found.append((start + 1, "\n".join(body)))
        i += 1
    return found


def commands() -> list[tuple[int, str]]:
    """Every command line of the ```sh blocks, with its README line number, in README order."""
    out = []
    for start, text in blocks("sh"):
        for n, line in enumerate(text.split("\n")):
            if line.strip() and not line.lstrip().startswith("#"):
                out.append((start + n, line))
    return out


def opens_the_board(line: str) -> bool:
    words = shlex.split(line, comments=True)
    return words[0] == "lanes" and len(words) > 1 and not words[1].startswith("-") and words[1] not in SUBCOMMANDS


class ShellLine(LanesApp):
    """A README line run by sh in a tmux pane, as a person types it (the harness reads the exit status)."""

    def __init__(self, tmux, name: str, line: str, workdir: Path, env: dict[str, str]):
        super().__init__(tmux, name, Path("/bin/sh"), workdir, "plan.md", "xterm-256color", 100, 30)
        self.line, self.env = line, env

    def command(self) -> str:
        run = shlex.join(["env", "-i", *(f"{k}={v}" for k, v in self.env.items()), "TERM=xterm-256color",
                          "/bin/sh", "-c", self.line])
        return f"{run}; s=$?; printf '\\n{EXIT_MARK}%s\\n' \"$s\"; {watchdog()}"


def psql(pg, role: str, sql: str, database: str = "postgres", check: bool = True):
    out = psql_run(pg, role, sql, database)
    if check:
        assert out.returncode == 0, out.stderr
    return out


@pytest.fixture
def newcomer(tmp_path, lanes_bin):
    """The environment of someone who ran `make run`: HOME with ~/.local/bin/lanes on PATH, nothing else."""
    home = tmp_path / "home"
    (home / ".local" / "bin").mkdir(parents=True)
    env = {
        "HOME": str(home),
        "PATH": f"{home}/.local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(home / ".gitconfig"),
    }
    (home / ".gitconfig").write_text("[init]\n\tdefaultBranch = main\n[user]\n\tname = A\n\temail = a@example.com\n")
    link = subprocess.run([str(ROOT / "scripts" / "link-lanes"), str(lanes_bin)], env=env, capture_output=True, text=True)
    assert link.returncode == 0, link.stderr
    assert link.stdout == (f"lanes: ~/.local/bin/lanes now runs this build ({lanes_bin}); "
                           "`lanes` works in any folder, and `man lanes` shows its manual\n")
    return env


def test_make_run_links_lanes_and_says_when_its_folder_is_not_on_path(tmp_path, lanes_bin):
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([str(ROOT / "scripts" / "link-lanes"), str(lanes_bin)], env=env, capture_output=True, text=True)
    assert (p.returncode, p.stderr) == (0, "")
    # One story: linked, but not found by the shell yet (no "works in any folder" before it), and
    # what works until the line is added.
    page = ROOT / "Resources" / "lanes.1"
    assert p.stdout == (
        f"lanes: ~/.local/bin/lanes now runs this build ({lanes_bin})\n"
        f"lanes: but {home}/.local/bin is not on your PATH, so the shell does not find `lanes` "
        "(nor `man lanes` its manual) yet. Add this line to ~/.profile (or ~/.bashrc), then open a new shell:\n"
        '    export PATH="$HOME/.local/bin:$PATH"\n'
        f"lanes: until then, run it as {lanes_bin}, and read the manual with: man {page}\n"
    )
    # What it says works until then does work.
    assert subprocess.run([str(lanes_bin), "--version"], env=env, capture_output=True, text=True).stdout.strip()
    shown = subprocess.run(["man", "-w", str(page)], env=env, capture_output=True, text=True)
    assert (shown.returncode, shown.stdout.strip()) == (0, str(page)), shown.stderr
    assert os.readlink(home / ".local" / "bin" / "lanes") == str(lanes_bin)
    assert os.readlink(home / ".local" / "share" / "man" / "man1" / "lanes.1") == str(ROOT / "Resources" / "lanes.1")
    # The line it gives works: with it, the shell finds lanes, and man finds the page.
    on_path = dict(env, PATH=f"{home}/.local/bin:/usr/bin:/bin")
    assert subprocess.run(["sh", "-c", "lanes --version"], env=on_path, capture_output=True, text=True).stdout.strip()
    found = subprocess.run(["man", "-w", "lanes"], env=on_path, capture_output=True, text=True)
    assert found.stdout.strip() == str(ROOT / "Resources" / "lanes.1"), found.stderr  # through the link (man resolves it)
    # Again: nothing to say. A program of its own in that place is left alone, and said.
    assert subprocess.run([str(ROOT / "scripts" / "link-lanes"), str(lanes_bin)], env=on_path,
                          capture_output=True, text=True).stdout == ""
    (home / ".local" / "bin" / "lanes").unlink()
    (home / ".local" / "bin" / "lanes").write_text("#!/bin/sh\necho mine\n")
    p = subprocess.run([str(ROOT / "scripts" / "link-lanes"), str(lanes_bin)], env=on_path, capture_output=True, text=True)
    assert p.stdout == f"lanes: ~/.local/bin/lanes is a program of its own, left as it is; this build is {lanes_bin}\n"
    assert (home / ".local" / "bin" / "lanes").read_text() == "#!/bin/sh\necho mine\n"


def test_every_sh_example_of_the_readme_works_as_written(tmp_path, newcomer, tmux_server, pg):
    work = tmp_path / "empty"
    work.mkdir()
    lines = commands()
    # The two commands run in the clone (they are what runs this test); everything else in an empty folder.
    assert [line for _, line in lines if line.startswith("make ")] == [
        "make run     # builds, makes `lanes` a command, opens ./lanes.md (created from the starter board)",
        "make test    # every unit test and the real-terminal tests, ending in one verdict line",
    ]
    examples = [(n, line) for n, line in lines if not line.startswith("make ")]
    assert len(examples) >= 15, examples

    # The team server as the README sets it up: a database, and CREATE on it for the first creator.
    d, port = pg
    database = f"readme_{os.getpid()}"
    psql(pg, "postgres", f"DROP DATABASE IF EXISTS {database}")
    psql(pg, "postgres", f"CREATE DATABASE {database} OWNER lanes_admin")
    psql(pg, "postgres", f"GRANT CREATE ON DATABASE {database} TO alice")

    def on_our_server(line: str) -> str:
        return URL.sub(lambda m: f"postgresql://{m.group(1)}@/{database}?host={d}&port={port}&", line)

    for n, line in examples:
        command = on_our_server(line)
        where = f"README.md:{n}: {line}"
        if opens_the_board(line):
            app = ShellLine(tmux_server, f"readme-{os.getpid()}-{n}", command, work, newcomer)
            try:
                app.start(wait_for="Lanes · ")
                assert app.quit() == 0, f"{where}\n{app.dump()}"
            finally:
                app.kill()
            continue
        p = subprocess.run(["/bin/sh", "-c", command], cwd=work, env=newcomer, capture_output=True, text=True,
                           stdin=subprocess.DEVNULL, timeout=60)
        assert p.returncode == 0, f"{where}\nexit status {p.returncode}\nstdout: {p.stdout}\nstderr: {p.stderr}"
        assert p.stderr == "", f"{where}\nstderr: {p.stderr}"

    # What the examples say they did, they did.
    env = newcomer
    shown = subprocess.run(["lanes", "show", "plan.md"], cwd=work, env=env, capture_output=True, text=True).stdout
    doing = shown.split("Column 2: Doing")[1].split("Column 3: Review")[0]
    assert doing.index("Write the tests") < doing.index("Edit a title"), shown
    # Review went where a person means it: after Doing, before Done (the board the rules and the
    # flow metrics below expect), and Done takes cards from it.
    columns = subprocess.run(["lanes", "columns", "plan.md"], cwd=work, env=env, capture_output=True, text=True).stdout
    assert [line.split("\t")[1] for line in columns.splitlines()] == ["To do", "Doing", "Review", "Done"], columns
    assert (work / ".plan.md.lanes").read_text().endswith('\naccept "Done" from "Review"\n')
    # Committed, the board gives the metrics the README's flow section describes: the first column
    # not started, the last done, those between in progress.
    for git in (["git", "add", "plan.md"], ["git", "commit", "-qm", "plan"]):
        assert subprocess.run(git, cwd=work, env=env, capture_output=True).returncode == 0
    metrics = subprocess.run(["lanes", "metrics", "plan.md"], cwd=work, env=env, capture_output=True, text=True)
    assert metrics.returncode == 0, metrics.stderr
    assert "columns · not started: To do · in progress: Doing, Review · done: Done" in metrics.stdout, metrics.stdout
    assert (work / "backup.md").read_bytes() == (work / "plan.md").read_bytes()
    assert "merge=lanes" in (work / ".gitattributes").read_text()
    # The board went to the server (before the scripting examples changed it) and came back whole.
    (tmp_path / "starter.md").write_bytes((ROOT / "Resources" / "starter.md").read_bytes())
    starter = subprocess.run(["lanes", "show", str(tmp_path / "starter.md")], env=env, capture_output=True, text=True).stdout
    back = subprocess.run(["lanes", "show", "out.md"], cwd=work, env=env, capture_output=True, text=True).stdout
    assert back == starter
    assert psql(pg, "bob", "SELECT count(*) FROM lanes.boards", database=database).stdout.strip() == "1"


def test_a_fresh_database_needs_create_for_the_first_board_as_the_readme_says(tmp_path, newcomer, pg):
    d, port = pg
    database = f"readme_fresh_{os.getpid()}"
    psql(pg, "postgres", f"DROP DATABASE IF EXISTS {database}")
    psql(pg, "postgres", f"CREATE DATABASE {database} OWNER lanes_admin")
    (tmp_path / "b.md").write_text("## To do\n\n- One\n")

    def copy(role: str, board: str):
        url = f"postgresql://{role}@/{database}?host={d}&port={port}&board={board}"
        return subprocess.run(["lanes", "copy", "b.md", url], cwd=tmp_path, env=newcomer, capture_output=True, text=True)

    refused = copy("alice", "first")
    assert refused.returncode != 0 and "permission denied" in refused.stderr, refused.stderr
    psql(pg, "postgres", f"GRANT CREATE ON DATABASE {database} TO alice")
    assert copy("alice", "first").returncode == 0
    # Later boards need no CREATE: bob has none, and makes one.
    later = copy("bob", "second")
    assert later.returncode == 0, later.stderr


def test_the_readme_file_examples_are_read_as_written(tmp_path, newcomer):
    (fmt_line, fmt), = blocks("markdown")
    (tmp_path / "format.md").write_text(fmt + "\n")
    p = subprocess.run(["lanes", "show", "format.md", "--details"], cwd=tmp_path, env=newcomer, capture_output=True, text=True)
    assert p.returncode == 0, f"README.md:{fmt_line}: {p.stderr}"
    assert "Write the parser" in p.stdout and "a done sub-task" in p.stdout and "A description line" in p.stdout

    rules = [text for _, text in blocks("text") if text.startswith("# Only reviewed work is done.")]
    assert len(rules) == 1
    (tmp_path / "b.md").write_text("## To do\n\n## Doing\n\n## Review\n\n## Done\n")
    (tmp_path / ".b.md.lanes").write_text(rules[0] + "\n")
    p = subprocess.run(["lanes", "rules", "b.md"], cwd=tmp_path, env=newcomer, capture_output=True, text=True)
    assert (p.returncode, p.stderr) == (0, "")
    assert p.stdout == 'accept "Done" from "Review"\naccept "Doing" from "To do" "Review"\n'
