"""`--json` of the read commands, checked against the README's "JSON output" section.

The README gives each command's shape in a ```json block after a `<!-- json: COMMAND -->` marker, and
the error codes in a table between `<!-- error codes -->` markers. These tests read those, run the real
`lanes` on real boards (a file, a git history, a PostgreSQL board) and check that every output has
exactly the documented keys, in the documented order, with the documented types; that every key and
every element of the shapes was seen with a value at least once (so no part of a shape goes
unchecked); and that errors under --json carry a documented code, the plain message's words and the
plain exit status.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from pg_helpers import board_url, psql

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
BIN = Path(os.environ.get("LANES_BIN", ROOT / ".build" / "debug" / "lanes"))

# A taskell board with everything a shape has: a WIP limit, a due date, tags, a lane, a description,
# sub-tasks, and a title holding an escape sequence (it must come out escaped, never raw).
BOARD = """## To do

- Write docs #frontend
    @ 2026-03-31
    > About the docs
    > Second line
    * [x] outline
    * [ ] draft
- Fix \x1b[31mbug #backend
- Loose card \u202eevil

## Doing (3)

- Review #frontend

## Done

- Set up CI
"""

RULES = 'accept "Done" from "Doing" "Typo"\nflow started "Doing" done "Done"\nswimlanes "frontend" "backend"\n'


def readme_shapes() -> dict[str, object]:
    text = README.read_text(encoding="utf-8")
    found = re.findall(r"<!-- json: ([^>]+?) -->\n```json\n(.*?)\n```", text, re.S)
    return {name: json.loads(body) for name, body in found}


def readme_codes() -> dict[str, int]:
    text = README.read_text(encoding="utf-8")
    table = text.split("<!-- error codes -->")[1].split("<!-- /error codes -->")[0]
    rows = re.findall(r"^\| `(\w+)` \| (\d) \|", table, re.M)
    return {code: int(status) for code, status in rows}


TYPES = {"string": str, "integer": int, "number": (int, float), "boolean": bool}


def check(value, shape, path: str, seen: set[str]) -> None:
    """Asserts `value` has `shape` (README notation); records in `seen` each shape path given a value."""
    if isinstance(shape, str):
        want = TYPES[shape]
        ok = isinstance(value, want) and not (shape != "boolean" and isinstance(value, bool))
        assert ok, f"{path}: {value!r} is not {shape}"
        seen.add(path)
    elif isinstance(shape, list):
        assert isinstance(value, list), f"{path}: {value!r} is not an array"
        for i, item in enumerate(value):
            check(item, shape[0], path + "[]", seen)
        if value:
            seen.add(path)
    else:
        assert isinstance(value, dict), f"{path}: {value!r} is not an object"
        seen.add(path)
        if list(shape) == ["*"]:
            for k, v in value.items():
                check(v, shape["*"], path + ".*", seen)
            return
        keys = [k.rstrip("?") for k in shape]
        assert list(value) == keys, f"{path}: keys {list(value)} are not the documented {keys}"
        for k, sub in shape.items():
            name = k.rstrip("?")
            if value[name] is None:
                assert k.endswith("?"), f"{path}.{name} is null, and the README does not say it may be"
                continue
            check(value[name], sub, f"{path}.{name}", seen)


def shape_paths(shape, path: str = "") -> set[str]:
    """Every path `check` records for a value that fills the whole shape."""
    out = {path}
    if isinstance(shape, list):
        out |= shape_paths(shape[0], path + "[]")
    elif isinstance(shape, dict):
        for k, sub in shape.items():
            out |= shape_paths(sub, f"{path}.{k.rstrip('?')}" if k != "*" else path + ".*")
    return out


def run(*args, cwd=None, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN), *map(str, args)], capture_output=True, cwd=cwd, env=env,
                          stdin=subprocess.DEVNULL, timeout=120)


def document(r: subprocess.CompletedProcess) -> dict:
    assert r.returncode == 0, r.stderr.decode()
    # Nothing a card holds reaches the terminal raw: the only control character is JSON's line break,
    # and the bidi controls come escaped too.
    assert not [b for b in r.stdout if b < 0x20 and b != 0x0A], r.stdout
    assert not any(chr(c).encode() in r.stdout for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)])
    return json.loads(r.stdout)


def git(repo: Path, *args: str, at: str | None = None) -> None:
    env = dict(os.environ, GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com", GIT_COMMITTER_NAME="t",
               GIT_COMMITTER_EMAIL="t@example.com")
    if at:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = at
    subprocess.run(["git", *args], cwd=repo, env=env, check=True, capture_output=True)


def metrics_repo(tmp: Path) -> Path:
    """A board's git history: a card that finished, one still in progress, and one version that does not parse."""
    repo = tmp / "flow"
    repo.mkdir()
    git(repo, "init", "-q")
    board = repo / "board.md"
    versions = [
        ("2026-03-01T10:00:00Z", "## To do\n\n- A\n- B\n- C\n\n## Doing\n\n## Done\n"),
        ("2026-03-02T10:00:00Z", "## To do\n\n- C\n\n## Doing\n\n- A\n- B\n\n## Done\n"),
        ("2026-03-02T12:00:00Z", "## To do\n\n- C\n  not a card detail\n"),
        ("2026-03-03T10:00:00Z", "## To do\n\n- C\n\n## Doing\n\n- B\n\n## Done\n\n- A\n"),
        # Dated before the commit before it: taken at that commit's time, and said in history.notes.
        ("2026-03-01T00:00:00Z", "## To do\n\n## Doing\n\n- B\n- C\n\n## Done\n\n- A\n"),
    ]
    for at, text in versions:
        board.write_text(text)
        git(repo, "add", "board.md")
        git(repo, "commit", "-q", "-m", at, at=at)
    return repo


@pytest.fixture(scope="module")
def outputs(tmp_path_factory, pg):
    """Every documented command's JSON outputs, each from a real run (file boards and a PostgreSQL board)."""
    tmp = tmp_path_factory.mktemp("json")
    (tmp / "b.md").write_text(BOARD)
    (tmp / ".b.md.lanes").write_text(RULES)
    env = dict(os.environ, XDG_CONFIG_HOME=str(tmp / "config"))
    got: dict[str, list[dict]] = {}

    def add(name: str, *args, cwd=tmp):
        got.setdefault(name, []).append(document(run(*args, cwd=cwd, env=env)))

    for short in (["--json"], ["--format", "json"], ["--format=json"]):
        add("show", "show", "b.md", *short)
    add("show", "show", "b.md", "--json", "--details")
    add("columns", "columns", "b.md", "--json")
    add("swimlanes", "swimlanes", "b.md", "--json")
    add("rules", "rules", "b.md", "--json")
    add("flow", "flow", "b.md", "--json")
    add("keys", "keys", "--json")
    assert run("workspace", "save", "team", "b.md", cwd=tmp, env=env).returncode == 0
    add("workspace list", "workspace", "list", "--json")
    add("workspace show", "workspace", "show", "team", "--json")
    repo = metrics_repo(tmp)
    # A forecast that can be made (a card finished in the sampled days) and one that cannot.
    add("metrics", "metrics", "board.md", "--json", "--now", "2026-03-10", "--by", "2026-03-20", "--cards", "1",
        cwd=repo)
    # The second names the commits' author an agent: both groups of finished_by get their figures.
    add("metrics", "metrics", "board.md", "-f", "json", "--now", "2026-06-10", "--since", "2026-03-01",
        "--agent", "t", cwd=repo)

    # The same board in PostgreSQL: the same shapes, and its recorded changes.
    setup = tmp / "setup.md"
    setup.write_text(BOARD)
    assert run("copy", setup, board_url(pg, "lanes_admin", "json_setup"), "--replace").returncode == 0
    url = board_url(pg, "alice", "json_shapes")
    r = run("copy", tmp / "b.md", url, "--replace")
    assert r.returncode == 0, r.stderr.decode()
    assert run("move", url, "Review", "--to", "Done").returncode == 0
    for name, args in [("show", ["show"]), ("columns", ["columns"]), ("swimlanes", ["swimlanes"]),
                       ("rules", ["rules"]), ("flow", ["flow"])]:
        add(name, *args, url, "--json")
    add("restore --list", "restore", url, "--list", "--json")
    got["_url"] = url  # type: ignore[assignment]
    got["_tmp"] = tmp  # type: ignore[assignment]
    return got


def test_every_read_command_has_the_documented_shape(outputs):
    shapes = readme_shapes()
    commands = {k for k in outputs if not k.startswith("_")}
    assert set(shapes) == commands | {"error"}, "the README documents other commands than the tests run"
    for name in sorted(commands):
        seen: set[str] = set()
        for doc in outputs[name]:
            check(doc, shapes[name], name, seen)
            assert doc["schema_version"] == 2
        missing = {name + p for p in shape_paths(shapes[name])} - seen
        assert not missing, f"{name}: no output gave these a value, so they went unchecked: {sorted(missing)}"


def test_the_documents_hold_the_board(outputs):
    show = outputs["show"][0]
    assert show["board"] == "b.md" and show["dialect"] == "taskell" and show["swimlanes"] == ["frontend", "backend"]
    assert [c["title"] for c in show["columns"]] == ["To do", "Doing", "Done"]
    first = show["columns"][0]["cards"][0]
    assert first == {"id": 1, "title": "Write docs #frontend", "done": False, "due": "2026-03-31",
                     "due_date": "2026-03-31", "tags": ["frontend"], "lane": "frontend",
                     "description": ["About the docs", "Second line"],
                     "subtasks": [{"title": "outline", "done": True}, {"title": "draft", "done": False}]}
    bug = show["columns"][0]["cards"][1]
    assert bug["title"] == "Fix \x1b[31mbug #backend" and bug["lane"] == "backend"
    assert [c["id"] for col in show["columns"] for c in col["cards"]] == [1, 2, 3, 4, 5]
    assert show["columns"][1]["wip_limit"] == 3
    # --details changes the text, never the shape; the three spellings give the same bytes.
    assert all(doc == show for doc in outputs["show"][1:4])
    assert outputs["columns"][0]["columns"][1] == {"number": 2, "title": "Doing", "card_count": 1, "wip_limit": 3}
    assert outputs["rules"][0]["rules"] == [{"column": "Done", "from": ["Doing", "Typo"]}]
    assert outputs["rules"][0]["unknown_columns"] == ["Typo"]
    assert outputs["swimlanes"][0]["lanes"] == [{"number": 1, "tag": "frontend", "card_count": 2},
                                                {"number": 2, "tag": "backend", "card_count": 1}]
    assert outputs["swimlanes"][0]["no_lane_card_count"] == 2
    assert outputs["flow"][0]["columns"][1]["stage"] == "in_progress" and outputs["flow"][0]["started"] == "Doing"
    assert outputs["workspace show"][0]["boards"] == [str(outputs["_tmp"] / "b.md")]
    assert outputs["workspace list"][0]["workspaces"] == ["team"]
    # The database board is the same board; its card moved to Done in the record.
    pg_show = outputs["show"][4]
    assert pg_show["board"] == outputs["_url"]
    assert [c["title"] for c in pg_show["columns"][2]["cards"]] == ["Set up CI", "Review #frontend"]
    moved = outputs["restore --list"][0]["changes"][-1]
    assert (moved["entity"], moved["kind"], moved["subject"], moved["column"]) == ("card", "moved",
                                                                                   "Review #frontend", "Done")


def test_a_card_id_is_what_the_other_commands_take(tmp_path):
    (tmp_path / "b.md").write_text(BOARD)
    doc = document(run("show", "b.md", "--json", cwd=tmp_path))
    loose = next(c for col in doc["columns"] for c in col["cards"] if c["title"] == "Loose card \u202eevil")
    r = run("move", "b.md", str(loose["id"]), "--to", "Done", cwd=tmp_path)
    assert r.returncode == 0, r.stderr.decode()
    after = document(run("show", "b.md", "--json", cwd=tmp_path))
    assert "Loose card \u202eevil" in [c["title"] for c in after["columns"][2]["cards"]]


def test_metrics_json_is_the_flow_documents(outputs):
    available, unavailable = outputs["metrics"]
    assert available["forecast"]["available"] is True and available["forecast"]["reason"] is None
    assert available["history"]["skipped"][0]["version"]
    assert [c["title"] for c in available["cycle_time_days"]["cards"]] == ["A"]
    assert available["aging"][0]["title"] == "B" and available["aging"][0]["over"] == "p95"
    assert "dated before" in available["history"]["notes"][0]
    assert unavailable["forecast"]["available"] is False and unavailable["forecast"]["how_many"] is None
    assert unavailable["forecast"]["reason"]
    # A was finished in a commit by t <t@example.com>: a person, until --agent names t.
    assert available["cycle_time_days"]["cards"][0]["finished_by"] == "t <t@example.com>"
    person, agent = available["finished_by"], unavailable["finished_by"]
    assert person["agents_named"] is False and person["people"]["count"] == 1 and person["agents"]["count"] == 0
    assert agent["agents_named"] is True and agent["agents"]["count"] == 1 and agent["people"]["count"] == 0
    assert agent["authors"] == [{"author": "t <t@example.com>", "agent": True, "count": 1, "p50": 1.0, "p85": 1.0,
                                 "p95": 1.0}]


def test_a_setting_form_refuses_json(tmp_path):
    (tmp_path / "b.md").write_text(BOARD)
    before = (tmp_path / "b.md").read_text()
    for args in (["rules", "b.md", "--column", "Done", "--any"], ["swimlanes", "b.md", "--none"],
                 ["flow", "b.md", "--default"], ["show", "b.md", "--json", "--format", "text"]):
        r = run(*args, *([] if "--json" in args else ["--json"]), cwd=tmp_path)
        assert r.returncode == 2 and r.stdout == b""
        err = json.loads(r.stderr)
        assert err["error"]["code"] == "usage", err
    assert (tmp_path / "b.md").read_text() == before and not (tmp_path / ".b.md.lanes").exists()


def error_cases(tmp: Path, pg) -> list[tuple[str, list]]:
    (tmp / "b.md").write_text(BOARD)
    (tmp / "bad.md").write_text("## To do\n\n- A card\n  two-space detail\n")
    (tmp / "folder").mkdir()
    alice = board_url(pg, "alice", "json_private")
    assert run("copy", tmp / "b.md", board_url(pg, "lanes_admin", "json_setup_errors"), "--replace").returncode == 0
    assert run("copy", tmp / "b.md", alice, "--replace").returncode == 0
    d, port = pg
    return [
        ("not_found", ["show", "missing.md"]),
        ("not_found", ["flow", "missing.md"]),
        ("not_found", ["workspace", "show", "nobody"]),
        ("unreadable", ["columns", "folder"]),
        ("server", ["show", f"postgresql://alice@/lanes?host={d}&port=1&board=x"]),
        ("bad_input", ["show", "bad.md"]),
        ("bad_input", ["metrics", "b.md", "--now", "yesterday-ish"]),
        ("usage", ["columns", "b.md", "--bogus"]),
        ("usage", ["restore", alice]),
        ("refused", ["show", board_url(pg, "bob", "json_private")]),
        ("not_found", ["rules", board_url(pg, "alice", "json_no_such_board")]),
    ]


def test_errors_as_json_say_the_plain_words_with_a_documented_code(tmp_path, pg):
    codes = readme_codes()
    assert set(codes) == {"not_found", "unreadable", "server", "bad_input", "usage", "refused"}
    seen = set()
    for code, args in error_cases(tmp_path, pg):
        env = dict(os.environ, XDG_CONFIG_HOME=str(tmp_path / "config"))
        plain = run(*args, cwd=tmp_path, env=env)
        coded = run(*args, "--json", cwd=tmp_path, env=env)
        assert coded.stdout == b"" and plain.stdout == b"", args
        assert coded.returncode == plain.returncode != 0, args
        err = json.loads(coded.stderr)
        seen_paths: set[str] = set()
        check(err, readme_shapes()["error"], "error", seen_paths)
        e = err["error"]
        assert e["code"] == code, (args, e)
        assert codes[code] == coded.returncode == e["exit_status"], (args, e)
        assert e["message"] == plain.stderr.decode().rstrip("\n"), (args, e)
        seen.add(code)
    assert seen == set(codes), "every documented code is produced by a test"


def test_other_commands_and_other_formats_keep_plain_errors(tmp_path):
    (tmp_path / "b.md").write_text(BOARD)
    # metrics --format csv asked for no JSON; add takes no --json: a usage error, said plainly.
    r = run("metrics", "missing.md", "--format", "csv", cwd=tmp_path)
    assert r.returncode == 1 and r.stderr.decode().startswith("lanes: ")
    r = run("add", "b.md", "--column", "Nope", "x", "--json", cwd=tmp_path)
    assert r.returncode == 2 and not r.stderr.decode().startswith("{")
