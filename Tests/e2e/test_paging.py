"""Big boards in small terminals: dwell at the edge flips pages mid-drag; a held card scrolls a long column."""

from __future__ import annotations

import time

from checks import quit_and_check
from lanes_harness import board_md


EIGHT = [(f"C{k}", [f"c{k}a", f"c{k}b"]) for k in range(8)]


def test_drag_from_page_one_to_a_column_on_page_two_by_resting_at_the_edge(lanes):
    # 80×24: three 26-cell columns a page (x 0, 27, 54); eight columns make three pages.
    app = lanes(board_md(EIGHT), wait_for="c2b", width=80, height=24)
    assert "◀ page 1/3 ▶" in app.capture()[0], app.dump()
    app.mouse("press", 5, 4)
    for x in range(8, 80, 6):
        app.mouse("drag", x, 4)
    app.mouse("drag", 79, 4)
    # Resting at the right edge flips to page 2 (C3, C4, C5) while the card is still held.
    app.wait_for(lambda l: "◀ page 2/3 ▶" in l[0], what="page 2 after resting at the edge")
    # Move onto C4 (x 27–52), below its last card, and let go.
    app.mouse("drag", 60, 8)
    app.mouse("drag", 35, 9)
    app.wait_status("Over C4, position 3 of 3")
    app.mouse("release", 35, 9)
    app.wait_status("Dropped “c0a” in C4 at position 3")
    after = [("C0", ["c0b"])] + EIGHT[1:4] + [("C4", ["c4a", "c4b", "c0a"])] + EIGHT[5:]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_holding_a_card_at_the_bottom_of_a_long_column_scrolls_it(lanes):
    long = [("Long", [f"k{i:03d}" for i in range(200)]), ("Other", ["mover"])]
    app = lanes(board_md(long), wait_for="mover", width=80, height=24)
    # Two columns share 80 cells: Long at x 0–38, Other at x 40–78.
    app.mouse("press", 45, 4)
    app.mouse("drag", 30, 10)
    app.mouse("drag", 20, 22)
    # Held at the bottom edge, Long scrolls under the card; the marker's position grows.
    app.wait_for(lambda l: "▲ more" in l[2], what="the column to scroll")
    app.wait_for(lambda l: "position 2" in l[-1] and "of 201" in l[-1] and int(l[-1].split("position ")[1].split(" ")[0]) > 20,
                 timeout=8, what="the marker well below the first screen")
    # Away from the edge the scrolling stops; wait until the status line settles.
    app.mouse("drag", 20, 12)
    previous = None
    for _ in range(50):
        time.sleep(0.2)
        status = app.status()
        if status == previous and status.startswith("Over Long, position "):
            break
        previous = status
    assert status.startswith("Over Long, position "), app.dump()
    pos = int(status.split("position ")[1].split(" ")[0])
    app.mouse("release", 20, 12)
    app.wait_status(f"Dropped “mover” in Long at position {pos}")
    cards = [f"k{i:03d}" for i in range(200)]
    cards.insert(pos - 1, "mover")
    after = [("Long", cards), ("Other", [])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


# The "done when": a 10-column board in 80×24, a card from the first column into the
# middle of a 200-card column on another page, without letting go.
TEN = [(f"C{k}", [f"c{k}a", f"c{k}b"]) for k in range(10)]
TEN[6] = ("C6", [f"k{i:03d}" for i in range(200)])


def _landed(pos: int) -> list:
    after = [list(c) for c in TEN]
    after[0] = ("C0", ["c0b"])
    cards = list(TEN[6][1])
    cards.insert(pos - 1, "c0a")
    after[6] = ("C6", cards)
    return after


def test_mouse_drag_into_the_middle_of_a_long_column_two_pages_away(lanes):
    # 80×24: pages C0–C2, C3–C5, C6–C8, C9; C6 is the first column of page 3 (x 0–25).
    app = lanes(board_md(TEN), wait_for="c2b", width=80, height=24)
    assert "◀ page 1/4 ▶" in app.capture()[0], app.dump()
    app.mouse("press", 5, 4)
    for x in range(8, 80, 6):
        app.mouse("drag", x, 4)
    app.mouse("drag", 79, 4)
    # Resting at the right edge flips page after page while the card is held; leave at page 3.
    app.wait_for(lambda l: "◀ page 3/4 ▶" in l[0], timeout=8, what="page 3 after resting at the edge")
    app.mouse("drag", 12, 12)
    app.wait_status("Over C6, position ")
    assert "◀ page 3/4 ▶" in app.capture()[0], app.dump()
    # Held at C6's bottom edge, the column scrolls under the card toward its middle.
    app.mouse("drag", 12, 22)
    app.wait_for(lambda l: "Over C6, position " in l[-1] and int(l[-1].split("position ")[1].split(" ")[0]) >= 100,
                 timeout=25, what="the marker past position 100 of C6")
    # Back in the middle of the viewport the scrolling stops; wait until the status settles.
    app.mouse("drag", 12, 12)
    previous, status = None, ""
    for _ in range(50):
        time.sleep(0.2)
        status = app.status()
        if status == previous and status.startswith("Over C6, position "):
            break
        previous = status
    pos = int(status.split("position ")[1].split(" ")[0])
    assert 85 <= pos <= 120, app.dump()  # about the middle of 200
    app.mouse("release", 12, 12)
    app.wait_status(f"Dropped “c0a” in C6 at position {pos}")
    app.wait_file(board_md(_landed(pos)))
    quit_and_check(app, board_md(_landed(pos)))


def test_keyboard_drag_into_the_middle_of_a_long_column_two_pages_away(lanes):
    app = lanes(board_md(TEN), wait_for="c2b", width=80, height=24)
    app.send_keys("Space")
    app.wait_status("Picked up “c0a”")
    # Right six times: C1 … C6, flipping pages on the way; then down a hundred cards.
    for _ in range(6):
        app.send_keys("Right")
    app.wait_for(lambda l: "◀ page 3/4 ▶" in l[0], what="page 3 while the card is lifted")
    app.wait_status("Over C6, position 1 of 201")
    for _ in range(100):
        app.send_keys("Down")
    app.wait_status("Over C6, position 101 of 201")
    app.send_keys("Enter")
    app.wait_status("Dropped “c0a” in C6 at position 101")
    app.wait_file(board_md(_landed(101)))
    quit_and_check(app, board_md(_landed(101)))
