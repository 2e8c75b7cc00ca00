"""A board rewritten in place by another program (truncate, then write in pieces, as many
editors do) is never shown half-read: the screen keeps the whole board until the new one is complete."""

from __future__ import annotations

import time


def board(version: int) -> bytes:
    lines = ["## Alpha", ""]
    lines += [f"- first v{version}"] + [f"- card a{k}" for k in range(1, 5000)]
    lines += ["", "## Beta", ""]
    lines += [f"- card b{k}" for k in range(5000)]
    return ("\n".join(lines) + "\n").encode()


def test_a_board_rewritten_in_place_200_times_is_never_shown_partial(lanes):
    app = lanes(board(0), wait_for="first v0", width=100, height=30)
    app.wait_for(lambda s: "Alpha 5000" in s[1] and "Beta 5000" in s[1], what="both column counts")
    bad: list[str] = []

    def look(when: str) -> None:
        screen = app.capture()
        header = screen[1] if len(screen) > 1 else ""
        status = screen[-1] if screen else ""
        if "Alpha 5000" not in header or "Beta 5000" not in header or "cannot be read" in status:
            bad.append(f"{when}: header {header.strip()!r}, status {status.strip()!r}")

    for i in range(1, 201):
        data = board(i % 2)
        with open(app.board_path, "r+b") as f:
            f.truncate(0)
            f.flush()
            look(f"rewrite {i}, after the truncate")
            half = len(data) // 2
            f.write(data[:half])
            f.flush()
            time.sleep(0.005)
            look(f"rewrite {i}, half written")
            f.write(data[half:])
        time.sleep(0.01)
        look(f"rewrite {i}, written")
    assert not bad, "\n".join(bad[:10]) + f"\n({len(bad)} partial screens)\n{app.dump()}"
    # The last version (200 is even: v0) is what the screen settles on.
    app.wait_for("first v0", what="the last version")
    app.wait_for(lambda s: "Alpha 5000" in s[1] and "Beta 5000" in s[1], what="both column counts")
    assert app.quit() == 0
    assert app.board_path.read_bytes() == board(0)
