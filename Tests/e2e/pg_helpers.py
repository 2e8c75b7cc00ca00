"""A PostgreSQL server for the end-to-end tests, psql as any role, and board URLs.

One server per pytest process: `make test` runs the terminal tests side by side (pytest-xdist), and
each worker starts a server of its own (some tests restart theirs), stopped when the worker ends. A run
under `scripts/pg-test-cluster with` (LANES_PG_DIR and LANES_PG_PORT exported) and not split into
workers uses that server instead.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CLUSTER_SCRIPT = REPO / "scripts" / "pg-test-cluster"


def pg_server():
    """Yields (socket dir, port) of a running server with the Lanes roles; stops it after if it started it."""
    started = None
    if os.environ.get("LANES_PG_DIR") and os.environ.get("LANES_PG_PORT") and not os.environ.get("PYTEST_XDIST_WORKER"):
        env = {"LANES_PG_DIR": os.environ["LANES_PG_DIR"], "LANES_PG_PORT": os.environ["LANES_PG_PORT"]}
    else:
        out = subprocess.run([str(CLUSTER_SCRIPT), "start"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        if out.returncode != 0:
            pytest.fail("cannot start PostgreSQL (install Debian's postgresql package): " + out.stderr, pytrace=False)
        env = {k: v.strip("'") for k, v in (line.split("=", 1) for line in out.stdout.splitlines() if "=" in line)}
        started = env["LANES_PG_DIR"]
    yield env["LANES_PG_DIR"], env["LANES_PG_PORT"]
    if started:
        subprocess.run([str(CLUSTER_SCRIPT), "stop", started], capture_output=True, stdin=subprocess.DEVNULL)


def psql_bin() -> str:
    return str(next(Path("/usr/lib/postgresql").glob("*/bin")) / "psql")


def psql_run(pg, role: str, sql: str, db: str = "lanes") -> subprocess.CompletedProcess:
    """Runs `sql` as `role` (stopping at the first error) and returns the finished process."""
    d, port = pg
    return subprocess.run([psql_bin(), "-X", "-At", "-v", "ON_ERROR_STOP=1", "-h", d, "-p", port, "-U", role,
                           "-d", db, "-c", sql], capture_output=True, text=True, stdin=subprocess.DEVNULL)


def psql(pg, role: str, sql: str, db: str = "lanes") -> str:
    """Runs `sql` as `role`, asserts it succeeded, and returns what it printed (unaligned, tuples only)."""
    out = psql_run(pg, role, sql, db)
    assert out.returncode == 0, f"{role}: {sql}: {out.stderr}"
    return out.stdout.strip()


def board_url(pg, role: str, board: str, password: str | None = None, db: str = "lanes") -> str:
    d, port = pg
    who = f"{role}:{password}" if password else role
    return f"postgresql://{who}@/{db}?host={d}&port={port}&board={board}"
