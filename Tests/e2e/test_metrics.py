"""`lanes metrics` and `lanes flow` on real git repositories, against an oracle computed here.

A seeded script of moves (with deletions and cards going back from done) is committed at known
times (GIT_COMMITTER_DATE); every metric is computed again below from the script alone and
compared with `lanes metrics --format json`, then CSV, SVG, text, errors, a shallow clone, the
flow setting, and the `M` view in a real terminal.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import random
import subprocess
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

COLUMNS = ["Backlog", "Doing", "Review", "Done"]
START = int(datetime(2026, 9, 1, 8, 0, tzinfo=timezone.utc).timestamp())
MASK = (1 << 64) - 1


def git(repo: Path, *args: str, at: int | None = None) -> str:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.org", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.org", GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    if at is not None:
        env["GIT_COMMITTER_DATE"] = env["GIT_AUTHOR_DATE"] = f"@{at} +0000"
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True, text=True).stdout.strip()


def text_of(board: list[list[str]]) -> str:
    return "\n".join(f"## {t}\n\n" + "".join(f"- {c}\n" for c in cards) for t, cards in zip(COLUMNS, board))


def build(repo: Path, seed: int, commits: int = 45):
    """Commits a seeded script; returns [(time, {title: column index})] and the broken commit's hash."""
    rnd = random.Random(seed)
    board = [[f"Task {i} w{i}" for i in range(1, 7)], ["Task 7 w7"], [], []]
    n = 8
    t = START
    repo.mkdir(parents=True, exist_ok=True)
    git(repo, "init", "-q", "-b", "main")
    versions = []

    def commit(text: str, msg: str = "c") -> str:
        (repo / "board.md").write_text(text)
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", msg, at=t)
        return git(repo, "rev-parse", "HEAD")

    def snapshot():
        versions.append((t, {c: k for k, cards in enumerate(board) for c in cards}))

    commit(text_of(board))
    snapshot()
    broken = ""
    for k in range(1, commits):
        t += rnd.randrange(600, 90_000)
        if k == 25:
            broken = commit("Hello\n" + text_of(board), "broken")
            continue
        if k == 15 and board[3]:
            board[1].append(board[3].pop(0))  # back from done
        else:
            moved = set()
            for _ in range(rnd.randrange(1, 4)):
                op = rnd.randrange(10)
                live = [(ci, c) for ci, cards in enumerate(board) for c in cards if c not in moved]
                if op < 2 or not live:
                    title = f"Task {n} w{n}"
                    n += 1
                    board[0].insert(rnd.randrange(len(board[0]) + 1), title)
                    moved.add(title)
                elif op < 9:
                    ci, c = rnd.choice(live)
                    board[ci].remove(c)
                    to = rnd.randrange(4)
                    to = (ci + 1) % 4 if to == ci else to
                    board[to].insert(rnd.randrange(len(board[to]) + 1), c)
                    moved.add(c)
                else:
                    ci, c = rnd.choice(live)
                    board[ci].remove(c)
                    moved.add(c)
        commit(text_of(board))
        snapshot()
    return versions, broken


def stage(c: int, stages: tuple[int, int]) -> int:
    started, done = stages
    return 2 if c >= done else 1 if c >= started else 0


def oracle(versions, now: int, stages=(1, 3), seed: int = 0):
    started, last_done, st, gone_done, prev = {}, {}, {}, set(), {}
    for t, place in versions:
        if t > now:
            break
        for c, col in place.items():
            s = stage(col, stages)
            if c not in prev or st.get(c) != s:
                if s >= 1 and c not in started:
                    started[c] = t
                if s == 2 and st.get(c) != 2:
                    last_done[c] = t
                st[c] = s
            gone_done.discard(c)
        for c in prev:
            if c not in place:
                if st.get(c) == 2:
                    gone_done.add(c)
                st.pop(c, None)
        prev = place
    finished = [c for c, s in st.items() if s == 2] + sorted(gone_done)
    cycle = sorted(((last_done[c], c, started[c]) for c in finished))
    secs = sorted(f - s for f, _, s in cycle)

    def nearest(p):
        return secs[math.ceil(p / 100 * len(secs)) - 1] / 86400 if secs else None

    day = lambda t: t // 86400  # noqa: E731
    first_day, now_day = day(versions[0][0]), day(now)
    done_on = {}
    for f, _, _ in cycle:
        done_on[day(f)] = done_on.get(day(f), 0) + 1
    date = lambda d: (datetime(1970, 1, 1) + timedelta(days=d)).strftime("%Y-%m-%d")  # noqa: E731
    daily = [{"date": date(d), "done": done_on.get(d, 0)} for d in range(first_day, now_day + 1)]
    weekly = []
    for d in range(first_day, now_day + 1):
        y, w, _ = (datetime(1970, 1, 1) + timedelta(days=d)).isocalendar()
        label = f"{y}-W{w:02d}"
        if weekly and weekly[-1]["week"] == label:
            weekly[-1]["done"] += done_on.get(d, 0)
        else:
            weekly.append({"week": label, "done": done_on.get(d, 0)})
    cfd = []
    for d in range(first_day, now_day + 1):
        place = [p for t, p in versions if t < (d + 1) * 86400 and t <= now][-1]
        counts = {c: 0 for c in COLUMNS}
        for col in place.values():
            counts[COLUMNS[col]] += 1
        cfd.append({"date": date(d), "counts": counts})
    aging = sorted((c, COLUMNS[col], (now - started[c]) / 86400) for c, col in prev.items() if stage(col, stages) == 1)
    # The forecast: SplitMix64, index = next % count, how-many trials then when-trials.
    sample_from = max(first_day, now_day - 30)
    samples = [done_on.get(d, 0) for d in range(sample_from, now_day)]
    remaining = sum(1 for col in prev.values() if stage(col, stages) != 2)
    state = seed

    def nxt():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    forecast = None
    if samples and any(samples):
        sums = sorted(sum(samples[nxt() % len(samples)] for _ in range(14)) for _ in range(10_000))
        how_many = {f"at_{c}": sums[math.ceil((100 - c) / 100 * 10_000) - 1] for c in (50, 85, 95)}
        needed = []
        for _ in range(10_000):
            s = d = 0
            while s < remaining and d <= 3650:
                d += 1
                s += samples[nxt() % len(samples)]
            needed.append(d)
        needed.sort()
        when = {f"at_{c}": date(now_day + needed[math.ceil(c / 100 * 10_000) - 1]) for c in (50, 85, 95)}
        forecast = (how_many, when, remaining)
    return {
        "cycle": [(c, s, f) for f, c, s in cycle], "p": (nearest(50), nearest(85), nearest(95)), "daily": daily,
        "weekly": weekly, "cfd": cfd, "aging": aging, "samples": samples, "forecast": forecast,
    }


def iso(t: int) -> str:
    return datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def metrics(lanes_bin: Path, repo: Path, *args: str, board: str = "board.md") -> subprocess.CompletedProcess:
    return subprocess.run([str(lanes_bin), "metrics", board, *args], cwd=repo, capture_output=True, text=True,
                          env=dict(os.environ, NO_COLOR="1"))


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    repo = tmp_path_factory.mktemp("metrics") / "repo"
    versions, broken = build(repo, seed=7)
    return repo, versions, broken


@pytest.mark.parametrize("seed", [0, 42])
def test_json_matches_the_oracle(lanes_bin, history, seed):
    repo, versions, broken = history
    now = versions[-1][0] + 3 * 86400 + 1234
    r = metrics(lanes_bin, repo, "--format", "json", "--now", iso(now), "--seed", str(seed))
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    want = oracle(versions, now, seed=seed)
    ct = got["cycle_time_days"]
    assert [(c["title"], c["started"], c["finished"]) for c in ct["cards"]] == [(c, iso(s), iso(f)) for c, s, f in want["cycle"]]
    assert [c["days"] for c in ct["cards"]] == [(f - s) / 86400 for _, s, f in want["cycle"]]
    assert ct["count"] == len(want["cycle"])
    assert (ct["p50"], ct["p85"], ct["p95"]) == want["p"]
    assert got["throughput"]["daily"] == want["daily"]
    assert got["throughput"]["weekly"] == want["weekly"]
    assert got["cfd"] == want["cfd"]
    assert sorted((a["title"], a["column"], a["age_days"]) for a in got["aging"]) == want["aging"]
    assert [s["done"] for s in got["forecast"]["sample_days"]] == want["samples"]
    assert want["forecast"] is not None, "the script must finish cards in the last 30 days"
    how_many, when, remaining = want["forecast"]
    assert {k: v for k, v in got["forecast"]["how_many"].items() if k.startswith("at_")} == how_many
    assert got["forecast"]["when"] == {"cards": remaining, **when}
    assert got["forecast"]["trials"] == 10000 and got["forecast"]["seed"] == str(seed)
    # The broken commit is skipped and named, never fatal.
    assert [s["version"] for s in got["history"]["skipped"]] == [broken]
    assert "board.md at " in got["history"]["skipped"][0]["reason"]
    assert got["now"] == iso(now)


def test_since_limits_cycle_times_and_days(lanes_bin, history):
    repo, versions, _ = history
    now = versions[-1][0] + 86400
    since_day = (versions[20][0] // 86400) * 86400
    got = json.loads(metrics(lanes_bin, repo, "-f", "json", "--now", iso(now), "--since", iso(since_day)[:10]).stdout)
    want = oracle(versions, now)
    assert [c["title"] for c in got["cycle_time_days"]["cards"]] == [c for c, s, f in want["cycle"] if f >= since_day]
    assert got["cfd"][0]["date"] == iso(since_day)[:10]
    assert got["throughput"]["daily"] == [d for d in want["daily"] if d["date"] >= iso(since_day)[:10]]


def test_csv_and_svg(lanes_bin, history):
    repo, versions, _ = history
    now = iso(versions[-1][0] + 86400)
    j = json.loads(metrics(lanes_bin, repo, "-f", "json", "--now", now).stdout)
    rows = list(csv.reader(io.StringIO(metrics(lanes_bin, repo, "-f", "csv", "--now", now).stdout)))
    assert rows[0] == ["title", "started", "finished", "days"]
    assert [r[0] for r in rows[1:]] == [c["title"] for c in j["cycle_time_days"]["cards"]]
    assert [float(r[3]) for r in rows[1:]] == [c["days"] for c in j["cycle_time_days"]["cards"]]
    rows = list(csv.reader(io.StringIO(metrics(lanes_bin, repo, "-f", "csv", "--chart", "cfd", "--now", now).stdout)))
    assert rows[0] == ["date", *COLUMNS]
    assert [[r[0], *map(int, r[1:])] for r in rows[1:]] == [[d["date"], *d["counts"].values()] for d in j["cfd"]]
    ns = {"s": "http://www.w3.org/2000/svg"}
    root = ET.fromstring(metrics(lanes_bin, repo, "-f", "svg", "--chart", "cycle", "--now", now).stdout)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.findall("s:circle", ns)) == j["cycle_time_days"]["count"]
    root = ET.fromstring(metrics(lanes_bin, repo, "-f", "svg", "--now", now).stdout)
    assert [p.find("s:title", ns).text for p in root.findall("s:polygon", ns)] == list(reversed(COLUMNS))
    root = ET.fromstring(metrics(lanes_bin, repo, "-f", "svg", "--chart", "throughput", "--now", now).stdout)
    assert sum(int(r.find("s:title", ns).text.split(": ")[1]) for r in root.findall("s:rect", ns) if r.find("s:title", ns) is not None) \
        == sum(d["done"] for d in j["throughput"]["daily"])


def test_text_report(lanes_bin, history):
    repo, versions, broken = history
    now = versions[-1][0] + 86400
    j = json.loads(metrics(lanes_bin, repo, "-f", "json", "--now", iso(now)).stdout)
    r = metrics(lanes_bin, repo, "--now", iso(now))
    assert r.returncode == 0
    p = j["cycle_time_days"]
    fmt = lambda d: (lambda v: str(int(v)) if v == int(v) else str(v))(round(d * 10) / 10)  # noqa: E731
    assert f"Cycle time of {p['count']} finished cards (days): p50 {fmt(p['p50'])} · p85 {fmt(p['p85'])} · p95 {fmt(p['p95'])}" in r.stdout
    for title in ["Cumulative flow", "Cycle time", "Throughput", "Aging work in progress", "Forecast (10000 trials, seed 0"]:
        assert title in r.stdout
    assert broken[:12] in r.stdout and "skipped 1 version" in r.stdout
    assert "\x1b" not in r.stdout  # not a terminal (and NO_COLOR): no colour
    one = metrics(lanes_bin, repo, "--now", iso(now), "--chart", "cycle")
    assert "Cycle time" in one.stdout and "Cumulative flow" not in one.stdout
    assert any(0x2800 < ord(ch) <= 0x28FF for ch in one.stdout), "the cycle chart is drawn in braille"


def test_bad_input_and_no_history(lanes_bin, history, tmp_path):
    repo, _, _ = history
    for args, words in [(["--since", "yesterday"], '--since "yesterday" is not a date'),
                        (["--now", "2026-13-01"], '--now "2026-13-01" is not a date'),
                        (["--now", "2026-02-30T10:00Z"], "is not a date"),
                        (["--by", "2020-01-01", "--now", "2026-11-01"], "--by 2020-01-01 is not after today")]:
        r = metrics(lanes_bin, repo, *args)
        assert r.returncode == 2 and words in r.stderr, (args, r.stderr)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "board.md").write_text("Hello\n## A\n")
    r = metrics(lanes_bin, bad)
    assert r.returncode == 2 and "board.md:1:" in r.stderr
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "board.md").write_text("## A\n\n- x\n\n## B\n")
    r = metrics(lanes_bin, plain)
    assert r.returncode == 1 and "not in a git repository" in r.stderr and "git init" in r.stderr
    git(plain, "init", "-q")
    r = metrics(lanes_bin, plain)
    assert r.returncode == 1 and "no history yet" in r.stderr and "commit" in r.stderr
    (plain / "other.txt").write_text("x")
    git(plain, "add", "other.txt")
    git(plain, "commit", "-qm", "x", at=START)
    r = metrics(lanes_bin, plain)
    assert r.returncode == 1 and "never committed" in r.stderr
    r = metrics(lanes_bin, plain, board="missing.md")
    assert r.returncode == 1 and "missing.md" in r.stderr


def test_shallow_clone_says_so(lanes_bin, history, tmp_path):
    repo, versions, _ = history
    clone = tmp_path / "shallow"
    subprocess.run(["git", "clone", "-q", "--depth", "5", f"file://{repo}", str(clone)], check=True)
    got = json.loads(metrics(lanes_bin, clone, "-f", "json", "--now", iso(versions[-1][0] + 86400)).stdout)
    assert any("shallow clone" in n for n in got["history"]["notes"])
    assert got["history"]["first"] == iso(versions[-5][0])
    assert got["history"]["versions"] == 5


def test_flow_setting_is_stored_beside_the_board_and_used(lanes_bin, history, tmp_path):
    src, versions, _ = history
    repo = tmp_path / "flowrepo"
    subprocess.run(["git", "clone", "-q", str(src), str(repo)], check=True)
    run = lambda *a: subprocess.run([str(lanes_bin), "flow", "board.md", *a], cwd=repo, capture_output=True, text=True)  # noqa: E731
    assert run().stdout == 'not started: "Backlog"\nin progress: "Doing", "Review"\ndone: "Done"\n'
    r = run("--started", "Review", "--done", "Done")
    assert r.returncode == 0, r.stderr
    assert 'flow started "Review" done "Done"' in (repo / ".board.md.lanes").read_text()
    assert run().stdout == 'not started: "Backlog", "Doing"\nin progress: "Review"\ndone: "Done"\n'
    now = versions[-1][0] + 86400
    got = json.loads(metrics(lanes_bin, repo, "-f", "json", "--now", iso(now)).stdout)
    want = oracle(versions, now, stages=(2, 3))
    assert got["columns"] == {"not_started": ["Backlog", "Doing"], "in_progress": ["Review"], "done": ["Done"]}
    assert [(c["title"], c["started"]) for c in got["cycle_time_days"]["cards"]] == [(c, iso(s)) for c, s, f in want["cycle"]]
    r = run("--started", "Done", "--done", "Doing")
    assert r.returncode == 2 and "right of --done" in r.stderr
    # A comment a person wrote in the settings file is kept when the setting changes.
    text = (repo / ".board.md.lanes").read_text()
    (repo / ".board.md.lanes").write_text("# our team's meaning\n" + text)
    assert run("--done", "Review").returncode == 0
    kept = (repo / ".board.md.lanes").read_text()
    assert kept.startswith("# our team's meaning\n") and 'flow started "Review" done "Review"' in kept
    assert run("--default").returncode == 0
    assert "flow" not in (repo / ".board.md.lanes").read_text() if (repo / ".board.md.lanes").exists() else True


def test_metrics_view_in_the_app(lanes, history, tmp_path):
    src, versions, _ = history
    repo = tmp_path / "apprepo"
    subprocess.run(["git", "clone", "-q", str(src), str(repo)], check=True)
    app = lanes(None, wait_for="Backlog", workdir=repo, width=80, height=24)
    app.send_keys("M")
    lines = app.wait_for("cycle time p50", timeout=30)
    assert "1 Cumulative flow" in lines[0] and "4 Aging work in progress" in lines[0]
    summary = lines[1]
    # The same numbers as the command (now differs by seconds: compare the cycle percentiles).
    j = json.loads(subprocess.run([str(app.binary), "metrics", "board.md", "-f", "json"], cwd=repo, capture_output=True, text=True).stdout)
    p = j["cycle_time_days"]
    fmt = lambda d: (lambda v: str(int(v)) if v == int(v) else str(v))(round(d * 10) / 10)  # noqa: E731
    assert f"cycle time p50 {fmt(p['p50'])} · p85 {fmt(p['p85'])} · p95 {fmt(p['p95'])} days ({p['count']} cards)" in summary
    assert any("Forecast:" in l for l in lines)
    assert any("█" in l or "▓" in l for l in lines[2:])
    app.send_keys("2")
    app.wait_for(lambda s: any(any(0x2800 < ord(ch) <= 0x28FF for ch in l) for l in s), what="the braille cycle chart")
    app.send_keys("3")
    app.wait_for("cards done per")
    app.send_keys("4")
    app.wait_for("age (days) of each card in progress")
    app.send_keys("Escape")
    app.wait_for(lambda s: "Backlog" in s[1] or "Backlog" in s[0] or any("Backlog" in l for l in s[:3]), what="the board again")
    # The card detail: age and time in each column.
    app.send_keys("Enter")
    lines = app.wait_for("Age:", timeout=30)
    assert any(" d" in l and ("Backlog" in l or "Doing" in l) for l in lines)


def test_a_postgresql_board_with_columns_and_no_card_change_says_no_history_yet(lanes, lanes_bin, pg, tmp_path):
    """Columns, no card added, moved or deleted: the command and the `M` view say so, and what gives a history."""
    from pg_helpers import board_url, psql
    setup = tmp_path / "setup.md"
    setup.write_text("## A\n\n- a\n")
    r = subprocess.run([str(lanes_bin), "copy", "--replace", str(setup), board_url(pg, "lanes_admin", "flow-setup")],
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    empty = tmp_path / "empty.md"
    empty.write_text("## To do\n\n## Doing\n\n## Done\n")
    name = f"flow-no-cards-{os.getpid()}"
    url = board_url(pg, "alice", name)
    r = subprocess.run([str(lanes_bin), "copy", "--replace", str(empty), url], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    r = subprocess.run([str(lanes_bin), "metrics", url], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 1, (r.returncode, r.stdout, r.stderr)
    assert f"board \"{name}\" has no history yet" in r.stderr and "no card added, moved or deleted" in r.stderr, r.stderr
    assert "Add cards and move them through the columns" in r.stderr and r.stdout == ""

    app = lanes(None, wait_for="To do", args=[url], workdir=tmp_path / "app", width=80, height=24)
    app.send_keys("M")
    lines = app.wait_for("has no history yet", timeout=30)
    shown = " ".join(l.strip() for l in lines)
    assert "no card added, moved or" in shown and "Add cards and move them" in shown, lines
    app.send_keys("Escape")
    app.wait_for(lambda s: not any("no history yet" in l for l in s), what="the board again")
    assert app.quit() == 0

    # One card added (here by psql, as a member may): now there is a history.
    b = psql(pg, "alice", f"SELECT id FROM lanes.boards WHERE name = '{name}'")
    col = psql(pg, "alice", f"SELECT id FROM lanes.columns WHERE board_id = {b} AND title = 'Doing'")
    psql(pg, "alice", f"INSERT INTO lanes.cards (board_id, id, column_id, key, title, seq) VALUES ({b}, 77, {col}, 'm', 'first card', 1)")
    r = subprocess.run([str(lanes_bin), "metrics", url, "--format", "json"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
    assert [a["title"] for a in json.loads(r.stdout)["aging"]] == ["first card"]
