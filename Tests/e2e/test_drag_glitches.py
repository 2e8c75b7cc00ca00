"""Drag glitches (#25 point 8): the drop marker never hides the ghost's text; after a resize mid-drag
every card's `≡` and mark are drawn once; marks stay after a drop that carried them."""

from __future__ import annotations

import re
import time

from checks import quit_and_check
from lanes_harness import line_between

BOARD = """## To do

- first card with a long title that wraps
    > a description
- second
    > more
- third

## Doing

- b0
    > d

## Done

- c0
"""
DESCRIBED = 3  # first, second, b0


def move(app, path):
    for p in path:
        app.mouse("drag", *p)
        time.sleep(0.03)


def test_the_marker_never_paints_over_the_ghosts_title(lanes):
    app = lanes(BOARD, wait_for="second", width=100, height=30)
    app.mouse("press", 4, 4)
    move(app, [(10, 4), (20, 5), (30, 5), (40, 5), (40, 6)])
    app.wait_status("Over Doing, position 2 of 2")
    lines = app.capture()
    # The ghost's rows, from its left border to its right one, are the card's text and spaces only.
    ghost_rows = [m.group(0) for l in lines for m in [re.search(r"│ (first card with a long title|that wraps|≡)[^│]*│", l)] if m]
    ghost_rows = [r for r in ghost_rows if "that wraps" in r or "first card" in r]
    assert len(ghost_rows) == 2, app.dump()
    for row in ghost_rows:
        assert "◀" not in row and "▶" not in row and "━" not in row, f"the marker is over the ghost: {row!r}\n{app.dump()}"
    # The marker still shows where the card lands: its left end beside the ghost.
    assert any("▶" in l for l in lines), app.dump()
    app.mouse("release", 40, 6)
    app.wait_status("Dropped")
    app.send_keys("u")
    app.wait_file(BOARD)
    app.quit()


def test_marks_and_descriptions_are_drawn_once_after_a_resize_mid_drag_and_marks_stay_after_the_drop(lanes):
    app = lanes(BOARD, wait_for="second", width=100, height=30)
    app.send_keys("v", "j", "v")
    app.wait_status("2 cards marked")
    assert "".join(app.capture()).count("●") == 2, app.dump()
    # Drag "second" (with "first", marked) over the empty part of Doing.
    app.mouse("press", 4, 9)
    move(app, line_between((4, 9), (40, 16), 6))
    app.wait_status("2 cards over Doing")
    app.tmux.run("resize-window", "-t", app.name, "-x", "60", "-y", "20")
    app.wait_for(lambda l: app.fmt("#{pane_width}x#{pane_height}") == "60x20", what="the pane at 60x20")
    app.width, app.height = 60, 20
    move(app, [(40, 15), (41, 16)])
    app.wait_status("2 cards over Doing")
    screen = "".join(app.capture())
    # The grabbed card's `≡` is on the ghost (its slot is empty), the other marked one in place.
    assert screen.count("≡") == DESCRIBED, app.dump()
    app.mouse("release", 41, 16)
    app.wait_status("Dropped 2 cards in Doing")
    app.wait_for(lambda l: "".join(l).count("●") == 2, what="both marks still shown after the drop")
    screen = "".join(app.capture())
    assert screen.count("≡") == DESCRIBED, app.dump()
    app.send_keys("Escape")
    app.wait_status("Marks cleared")
    assert "".join(app.capture()).count("●") == 0, app.dump()
    after = BOARD.replace("- first card with a long title that wraps\n    > a description\n- second\n    > more\n", "")
    after = after.replace("- b0\n    > d\n", "- b0\n    > d\n- first card with a long title that wraps\n    > a description\n- second\n    > more\n")
    quit_and_check(app, after)
