"""`lanes move BOARD CARD --to-board OTHER`: a card moved between boards, killed at any moment, is never lost or doubled.

The binary is $LANES_BIN or .build/debug/lanes. Every test has its own boards and its own move
journal (LANES_STATE_DIR). The many-kills test works in /dev/shm where there is one: it is about
process crashes (kill -9), not power loss, so fsync's cost on a busy disk buys nothing there.
"""

import os
import random
import signal
import subprocess
import tempfile
import time
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(os.environ.get("LANES_BIN", ROOT / ".build" / "debug" / "lanes"))

A = "## To do\n\n- Alpha\n- Beta\n    > the details\n\n## Done\n"
B = "## Inbox\n\n- Gamma\n\n## Later\n"


def env_for(state: Path) -> dict:
    env = dict(os.environ)
    env["LANES_STATE_DIR"] = str(state)
    env.pop("LANES_MOVE_CRASH_AT", None)
    return env


def records(state: Path) -> list[str]:
    """The move records in the journal folder (not the boards' lock files)."""
    return [p.name for p in state.iterdir() if not p.name.endswith(".lock")] if state.exists() else []


def lanes(args, env, **kw):
    return subprocess.run([str(BIN), *map(str, args)], env=env, capture_output=True, text=True, timeout=60, **kw)


def cards(path: Path) -> list[str]:
    """The card titles of a taskell board, in file order."""
    return [line[2:] for line in path.read_text().splitlines() if line.startswith("- ")]


def two_boards(tmp: Path, a: str = A, b: str = B):
    (tmp / "a.md").write_text(a)
    (tmp / "b.md").write_text(b)
    return tmp / "a.md", tmp / "b.md", env_for(tmp / "state")


def test_a_move_prints_where_the_card_went_and_takes_all_of_it(tmp_path):
    a, b, env = two_boards(tmp_path)
    r = lanes(["move", a, "Beta", "--to-board", b, "--to", "Inbox", "--position", "1"], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f'Moved "Beta" to {b}, "Inbox" at position 1.\n'
    assert a.read_text() == "## To do\n\n- Alpha\n\n## Done\n"
    assert b.read_text().startswith("## Inbox\n\n- Beta\n    > the details\n- Gamma\n")
    assert records(tmp_path / "state") == []


def test_several_cards_move_together_in_one_move(tmp_path):
    a, b, env = two_boards(tmp_path)
    r = lanes(["move", a, "Alpha", "Beta", "--to-board", b, "--to", "Later"], env)
    assert r.returncode == 0, r.stderr
    assert r.stdout == f'Moved 2 cards ("Alpha", "Beta") to {b}, "Later" at positions 1–2.\n'
    assert cards(a) == []
    assert cards(b) == ["Gamma", "Alpha", "Beta"]
    assert records(tmp_path / "state") == []
    # Inside one board, several cards are refused in words, and nothing moves.
    before = b.read_bytes()
    r = lanes(["move", b, "Alpha", "Beta", "--to", "Inbox"], env)
    assert r.returncode == 2
    assert "several cards move together only to another board" in r.stderr
    assert b.read_bytes() == before


@pytest.mark.parametrize("case", ["same board", "no column", "missing board", "read-only", "not a board", "full"])
def test_each_bad_target_is_refused_in_words_and_nothing_moves(tmp_path, case):
    a, b, env = two_boards(tmp_path, b="## Inbox\n\n- Gamma\n\n## Full (1)\n\n- Delta\n")
    target, column, status, words = b, "Inbox", 0, ""
    if case == "same board":
        target, column, status, words = tmp_path / "." / "a.md", "Done", 2, "already on"
    elif case == "no column":
        column, status, words = "Nowhere", 1, 'no column matches "Nowhere"'
    elif case == "missing board":
        target, status, words = tmp_path / "none.md", 1, "does not exist"
    elif case == "read-only":
        b.chmod(0o444)
        status, words = 2, "is read-only"
    elif case == "not a board":
        target = tmp_path / "data.bin"
        target.write_bytes(b"\x00\x01\xff")
        status, words = 2, "data.bin:1:"
    elif case == "full":
        column, status, words = "Full", 2, "is full (WIP limit 1); --force moves anyway"
    before = (a.read_bytes(), b.read_bytes())
    r = lanes(["move", a, "Alpha", "--to-board", target, "--to", column], env)
    assert (r.returncode, r.stdout) == (status, ""), r.stderr
    assert words in r.stderr
    assert (a.read_bytes(), b.read_bytes()) == before
    assert records(tmp_path / "state") == []


@pytest.mark.parametrize("step", [1, 2, 3, 4])
def test_a_kill_at_each_step_is_finished_or_rolled_back_by_the_next_command(tmp_path, step):
    a, b, env = two_boards(tmp_path)
    r = lanes(["move", a, "Beta", "--to-board", b, "--to", "Later"], {**env, "LANES_MOVE_CRASH_AT": str(step)})
    assert r.returncode == -signal.SIGKILL
    assert len(records(tmp_path / "state")) == 1
    # Any command on either board finishes it: here a read of the target.
    shown = lanes(["show", b], env)
    assert shown.returncode == 0
    word = "rolled back" if step == 1 else "finished"
    assert f"lanes: {word} an interrupted move of \"Beta\"" in shown.stderr
    assert Counter(cards(a) + cards(b)) == {"Alpha": 1, "Beta": 1, "Gamma": 1}
    assert ("Beta" in cards(b)) == (step != 1)
    assert records(tmp_path / "state") == []
    again = lanes(["show", a], env)
    assert again.stderr == ""


def test_two_moves_of_one_card_at_once_leave_it_once(tmp_path):
    """Two `lanes move` processes started together on the same card: one moves it, the other finds no such card."""
    a, b, env = two_boards(tmp_path)
    for n in range(10):
        frm, to, column = (a, b, "Later") if n % 2 == 0 else (b, a, "Done")
        procs = [subprocess.Popen([str(BIN), "move", str(frm), "Beta", "--to-board", str(to), "--to", column], env=env,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        results = [p.communicate(timeout=60) + (p.returncode,) for p in procs]
        assert sorted(r[2] for r in results) == [0, 1], results
        assert any('no card matches "Beta"' in r[1] for r in results), results
        assert Counter(cards(a) + cards(b)) == {"Alpha": 1, "Beta": 1, "Gamma": 1}
        assert "Beta" in cards(to)
        assert records(tmp_path / "state") == []


# 1,000 in `make test`, in WORKERS independent pairs of boards at once (each pair its own files and
# move journal): most of a move's life is exec and waiting, so pairs side by side fill the machine.
MOVES = int(os.environ.get("LANES_KILL_MOVES", "1000"))
WORKERS = int(os.environ.get("LANES_KILL_WORKERS", "4"))


def split(total: int, workers: int) -> list[int]:
    return [total // workers + (1 if i < total % workers else 0) for i in range(workers)]


def kill_file_moves(tmp: Path, moves: int, seed: int) -> tuple[int, int, int]:
    """`moves` `lanes move` processes between two file boards in `tmp`, each killed by SIGKILL at a random
    moment (a random delay, or at a random step through LANES_MOVE_CRASH_AT) or left to finish; after each
    kill `lanes columns` on one board runs recovery; after each move every card is on exactly one board.
    Returns (kills, kills at a step, finished)."""
    a, b, env = two_boards(tmp, "## To do\n\n" + "".join(f"- card {i}\n" for i in range(10)) + "\n## Done\n",
                      "## Inbox\n\n" + "".join(f"- card {i}\n" for i in range(10, 16)) + "\n## Later\n")
    expected = Counter(f"card {i}" for i in range(16))
    rng = random.Random(seed)
    durations = []
    kills = by_step = finished = 0
    for n in range(moves):
        frm, to = (a, b) if rng.random() < 0.5 else (b, a)
        titles = cards(frm)
        if not titles:
            frm, to = to, frm
            titles = cards(frm)
        title = rng.choice(titles)
        column = rng.choice(["Inbox", "Later"] if to == b else ["To do", "Done"])
        run_env = dict(env)
        mode = rng.random()
        if mode < 0.3:
            run_env["LANES_MOVE_CRASH_AT"] = str(rng.randint(1, 4))
        start = time.monotonic()
        p = subprocess.Popen([str(BIN), "move", str(frm), title, "--to-board", str(to), "--to", column],
                             env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if 0.3 <= mode < 0.75 and durations:
            # A delay anywhere in a typical move's life, from exec to exit.
            time.sleep(rng.uniform(0, 1.1 * sorted(durations)[len(durations) // 2]))
            p.send_signal(signal.SIGKILL)
        _, err = p.communicate(timeout=60)
        if p.returncode == 0:
            durations.append(time.monotonic() - start)
            finished += 1
        elif p.returncode == -signal.SIGKILL:
            kills += 1
            by_step += "LANES_MOVE_CRASH_AT" in run_env
            check = lanes(["columns", rng.choice([a, b])], env)
            assert check.returncode == 0, check.stderr
        else:
            raise AssertionError(f"{tmp.name}: move {n} failed: {p.returncode} {err.decode()}")
        counts = Counter(cards(a) + cards(b))
        assert counts == expected, f"{tmp.name}: after move {n} ({'killed' if p.returncode else 'finished'}): {counts - expected} doubled, {expected - counts} lost"
        assert records(tmp / "state") == [], f"{tmp.name}: a record is left after move {n}"
    return kills, by_step, finished


def test_moves_killed_at_random_moments_keep_every_card_exactly_once():
    """MOVES moves between two file boards killed at random (`kill_file_moves`), in WORKERS pairs at once."""
    from concurrent.futures import ThreadPoolExecutor

    base = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    with tempfile.TemporaryDirectory(prefix="lanes-kills-", dir=base) as folder:
        dirs = []
        for w in range(WORKERS):
            (Path(folder) / f"pair{w}").mkdir()
            dirs.append(Path(folder) / f"pair{w}")
        with ThreadPoolExecutor(WORKERS) as pool:
            results = list(pool.map(lambda w: kill_file_moves(dirs[w], split(MOVES, WORKERS)[w], 27 + w), range(WORKERS)))
    kills, by_step, finished = (sum(r[k] for r in results) for k in range(3))
    assert kills + finished == MOVES
    assert kills >= MOVES * 0.4 and by_step >= MOVES * 0.2 and finished >= MOVES * 0.2, (kills, by_step, finished)


# --------------------------------------------------------------------------- a file board and a PostgreSQL board

from pg_helpers import board_url as url  # noqa: E402  (the pg fixture is conftest's)

PG_MOVES = int(os.environ.get("LANES_KILL_MOVES_PG", "1000"))


def db_cards(u: str, env) -> list[str]:
    r = lanes(["export", u, "--format", "markdown"], env)
    assert r.returncode == 0, r.stderr
    return [line[2:] for line in r.stdout.splitlines() if line.startswith("- ")]


def kill_pg_moves(pg, tmp: Path, moves: int, seed: int, name: str) -> tuple[int, int]:
    """`moves` moves between a file board and a PostgreSQL board (its own, `name`), both ways, killed like
    the file test's; the next command on the database board recovers; every card is on exactly one board
    after each move. Returns (kills, finished)."""
    env = env_for(tmp / "state")
    seed_file = tmp / "seed.md"
    seed_file.write_text("## Inbox\n\n" + "".join(f"- card {i}\n" for i in range(10, 16)) + "\n## Later\n")
    u = url(pg, "lanes_admin", name)
    r = lanes(["copy", seed_file, u], env)
    assert r.returncode == 0, r.stderr
    a = tmp / "a.md"
    a.write_text("## To do\n\n" + "".join(f"- card {i}\n" for i in range(10)) + "\n## Done\n")
    expected = Counter(f"card {i}" for i in range(16))
    rng = random.Random(seed)
    durations = []
    kills = finished = 0
    on_db = db_cards(u, env)
    for n in range(moves):
        to_db = rng.random() < 0.5
        if not (cards(a) if to_db else on_db):
            to_db = not to_db
        frm, to = (str(a), u) if to_db else (u, str(a))
        title = rng.choice(cards(a) if to_db else on_db)
        column = rng.choice(["Inbox", "Later"] if to_db else ["To do", "Done"])
        run_env = dict(env)
        mode = rng.random()
        if mode < 0.3:
            run_env["LANES_MOVE_CRASH_AT"] = str(rng.randint(1, 4))
        start = time.monotonic()
        p = subprocess.Popen([str(BIN), "move", frm, title, "--to-board", to, "--to", column],
                             env=run_env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if 0.3 <= mode < 0.75 and durations:
            time.sleep(rng.uniform(0, 1.1 * sorted(durations)[len(durations) // 2]))
            p.send_signal(signal.SIGKILL)
        _, err = p.communicate(timeout=60)
        if p.returncode == 0:
            durations.append(time.monotonic() - start)
            finished += 1
        elif p.returncode == -signal.SIGKILL:
            kills += 1
        else:
            raise AssertionError(f"{name}: move {n} failed: {p.returncode} {err.decode()}")
        on_db = db_cards(u, env)  # a command on the database board: it recovers what the kill left
        counts = Counter(cards(a) + on_db)
        assert counts == expected, f"{name}: after move {n}: {counts - expected} doubled, {expected - counts} lost"
        assert records(tmp / "state") == [], f"{name}: a record is left after move {n}"
    return kills, finished


def test_moves_between_a_file_and_a_database_board_killed_at_random_keep_every_card_once(pg, tmp_path):
    """PG_MOVES moves between a file board and a PostgreSQL board killed at random (`kill_pg_moves`), in
    WORKERS pairs at once (each its own file, database board and move journal)."""
    from concurrent.futures import ThreadPoolExecutor

    dirs = []
    for w in range(WORKERS):
        (tmp_path / f"pair{w}").mkdir()
        dirs.append(tmp_path / f"pair{w}")
    with ThreadPoolExecutor(WORKERS) as pool:
        results = list(pool.map(lambda w: kill_pg_moves(pg, dirs[w], split(PG_MOVES, WORKERS)[w], 2727 + w,
                                                         f"moves{os.getpid()}w{w}"), range(WORKERS)))
    kills, finished = (sum(r[k] for r in results) for k in range(2))
    assert kills + finished == PG_MOVES
    assert kills >= PG_MOVES * 0.4 and finished >= PG_MOVES * 0.2, (kills, finished)
