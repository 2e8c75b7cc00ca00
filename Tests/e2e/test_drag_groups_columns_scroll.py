"""Dragging beyond one card (#14): marked cards dragged together, columns dragged by their
headers, fast auto-scroll, the symmetric drop rule and the parked cursor, in a real terminal."""

from __future__ import annotations

import time

from checks import quit_and_check
from lanes_harness import Layout, board_md, line_between

THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]


def ctrl_click(app, x: int, y: int) -> None:
    """A left click with ctrl held, as xterm reports it in SGR mode (button code 16)."""
    app.send_literal(f"\x1b[<16;{x + 1};{y + 1}M")
    time.sleep(0.02)
    app.send_literal(f"\x1b[<16;{x + 1};{y + 1}m")


def hand_drag(app, points, pause=0.03):
    """Press at points[0], move through the rest one cell-step at a time, release at the last."""
    app.mouse("press", *points[0])
    time.sleep(pause)
    here = points[0]
    for p in points[1:]:
        for q in line_between(here, p, max(2, abs(p[0] - here[0]) // 4 + abs(p[1] - here[1]))):
            app.mouse("drag", *q)
            time.sleep(pause)
        here = p
    app.mouse("release", *here)


def test_v_marks_two_cards_and_dragging_one_carries_both_in_order(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    # a0 is selected at start: mark it, go down to a2 and mark it too.
    app.send_keys("v")
    app.wait_status("1 card marked")
    app.send_keys("j", "j", "v")
    app.wait_status("2 cards marked")
    # Drag a2 (the later one) under c0 in Done: both land there, a0 before a2 (board order).
    start = L.title_point(0, 2)
    below_c0 = (L.col_x(2) + 4, L.card(2, 0).max_y + 2)
    app.mouse("press", *start)
    time.sleep(0.03)
    for p in line_between(start, below_c0, 8):
        app.mouse("drag", *p)
        time.sleep(0.03)
    # The ghost says how many more it carries; the other marked card stays in place, dimmed.
    app.wait_for(lambda l: "+1" in "".join(l), what="the ghost's +1")
    app.wait_status("2 cards over Done, position 2")
    app.mouse("release", *below_c0)
    app.wait_status("Dropped 2 cards in Done at positions 2–3")
    after = [("To do", ["a1"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0", "a0", "a2"])]
    app.wait_file(board_md(after))
    # Esc clears the marks: a plain drag of a0 afterwards carries it alone.
    app.send_keys("Escape")
    app.wait_status("Marks cleared")
    quit_and_check(app, board_md(after))


def test_ctrl_click_two_cards_in_two_columns_drag_then_one_undo_restores_both(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    ctrl_click(app, *L.title_point(0, 0))
    app.wait_status("1 card marked")
    ctrl_click(app, *L.title_point(1, 1))
    app.wait_status("2 cards marked")
    # Neither click moved anything.
    app.assert_file(board_md(THREE), what="after two ctrl-clicks")
    # Drag b1 into Done, under c0.
    hand_drag(app, [L.title_point(1, 1), (L.col_x(2) + 4, L.card(2, 0).max_y + 2)])
    app.wait_status("Dropped 2 cards in Done at positions 2–3")
    after = [("To do", ["a1", "a2"]), ("Doing", ["b0", "b2"]), ("Done", ["c0", "a0", "b1"])]
    app.wait_file(board_md(after))
    app.send_keys("u")
    app.wait_status("Undid move")
    app.wait_file(board_md(THREE), what="one u undoes the whole multi-card drop")
    quit_and_check(app, board_md(THREE))


def test_alt_click_marks_too_and_an_unmarked_card_is_dragged_alone(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    x, y = L.title_point(0, 0)
    app.send_literal(f"\x1b[<8;{x + 1};{y + 1}M")   # alt (8) + left button
    app.send_literal(f"\x1b[<8;{x + 1};{y + 1}m")
    app.wait_status("1 card marked")
    ctrl_click(app, *L.title_point(0, 1))
    app.wait_status("2 cards marked")
    # b0 is not marked: it moves alone, and the marks stay for later.
    hand_drag(app, [L.title_point(1, 0), (L.col_x(2) + 4, L.card(2, 0).max_y + 2)])
    app.wait_status("Dropped “b0” in Done at position 2")
    after = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b1", "b2"]), ("Done", ["c0", "b0"])]
    app.wait_file(board_md(after))
    hand_drag(app, [L.title_point(0, 1), (L.col_x(1) + 4, L.card(1, 1).max_y + 2)])
    app.wait_status("Dropped 2 cards in Doing at positions 3–4")
    after = [("To do", ["a2"]), ("Doing", ["b1", "b2", "a0", "a1"]), ("Done", ["c0", "b0"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_a_keyboard_lift_with_marks_carries_them_all(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    app.send_keys("v", "j", "v")
    app.wait_status("2 cards marked")
    app.send_keys("Space")
    app.wait_status("Picked up 2 cards with “a1”")
    app.send_keys("Right")
    app.wait_status("2 cards over Doing, position 1")
    app.send_keys("Enter")
    app.wait_status("Dropped 2 cards in Doing at positions 1–2")
    after = [("To do", ["a2"]), ("Doing", ["a0", "a1", "b0", "b1", "b2"]), ("Done", ["c0"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


FOUR = [("A", ["a0"]), ("B", ["b0"]), ("C", ["c0"]), ("D", ["d0"])]


def test_dragging_a_column_header_past_two_columns(lanes):
    # 100×30: four 24-cell columns at x 0, 25, 50, 75.
    app = lanes(board_md(FOUR), wait_for="d0")
    app.mouse("press", 5, 1)
    time.sleep(0.03)
    app.mouse("drag", 6, 1)
    app.wait_status("Picked up column A")
    for x in range(7, 56, 4):
        app.mouse("drag", x, 3)
        time.sleep(0.03)
    app.mouse("drag", 55, 3)
    # The ghost header's right edge (x 74) is past C's centre (62), short of D's (87).
    app.wait_status("Column A to position 3 of 4")
    lines = app.capture()
    assert lines[4][50:55] == "│ A  ", app.dump()        # the ghost header under the pointer
    assert lines[10][74] == "┃", app.dump()              # the marker between C and D
    app.mouse("release", 55, 3)
    app.wait_status("Moved column A to position 3")
    after = [("B", ["b0"]), ("C", ["c0"]), ("A", ["a0"]), ("D", ["d0"])]
    app.wait_file(board_md(after))
    app.wait_for(lambda l: l[1].startswith("B 1") and l[1][50:53] == "A 1", what="A drawn third")
    # A column dragged back to where it was changes nothing; < and > still move columns.
    app.send_keys(">")
    after = [("B", ["b0"]), ("C", ["c0"]), ("D", ["d0"]), ("A", ["a0"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_holding_a_card_one_row_inside_the_bottom_edge_scrolls_to_the_100th_card(lanes):
    long = [("Long", [f"k{i:03d}" for i in range(200)]), ("Other", ["mover"])]
    app = lanes(board_md(long), wait_for="mover", width=80, height=24)
    # 80×24: Long at x 0–38 with its cards on rows 3–22; row 21 is one row inside the bottom edge.
    app.mouse("press", 45, 4)
    app.mouse("drag", 30, 10)
    app.mouse("drag", 20, 12)
    app.wait_status("Over Long")
    app.mouse("drag", 20, 21)
    # How fast it scrolls is `make bench`'s figure; here, that holding the pointer there gets there.
    app.wait_for(lambda l: any("k099" in row for row in l[3:23]), timeout=8, what="k099 on screen")
    # Back in the middle the scrolling stops; Esc puts the card back.
    app.mouse("drag", 20, 12)
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    quit_and_check(app, board_md(long))


def test_a_short_hold_at_the_edge_moves_only_a_row_or_two(lanes):
    long = [("Long", [f"k{i:03d}" for i in range(200)]), ("Other", ["mover"])]
    app = lanes(board_md(long), wait_for="mover", width=80, height=24)
    app.mouse("press", 45, 4)
    app.mouse("drag", 30, 10)
    app.mouse("drag", 20, 12)
    app.wait_status("Over Long")
    app.mouse("drag", 20, 22)
    time.sleep(0.3)  # the hold itself: input, not a wait for a result
    app.mouse("drag", 20, 12)
    # The ghost drawn back in the middle (its title a row or two from 12, left of Other) shows
    # Lanes took the move, and the scrolling ended with it: the screen then holds the whole scroll.
    lines = app.wait_for(lambda l: any("mover" in l[y][:40] for y in range(10, 15)), what="the ghost back in the middle")
    # k001's title starts on row 7; after s rows of scrolling it is on row 7 − s. A short hold
    # (0.3 s, and whatever tmux adds) scrolls at least one row and no more than three.
    row = next(y for y in range(3, 8) if lines[y].startswith("│ k001"))
    assert 1 <= 7 - row <= 3, app.dump()
    assert "▲ more" in lines[2], app.dump()
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    quit_and_check(app, board_md(long))


SYM = [("A", ["a1", "a2", "a3", "a4"])]


def test_card_3_dragged_up_one_card_height_lands_before_card_2(lanes):
    app = lanes(board_md(SYM), wait_for="a4")
    L = Layout.simple(100, 30, SYM)
    x, y = L.title_point(0, 2)            # a3's title row
    hand_drag(app, [(x, y), (x, y - 3)])  # cards are 3 rows high
    app.wait_status("Dropped “a3” in A at position 2")
    after = [("A", ["a1", "a3", "a2", "a4"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_card_2_dragged_down_one_card_height_lands_after_card_3(lanes):
    app = lanes(board_md(SYM), wait_for="a4")
    L = Layout.simple(100, 30, SYM)
    x, y = L.title_point(0, 1)
    hand_drag(app, [(x, y), (x, y + 3)])
    app.wait_status("Dropped “a2” in A at position 3")
    after = [("A", ["a1", "a3", "a2", "a4"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_the_cursor_rests_on_the_selected_card_and_on_the_marker(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)

    def cursor():
        return app.fmt("#{cursor_flag} #{cursor_x} #{cursor_y}")

    # On a0's title (x 2, row 4), shown; then on a1's.
    app.wait_for(lambda l: cursor() == "1 2 4", what="the cursor on a0's title")
    app.send_keys("j")
    app.wait_for(lambda l: cursor() == "1 2 7", what="the cursor on a1's title")
    # While a card is dragged it rests on the marker.
    start = L.title_point(0, 0)
    target = (L.col_x(1) + 4, L.card(1, 1).max_y + 1)
    app.mouse("press", *start)
    for p in line_between(start, target, 6):
        app.mouse("drag", *p)
        time.sleep(0.03)
    app.wait_status("Over Doing, position 3 of 4")
    marker_row = L.card(1, 2).y
    app.wait_for(lambda l: cursor() == f"1 {L.col_x(1)} {marker_row}", what="the cursor on the marker")
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    quit_and_check(app, board_md(THREE))
