"""Fixtures for the real-terminal tests: a private tmux server and `lanes` sessions in it."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from lanes_harness import HarnessError, LanesApp, Tmux, find_binary
from pg_helpers import pg_server

_counter = itertools.count(1)


@pytest.fixture(scope="session")
def lanes_bin() -> Path:
    try:
        return find_binary()
    except HarnessError as e:
        pytest.fail(str(e), pytrace=False)


@pytest.fixture(scope="session")
def pg():
    """(socket dir, port) of this pytest process's PostgreSQL server (see pg_helpers.pg_server)."""
    yield from pg_server()


@pytest.fixture(scope="session")
def tmux_server(tmp_path_factory):
    """A tmux server on a private socket (`-L lanes-e2e-<pid>`); killed at the end."""
    workdir = tmp_path_factory.mktemp("tmux")
    server = Tmux(f"lanes-e2e-{os.getpid()}", workdir)
    server.start_server()
    yield server
    server.kill_server()


@pytest.fixture
def lanes(tmux_server, lanes_bin, tmp_path, request):
    """Starts lanes on a board: `lanes(board_text, term=..., width=..., height=...)`.

    The board is written (as bytes, exactly) to a fresh folder; the app is
    started in a detached tmux session and the call returns once `wait_for`
    is on the screen. Every session is killed when the test ends, pass or fail.
    """
    apps: list[LanesApp] = []

    def start(board: str | bytes | None, *, wait_for: str | None, term: str = "xterm-256color",
              width: int = 100, height: int = 30, board_name: str = "board.md",
              args: list[str] | None = None, workdir: Path | None = None,
              env: dict[str, str] | None = None) -> LanesApp:
        folder = workdir or (tmp_path / f"w{len(apps)}")
        folder.mkdir(parents=True, exist_ok=True)
        if board is not None:
            data = board.encode() if isinstance(board, str) else board
            (folder / board_name).write_bytes(data)
        name = f"t{os.getpid()}-{next(_counter)}"
        app = LanesApp(tmux_server, name, lanes_bin, folder, board_name, term, width, height, args=args, env=env)
        apps.append(app)
        app.start(wait_for)
        return app

    yield start

    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for app in apps:
        if failed and app.started:
            try:
                print(app.dump())
            except Exception:
                pass
        app.kill()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    setattr(item, "rep_" + rep.when, rep)
