"""`lanes metrics` splits finished cards by who finished them: agents and people, and each author.

A real git repository whose commits are by a person and an agent, read with `--agent`; a real
PostgreSQL board moved by a member and by a role the administrator made a member of `lanes_agents`,
each with `lanes move` under its own role. The text and the JSON are checked exactly.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from pg_helpers import board_url, psql

ALICE = ("Alice", "alice@example.org")
CLAUDE = ("claude", "bot@agents.example")


def run(lanes_bin: Path, *args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(lanes_bin), *map(str, args)], cwd=cwd, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL, env=dict(os.environ, NO_COLOR="1"), timeout=120)


def board(columns: list[list[str]]) -> str:
    return "".join(f"## {t}\n\n" + "".join(f"- {c}\n" for c in cards) + "\n"
                   for t, cards in zip(["To do", "Doing", "Done"], columns))


def commit(repo: Path, text: str, who: tuple[str, str], at: str) -> None:
    (repo / "board.md").write_text(text)
    env = dict(os.environ, GIT_AUTHOR_NAME=who[0], GIT_AUTHOR_EMAIL=who[1], GIT_COMMITTER_NAME=who[0],
               GIT_COMMITTER_EMAIL=who[1], GIT_AUTHOR_DATE=at, GIT_COMMITTER_DATE=at, GIT_CONFIG_GLOBAL="/dev/null")
    for args in (["add", "board.md"], ["commit", "-q", "-m", at]):
        subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def git_repo(tmp: Path) -> Path:
    """Alice finishes A and D; claude finishes B and C; claude's finish of A is reopened by alice
    and finished again by her (the last finish counts)."""
    repo = tmp / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", "-b", "main"], cwd=repo, check=True)
    cols = [["A", "B", "C", "D"], [], []]

    def to(card: str, column: int, who, at: str) -> None:
        for c in cols:
            if card in c:
                c.remove(card)
        cols[column].append(card)
        commit(repo, board(cols), who, at)

    commit(repo, board(cols), ALICE, "2026-03-01T09:00:00Z")
    to("A", 1, ALICE, "2026-03-01T10:00:00Z")
    to("B", 1, CLAUDE, "2026-03-01T11:00:00Z")
    to("A", 2, CLAUDE, "2026-03-02T10:00:00Z")
    to("B", 2, CLAUDE, "2026-03-03T11:00:00Z")
    to("C", 2, CLAUDE, "2026-03-03T12:00:00Z")
    to("A", 1, ALICE, "2026-03-04T10:00:00Z")
    to("A", 2, ALICE, "2026-03-05T10:00:00Z")
    to("D", 2, ALICE, "2026-03-05T11:00:00Z")
    return repo


def test_git_authors_in_text_and_json(lanes_bin, tmp_path):
    repo = git_repo(tmp_path)
    now = "2026-03-10"
    r = run(lanes_bin, "metrics", "board.md", "--now", now, "--agent", "claude", "--by-author", cwd=repo)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    at = lines.index("Finished by agents: 2 (p50 0 d) · people: 2 (p50 0 d)")
    assert lines[at - 1] == "Cycle time of 4 finished cards (days): p50 0 · p85 4 · p95 4"
    assert lines[at + 1:at + 3] == ["  Alice <alice@example.org>: 2 (p50 0 d)",
                                    "  claude <bot@agents.example> (agent): 2 (p50 0 d)"]
    # Without --by-author: the split alone; without --agent: every author a person, and how to name agents.
    r = run(lanes_bin, "metrics", "board.md", "--now", now, "--agent", "*@agents.example", cwd=repo)
    assert "Finished by agents: 2 (p50 0 d) · people: 2 (p50 0 d)\nThroughput" in r.stdout
    r = run(lanes_bin, "metrics", "board.md", "--now", now, cwd=repo)
    assert "Finished by people: 4 (p50 0 d) · agents: none named (--agent PATTERN names them)\n" in r.stdout

    doc = json.loads(run(lanes_bin, "metrics", "board.md", "--now", now, "--json", "--agent", "claude", cwd=repo).stdout)
    assert doc["schema_version"] == 2
    cards = {c["title"]: (c["finished_by"], c["days"]) for c in doc["cycle_time_days"]["cards"]}
    assert cards == {"A": ("Alice <alice@example.org>", 4.0), "B": ("claude <bot@agents.example>", 2.0),
                     "C": ("claude <bot@agents.example>", 0.0), "D": ("Alice <alice@example.org>", 0.0)}
    assert doc["finished_by"] == {
        "agents_named": True,
        "agents": {"count": 2, "p50": 0.0, "p85": 2.0, "p95": 2.0},
        "people": {"count": 2, "p50": 0.0, "p85": 4.0, "p95": 4.0},
        "unattributed": 0,
        "authors": [
            {"author": "Alice <alice@example.org>", "agent": False, "count": 2, "p50": 0.0, "p85": 4.0, "p95": 4.0},
            {"author": "claude <bot@agents.example>", "agent": True, "count": 2, "p50": 0.0, "p85": 2.0, "p95": 2.0},
        ],
    }


def test_agent_option_bad_input(lanes_bin, tmp_path, pg):
    repo = git_repo(tmp_path)
    r = run(lanes_bin, "metrics", "board.md", "--agent", "", cwd=repo)
    assert r.returncode == 2 and r.stderr == 'lanes: --agent "" names nobody: give a name, an email or a pattern\n'
    r = run(lanes_bin, "metrics", board_url(pg, "alice", "nowhere"), "--agent", "claude")
    assert r.returncode == 2
    assert "a PostgreSQL server says who its agents are (members of role lanes_agents" in r.stderr


def test_postgresql_roles_marked_by_the_server(lanes, lanes_bin, tmp_path, pg):
    for role, login in (("lanes_agents", False), ("e2e_agent", True)):
        psql(pg, "postgres", f"DO $$ BEGIN CREATE ROLE {role} {'LOGIN' if login else 'NOLOGIN'}; "
             "EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$", db="postgres")
    psql(pg, "postgres", "GRANT lanes_agents TO e2e_agent", db="postgres")
    (tmp_path / "b.md").write_text(board([["A", "B", "C", "D"], [], []]))
    # The schema is set up (or upgraded) by its owner's first board.
    assert run(lanes_bin, "copy", tmp_path / "b.md", board_url(pg, "lanes_admin", "authors_setup"), "--replace").returncode == 0
    url = board_url(pg, "alice", "authors_split")
    assert run(lanes_bin, "copy", tmp_path / "b.md", url, "--replace").returncode == 0
    for role in ("bob", "e2e_agent"):
        r = run(lanes_bin, "grant", url, role)
        assert r.returncode == 0, r.stderr
    moves = [("bob", "A", "Done"), ("e2e_agent", "B", "Doing"), ("e2e_agent", "B", "Done"), ("e2e_agent", "C", "Done"),
             ("bob", "C", "Doing"), ("bob", "C", "Done"), ("e2e_agent", "D", "Done")]
    for role, card, column in moves:
        r = run(lanes_bin, "move", board_url(pg, role, "authors_split"), card, "--to", column)
        assert r.returncode == 0, r.stderr
    r = run(lanes_bin, "metrics", url, "--by-author")
    assert r.returncode == 0, r.stderr
    assert "Finished by agents: 2 (p50 0 d) · people: 2 (p50 0 d)\n  bob: 2 (p50 0 d)\n  e2e_agent (agent): 2 (p50 0 d)\n" in r.stdout
    doc = json.loads(run(lanes_bin, "metrics", url, "--json").stdout)
    assert {c["title"]: c["finished_by"] for c in doc["cycle_time_days"]["cards"]} == {
        "A": "bob", "B": "e2e_agent", "C": "bob", "D": "e2e_agent"}
    split = doc["finished_by"]
    assert (split["agents_named"], split["agents"]["count"], split["people"]["count"], split["unattributed"]) == (True, 2, 2, 0)
    assert [(a["author"], a["agent"], a["count"]) for a in split["authors"]] == [("bob", False, 2), ("e2e_agent", True, 2)]
    # The app's metrics screen (M) says the same split in its summary line.
    (tmp_path / "app").mkdir()
    app = lanes(None, wait_for="To do", args=[url], workdir=tmp_path / "app", width=120, height=30)
    app.send_keys("M")
    app.wait_for("agents finished 2, people 2 · in progress", timeout=30)
