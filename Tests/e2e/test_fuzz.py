"""Seeded fuzz: a megabyte of random input into the real binary as the terminal's own process.

Lanes runs as a session leader with a pseudo-terminal as its controlling terminal (as under
`tmux new lanes` or `xterm -e lanes`), so nothing but Lanes itself decides what a byte does:
with ISIG on, 0x1A, 0x1C and 0x03 would be signals. The input mixes random bytes (NUL, 0x1A,
0x1C and 0x03 on purpose), bracketed pastes (some never closed, some holding ESC[201~ pieces),
mouse drags over the board and navigation keys.

What is checked, honestly: the process stays alive through every chunk; SIGTERM at the end
saves and exits 0; the termios are exactly what they were before Lanes started; after the last
time the output stream enters the alternate screen, mouse tracking, focus reports or bracketed
paste, it leaves each of them; `lanes show` reads the board; and the multiset of card titles
is unchanged. The last holds because the config unbinds every key that creates, deletes or
retitles a card (a, O, e, E, d, #, D) and the keys that quit (q, Ctrl-C): random bytes can
still move cards (keys and drags), reorder, add and rename columns, set limits, due dates and
accept rules, undo and redo, filter and open help. Ctrl-Z stays bound: as a session leader
with no shell to continue it, Lanes refuses to stop and says so.
"""

from __future__ import annotations

import fcntl
import os
import random
import signal
import subprocess
import termios
import time
from pathlib import Path

import pytest

from lanes_harness import board_md, cards_of, find_binary

COLUMNS = [("To do", [f"t{i}" for i in range(12)]), ("Doing", [f"d{i}" for i in range(6)]),
           ("Review", ["r0", "r1"]), ("Done", [f"x{i}" for i in range(5)])]
UNBOUND = ["a", "O", "e", "E", "d", "#", "D", "q", "ctrl-c"]
TOTAL = 1 << 20
KEYS = [b"h", b"j", b"k", b"l", b"H", b"J", b"K", b"L", b" ", b"\r", b"\x1b", b"g", b"G", b"[", b"]",
        b"u", b"\x12", b"/", b"?", b"<", b">", b"W", b"F", b"@", b"A", b"R", b"x", b"t",
        b"\x1b[A", b"\x1b[B", b"\x1b[C", b"\x1b[D", b"\x1b[5~", b"\x1b[6~", b"\x1a", b"\x1c", b"\x03", b"\x00"]


def chunk(rng: random.Random) -> bytes:
    kind = rng.random()
    if kind < 0.35:
        return bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 2048)))
    if kind < 0.50:
        body = bytes(rng.getrandbits(8) for _ in range(rng.choice([5, 200, 4000, 30000])))
        if rng.random() < 0.2:
            body = body[: len(body) // 2] + b"\x1b[201" + body[len(body) // 2:]  # a cut end marker inside
        end = b"" if rng.random() < 0.1 else b"\x1b[201~"
        return b"\x1b[200~" + body + end
    if kind < 0.70:
        x0, y0 = rng.randint(1, 100), rng.randint(1, 30)
        out = f"\x1b[<0;{x0};{y0}M".encode()
        for _ in range(rng.randint(1, 12)):
            x0 = max(1, min(100, x0 + rng.randint(-9, 9)))
            y0 = max(1, min(30, y0 + rng.randint(-4, 4)))
            out += f"\x1b[<32;{x0};{y0}M".encode()
        return out + f"\x1b[<0;{x0};{y0}m".encode()
    return b"".join(rng.choice(KEYS) for _ in range(rng.randint(1, 40)))


def drain(fd: int, sink: bytearray) -> None:
    while True:
        try:
            data = os.read(fd, 1 << 16)
        except BlockingIOError:
            return
        except OSError:  # EIO: the slave side has closed
            return
        if not data:
            return
        sink += data


def last_left(stream: bytes, on: bytes, off: bytes) -> bool:
    """After the last `on` in the stream, an `off` follows (or `on` never appeared)."""
    i = stream.rfind(on)
    return i < 0 or stream.find(off, i) >= 0


# How long a megabyte may take before the test calls Lanes hung (a debug build on a loaded machine
# takes tens of seconds; a hang takes forever).
HANG = 600


@pytest.mark.parametrize("seed", [1717, 4242])
def test_random_megabyte_as_the_terminals_own_process(tmp_path, seed):
    binary = find_binary()
    board = tmp_path / "board.md"
    board.write_text(board_md(COLUMNS))
    config = tmp_path / "config" / "lanes"
    config.mkdir(parents=True)
    (config / "config").write_text("".join(f"unbind {k}\n" for k in UNBOUND))

    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, bytes([30, 0, 100, 0, 0, 0, 0, 0]))
    before = termios.tcgetattr(slave)
    env = dict(os.environ, TERM="xterm-256color", LC_ALL="C.UTF-8", HOME=str(tmp_path),
               XDG_CONFIG_HOME=str(tmp_path / "config"), EDITOR="true", VISUAL="true")

    def controlling_terminal():
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen([str(binary), "board.md"], cwd=tmp_path, env=env, stdin=slave, stdout=slave,
                            stderr=slave, start_new_session=True, preexec_fn=controlling_terminal)
    os.set_blocking(master, False)
    out = bytearray()
    rng = random.Random(seed)
    started = time.monotonic()
    try:
        deadline = time.monotonic() + 60
        while b"t0" not in out:
            assert time.monotonic() < deadline, f"no board drawn: {bytes(out[-500:])!r}"
            drain(master, out)
            time.sleep(0.02)
        sent = 0
        while sent < TOTAL:
            data = chunk(rng)
            view = memoryview(data)
            while view:
                try:
                    n = os.write(master, view)
                    view = view[n:]
                    sent += n
                except BlockingIOError:
                    drain(master, out)
                    assert proc.poll() is None, f"lanes died (status {proc.returncode}) after {sent} bytes"
                    time.sleep(0.002)
            drain(master, out)
            assert proc.poll() is None, f"lanes died (status {proc.returncode}) after {sent} bytes (seed {seed})"
            # A hang guard, not a speed: how fast Lanes eats input is `make bench`'s to say.
            assert time.monotonic() - started < HANG, f"only {sent} bytes in {HANG} s: lanes stopped reading (seed {seed})"
        # Close any paste, leave any prompt, help or lift; then the save-and-leave signal.
        for tail in (b"\x1b[201~", b"\x1b", b"\x1b"):
            os.write(master, tail)
            time.sleep(0.15)
            drain(master, out)
        assert proc.poll() is None, f"lanes died (status {proc.returncode}) at the end (seed {seed})"
        proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + 60
        while proc.poll() is None and time.monotonic() < deadline:
            drain(master, out)
            time.sleep(0.02)
        drain(master, out)
        assert proc.returncode == 0, f"lanes ended with status {proc.returncode} after SIGTERM (seed {seed})"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    elapsed = time.monotonic() - started
    after = termios.tcgetattr(slave)
    os.close(slave)
    os.close(master)
    moved = board.read_text() != board_md(COLUMNS)
    print(f"seed {seed}: {TOTAL} bytes in {elapsed:.1f} s, {len(out)} bytes of output, board changed: {moved}")

    assert after == before, f"termios not restored: {before} → {after}"
    stream = bytes(out)
    for mode in (b"1049", b"1000", b"1002", b"1006", b"1004", b"2004"):
        assert last_left(stream, b"\x1b[?" + mode + b"h", b"\x1b[?" + mode + b"l"), f"mode {mode.decode()} left on"

    shown = subprocess.run([str(binary), "show", "board.md"], cwd=tmp_path, capture_output=True, timeout=30)
    assert shown.returncode == 0, shown.stderr
    want = sorted(t for _, cards in COLUMNS for t in cards)
    assert sorted(cards_of(board.read_text())) == want
