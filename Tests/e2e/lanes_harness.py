"""Driving the real `lanes` binary inside a detached tmux session.

Everything here talks to a *private* tmux server (`tmux -L lanes-e2e-<pid>`),
never to the user's own tmux.  Input is typed into the pane with
`send-keys`, so mouse reports are bytes we build ourselves (SGR, X10 or
urxvt); the screen is read back with `capture-pane`.

Synchronisation is always by polling for something visible (a text on the
screen, the status line, the saved file, the pane's exit marker), never by
sleeping alone.
"""

from __future__ import annotations

import difflib
import os
import re
import shlex
import subprocess
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Sequence

REPO = Path(__file__).resolve().parents[2]

# How long to wait for anything the app should do "at once".
DEFAULT_TIMEOUT = 5.0
# How long the app may take to show its first frame (cold start of a debug build).
START_TIMEOUT = 10.0
# Every wait here is for a condition; its timeout only says when to give up on a hang. The terminal
# tests run side by side on a machine that may be busy (CI on two cores), so each timeout a test names
# is stretched by this factor before anything is called hung: a test that passes never waits longer,
# and none asserts a speed (figures belong in `make bench`). LANES_E2E_SLACK=1 for the bare timeouts.
SLACK = float(os.environ.get("LANES_E2E_SLACK", "4"))
POLL = 0.03
EXIT_MARK = "LANES-EXIT:"
_SGR = re.compile(r"\x1b\[([0-9;:]*)m")


class HarnessError(AssertionError):
    """A test expectation about the running app failed (carries the screen)."""


def find_binary() -> Path:
    """The lanes binary: $LANES_BIN, or <repo>/.build/debug/lanes."""
    env = os.environ.get("LANES_BIN")
    path = Path(env) if env else REPO / ".build" / "debug" / "lanes"
    if not path.is_file() or not os.access(path, os.X_OK):
        raise HarnessError(
            f"lanes binary not found or not executable at {path}. "
            "Build it with `swift build` (or `make build`), or set LANES_BIN=/path/to/lanes."
        )
    return path.resolve()


# --------------------------------------------------------------------------- boards


def board_md(columns: Sequence[tuple[str, Sequence[str]]]) -> str:
    """A board in the canonical taskell layout Lanes writes.

    `columns` is [(title, [card, ...]), ...]; a card is its title, or its
    title followed by already-indented detail lines ("t\\n    > desc").
    """
    parts = []
    for title, cards in columns:
        body = "".join(f"- {c}\n" for c in cards)
        parts.append(f"## {title}\n\n{body}")
    return "\n".join(parts)


def cards_of(text: str) -> list[str]:
    """Every card title line (`- ...`) of a board file, in order."""
    return [line[2:] for line in text.split("\n") if line.startswith("- ")]


# --------------------------------------------------------------------------- geometry


def cell_width(ch: str) -> int:
    if unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def to_cells(line: str) -> list[str]:
    """A captured line as cells: a wide character is followed by '' for its second cell."""
    cells: list[str] = []
    for ch in line:
        w = cell_width(ch)
        if w == 0 and cells:
            cells[-1] += ch
            continue
        cells.append(ch)
        if w == 2:
            cells.append("")
    return cells


def text_width(s: str) -> int:
    return sum(cell_width(c) for c in s)


@dataclass(frozen=True)
class Rect:
    x: int
    y: int
    w: int
    h: int

    @property
    def max_x(self) -> int:
        return self.x + self.w

    @property
    def max_y(self) -> int:
        return self.y + self.h


class Layout:
    """Where the app should draw things, from the spec (not from the app's code).

    Row 0 is the header, the last row the status line.  Columns are at
    x = k*(width+1), width = (W - gaps) / columns-per-page, at least 24 and (when
    more than one column is shown) at most 40 cells.  A column's row 1 holds its
    title, row 2 a rule, and cards start at row 3 with no gap between them; a
    card is 2 + title lines (+1 hint line) rows high.
    """

    MIN_W = 24
    MAX_W = 40
    GAP = 1

    def __init__(self, width: int, height: int, heights: Sequence[Sequence[int]]):
        self.width = width
        self.height = height
        self.heights = [list(h) for h in heights]
        n = len(self.heights)
        per_page = max(1, (width + self.GAP) // (self.MIN_W + self.GAP))
        self.per_page = max(1, min(per_page, max(1, n)))
        w = (width - self.GAP * (self.per_page - 1)) // self.per_page
        if self.per_page > 1:
            w = min(w, self.MAX_W)
        self.col_w = w

    @classmethod
    def simple(cls, width: int, height: int, columns: Sequence[tuple[str, Sequence[str]]]) -> "Layout":
        """Every card one title line, no hint."""
        return cls(width, height, [[3] * len(cards) for _, cards in columns])

    def col_x(self, k: int) -> int:
        return (k % self.per_page) * (self.col_w + self.GAP)

    def card(self, k: int, i: int) -> Rect:
        y = 3 + sum(self.heights[k][:i])
        return Rect(self.col_x(k), y, self.col_w, self.heights[k][i])

    def upper(self, k: int, i: int, dx: int = 4) -> tuple[int, int]:
        """A point in the upper half of card i of column k: inserts before it."""
        r = self.card(k, i)
        return (r.x + dx, r.y)

    def lower(self, k: int, i: int, dx: int = 4) -> tuple[int, int]:
        """A point in the lower half of card i of column k (its last row): inserts after it."""
        r = self.card(k, i)
        return (r.x + dx, r.max_y - 1)

    def title_point(self, k: int, i: int, dx: int = 4) -> tuple[int, int]:
        """A point on the first title row of a card (where a user grabs it)."""
        r = self.card(k, i)
        return (r.x + dx, r.y + 1)


# --------------------------------------------------------------------------- mouse encodings

_BUTTON = {"press": 0, "drag": 32, "release": 3}


def sgr(kind: str, x: int, y: int) -> str:
    """SGR (1006) report for the left button; x, y are 0-based cells."""
    b = 32 if kind == "drag" else 0
    final = "m" if kind == "release" else "M"
    return f"\x1b[<{b};{x + 1};{y + 1}{final}"


def x10(kind: str, x: int, y: int) -> str:
    """X10/normal report (ESC [ M b x y, each byte offset by 32, positions 1-based)."""
    if not (0 <= x <= 93 and 0 <= y <= 93):
        raise ValueError("X10 positions above 93 would not be single bytes through send-keys")
    return "\x1b[M" + chr(32 + _BUTTON[kind]) + chr(33 + x) + chr(33 + y)


def urxvt(kind: str, x: int, y: int) -> str:
    """urxvt (1015) report: ESC [ b ; x ; y M with b offset by 32."""
    return f"\x1b[{32 + _BUTTON[kind]};{x + 1};{y + 1}M"


ENCODERS: dict[str, Callable[[str, int, int], str]] = {"sgr": sgr, "x10": x10, "urxvt": urxvt}


def drag_events(path: Sequence[tuple[int, int]]) -> list[tuple[str, int, int]]:
    """press at path[0], drags through path[1:], release at path[-1]."""
    if len(path) < 2:
        raise ValueError("a drag needs at least a press point and a release point")
    events = [("press", *path[0])]
    events += [("drag", x, y) for x, y in path[1:]]
    events.append(("release", *path[-1]))
    return events


def line_between(a: tuple[int, int], b: tuple[int, int], steps: int) -> list[tuple[int, int]]:
    """`steps` points from a (exclusive) to b (inclusive), like a hand moving the mouse."""
    out = []
    for s in range(1, steps + 1):
        out.append((round(a[0] + (b[0] - a[0]) * s / steps), round(a[1] + (b[1] - a[1]) * s / steps)))
    return out


# --------------------------------------------------------------------------- tmux


def watchdog() -> str:
    """A shell loop that lives as long as this test run: panes that outlive pytest end with it,
    and then the private server exits by itself (exit-empty)."""
    return f"while kill -0 {os.getpid()} 2>/dev/null; do sleep 1; done"


class Tmux:
    """A private tmux server on its own socket, configured from a file we write."""

    def __init__(self, socket: str, workdir: Path, default_terminal: str = "tmux-256color"):
        self.socket = socket
        self.conf = workdir / "tmux.conf"
        self.conf.write_text(
            "\n".join(
                [
                    "set -g default-shell /bin/sh",
                    f'set -g default-terminal "{default_terminal}"',
                    "set -g status off",  # the pane is the whole window
                    "set -g history-limit 100",
                    "set -g escape-time 0",
                    "set -g monitor-bell on",
                    "set -g bell-action any",
                    "",
                ]
            )
        )
        self.env = dict(os.environ)
        self.env["LC_ALL"] = "C.UTF-8"
        self.env.pop("TMUX", None)
        self.env.pop("TMUX_PANE", None)

    def run(self, *args: str, check: bool = True, timeout: float = 10.0) -> str:
        cmd = ["tmux", "-L", self.socket, "-f", str(self.conf), *args]
        p = subprocess.run(cmd, capture_output=True, text=True, env=self.env, timeout=timeout)
        if check and p.returncode != 0:
            raise HarnessError(f"{shlex.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
        return p.stdout

    def start_server(self) -> None:
        """Starts the server with a session that lives for the whole run, so the server never
        exits between tests (a new-session racing a server that is shutting down fails)."""
        self.run("new-session", "-d", "-s", "keeper", "-x", "20", "-y", "5", watchdog())
        self.socket_path = self.run("display-message", "-p", "-t", "keeper", "#{socket_path}").strip()

    def kill_server(self) -> None:
        try:
            self.run("kill-server", check=False)
        except Exception:
            pass
        path = getattr(self, "socket_path", "")
        if path and Path(path).name == self.socket:
            Path(path).unlink(missing_ok=True)


# --------------------------------------------------------------------------- the app


class LanesApp:
    """One `lanes` process in one detached tmux session."""

    def __init__(self, tmux: Tmux, name: str, binary: Path, workdir: Path, board_name: str,
                 term: str, width: int, height: int, args: Sequence[str] | None = None,
                 env: dict[str, str] | None = None):
        self.tmux = tmux
        self.name = name
        self.binary = binary
        self.workdir = workdir
        self.board_path = workdir / board_name
        self.board_name = board_name
        self.term = term
        self.width = width
        self.height = height
        self.args = list(args) if args is not None else [board_name]
        self.extra_env = dict(env or {})
        self.config_home = workdir.parent / (workdir.name + "-config")
        self.config_home.mkdir(exist_ok=True)
        self.started = False
        self.exit_code: int | None = None

    # ----- lifecycle

    def command(self) -> str:
        env = [
            f"TERM={self.term}",
            "LC_ALL=C.UTF-8",
            "LANG=C.UTF-8",
            f"XDG_CONFIG_HOME={self.config_home}",
            f"HOME={self.config_home}",
            *(f"{k}={v}" for k, v in self.extra_env.items()),
        ]
        run = shlex.join(["env", *env, str(self.binary), *self.args])
        # The shell stays after lanes ends, so we can read its exit status and check that the
        # terminal modes were restored.
        return f"{run}; s=$?; printf '\\n{EXIT_MARK}%s\\n' \"$s\"; {watchdog()}"

    def start(self, wait_for: str | None, timeout: float = START_TIMEOUT) -> "LanesApp":
        self.tmux.run(
            "new-session", "-d", "-s", self.name, "-x", str(self.width), "-y", str(self.height),
            "-c", str(self.workdir), self.command(),
        )
        self.started = True
        if wait_for is not None:
            self.wait_for(wait_for, timeout=timeout, what=f"the board to appear (looking for {wait_for!r})")
            # The status line (the last row) is drawn with the first frame.
            self.wait_for(lambda s: len(s) >= self.height and s[self.height - 1].strip() != "",
                          timeout=timeout, what="the status line on the last row")
        return self

    def kill(self) -> None:
        if self.started:
            self.tmux.run("kill-session", "-t", self.name, check=False)
            self.started = False

    # ----- reading the screen

    def capture(self, escapes: bool = False, joined: bool = False) -> list[str]:
        """The pane's lines; `joined`: a line the pane wrapped comes back whole (spaces at the wrap kept)."""
        args = ["capture-pane", "-p", "-t", self.name]
        if escapes:
            args.insert(1, "-e")
        if joined:
            args.insert(1, "-J")
        out = self.tmux.run(*args)
        lines = out.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        while len(lines) < self.height:
            lines.append("")
        return lines

    def screen(self) -> str:
        return "\n".join(self.capture())

    def dump(self) -> str:
        lines = self.capture()
        ruler = "    " + "".join(str(i // 10 % 10) if i % 10 == 0 else " " for i in range(self.width))
        body = "\n".join(f"{i:2d} |{line}" for i, line in enumerate(lines))
        return f"--- screen of {self.name} ({self.width}x{self.height}) ---\n{ruler}\n{body}\n--- end of screen ---"

    def cells(self, y: int) -> list[str]:
        c = to_cells(self.capture()[y])
        return c + [" "] * max(0, self.width - len(c))

    def text_at(self, x: int, y: int, n: int, lines: list[str] | None = None) -> str:
        lines = lines if lines is not None else self.capture()
        c = to_cells(lines[y])
        c += [" "] * max(0, self.width - len(c))
        return "".join(c[x:x + n])

    def status(self, lines: list[str] | None = None) -> str:
        """The status line. Read from the screen (no `lines`), a message that wrapped onto the rows
        above the last is joined back into one line; from given plain `lines`, the last row only."""
        if lines is None:
            return " ".join(row.strip() for row in self.status_rows())
        return lines[self.height - 1].strip()

    def status_rows(self) -> list[str]:
        """The rows the status takes: the last, and those above it it wrapped onto (each starts
        with a space in reverse video, as the last row does)."""
        raw = self.capture(escapes=True)
        reverse = False
        starts: list[tuple[bool, str]] = []  # per row: reverse at its first cell, its plain text
        for row in raw:
            first: bool | None = None
            plain = []
            i = 0
            while i < len(row):
                m = _SGR.match(row, i)
                if m:
                    codes = [c for c in re.split(r"[;:]", m.group(1)) if c != ""] or ["0"]
                    for c in codes:
                        if c == "0":
                            reverse = False
                        elif c == "7":
                            reverse = True
                        elif c == "27":
                            reverse = False
                    i = m.end()
                    continue
                if first is None:
                    first = reverse
                plain.append(row[i])
                i += 1
            starts.append((bool(first), "".join(plain)))
        while len(starts) < self.height:
            starts.append((False, ""))
        rows = [starts[self.height - 1][1]]
        y = self.height - 2
        while y > 0 and starts[y][0] and starts[y][1].startswith(" "):
            rows.insert(0, starts[y][1])
            y -= 1
        return rows

    def fmt(self, fmt: str) -> str:
        return self.tmux.run("display-message", "-p", "-t", self.name, fmt).strip()

    # ----- waiting

    def wait_for(self, cond: str | Callable[[list[str]], bool], timeout: float = DEFAULT_TIMEOUT,
                 what: str | None = None) -> list[str]:
        """Polls the screen until `cond` (a text anywhere, or a predicate) holds."""
        if isinstance(cond, str):
            text = cond
            pred = lambda lines: any(text in l for l in lines)  # noqa: E731
            what = what or f"{text!r} on the screen"
        else:
            pred = cond
            what = what or "the expected screen"
        deadline = time.monotonic() + timeout * SLACK
        while True:
            lines = self.capture()
            if pred(lines):
                return self.settled(lines, pred)
            if self.exited_early(lines):
                raise HarnessError(f"lanes exited while waiting for {what}\n{self.dump()}")
            if time.monotonic() > deadline:
                raise HarnessError(f"timed out after {timeout * SLACK:g}s waiting for {what}\n{self.dump()}")
            time.sleep(POLL)

    def settled(self, lines: list[str], pred: Callable[[list[str]], bool]) -> list[str]:
        """tmux may be read between two writes of one frame (the rows below half painted): once
        `pred` holds, the pane is read again until two reads agree (a few at most), and the last
        read for which `pred` still holds is what the wait returns."""
        for _ in range(5):
            again = self.capture()
            if again == lines or not pred(again):
                return lines
            lines = again
        return lines

    def wait_status(self, text: str, timeout: float = DEFAULT_TIMEOUT) -> str:
        """Waits for the status (joined when it wrapped onto more rows) to contain `text`; returns it."""
        found: list[str] = []

        def shows(_lines: list[str]) -> bool:
            found[:] = [self.status()]
            return text in found[0]
        self.wait_for(shows, timeout=timeout, what=f"status line containing {text!r}")
        return found[0]

    def exited_early(self, lines: list[str]) -> bool:
        return any(l.startswith(EXIT_MARK) for l in lines)

    # ----- input

    def send_literal(self, data: str) -> None:
        """Types `data` into the pane as it is (escape sequences included)."""
        self.tmux.run("send-keys", "-t", self.name, "-l", data)

    def send_keys(self, *keys: str) -> None:
        """tmux key names (Enter, Escape, Left, C-r, ...)."""
        self.tmux.run("send-keys", "-t", self.name, *keys)

    def mouse(self, kind: str, x: int, y: int, enc: str = "sgr") -> None:
        self.send_literal(ENCODERS[enc](kind, x, y))

    def drag(self, path: Sequence[tuple[int, int]], enc: str = "sgr", one_call: bool = False,
             pause: float = 0.02, before_release: Callable[[], None] | None = None) -> None:
        """Press at path[0], drag through path[1:], release at path[-1].

        Normally one send-keys per event with a short pause, like a hand; with
        `one_call` the whole gesture is typed in one send-keys call (one read).
        `before_release` runs after the last drag and before the release.
        """
        events = drag_events(path)
        if one_call:
            if before_release is not None:
                raise ValueError("one_call cannot stop before the release")
            self.send_literal("".join(ENCODERS[enc](*e) for e in events))
            return
        for i, e in enumerate(events):
            if e[0] == "release" and before_release is not None:
                before_release()
            self.mouse(*e, enc=enc)
            if i + 1 < len(events):
                time.sleep(pause)

    # ----- quitting and the file

    def quit(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        """Presses q and waits for the process to end; returns its exit status."""
        self.send_keys("q")
        return self.wait_exit(timeout)

    def wait_exit(self, timeout: float = DEFAULT_TIMEOUT) -> int:
        pat = re.compile(re.escape(EXIT_MARK) + r"(\d+)")
        deadline = time.monotonic() + timeout * SLACK
        while True:
            for line in self.capture():
                m = pat.search(line)
                if m:
                    self.exit_code = int(m.group(1))
                    return self.exit_code
            if time.monotonic() > deadline:
                raise HarnessError(f"lanes did not exit within {timeout * SLACK:g}s\n{self.dump()}")
            time.sleep(POLL)

    def read_file(self) -> bytes:
        return self.board_path.read_bytes()

    def wait_file(self, expected: str | bytes, timeout: float = DEFAULT_TIMEOUT, what: str = "") -> None:
        """Polls the saved file until it holds exactly `expected` (saves are immediate)."""
        want = expected.encode() if isinstance(expected, str) else expected
        deadline = time.monotonic() + timeout * SLACK
        got = b""
        while True:
            try:
                got = self.read_file()
            except FileNotFoundError:
                got = b"<missing>"
            if got == want:
                return
            if time.monotonic() > deadline:
                raise HarnessError(
                    f"the saved file is not what was expected{(' ' + what) if what else ''} "
                    f"(waited {timeout * SLACK:g}s)\n{file_diff(want, got)}\n{self.dump()}"
                )
            time.sleep(POLL)

    def assert_file(self, expected: str | bytes, what: str = "") -> None:
        want = expected.encode() if isinstance(expected, str) else expected
        got = self.read_file()
        if got != want:
            raise HarnessError(f"the saved file is not what was expected{(' ' + what) if what else ''}\n"
                               f"{file_diff(want, got)}")


def file_diff(want: bytes, got: bytes) -> str:
    a = want.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    b = got.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    diff = "".join(difflib.unified_diff([repr(x) + "\n" for x in a], [repr(x) + "\n" for x in b],
                                        "expected", "saved"))
    return diff or f"(same lines, different bytes)\nexpected={want!r}\nsaved   ={got!r}"


def stat_key(path: Path) -> tuple[int, int, int]:
    st = path.stat()
    return (st.st_ino, st.st_mtime_ns, st.st_size)


def sanitized(title: str) -> str:
    """How a title with control characters is shown: ESC as ^[, BEL as ^G (caret notation)."""
    out = []
    for ch in title:
        v = ord(ch)
        if v < 0x20:
            out.append("^" + chr(v + 0x40))
        elif v == 0x7F:
            out.append("^?")
        else:
            out.append(ch)
    return "".join(out)


def every_once(text: str, titles: Iterable[str]) -> list[str]:
    """Problems with `text` not holding each card title exactly once (empty list: fine)."""
    found = cards_of(text)
    problems = []
    for t in titles:
        n = found.count(t)
        if n != 1:
            problems.append(f"card {t!r} appears {n} times")
    extra = [t for t in found if t not in set(titles)]
    if extra:
        problems.append(f"unexpected cards {extra!r}")
    return problems
