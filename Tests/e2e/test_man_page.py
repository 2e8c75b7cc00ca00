"""The man page is generated from the program, and the committed one is what the generator makes.

Resources/lanes.1 comes from scripts/gen-man (make man): the commands from
`lanes --experimental-dump-help`, the topic sections from `lanes help --topics-json`. These tests
keep the committed page equal to that, check that every command and topic is in it, that troff
reads it without a warning, and that `lanes help TOPIC` answers for each topic.
"""

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from lanes_harness import find_binary

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "Resources" / "lanes.1"
REGENERATE = "make man   (or: scripts/gen-man .build/debug/lanes), then commit Resources/lanes.1"


@pytest.fixture(scope="module")
def lanes():
    return str(find_binary())


def run(*args, **kw):
    return subprocess.run(list(args), capture_output=True, text=True, timeout=60, **kw)


def generated(lanes):
    p = run("/usr/bin/python3", str(ROOT / "scripts" / "gen-man"), "--stdout", lanes)
    assert p.returncode == 0, p.stderr
    return p.stdout


def commands(node, path):
    for sub in node.get("subcommands", []):
        if sub["commandName"] == "help" or not sub.get("shouldDisplay", True):
            continue
        yield path + [sub["commandName"]], sub
        yield from commands(sub, path + [sub["commandName"]])


def test_the_committed_page_is_what_the_generator_makes(lanes):
    made = generated(lanes)
    committed = PAGE.read_text(encoding="utf-8")
    if made != committed:
        made_lines, committed_lines = made.splitlines(), committed.splitlines()
        first = next((i for i, (a, b) in enumerate(zip(made_lines, committed_lines)) if a != b),
                     min(len(made_lines), len(committed_lines)))
        pytest.fail(
            f"Resources/lanes.1 is out of date (first difference at line {first + 1}: committed "
            f"{committed_lines[first] if first < len(committed_lines) else '<end>'!r}, generated "
            f"{made_lines[first] if first < len(made_lines) else '<end>'!r}). Regenerate it: {REGENERATE}",
            pytrace=False)


def test_every_command_and_option_is_in_the_page(lanes):
    page = PAGE.read_text(encoding="utf-8")
    root = json.loads(run(lanes, "--experimental-dump-help").stdout)["command"]
    listed = list(commands(root, ["lanes"]))
    names = [" ".join(path) for path, _ in listed]
    # The ones a newcomer missed in the hand-written page, and the ones every page had.
    for name in ["lanes open", "lanes show", "lanes add", "lanes move", "lanes copy", "lanes grant", "lanes revoke",
                 "lanes git-setup", "lanes merge", "lanes keys", "lanes import trello"]:
        assert name in names
    for path, command in listed:
        heading = ".SS " + " ".join(path).replace("-", "\\-")
        assert heading + "\n" in page, f"{' '.join(path)} is not in Resources/lanes.1; {REGENERATE}"
        for arg in command.get("arguments", []):
            if arg["kind"] != "positional" and arg["preferredName"]["name"] not in ("help", "version"):
                flag = ("--" + arg["preferredName"]["name"]).replace("-", "\\-")
                assert flag in page, f"{flag} of {' '.join(path)} is not in the page; {REGENERATE}"
    assert "postgresql://USER@HOST:PORT/DB?board=NAME".replace("-", "\\-") in page
    assert "\\-\\-can\\-grant" in page and "GRANT CREATE ON DATABASE" in page


def test_the_team_server_settings_of_the_readme_are_in_lanes_help_postgresql_and_the_page(lanes):
    """What README's team-server section asks a team to put in a URL: listen= behind a pooler in
    transaction pooling, the multi-host URL across a failover, and the bounds Lanes waits."""
    text = " ".join(run(lanes, "help", "postgresql", env=dict(os.environ, COLUMNS="200")).stdout.split())
    page = PAGE.read_text(encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for words in ["listen=PORT", "listen=HOST:PORT", "transaction pooling", "target_session_attrs=read-write",
                  "synchronous_standby_names", "at most 10 s for a lock", "for 15 s"]:
        assert words in text, (words, text)
        assert words.replace("-", "\\-") in page, (words, REGENERATE)
    for words in ["listen=PORT", "listen=HOST:PORT", "target_session_attrs=read-write", "synchronous_standby_names"]:
        assert words in readme, words
    assert 'lanes "postgresql://bob@db.example:6432/lanes?listen=5432&board=team"' in text


def test_every_help_topic_is_a_section_of_the_page_and_lanes_help_answers(lanes):
    page = PAGE.read_text(encoding="utf-8")
    topics = json.loads(run(lanes, "help", "--topics-json").stdout)["topics"]
    assert [t["name"] for t in topics] == ["tour", "keys", "files", "many-writers", "git", "postgresql", "environment"]
    for topic in topics:
        assert f".SH {topic['section']}\n" in page
        p = run(lanes, "help", topic["name"])
        assert p.returncode == 0 and p.stderr == ""
        assert p.stdout.startswith(f"{topic['section']} — {topic['summary']}\n")
    # The names a person would type, as the issue writes them.
    for words, section in [(["many", "writers"], "MANY WRITERS"), (["PostgreSQL"], "POSTGRESQL"), (["keys"], "KEYS"),
                           (["files"], "FILES"), (["git"], "GIT")]:
        p = run(lanes, "help", *words)
        assert p.returncode == 0 and p.stdout.startswith(section + " — "), (words, p.stdout[:80], p.stderr)
    keys = run(lanes, "help", "keys").stdout
    assert re.search(r"\n  F +set which columns this one accepts cards from \(empty: any\)\s+\(set-accepts\)\n", keys), keys
    # A subcommand's help is still the parser's own.
    p = run(lanes, "help", "git-setup")
    assert p.returncode == 0 and "USAGE: lanes git-setup [<boards> ...] [--check]" in p.stdout


def test_a_mistyped_topic_names_the_closest_and_lists_them(lanes):
    p = run(lanes, "help", "fiels")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.startswith('lanes: no help topic or subcommand "fiels". Did you mean `lanes help files`?\n\n'
                               "Help topics (lanes help TOPIC, or man lanes):\n  tour ")


def test_troff_reads_the_page_without_a_warning_and_man_shows_it():
    p = run("groff", "-man", "-Tutf8", "-ww", "-z", str(PAGE))
    assert (p.returncode, p.stderr) == (0, "")
    shown = run("man", "-l", str(PAGE), env=dict(os.environ, MANWIDTH="100", MAN_KEEP_FORMATTING="0", LANG="C.UTF-8"))
    assert shown.returncode == 0, shown.stderr
    text = re.sub(".\x08", "", shown.stdout)  # man's overstrike bold and underline
    for heading in ["NAME", "SYNOPSIS", "COMMANDS", "KEYS", "FILES", "MANY WRITERS", "GIT", "POSTGRESQL", "ENVIRONMENT"]:
        assert f"\n{heading}\n" in text
    assert "lanes copy SOURCE DEST [--replace] [--dialect taskell|obsidian]" in text
    assert "lanes git-setup [BOARDS...] [--check]" in text
