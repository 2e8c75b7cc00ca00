"""Real terminal emulators under Xvfb, driven with a real pointer (X's XTEST, through xdotool).

The pieces:

- `XServer` starts Xvfb on a free display (:90 and up, the first whose lock file
  /tmp/.X<n>-lock is free) and says why when it cannot.
- `Emulator` describes how to start one emulator (xterm, lxterminal ...) with a fixed size in
  cells, running a command.
- `relay` (this file run as a script) is the command the emulator runs. It stands between the
  emulator's terminal and Lanes and changes nothing on the way: bytes from the emulator go to
  Lanes' pseudo-terminal as they are, and Lanes' output goes to the emulator as it is. It also
  copies that output to a *mirror*: a tmux pane of the same size that draws the same bytes,
  so a test reads the screen Lanes drew with `capture-pane` (and tmux's view of the mouse
  modes Lanes switched on) while the emulator draws it for real. Before Lanes, it measures:
  with mouse reporting on, it logs the cell of every click, so the test finds where each cell
  is in pixels from the emulator's own reports (`CellGrid.measure`), never from font
  metrics. After Lanes, it keeps reading the terminal in raw mode and records every byte, so a
  test can assert that no mouse or focus report arrives once Lanes has quit.
- `XSession` is one emulator window: the pointer (`move`, `press`, `release`, `click`), keys,
  the relay's log, and screenshots (`xwd`, parsed here) of its window.

Every wait is for a condition (a log line, the mirror's screen, a file's bytes), never a
bare sleep.
"""

from __future__ import annotations

import os
import re
import select
import shlex
import shutil
import signal
import struct
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

POLL = 0.02


class XError(AssertionError):
    """Something the X side of a test expected did not happen."""


def wait_until(pred: Callable[[], object], timeout: float, what: str, detail: Callable[[], str] = lambda: ""):
    """Polls `pred` until it returns something true; returns that."""
    deadline = time.monotonic() + timeout
    while True:
        got = pred()
        if got:
            return got
        if time.monotonic() > deadline:
            raise XError(f"timed out after {timeout}s waiting for {what}\n{detail()}")
        time.sleep(POLL)


# --------------------------------------------------------------------------- the X server


class XServer:
    """Xvfb on the first free display from :90, 1280x800x24; `why_not` says why it could not start."""

    def __init__(self, workdir: Path):
        self.workdir = workdir
        self.proc: subprocess.Popen | None = None
        self.display = ""
        self.why_not = ""

    def start(self) -> bool:
        xvfb = shutil.which("Xvfb")
        if not xvfb:
            self.why_not = "Xvfb is not installed (scripts/ensure-deps test installs xvfb)"
            return False
        for tool in ("xdotool", "xwininfo", "xwd"):
            if not shutil.which(tool):
                self.why_not = f"{tool} is not installed (scripts/ensure-deps test installs it)"
                return False
        errors = []
        for n in range(90, 130):
            if Path(f"/tmp/.X{n}-lock").exists() or Path(f"/tmp/.X11-unix/X{n}").exists():
                continue
            log = self.workdir / f"xvfb-{n}.log"
            proc = subprocess.Popen([xvfb, f":{n}", "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
                                    stdout=subprocess.DEVNULL, stderr=open(log, "wb"), start_new_session=True)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and proc.poll() is None:
                if subprocess.run(["xwininfo", "-root", "-display", f":{n}"], capture_output=True).returncode == 0:
                    self.proc, self.display = proc, f":{n}"
                    return True
                time.sleep(0.05)
            if proc.poll() is None:
                proc.kill()
            proc.wait()
            errors.append(f":{n}: {log.read_text(errors='replace').strip()[-300:]}")
            if "already active" not in errors[-1] and "Server is already" not in errors[-1]:
                break
        self.why_not = "no X server could start: " + ("; ".join(errors) or "every display :90-:129 is taken")
        return False

    def env(self) -> dict[str, str]:
        e = dict(os.environ)
        e["DISPLAY"] = self.display
        for k in ("WAYLAND_DISPLAY", "TMUX", "TMUX_PANE", "DBUS_SESSION_BUS_ADDRESS"):
            e.pop(k, None)
        e["NO_AT_BRIDGE"] = "1"  # VTE terminals: no accessibility bus to look for
        e["LC_ALL"] = "C.UTF-8"
        e["LANG"] = "C.UTF-8"
        return e

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


def xdo(env: dict[str, str], *args: str) -> str:
    p = subprocess.run(["xdotool", *args], capture_output=True, text=True, env=env, timeout=10)
    if p.returncode != 0:
        raise XError(f"xdotool {shlex.join(args)} failed ({p.returncode}): {p.stderr.strip()}")
    return p.stdout


# --------------------------------------------------------------------------- emulators


@dataclass(frozen=True)
class Emulator:
    """How to start one emulator: `argv(cols, rows, title, command, home)`; `package` is its Debian package."""

    name: str
    binary: str
    package: str
    engine: str
    argv: Callable[[int, int, str, list[str]], list[str]]
    # What the tests found and assert (the README's table is made from these):
    # when the terminal reports the focus leaving (1004) while its mouse button is down.
    focus_out_mid_drag: str = "at once"
    # whether it reports a release outside its window.
    release_outside: str = "reported"

    def available(self) -> bool:
        return shutil.which(self.binary) is not None


def _xterm(cols: int, rows: int, title: str, command: list[str]) -> list[str]:
    # A scalable font (DejaVu comes with fontconfig), so no bitmap font package is needed; the
    # rest as xterm comes (its ctrl-click menus too). The title stays ours: we find the window by it.
    return ["xterm", "-geometry", f"{cols}x{rows}+0+0", "-title", title, "-fa", "DejaVu Sans Mono", "-fs", "9",
            "-xrm", "XTerm*allowTitleOps: false",
            "-e", *command]


def _lxterminal(cols: int, rows: int, title: str, command: list[str]) -> list[str]:
    # --no-remote: its own process (not a window of another lxterminal), so ending it ends the window.
    return ["lxterminal", "--no-remote", f"--geometry={cols}x{rows}", f"--title={title}",
            "-e", shlex.join(command)]


def _kitty(cols: int, rows: int, title: str, command: list[str]) -> list[str]:
    # Its defaults (no config file), the size in cells.
    return ["kitty", "--config", "NONE", "-o", f"initial_window_width={cols}c", "-o", f"initial_window_height={rows}c",
            "-o", "remember_window_size=no", "--title", title, *command]


def _urxvt(cols: int, rows: int, title: str, command: list[str]) -> list[str]:
    return ["urxvt", "-geometry", f"{cols}x{rows}+0+0", "-title", title, "-fn", "xft:DejaVu Sans Mono:size=9",
            "-e", *command]


def _st(cols: int, rows: int, title: str, command: list[str]) -> list[str]:
    return ["st", "-g", f"{cols}x{rows}+0+0", "-t", title, "-f", "DejaVu Sans Mono:size=9", "-e", *command]


def _mlterm(cols: int, rows: int, title: str, command: list[str]) -> list[str]:
    return ["mlterm", "-g", f"{cols}x{rows}+0+0", "-T", title, "-e", *command]


def _alacritty(cols: int, rows: int, title: str, command: list[str]) -> list[str]:
    return ["alacritty", "-o", f"window.dimensions.columns={cols}", "-o", f"window.dimensions.lines={rows}",
            "--title", title, "-e", *command]


EMULATORS = {
    "xterm": Emulator("xterm", "xterm", "xterm", "xterm", _xterm),
    "lxterminal": Emulator("lxterminal", "lxterminal", "lxterminal", "VTE", _lxterminal, focus_out_mid_drag="when the focus returns"),
    "kitty": Emulator("kitty", "kitty", "kitty", "kitty", _kitty,
                      release_outside="not reported: the motion back in ends it"),
    "urxvt": Emulator("urxvt", "urxvt", "rxvt-unicode", "rxvt", _urxvt),
    "st": Emulator("st", "st", "stterm", "st", _st),
    "mlterm": Emulator("mlterm", "mlterm", "mlterm", "mlterm", _mlterm),
    "alacritty": Emulator("alacritty", "alacritty", "alacritty", "alacritty", _alacritty),
}


# What every emulator in EMULATORS does in test_real_terminals.py (each test asserts its column
# for each emulator; a column that differs between emulators is a field of Emulator).
TABLE_COLUMNS = [
    ("drag across columns, reorder, click", lambda e: "yes"),
    ("release on the last row", lambda e: "snaps back"),
    ("release outside the window", lambda e: f"snaps back ({e.release_outside})"),
    ("window loses focus mid-drag", lambda e: f"snaps back {e.focus_out_mid_drag}"),
    ("alt-click marks", lambda e: "yes"),
    ("mark box (no modifier)", lambda e: "yes"),
    ("ghost drawn (screenshot)", lambda e: "yes"),
    ("no reports after quitting", lambda e: "yes"),
]


def emulator_table() -> str:
    """The README's table of the emulators the suite drives (a test keeps the README equal to it)."""
    head = ["emulator (Debian package)", "engine"] + [c for c, _ in TABLE_COLUMNS]
    rows = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for e in EMULATORS.values():
        rows.append("| " + " | ".join([f"{e.name} (`{e.package}`)", e.engine] + [f(e) for _, f in TABLE_COLUMNS]) + " |")
    return "\n".join(rows) + "\n"


# --------------------------------------------------------------------------- screenshots


@dataclass
class Shot:
    """A screenshot: `pixel(x, y)` is (r, g, b) at window pixel x, y."""

    width: int
    height: int
    data: bytes
    bpp: int
    stride: int
    big_endian: bool
    masks: tuple[int, int, int]

    def pixel(self, x: int, y: int) -> tuple[int, int, int]:
        n = self.bpp // 8
        off = y * self.stride + x * n
        v = int.from_bytes(self.data[off:off + n], "big" if self.big_endian else "little")
        out = []
        for m in self.masks:
            shift = (m & -m).bit_length() - 1
            out.append((v & m) >> shift)
        return tuple(out)  # type: ignore[return-value]

    def region(self, x0: int, y0: int, x1: int, y1: int) -> list[tuple[int, int, int]]:
        return [self.pixel(x, y) for y in range(max(0, y0), min(self.height, y1))
                for x in range(max(0, x0), min(self.width, x1))]


def parse_xwd(raw: bytes) -> Shot:
    """An XWD file (as `xwd` writes it: ZPixmap, 24/32 bits per pixel)."""
    fields = struct.unpack(">25I", raw[:100])
    header_size, _version, fmt, _depth, width, height = fields[:6]
    byte_order, bpp, stride = fields[7], fields[11], fields[12]
    masks = (fields[14], fields[15], fields[16])
    ncolors = fields[19]
    if fmt != 2 or bpp not in (24, 32):
        raise XError(f"unexpected XWD image: format {fmt}, {bpp} bits per pixel")
    start = header_size + ncolors * 12
    return Shot(width, height, raw[start:start + stride * height], bpp, stride, byte_order == 1, masks)


# --------------------------------------------------------------------------- the cell grid


@dataclass(frozen=True)
class CellGrid:
    """Where the emulator's cells are, in window pixels: cell (c, r) spans
    [x0 + c*cw, x0 + (c+1)*cw) x [y0 + r*ch, y0 + (r+1)*ch)."""

    x0: float
    y0: float
    cw: float
    ch: float
    cols: int
    rows: int

    def center(self, c: int, r: int) -> tuple[int, int]:
        return (int(self.x0 + (c + 0.5) * self.cw), int(self.y0 + (r + 0.5) * self.ch))

    def box(self, c: int, r: int, w: int = 1, h: int = 1) -> tuple[int, int, int, int]:
        """Pixel rectangle (x0, y0, x1, y1) of w x h cells, one pixel inside each edge."""
        return (int(self.x0 + c * self.cw) + 1, int(self.y0 + r * self.ch) + 1,
                int(self.x0 + (c + w) * self.cw) - 1, int(self.y0 + (r + h) * self.ch) - 1)

    @staticmethod
    def measure(cells_at: Callable[[list[tuple[int, int]]], list[tuple[int, int]]], size: tuple[int, int],
                inside: tuple[int, int, int, int], window: tuple[int, int]) -> "CellGrid":
        """Finds the grid from the cells the emulator reports for clicks at chosen pixels.

        `cells_at(points)` clicks at each pixel in turn and returns the (col, row) the terminal
        reported for each. `inside` (x0, y0, x1, y1) is a pixel area surely within the text area
        (the middle of the window: menus, tabs and scroll bars lie outside it); every click stays
        in it. On each axis, a sweep pixel by pixel near each end of the area finds a cell
        boundary exactly; the grid is uniform between the two. A sweep spans more than a cell:
        the window's size over its cells (a cell is never larger) and two pixels.
        """
        cols, rows = size
        x0, y0, x1, y1 = inside
        cx, cy = (x0 + x1) // 2, (y0 + y1) // 2

        def boundary(axis: int, first: int) -> tuple[int, int]:
            """The first pixel from `first` on where the cell changes, and that cell."""
            span = -(-window[axis] // size[axis]) + 2
            pixels = list(range(first, first + span))
            cells = cells_at([(p, cy) if axis == 0 else (cx, p) for p in pixels])
            for p, prev, cur in zip(pixels[1:], cells, cells[1:]):
                if cur[axis] != prev[axis]:
                    return p, cur[axis]
            raise XError(f"no cell boundary within {span} pixels from {first} on axis {axis}: {cells}")

        def axis_grid(axis: int, a: int, b: int) -> tuple[float, float]:
            pa, ta = boundary(axis, a)
            pb, tb = boundary(axis, b - (-(-window[axis] // size[axis]) + 2))
            if tb - ta < 4:
                raise XError(f"the measuring area spans only cells {ta}..{tb} on axis {axis}")
            step = (pb - pa) / (tb - ta)
            return pa - ta * step, step

        gx, cw = axis_grid(0, x0, x1)
        gy, ch = axis_grid(1, y0, y1)
        return CellGrid(gx, gy, cw, ch, cols, rows)


# --------------------------------------------------------------------------- one window


class XSession:
    """One emulator window under the X server, running the relay (and Lanes inside it)."""

    def __init__(self, server: XServer, emulator: Emulator, workdir: Path, command: list[str],
                 cols: int, rows: int, mirror_tty: str, probe: bool):
        self.server = server
        self.env = server.env()
        self.emulator = emulator
        self.workdir = workdir
        self.cols, self.rows = cols, rows
        self.log = workdir / "relay.log"
        self.sink = workdir / "after-quit.bytes"
        self.title = f"lanes-x-{os.getpid()}-{workdir.name}"
        home = workdir / "home"
        home.mkdir(exist_ok=True)
        self.env["HOME"] = str(home)
        self.env["XDG_CONFIG_HOME"] = str(home / ".config")
        self.env["XDG_RUNTIME_DIR"] = str(home)
        relay = [sys.executable, str(Path(__file__).resolve()), "relay", "--log", str(self.log),
                 "--sink", str(self.sink), "--mirror", mirror_tty] + (["--probe"] if probe else []) + ["--", *command]
        self.proc = subprocess.Popen(emulator.argv(cols, rows, self.title, relay), env=self.env, cwd=workdir,
                                     stdout=open(workdir / "emulator.out", "wb"), stderr=subprocess.STDOUT,
                                     start_new_session=True)
        self.pointer = xdo(self.env, "getmouselocation", "--shell")
        self.pointer = tuple(int(l.split("=")[1]) for l in self.pointer.splitlines()[:2])
        self.window = wait_until(self._find_window, 15, f"the {emulator.name} window", self.describe)
        self.geometry = self._geometry()

    def _find_window(self) -> str | None:
        if self.proc.poll() is not None:
            raise XError(f"{self.emulator.name} exited with {self.proc.returncode}\n{self.describe()}")
        p = subprocess.run(["xdotool", "search", "--onlyvisible", "--name", "^" + self.title + "$"],
                           capture_output=True, text=True, env=self.env)
        ids = p.stdout.split()
        return ids[0] if ids else None

    def _geometry(self) -> tuple[int, int, int, int]:
        """(x, y, width, height) of the window on the screen."""
        out = subprocess.run(["xwininfo", "-id", self.window], capture_output=True, text=True, env=self.env).stdout
        vals = {}
        for line in out.splitlines():
            k, _, v = line.strip().partition(":")
            vals[k] = v.strip()
        return (int(vals["Absolute upper-left X"]), int(vals["Absolute upper-left Y"]),
                int(vals["Width"]), int(vals["Height"]))

    def describe(self) -> str:
        parts = []
        for f in (self.workdir / "emulator.out", self.log):
            if f.exists():
                parts.append(f"--- {f.name} ---\n{f.read_text(errors='replace')[-2000:]}")
        return "\n".join(parts)

    # ----- the relay's log

    def log_lines(self) -> list[str]:
        try:
            return self.log.read_text().splitlines()
        except FileNotFoundError:
            return []

    def wait_log(self, prefix: str, count: int = 1, timeout: float = 10) -> list[str]:
        """Waits until `count` log lines start with `prefix`; returns them."""
        def found():
            hits = [l for l in self.log_lines() if l.startswith(prefix)]
            return hits if len(hits) >= count else None
        return wait_until(found, timeout, f"{count} relay log line(s) starting {prefix!r}", self.describe)

    # ----- pointer and keys (XTEST: as a person's mouse and keyboard)

    def abs(self, px: int, py: int) -> tuple[int, int]:
        return (self.geometry[0] + px, self.geometry[1] + py)

    def _goto(self, px: int, py: int) -> list[str]:
        """The xdotool words that move the pointer to window pixel (px, py) and wait until it is
        there (`--sync` would wait forever for a move to where the pointer already is)."""
        x, y = self.abs(px, py)
        if (x, y) == self.pointer:
            return []
        self.pointer = (x, y)
        return ["mousemove", "--sync", str(x), str(y)]

    def move(self, px: int, py: int) -> None:
        """Moves the pointer to window pixel (px, py) (may be outside the window)."""
        words = self._goto(px, py)
        if words:
            xdo(self.env, *words)

    def press(self) -> None:
        xdo(self.env, "mousedown", "1")

    def release(self) -> None:
        xdo(self.env, "mouseup", "1")

    def click_pixel(self, px: int, py: int, modifier: str | None = None) -> None:
        words = self._goto(px, py)
        if modifier:
            xdo(self.env, *words, "keydown", modifier, "click", "1", "keyup", modifier)
        else:
            xdo(self.env, *words, "click", "1")

    def click_many(self, points: list[tuple[int, int]]) -> None:
        """Clicks at each window pixel in turn, in one go (XTEST keeps their order)."""
        words: list[str] = []
        for px, py in points:
            x, y = self.abs(px, py)
            words += ["mousemove", str(x), str(y), "click", "--delay", "0", "1"]
        self.pointer = self.abs(*points[-1])
        xdo(self.env, *words)

    def key_up_all(self) -> None:
        """Lets go of the pointer's first button and the modifier keys (harmless when they are up)."""
        xdo(self.env, "mouseup", "1", "keyup", "alt", "keyup", "ctrl")

    def key(self, *keys: str) -> None:
        xdo(self.env, "key", "--clearmodifiers", *keys)

    def focus(self, window: str) -> None:
        xdo(self.env, "windowfocus", "--sync", window)

    def root(self) -> str:
        out = subprocess.run(["xwininfo", "-root"], capture_output=True, text=True, env=self.env).stdout
        return out.split("Window id:")[1].split()[0]

    def screenshot(self) -> Shot:
        raw = subprocess.run(["xwd", "-silent", "-id", self.window], capture_output=True, env=self.env,
                             timeout=10).stdout
        return parse_xwd(raw)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()


# --------------------------------------------------------------------------- the relay (runs in the emulator)


def _parse_sgr(buf: bytes) -> tuple[list[tuple[int, int, int, bool]], bytes, bool]:
    """SGR reports in `buf`: (code, col, row, press) each 0-based; the unparsed rest; whether a 'Z' key came."""
    out = []
    z = False
    i = 0
    while i < len(buf):
        if buf[i] == 0x1B:
            end = -1
            for j in range(i + 1, len(buf)):
                if buf[j] in b"Mm":
                    end = j
                    break
            if end < 0:
                return out, buf[i:], z
            body = buf[i + 3:end].decode("ascii", "replace")
            try:
                code, col, row = (int(v) for v in body.split(";"))
                out.append((code, col - 1, row - 1, buf[end] == ord("M")))
            except ValueError:
                pass
            i = end + 1
        else:
            if buf[i] == ord("Z"):
                z = True
            i += 1
    return out, b"", z


def relay_main(argv: list[str]) -> int:
    import fcntl
    import pty
    import termios
    import tty

    args = {"--probe": False}
    i = 0
    while i < len(argv):
        a = argv[i]
        if a == "--":
            command = argv[i + 1:]
            break
        if a == "--probe":
            args[a] = True
            i += 1
            continue
        args[a] = argv[i + 1]
        i += 2
    log = open(args["--log"], "a", buffering=1)
    stdin, stdout = 0, 1
    winsize = fcntl.ioctl(stdin, termios.TIOCGWINSZ, b"\0" * 8)
    rows, cols = struct.unpack("HHHH", winsize)[:2]
    saved = termios.tcgetattr(stdin)
    tty.setraw(stdin)
    log.write(f"READY {cols} {rows}\n")

    if args["--probe"]:
        # A cursor-position request after the modes: the emulator answers it only once it has read
        # them, so a click sent after PROBING is surely reported (before, a click could come first).
        os.write(stdout, b"\x1b[?1000h\x1b[?1006h\x1b[6n")
        rest = b""
        while not re.search(rb"\x1b\[\d+;\d+R", rest):
            rest += os.read(stdin, 4096)
        rest = re.sub(rb"\x1b\[\d+;\d+R", b"", rest, count=1)
        log.write("PROBING\n")
        while True:
            rest += os.read(stdin, 4096)
            reports, rest, z = _parse_sgr(rest)
            for code, col, row, press in reports:
                if press and code == 0:
                    log.write(f"CLICK {col} {row}\n")
            if z:
                break
        os.write(stdout, b"\x1b[?1006l\x1b[?1000l")
        log.write("PROBE-DONE\n")

    mirror = os.open(args["--mirror"], os.O_WRONLY | os.O_NOCTTY)
    pid, master = pty.fork()
    if pid == 0:
        os.execvp(command[0], command)
    fcntl.ioctl(master, termios.TIOCSWINSZ, winsize)
    log.write(f"LANES-START {pid}\n")

    def resized(_sig, _frame):
        # The window changed size: Lanes' terminal takes the emulator's new size (and so gets its SIGWINCH).
        size = fcntl.ioctl(stdin, termios.TIOCGWINSZ, b"\0" * 8)
        fcntl.ioctl(master, termios.TIOCSWINSZ, size)
        r, c = struct.unpack("HHHH", size)[:2]
        log.write(f"WINCH {c} {r}\n")
    signal.signal(signal.SIGWINCH, resized)
    status = None
    while status is None:
        try:
            ready, _, _ = select.select([stdin, master], [], [])
        except InterruptedError:
            continue
        if stdin in ready:
            data = os.read(stdin, 4096)
            log.write(f"IN {data!r}\n")
            os.write(master, data)
        if master in ready:
            try:
                data = os.read(master, 65536)
            except OSError:
                data = b""
            if data:
                os.write(stdout, data)
                os.write(mirror, data)
            else:
                _, status = os.waitpid(pid, 0)
    log.write(f"LANES-EXIT {os.waitstatus_to_exitcode(status)}\n")

    # The emulator reads what Lanes wrote on its own schedule (VTE lags under load): ask where its
    # cursor is (CSI 6n, which every driven emulator answers; st ignores CSI 5n) and wait for the
    # answer, which comes only after every earlier byte, the modes switched off among them, has
    # been processed. What arrived before it was sent while Lanes ran, before the test's clicks.
    os.write(stdout, b"\x1b[6n")
    pending = b""
    answer = re.compile(rb"\x1b\[\d+;\d+R")
    deadline = time.monotonic() + 5
    while not answer.search(pending) and time.monotonic() < deadline:
        ready, _, _ = select.select([stdin], [], [], 0.2)
        if ready:
            pending += os.read(stdin, 4096)
    synced = answer.search(pending) is not None
    log.write(f"SYNCED {synced} {pending!r}\n")

    # After Lanes: every byte the terminal sends is recorded until a 'Z'.
    with open(args["--sink"], "wb", buffering=0) as sink:
        log.write("SINK\n")
        while True:
            data = os.read(stdin, 4096)
            sink.write(data)
            if b"Z" in data:
                break
    log.write("SINK-DONE\n")
    termios.tcsetattr(stdin, termios.TCSANOW, saved)
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "relay":
        sys.exit(relay_main(sys.argv[2:]))
    print("usage: xharness.py relay --log FILE --sink FILE --mirror TTY [--probe] -- COMMAND...", file=sys.stderr)
    sys.exit(2)
