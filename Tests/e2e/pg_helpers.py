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


def free_port() -> int:
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


ROLES = ("postgres", "lanes_admin", "alice", "bob", "carol", "dave")


class Pooler:
    """A private PgBouncer (Debian's pgbouncer, never the system service) on a free port of 127.0.0.1,
    in front of the test server (by its socket), in `mode` pooling with `pool_size` server connections
    per user and database. `pid()` is the pgbouncer process (tests SIGSTOP it: a pooler that stops
    answering). LANES_KEEP_POOLER_LOG=PATH keeps its log as PATH.PORT when it is closed."""

    def __init__(self, pg, mode: str = "transaction", pool_size: int = 2):
        import tempfile
        d, port = pg
        # Under /tmp itself: the pooler runs as postgres when the tests run as root, and pytest's
        # folders are root's alone.
        self.dir = Path(tempfile.mkdtemp(prefix="lanes-pgbouncer-"))
        self.port = free_port()
        (self.dir / "users.txt").write_text("".join(f'"{r}" ""\n' for r in ROLES))
        (self.dir / "pgbouncer.ini").write_text(f"""[databases]
* = host={d} port={port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {self.port}
unix_socket_dir =
auth_type = trust
auth_file = {self.dir}/users.txt
pool_mode = {mode}
default_pool_size = {pool_size}
max_client_conn = 500
max_db_connections = 0
server_reset_query = DISCARD ALL
logfile = {self.dir}/pgbouncer.log
pidfile = {self.dir}/pgbouncer.pid
admin_users = postgres
""")
        if os.geteuid() == 0:
            subprocess.run(["chown", "-R", "postgres", str(self.dir)], check=True)
            os.chmod(self.dir, 0o755)
            argv = ["runuser", "-u", "postgres", "--", "/usr/sbin/pgbouncer", str(self.dir / "pgbouncer.ini")]
        else:
            argv = ["/usr/sbin/pgbouncer", str(self.dir / "pgbouncer.ini")]
        if not Path("/usr/sbin/pgbouncer").exists():
            pytest.fail("pgbouncer is not installed: scripts/ensure-deps test installs it (apt-get install pgbouncer)",
                        pytrace=False)
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        import socket
        import time
        deadline = time.monotonic() + 30
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    break
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    log = (self.dir / "pgbouncer.log").read_text() if (self.dir / "pgbouncer.log").exists() else ""
                    pytest.fail(f"pgbouncer did not start: {log[-2000:]}", pytrace=False)
                time.sleep(0.05)

    def pid(self) -> int:
        """The pgbouncer process (runuser's child when started as root)."""
        return int((self.dir / "pgbouncer.pid").read_text().strip())

    def url(self, role: str, board: str, db: str = "lanes", listen_port: str | None = None, extra: str = "") -> str:
        """A board URL through the pooler; `listen_port`: the server's own port, for LISTEN."""
        q = f"&listen={listen_port}" if listen_port else ""
        return f"postgresql://{role}@127.0.0.1:{self.port}/{db}?connect_timeout=5{q}{extra}&board={board}"

    def psql(self, role: str, sql: str, db: str = "lanes") -> str:
        out = subprocess.run([psql_bin(), "-X", "-At", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", str(self.port),
                              "-U", role, "-d", db, "-c", sql], capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert out.returncode == 0, f"{role} through the pooler: {sql}: {out.stderr}"
        return out.stdout.strip()

    def close(self) -> None:
        import signal
        try:
            pid = self.pid()
            os.kill(pid, signal.SIGCONT)
            os.kill(pid, signal.SIGTERM)
        except (OSError, ValueError):
            self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        import shutil
        if os.environ.get("LANES_KEEP_POOLER_LOG"):
            shutil.copy(self.dir / "pgbouncer.log", os.environ["LANES_KEEP_POOLER_LOG"] + f".{self.port}")
        shutil.rmtree(self.dir, ignore_errors=True)


def pg_bindir() -> Path:
    return sorted(Path("/usr/lib/postgresql").glob("*/bin"))[0]


def as_owner(argv: list[str]) -> list[str]:
    """argv run as postgres when the tests run as root (PostgreSQL refuses root), else as is."""
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


class Standby:
    """A streaming standby of a test server on this machine (`pg_basebackup -R`, its own port on
    127.0.0.1 and socket folder); `sync`: the primary waits for it at every commit
    (`synchronous_standby_names = '*'`), so nothing the primary acknowledged is missing here."""

    def __init__(self, primary_dir: str, primary_port: str, sync: bool = True):
        import tempfile
        import time
        self.dir = Path(tempfile.mkdtemp(prefix="lanes-pg-standby-"))
        os.chmod(self.dir, 0o755)
        if os.geteuid() == 0:
            subprocess.run(["chown", "postgres", str(self.dir)], check=True)
        self.port = str(free_port())
        b = pg_bindir()
        r = subprocess.run(as_owner([str(b / "pg_basebackup"), "-D", str(self.dir / "data"), "-h", primary_dir,
                                     "-p", primary_port, "-U", "postgres", "-R", "-X", "stream", "-c", "fast"]),
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, f"pg_basebackup: {r.stderr}"
        r = subprocess.run(as_owner([str(b / "pg_ctl"), "-D", str(self.dir / "data"), "-l", str(self.dir / "server.log"),
                                     "-w", "-t", "60", "-o",
                                     f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off "
                                     f"-c cluster_name=standby", "start"]),
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, f"standby start: {r.stderr} {(self.dir / 'server.log').read_text()[-2000:]}"
        primary = (primary_dir, primary_port)
        if sync:
            psql(primary, "postgres", "ALTER SYSTEM SET synchronous_standby_names = '*'", db="postgres")
            psql(primary, "postgres", "SELECT pg_reload_conf()", db="postgres")
        want = "sync" if sync else "async"
        deadline = time.monotonic() + 60
        while psql(primary, "postgres", "SELECT string_agg(sync_state, ',') FROM pg_stat_replication",
                   db="postgres") != want:
            assert time.monotonic() < deadline, "the standby did not start streaming"
            time.sleep(0.05)

    def promote(self) -> None:
        r = subprocess.run(as_owner([str(pg_bindir() / "pg_ctl"), "-D", str(self.dir / "data"), "-w", "promote"]),
                           capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert r.returncode == 0, r.stderr

    def stop(self) -> None:
        import shutil
        if (self.dir / "data" / "postmaster.pid").exists():
            subprocess.run(as_owner([str(pg_bindir() / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate",
                                     "-w", "stop"]), capture_output=True, stdin=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)


def start_cluster() -> tuple[str, str]:
    """A server of a test's own (scripts/pg-test-cluster start): (socket dir, port)."""
    out = subprocess.run([str(CLUSTER_SCRIPT), "start"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    env = {k: v.strip("'") for k, v in (line.split("=", 1) for line in out.stdout.splitlines() if "=" in line)}
    return env["LANES_PG_DIR"], env["LANES_PG_PORT"]


def stop_server_immediately(pg) -> None:
    """`pg_ctl stop -m immediate`: the primary dies as a crashed host's would, nothing flushed to clients."""
    r = subprocess.run(as_owner([str(pg_bindir() / "pg_ctl"), "-D", f"{pg[0]}/data", "-m", "immediate", "-w", "stop"]),
                       capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert r.returncode == 0, r.stderr
