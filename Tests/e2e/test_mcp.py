"""`lanes mcp`: the boards served to an agent over the Model Context Protocol, driven by a real client.

The client is the official MCP Python SDK (`mcp` from PyPI), installed by this module into a venv of
its own (.build/venv-mcp, made with Debian's python3 -m venv; nothing system-wide); those tests skip,
saying so, only when PyPI cannot be reached. The bad-input tests speak JSON-RPC to the server
themselves (no SDK): malformed lines, unknown methods and tools, wrong types, boards the server was
not started with. The binary is $LANES_BIN or .build/debug/lanes; each test has its own boards and
move journal (LANES_STATE_DIR).
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("LANES_BIN", ROOT / ".build" / "debug" / "lanes"))
VENV = ROOT / ".build" / "venv-mcp"
CLIENT = Path(__file__).with_name("mcp_client.py")
HANG = 60 * float(os.environ.get("LANES_E2E_SLACK", "4"))

BOARD = """## To do

- Fix login
- Write docs #docs
- Plan sprint

## Doing

- Review PR
- Deploy

## Done

- Set up CI
"""



def env_for(tmp: Path) -> dict:
    env = dict(os.environ)
    env["LANES_STATE_DIR"] = str(tmp / "state")
    env.pop("LANES_MOVE_CRASH_AT", None)
    return env


def lanes(args, env, check=True) -> subprocess.CompletedProcess:
    r = subprocess.run([str(BIN), *map(str, args)], env=env, capture_output=True, text=True, timeout=HANG,
                       stdin=subprocess.DEVNULL)
    if check:
        assert r.returncode == 0, (args, r.stdout, r.stderr)
    return r


def twin_boards(tmp: Path, text: str = BOARD, limit: bool = True) -> tuple[Path, Path, dict]:
    """Two copies of one board: the agent's, and the one the same edits are made on by `lanes` subcommands."""
    env = env_for(tmp)
    a, b = tmp / "agent" / "board.md", tmp / "cli" / "board.md"
    for p in (a, b):
        p.parent.mkdir(parents=True)
        p.write_text(text)
        if limit:
            lanes(["column", "limit", p, "Doing", "2"], env)
    assert a.read_bytes() == b.read_bytes()
    return a, b, env


def readline_guarded(proc: subprocess.Popen) -> str:
    """A line of `proc`'s stdout; a process that says nothing for the hang guard's time is killed, and the test fails."""
    box: list[str] = []
    t = threading.Thread(target=lambda: box.append(proc.stdout.readline()), daemon=True)
    t.start()
    t.join(HANG)
    if not box:
        proc.kill()
        raise AssertionError(f"no line in {HANG:.0f} s (the hang guard): {proc.stderr.read()}")
    return box[0]


# MARK: - The official client, from a venv of this module's own


def client_python() -> str:
    """The venv's python with the SDK, made the first time; pytest-xdist workers make it one at a time (a lock)."""
    VENV.parent.mkdir(parents=True, exist_ok=True)
    with open(VENV.parent / "venv-mcp.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        return _client_python()


def _client_python() -> str:
    py = VENV / "bin" / "python"
    probe = [str(py), "-c", "import mcp.client.stdio"]
    if py.exists() and subprocess.run(probe, capture_output=True).returncode == 0:
        return str(py)
    if not py.exists():
        made = subprocess.run([sys.executable, "-m", "venv", str(VENV)], capture_output=True, text=True, timeout=HANG)
        if made.returncode != 0:
            pytest.fail(f"{sys.executable} -m venv failed (Debian: python3-venv, scripts/ensure-deps test):\n{made.stderr}")
    r = subprocess.run([str(py), "-m", "pip", "install", "-q", "mcp"], capture_output=True, text=True, timeout=10 * HANG)
    if r.returncode != 0:
        reachable = subprocess.run(
            [str(py), "-c", "import urllib.request; urllib.request.urlopen('https://pypi.org/simple/mcp/', timeout=20)"],
            capture_output=True)
        if reachable.returncode != 0:
            pytest.skip("the MCP Python SDK (mcp) cannot be installed: PyPI is unreachable from here")
        pytest.fail(f"pip install mcp failed with PyPI reachable:\n{r.stderr}")
    return str(py)


class Agent:
    """One `lanes mcp` server driven by the SDK's client (mcp_client.py), one request at a time."""

    def __init__(self, boards: list[Path | str], env: dict):
        self.proc = subprocess.Popen(
            [client_python(), str(CLIENT), str(BIN), *map(str, boards)], env=env, text=True,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert self.read() == {"ready": True}

    def read(self) -> dict:
        line = readline_guarded(self.proc)
        if not line:
            self.proc.wait(timeout=HANG)
            raise AssertionError(f"the client ended: {self.proc.stderr.read()}")
        return json.loads(line)

    def ask(self, **request) -> dict:
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        return self.read()

    def call(self, name: str, **args) -> dict:
        return self.ask(op="call", name=name, args=args)

    def ok(self, name: str, **args) -> str:
        r = self.call(name, **args)
        assert not r.get("is_error") and "rpc_error" not in r, (name, args, r)
        return r["text"]

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=HANG)


@pytest.fixture
def agents():
    started: list[Agent] = []

    def start(boards, env) -> Agent:
        a = Agent(boards, env)
        started.append(a)
        return a

    yield start
    for a in started:
        if a.proc.poll() is None:
            a.proc.kill()
            a.proc.wait()


def test_the_agent_moves_cards_and_is_refused_by_a_full_column_in_the_words_lanes_move_prints(tmp_path, agents):
    mine, theirs, env = twin_boards(tmp_path)
    agent = agents([mine], env)
    tools = agent.ask(op="tools")["tools"]
    for t in ["list_boards", "list_columns", "read_board", "read_card", "search_cards", "add_card", "edit_card",
              "move_card", "mark_done", "delete_card", "undo", "redo", "flow_metrics"]:
        assert t in tools

    # Doing is full: the agent gets what lanes move says, and neither file changes.
    refused = agent.call("move_card", card="Fix login", column="Doing")
    cli = lanes(["move", theirs, "Fix login", "--to", "Doing"], env, check=False)
    assert cli.returncode == 2
    assert refused == {"is_error": True, "text": cli.stderr.strip()}
    assert "full" in refused["text"]
    assert mine.read_bytes() == theirs.read_bytes()

    # The same moves and edits, by the agent and by the subcommands, write the same bytes.
    steps = [
        (("move_card", dict(card="Review PR", column="Done")), ["move", "Review PR", "--to", "Done"]),
        (("move_card", dict(card="Fix login", column="Doing", position=1)), ["move", "Fix login", "--to", "Doing", "--position", "1"]),
        (("add_card", dict(column="To do", title="New idea #docs", top=True)), ["add", "--column", "To do", "New idea #docs", "--top"]),
        (("edit_card", dict(card="Plan sprint", due="2026-12-01", description=["first line", "second"])),
         ["edit", "Plan sprint", "--due", "2026-12-01", "--description", "first line", "--description", "second"]),
        (("move_card", dict(card=1, column="3", position=1)), ["move", "1", "--to", "3", "--position", "1"]),
        (("edit_card", dict(card="Deploy", add_subtasks=["build", "ship"], tags=["ops", "prod"])),
         ["edit", "Deploy", "--add-subtask", "build", "--add-subtask", "ship", "--tag", "ops", "--tag", "prod"]),
        (("edit_card", dict(card="Deploy", check=[2], tick=True)), ["edit", "Deploy", "--check", "2", "--tick"]),
        (("edit_card", dict(card="Plan sprint", due=None, title="Plan the sprint")),
         ["edit", "Plan sprint", "--no-due", "--title", "Plan the sprint"]),
    ]
    for (tool, args), cli_args in steps:
        said = agent.ok(tool, **args)
        out = lanes([cli_args[0], theirs, *cli_args[1:]], env).stdout.strip()
        assert said == out, (tool, said, out)
        assert mine.read_bytes() == theirs.read_bytes(), tool

    # Reading: the board is lanes show --json's document; a card carries its number and column.
    shown = json.loads(agent.ok("read_board"))
    whole = json.loads(lanes(["show", theirs, "--json"], env).stdout)
    count = sum(len(c["cards"]) for c in whole["columns"])
    assert shown == whole | {"board": str(mine), "page": {"first_id": 1, "last_id": count, "total_cards": count,
                                                           "next_cursor": None}}
    assert list(shown) == list(whole) + ["page"]  # the document's keys in order, the page after them
    # Page by page, the cards are show --json's, each once, in order, in their columns.
    pages, cursor = [], None
    while True:
        page = json.loads(agent.ok("read_board", limit=2, **({"cursor": cursor} if cursor else {})))
        assert [c["title"] for c in page["columns"]] == [c["title"] for c in whole["columns"]]
        pages.append([(col["title"], card) for col in page["columns"] for card in col["cards"]])
        assert len(pages[-1]) <= 2 and page["page"]["total_cards"] == count
        cursor = page["page"]["next_cursor"]
        if cursor is None:
            break
    assert [x for p in pages for x in p] == [(col["title"], card) for col in whole["columns"] for card in col["cards"]]
    assert len(pages) == (count + 1) // 2
    card = json.loads(agent.ok("read_card", card="Plan the sprint"))
    assert (card["column"], card["due_date"], card["description"]) == ("To do", None, ["first line", "second"])
    card = json.loads(agent.ok("read_card", card="Deploy"))
    assert card["subtasks"] == [{"title": "build", "done": True}, {"title": "ship", "done": True}]
    found = json.loads(agent.ok("search_cards", tag="docs"))
    assert sorted(c["title"] for c in found["cards"]) == ["New idea #docs", "Write docs #docs"]
    assert agent.ok("list_columns") == lanes(["columns", theirs], env).stdout
    agent.ok("edit_card", card="Plan the sprint", due="2026-12-01")
    lanes(["edit", theirs, "Plan the sprint", "--due", "2026-12-01"], env)
    due = json.loads(agent.ok("search_cards", due_before="2027-01-01", text="SPRINT"))
    assert [c["title"] for c in due["cards"]] == ["Plan the sprint"]
    assert json.loads(agent.ok("search_cards", due_after="2026-12-01"))["count"] == 0
    assert mine.read_bytes() == theirs.read_bytes()
    # Flow metrics of a board with no history: the words lanes metrics prints.
    r = agent.call("flow_metrics")
    cli = lanes(["metrics", theirs], env, check=False)
    assert cli.returncode == 1
    assert r == {"is_error": True, "text": cli.stderr.strip().replace(str(theirs), str(mine))}


def test_undo_takes_back_the_agents_own_move_and_not_another_writers_edit(tmp_path, agents):
    mine, theirs, env = twin_boards(tmp_path, limit=False)
    agent = agents([mine], env)
    agent.ok("move_card", card="Fix login", column="Done")
    # Another writer (the CLI) edits the board after the agent's move.
    lanes(["move", mine, "Plan sprint", "--to", "Doing"], env)
    lanes(["edit", mine, "Deploy", "--title", "Deploy to production"], env)
    said = agent.ok("undo")
    assert said.startswith("Undid move card \"Fix login\""), said
    # What remains is exactly the other writer's edits, as the subcommands make them.
    lanes(["move", theirs, "Plan sprint", "--to", "Doing"], env)
    lanes(["edit", theirs, "Deploy", "--title", "Deploy to production"], env)
    assert mine.read_text() == theirs.read_text()
    assert mine.read_bytes() == theirs.read_bytes()
    # Nothing more of the agent's to undo: the other writer's edits are not its steps.
    r = agent.call("undo")
    assert r["is_error"] and "nothing to undo" in r["text"] and "(test-agent)" in r["text"]  # initialize's clientInfo
    # Redo puts the agent's move back.
    agent.ok("redo")
    lanes(["move", theirs, "Fix login", "--to", "Done"], env)
    assert mine.read_bytes() == theirs.read_bytes()


def test_a_done_mark_on_a_taskell_board_is_refused_in_the_words_lanes_edit_prints(tmp_path, agents):
    mine, theirs, env = twin_boards(tmp_path, limit=False)
    agent = agents([mine], env)
    r = agent.call("mark_done", card="Deploy")
    cli = lanes(["edit", theirs, "Deploy", "--done"], env, check=False)
    assert cli.returncode == 2
    assert r == {"is_error": True, "text": cli.stderr.strip()}
    assert mine.read_bytes() == theirs.read_bytes()


def test_a_delete_without_confirm_and_a_read_only_board_are_refused_in_words(tmp_path, agents):
    mine, theirs, env = twin_boards(tmp_path, limit=False)
    agent = agents([mine], env)
    r = agent.call("delete_card", card="Deploy")
    assert r["is_error"] and "confirm" in r["text"]
    assert mine.read_bytes() == theirs.read_bytes()
    said = agent.ok("delete_card", card="Deploy", confirm=True)
    assert said == lanes(["remove", theirs, "Deploy"], env).stdout.strip()
    assert mine.read_bytes() == theirs.read_bytes()
    mine.chmod(0o444)
    theirs.chmod(0o444)
    try:
        r = agent.call("move_card", card="Fix login", column="Done")
        cli = lanes(["move", theirs, "Fix login", "--to", "Done"], env, check=False)
        assert cli.returncode == 2 and "read-only" in cli.stderr
        assert r == {"is_error": True, "text": cli.stderr.strip().replace(str(theirs), str(mine))}
        assert mine.read_bytes() == theirs.read_bytes()
    finally:
        mine.chmod(0o644)
        theirs.chmod(0o644)


def test_a_move_into_a_swimlane_retags_the_card_as_the_terminals_drop_on_a_lane_cell_does(tmp_path, agents):
    env = env_for(tmp_path)
    board = tmp_path / "board.md"
    board.write_text(BOARD)
    lanes(["swimlanes", board, "--tag", "frontend", "--tag", "backend"], env)
    agent = agents([board], env)
    said = agent.ok("move_card", card="Fix login", column="Doing", lane="backend")
    assert said == 'Moved "Fix login" to "Doing", lane #backend.', said
    shown = json.loads(lanes(["show", board, "--json"], env).stdout)
    doing = {c["title"]: c["lane"] for c in shown["columns"][1]["cards"]}
    assert doing["Fix login #backend"] == "backend"
    r = agent.call("move_card", card="Fix login", column="Doing", lane="mobile")
    assert r["is_error"] and r["text"].startswith("lanes: no lane #mobile; the lanes are #frontend, #backend")
    agent.ok("undo")
    assert board.read_text() == BOARD


def test_a_card_moves_to_another_of_the_servers_boards_as_lanes_move_to_board_moves_it(tmp_path, agents):
    env = env_for(tmp_path)
    pairs = []
    for who in ("agent", "cli"):
        (tmp_path / who).mkdir()
        a, b = tmp_path / who / "a.md", tmp_path / who / "b.md"
        a.write_text(BOARD)
        b.write_text("## Inbox\n\n- Gamma\n\n## Later\n")
        pairs.append((a, b))
    (a, b), (ca, cb) = pairs
    agent = agents([a, b], env)
    said = agent.ok("move_card", board=str(a), card="Plan sprint", to_board="b.md", column="Later")
    out = lanes(["move", ca, "Plan sprint", "--to-board", cb, "--to", "Later"], env).stdout.strip()
    assert said == out.replace(str(cb), str(b))
    assert (a.read_bytes(), b.read_bytes()) == (ca.read_bytes(), cb.read_bytes())
    assert "Plan sprint" in b.read_text() and "Plan sprint" not in a.read_text()
    r = agent.call("undo")
    assert r["is_error"] and "another board" in r["text"]
    # A board the server was not started with is no target.
    r = agent.call("move_card", board=str(a), card="Fix login", to_board=str(cb), column="Later")
    assert "rpc_error" in r and "is not a board this server was started with" in r["rpc_error"]["message"]
    assert (a.read_bytes(), b.read_bytes()) == (ca.read_bytes(), cb.read_bytes())


def test_the_agent_is_told_when_the_cli_changes_a_board_it_subscribed_to(tmp_path, agents):
    env = env_for(tmp_path)
    board = tmp_path / "board.md"
    board.write_text(BOARD)
    agent = agents([board], env)
    uri = agent.ask(op="resources")["resources"][0]
    assert json.loads(agent.ask(op="read", uri=uri)["text"])["columns"][0]["title"] == "To do"
    agent.ask(op="subscribe", uri=uri)
    lanes(["add", board, "--column", "Done", "Written by the CLI"], env)
    assert agent.ask(op="wait_update", uri=uri, timeout=HANG) == {"updated": True}
    text = agent.ask(op="read", uri=uri)["text"]
    assert "Written by the CLI" in text


# MARK: - Bad input, spoken as raw JSON-RPC (no SDK needed)


class Raw:
    """`lanes mcp` on pipes, one JSON-RPC line at a time."""

    def __init__(self, boards, env):
        self.proc = subprocess.Popen([str(BIN), "mcp", *map(str, boards)], env=env, text=True,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)

    def send(self, line: str):
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict:
        line = readline_guarded(self.proc)
        assert line, f"the server ended: {self.proc.stderr.read()}"
        return json.loads(line)

    def request(self, id: int, method: str, params: dict | None = None) -> dict:
        self.send(json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params or {}}))
        r = self.answer()
        assert r.get("id") == id, r
        return r


def test_bad_input_gets_json_rpc_errors_in_words_and_the_server_keeps_serving(tmp_path):
    env = env_for(tmp_path)
    board = tmp_path / "board.md"
    board.write_text(BOARD)
    other = tmp_path / "other.md"
    other.write_text(BOARD)
    before = board.read_bytes(), other.read_bytes()
    s = Raw([board], env)
    try:
        init = s.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "raw", "version": "0"}})
        assert init["result"]["serverInfo"]["name"] == "lanes"
        s.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

        s.send("{this is not json")
        r = s.answer()
        assert r["error"]["code"] == -32700 and r["error"]["message"]

        r = s.request(2, "no/such/method")
        assert r["error"]["code"] == -32601 and "no/such/method" in r["error"]["message"]

        r = s.request(3, "tools/call", {"name": "fly_to_the_moon", "arguments": {}})
        assert r["error"]["code"] == -32602 and 'no tool named "fly_to_the_moon"' in r["error"]["message"]

        r = s.request(4, "tools/call", {"name": "move_card", "arguments": {"card": "Fix login", "column": 3.5}})
        assert r["error"]["code"] == -32602
        assert r["error"]["message"].endswith('move_card: "column" must be a string, not the number 3.5')

        r = s.request(5, "tools/call", {"name": "move_card", "arguments": {"card": ["Fix login"], "column": "Done"}})
        assert r["error"]["code"] == -32602 and '"card" must be a card number or a title' in r["error"]["message"]

        r = s.request(6, "tools/call", {"name": "move_card", "arguments": {"card": "Fix login", "colum": "Done"}})
        assert r["error"]["code"] == -32602 and 'move_card has no argument "colum"' in r["error"]["message"]

        r = s.request(7, "tools/call",
                      {"name": "move_card", "arguments": {"board": str(other), "card": "Fix login", "column": "Done"}})
        assert r["error"]["code"] == -32602
        assert f'"{other}" is not a board this server was started with' in r["error"]["message"]

        r = s.request(8, "tools/call", {"name": "move_card", "arguments": "Fix login"})
        assert r["error"]["code"] == -32602 and '"arguments" is an object, not' in r["error"]["message"]

        for args, words in [({"limit": 0}, '"limit" is 1 to 1000, not 0'),
                            ({"limit": "ten"}, '"limit" must be a whole number'),
                            ({"cursor": "abc"}, 'is no cursor read_board gave')]:
            r = s.request(80, "tools/call", {"name": "read_board", "arguments": args})
            assert r["error"]["code"] == -32602 and words in r["error"]["message"], r

        r = s.request(9, "resources/read", {"uri": "lanes-board:/etc/passwd"})
        assert r["error"]["code"] == -32002 and "is no board of this server" in r["error"]["message"]
        r = s.request(90, "resources/subscribe", {"uri": "lanes-board:" + str(other)})
        assert r["error"]["code"] == -32002 and "is no board of this server" in r["error"]["message"]

        # Messages that are no request: each answered in words, none ends the server.
        for line, code, words in [
            ('[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', -32600, "batches are not taken"),
            ("42", -32600, "a message is a JSON object"),
            ('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', -32600, "an id is a string or a number"),
            ('{"jsonrpc": "1.0", "id": 91, "method": "ping"}', -32600, '"jsonrpc" must be "2.0"'),
            ('{"jsonrpc": "2.0", "id": 92}', -32600, 'has no "method"'),
            ('{"jsonrpc": "2.0", "id": 93, "method": "tools/call", "params": [1]}', -32602, '"params" is an object'),
            ('{"jsonrpc": "2.0", "id": 94, "method": "tools/call", "params": {}}', -32602, 'needs "name"'),
        ]:
            s.send(line)
            r = s.answer()
            assert r["error"]["code"] == code and words in r["error"]["message"], (line, r)
        for args, words in [
            ({"card": "Deploy", "confirm": "yes"}, '"confirm" must be true or false, not the string "yes"'),
            ({"board": str(other), "card": "Deploy", "confirm": True}, "is not a board this server was started with"),
        ]:
            r = s.request(95, "tools/call", {"name": "delete_card", "arguments": args})
            assert r["error"]["code"] == -32602 and words in r["error"]["message"], (args, r)
        r = s.request(96, "tools/call", {"name": "edit_card", "arguments": {"card": "Deploy", "check": ["two"]}})
        assert r["error"]["code"] == -32602 and '"check" must be a list of whole numbers' in r["error"]["message"]

        # Still serving, and nothing was touched.
        r = s.request(10, "tools/list")
        assert "move_card" in [t["name"] for t in r["result"]["tools"]]
        assert (board.read_bytes(), other.read_bytes()) == before
        r = s.request(11, "tools/call", {"name": "move_card", "arguments": {"card": "Fix login", "column": "Done"}})
        assert r["result"]["content"][0]["text"].startswith('Moved "Fix login" to "Done"')
    finally:
        s.proc.stdin.close()
        assert s.proc.wait(timeout=HANG) == 0


# MARK: - Several agents and CLI writers on one board


def _writers_run(agents, board_for, env, tmp_path) -> tuple[list[str], dict]:
    """Two agents and a CLI writer move their own cards To do → Doing → Done at once on one board;
    returns every title in the final board (file order) and the agents."""
    from concurrent.futures import ThreadPoolExecutor

    names = {who: [f"{who} card {i}" for i in range(6)] for who in ("agent-a", "agent-b", "cli")}
    first = agents([board_for("agent-a")], env)
    second = agents([board_for("agent-b")], env)

    def agent_work(agent, who):
        for title in names[who]:
            agent.ok("add_card", column="To do", title=title)
        for title in names[who]:
            agent.ok("move_card", card=title, column="Doing")
        for title in names[who][:3]:
            agent.ok("move_card", card=title, column="Done")

    def cli_work():
        b = board_for("cli")
        for title in names["cli"]:
            lanes(["add", b, "--column", "To do", title], env)
        for title in names["cli"]:
            lanes(["move", b, title, "--to", "Doing"], env)
        for title in names["cli"][:3]:
            lanes(["move", b, title, "--to", "Done"], env)

    with ThreadPoolExecutor(3) as pool:
        jobs = [pool.submit(agent_work, first, "agent-a"), pool.submit(agent_work, second, "agent-b"),
                pool.submit(cli_work)]
        for j in jobs:
            j.result()
    shown = json.loads(lanes(["show", board_for("cli"), "--json"], env).stdout)
    where = {c["title"]: col["title"] for col in shown["columns"] for c in col["cards"]}
    titles = [c["title"] for col in shown["columns"] for c in col["cards"]]
    for who, list_ in names.items():
        for i, t in enumerate(list_):
            assert where.get(t) == ("Done" if i < 3 else "Doing"), (t, where.get(t))
    return titles, names


def test_agents_and_cli_writers_on_one_file_board_leave_every_card_exactly_once(tmp_path, agents):
    env = env_for(tmp_path)
    board = tmp_path / "board.md"
    board.write_text("## To do\n\n## Doing\n\n## Done\n")
    titles, names = _writers_run(agents, lambda who: board, env, tmp_path)
    ours = [t for ts in names.values() for t in ts]
    assert sorted(titles) == sorted(ours)  # each exactly once, nothing else


def test_agents_on_a_postgresql_board_are_recorded_as_their_roles_and_every_card_ends_once(pg, tmp_path, agents):
    from pg_helpers import board_url, psql

    env = env_for(tmp_path)
    src = tmp_path / "board.md"
    src.write_text("## To do\n\n## Doing\n\n## Done\n")
    name = f"mcp-writers-{os.getpid()}"
    lanes(["copy", src, board_url(pg, "lanes_admin", "mcp-schema")], env)  # sets up the schema
    lanes(["copy", src, board_url(pg, "alice", name)], env)
    lanes(["grant", board_url(pg, "alice", name), "bob"], env)
    urls = {"agent-a": board_url(pg, "alice", name), "agent-b": board_url(pg, "bob", name),
            "cli": board_url(pg, "alice", name)}
    # A third agent only watches: a member's change reaches it through the server's notification.
    watcher = agents([urls["agent-a"]], env)
    uri = watcher.ask(op="resources")["resources"][0]
    watcher.ask(op="subscribe", uri=uri)
    titles, names = _writers_run(agents, lambda who: urls[who], env, tmp_path)
    assert watcher.ask(op="wait_update", uri=uri, timeout=HANG) == {"updated": True}
    assert "agent-b card 5" in watcher.ask(op="read", uri=uri)["text"]
    ours = [t for ts in names.values() for t in ts]
    assert sorted(titles) == sorted(ours)
    # Who did it: each agent's cards were last written under its URL's role.
    rows = psql(pg, "alice",  # a member reads the board's rows (row security)
                "SELECT c.title, c.changed_by FROM lanes.cards c JOIN lanes.boards b ON b.id = c.board_id "
                f"WHERE b.name = '{name}'")
    by = dict(line.split("|") for line in rows.splitlines())
    assert all(by[t] == "alice" for t in names["agent-a"]), by
    assert all(by[t] == "bob" for t in names["agent-b"]), by


def test_a_folder_serves_its_boards_and_a_file_that_is_no_board_says_why(tmp_path):
    env = env_for(tmp_path)
    folder = tmp_path / "boards"
    folder.mkdir()
    (folder / "a.md").write_text(BOARD)
    (folder / "b.md").write_text("## Inbox\n\n- Gamma\n")
    (folder / "notes.md").write_text("just some notes\n")
    s = Raw([folder], env)
    try:
        s.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "raw", "version": "0"}})
        listed = json.loads(s.request(2, "tools/call", {"name": "list_boards"})["result"]["content"][0]["text"])
        by_name = {Path(b["board"]).name: b for b in listed["boards"]}
        assert by_name["a.md"]["cards"] == 6 and by_name["b.md"]["cards"] == 1
        assert "notes.md" not in by_name
        r = s.request(3, "tools/call", {"name": "move_card", "arguments": {"card": "Gamma", "column": "Inbox"}})
        assert "needs \"board\"" in r["error"]["message"]
    finally:
        s.proc.stdin.close()
        assert s.proc.wait(timeout=HANG) == 0
    # The file that is no board is said, with why.
    assert 'lanes mcp: not served: notes.md (line 1: expected "## " column heading' in s.proc.stderr.read()



# MARK: - Who did it, on the open screen


def test_the_open_screen_names_the_agent_that_moved_a_card_and_nobody_for_another_writer(tmp_path, lanes):
    from lanes_harness import board_md

    app = lanes(board_md([("To do", ["Fix login", "Plan sprint"]), ("Doing", ["Review PR"]), ("Done", [])]),
                wait_for="Fix login")
    board = app.board_path
    env = env_for(tmp_path)
    s = Raw([board], env)
    try:
        s.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "claude-code", "version": "2"}})
        r = s.request(2, "tools/call", {"name": "move_card", "arguments": {"card": "Fix login", "column": "Done"}})
        assert not r["result"]["isError"], r
        app.wait_status("1 card moved by agent claude-code")
        r = s.request(3, "tools/call", {"name": "add_card", "arguments": {"column": "To do", "title": "From the agent"}})
        assert not r["result"]["isError"], r
        app.wait_for("From the agent")
        app.wait_status("1 card added by agent claude-code")
        # The board file carries nothing of it: the same as the subcommands write.
        twin = tmp_path / "twin.md"
        twin.write_text(board_md([("To do", ["Fix login", "Plan sprint"]), ("Doing", ["Review PR"]), ("Done", [])]))
        lanes_cli = lambda *a: subprocess.run([str(BIN), *a], env=env, capture_output=True, text=True, check=True)
        lanes_cli("move", twin, "Fix login", "--to", "Done")
        lanes_cli("add", twin, "--column", "To do", "From the agent")
        assert board.read_bytes() == twin.read_bytes()
        # Another writer after the agent: the agent's note no longer matches the file, so nobody is named.
        lanes_cli("move", board, "Plan sprint", "--to", "Doing")
        app.wait_status("1 card changed elsewhere")
        # A note with a forged name beside the board, for a file state that is not the board's: ignored.
        note = board.with_name("." + board.name + ".lanes-writer")
        assert note.exists() and "claude-code" in note.read_text()
        note.write_text(note.read_text().replace("claude-code", "someone-else"))
        lanes_cli("move", board, "Review PR", "--to", "Done")
        app.wait_status("1 card changed elsewhere")
        assert "someone-else" not in app.screen()
    finally:
        s.proc.stdin.close()
        assert s.proc.wait(timeout=HANG) == 0


def test_the_open_screen_of_a_postgresql_board_names_the_role_an_agent_writes_as(pg, tmp_path, lanes):
    from lanes_harness import board_md
    from pg_helpers import board_url

    env = env_for(tmp_path)
    src = tmp_path / "board.md"
    src.write_text(board_md([("To do", ["Fix login", "Plan sprint"]), ("Doing", []), ("Done", [])]))
    name = f"mcp-screen-{os.getpid()}"
    lanes_cli = lambda *a: subprocess.run([str(BIN), *map(str, a)], env=env, capture_output=True, text=True,
                                          check=True)
    lanes_cli("copy", src, board_url(pg, "lanes_admin", "mcp-schema-screen"))  # sets up the schema
    lanes_cli("copy", src, board_url(pg, "alice", name))
    lanes_cli("grant", board_url(pg, "alice", name), "bob")
    app = lanes(None, wait_for="Fix login", args=[board_url(pg, "alice", name)], workdir=tmp_path / "alice")
    s = Raw([board_url(pg, "bob", name)], env)
    try:
        s.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "claude-code", "version": "2"}})
        r = s.request(2, "tools/call", {"name": "move_card", "arguments": {"card": "Fix login", "column": "Done"}})
        assert not r["result"]["isError"], r
        # The server records the role the agent works as; the screen names it as for any member.
        app.wait_status("1 card changed by bob")
    finally:
        s.proc.stdin.close()
        assert s.proc.wait(timeout=HANG) == 0
    assert app.quit() == 0


def test_a_postgresql_session_without_write_is_refused_for_the_agent_in_the_words_lanes_move_prints(pg, tmp_path):
    from pg_helpers import board_url

    env = env_for(tmp_path)
    src = tmp_path / "board.md"
    src.write_text(BOARD)
    name = f"mcp-readonly-{os.getpid()}"
    lanes(["copy", src, board_url(pg, "lanes_admin", "mcp-schema-ro")], env)  # sets up the schema
    lanes(["copy", src, board_url(pg, "alice", name)], env)
    # A role's session that may not write (as a read-only login is set up: default_transaction_read_only).
    url = board_url(pg, "alice", name) + "&options=-c%20default_transaction_read_only%3Don"
    before = lanes(["show", board_url(pg, "alice", name), "--json"], env).stdout
    s = Raw([url], env)
    try:
        s.request(1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                    "clientInfo": {"name": "raw", "version": "0"}})
        shown = s.request(2, "tools/call", {"name": "read_board", "arguments": {}})
        assert "Fix login" in shown["result"]["content"][0]["text"]  # reading is allowed
        r = s.request(3, "tools/call", {"name": "move_card", "arguments": {"card": "Fix login", "column": "Done"}})
        cli = lanes(["move", url, "Fix login", "--to", "Done"], env, check=False)
        assert cli.returncode == 2 and cli.stderr.strip()  # refused, as for a role without the privilege
        assert r["result"] == {"content": [{"type": "text", "text": cli.stderr.strip()}], "isError": True}, r
        said = r["result"]["content"][0]["text"]
        assert "this session may only read board" in said and name in said and said.endswith("nothing was changed"), said
    finally:
        s.proc.stdin.close()
        assert s.proc.wait(timeout=HANG) == 0
    assert lanes(["show", board_url(pg, "alice", name), "--json"], env).stdout == before


def test_flow_metrics_splits_finished_cards_by_the_git_authors_the_agent_names(tmp_path, agents):
    from test_metrics_authors import git_repo

    repo = git_repo(tmp_path)
    env = env_for(tmp_path)
    agent = agents([repo / "board.md"], env)
    said = json.loads(agent.ok("flow_metrics", agents=["claude"]))
    cli = json.loads(lanes(["metrics", repo / "board.md", "--json", "--agent", "claude"], env).stdout)
    assert said["finished_by"] == cli["finished_by"]
    assert (said["finished_by"]["agents"]["count"], said["finished_by"]["people"]["count"]) == (2, 2)
    # Without agents named, every author is a person, as lanes metrics says without --agent.
    plain = json.loads(agent.ok("flow_metrics"))
    assert (plain["finished_by"]["agents_named"], plain["finished_by"]["people"]["count"]) == (False, 4)
    # A pattern of the wrong type is bad input in words, and the server keeps serving.
    r = agent.call("flow_metrics", agents="claude")
    assert r["rpc_error"]["code"] == -32602 and '"agents" must be a list of strings' in r["rpc_error"]["message"], r
    assert json.loads(agent.ok("flow_metrics", agents=["*@agents.example"]))["finished_by"]["agents"]["count"] == 2
