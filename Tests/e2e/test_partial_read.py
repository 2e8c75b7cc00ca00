"""A board rewritten in place by another program (truncate, then write in pieces, as many
editors do) is never shown half-read: the screen keeps the whole board until the new one is complete."""

from __future__ import annotations

import time

import pytest


def board(version: int) -> bytes:
    lines = ["## Alpha", ""]
    lines += [f"- first v{version}"] + [f"- card a{k}" for k in range(1, 5000)]
    lines += ["", "## Beta", ""]
    lines += [f"- card b{k}" for k in range(5000)]
    return ("\n".join(lines) + "\n").encode()


# Lanes reads a file changed in place only once it has been left alone for its quiet period
# (FileBoardStore, 0.1 s): a screen captured later than that after the writer's last write may rightly
# show what the file held then (an empty or half file that stayed so for longer is what the writer
# left). A screen is judged only when its capture ended within half that: the file's time stamp is the
# kernel's coarse clock (a few ms behind), and a capture shows the screen of a moment before it ends.
QUIET = 0.05


def test_a_board_rewritten_in_place_200_times_is_never_shown_partial(lanes):
    app = lanes(board(0), wait_for="first v0", width=100, height=30)
    app.wait_for(lambda s: "Alpha 5000" in s[1] and "Beta 5000" in s[1], what="both column counts")
    bad: list[str] = []
    judged = 0

    def look(when: str, written: float | None) -> None:
        """Judges the screen against a file last written at `written` (None: the file is whole)."""
        nonlocal judged
        screen = app.capture()
        if written is not None:
            if time.monotonic() - written >= QUIET:
                return  # captured too late to judge (a busy machine): the file had been quiet that long
            judged += 1
        header = screen[1] if len(screen) > 1 else ""
        status = screen[-1] if screen else ""
        if "Alpha 5000" not in header or "Beta 5000" not in header or "cannot be read" in status:
            bad.append(f"{when}: header {header.strip()!r}, status {status.strip()!r}")

    for i in range(1, 201):
        data = board(i % 2)
        with open(app.board_path, "r+b") as f:
            f.truncate(0)
            f.flush()
            look(f"rewrite {i}, after the truncate", time.monotonic())
            half = len(data) // 2
            f.write(data[:half])
            f.flush()
            written = time.monotonic()
            time.sleep(0.005)  # pacing the writer, as an editor writing in pieces does
            look(f"rewrite {i}, half written", written)
            f.write(data[half:])
        time.sleep(0.01)
        look(f"rewrite {i}, written", None)
    assert not bad, "\n".join(bad[:10]) + f"\n({len(bad)} partial screens; {judged} of 400 mid-write screens judged)\n{app.dump()}"
    if judged < 40:
        pytest.skip(f"only {judged} of 400 mid-write screens were captured within {QUIET} s of a write (the machine is too "
                    "busy to watch a rewrite in place); none of them was partial")
    # The last version (200 is even: v0) is what the screen settles on.
    app.wait_for("first v0", what="the last version")
    app.wait_for(lambda s: "Alpha 5000" in s[1] and "Beta 5000" in s[1], what="both column counts")
    assert app.quit() == 0
    assert app.board_path.read_bytes() == board(0)
