"""Drags of taller cards (details), WIP limits, wide characters near the edge, the gutter."""

from __future__ import annotations

import time

import pytest

from checks import assert_board_drawn, quit_and_check, title_shown_at
from lanes_harness import HarnessError, Layout, board_md, line_between, stat_key

# Cards with a hint line are 4 rows high: rows 0-1 are the upper half, rows 2-3 the lower.
DETAILED = [
    ("To do", ["a0\n    > what a0 is about\n    > second line", "a1\n    * [ ] step one\n    * [x] step two", "a2"]),
    ("Doing", ["b0\n    @ 2026-12-31", "b1"]),
]


def heights(cols):
    return [[4 if "\n" in c else 3 for c in cards] for _, cards in cols]


@pytest.mark.parametrize("row,expected_index", [(0, 0), (1, 0), (2, 1), (3, 1)])
def test_halves_of_a_four_row_card(lanes, row, expected_index):
    """Dropping a2 on each row of the 4-row card b0: the upper two rows put it before b0."""
    app = lanes(board_md(DETAILED), wait_for="b1")
    L = Layout(100, 30, heights(DETAILED))
    assert_board_drawn(app, L, DETAILED)
    # The hint line is drawn: the due date of b0 and the sub-task count of a1.
    assert "@2026-12-31" in app.text_at(L.col_x(1), L.card(1, 0).y + 2, L.col_w)
    assert "☑ 1/2" in app.text_at(0, L.card(0, 1).y + 2, L.col_w)
    r = L.card(1, 0)
    target = (r.x + 6, r.y + row)
    start = L.title_point(0, 2)
    app.drag([start] + line_between(start, target, 5))
    app.wait_status(f"Dropped “a2” in Doing at position {expected_index + 1}")
    doing = ["b0\n    @ 2026-12-31", "b1"]
    doing.insert(expected_index, "a2")
    after = [("To do", DETAILED[0][1][:2]), ("Doing", doing)]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_moving_a_card_keeps_its_details(lanes):
    app = lanes(board_md(DETAILED), wait_for="b1")
    L = Layout(100, 30, heights(DETAILED))
    start = L.title_point(0, 1)  # a1 with its sub-tasks
    app.drag([start] + line_between(start, L.lower(1, 1), 5))
    app.wait_status("Dropped “a1” in Doing at position 3")
    after = [("To do", [DETAILED[0][1][0], "a2"]), ("Doing", ["b0\n    @ 2026-12-31", "b1", DETAILED[0][1][1]])]
    app.wait_file(board_md(after))
    app.send_keys("u")
    app.wait_file(board_md(DETAILED), what="after undo")
    quit_and_check(app, board_md(DETAILED))


def test_full_column_refuses_the_card(lanes):
    cols = [("To do", ["a0", "a1"]), ("Doing (2)", ["b0", "b1"]), ("Done", ["c0"])]
    app = lanes(board_md(cols), wait_for="c0")
    before_stat = stat_key(app.board_path)
    L = Layout.simple(100, 30, cols)
    assert app.text_at(L.col_x(1), 1, 9) == "Doing 2/2", app.dump()
    start = L.title_point(0, 0)
    over = L.lower(1, 0)
    app.mouse("press", *start)
    for p in line_between(start, over, 4):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status('Column "Doing" is full (WIP limit 2)')
    app.wait_for(lambda l: "✕ full" in app.text_at(L.col_x(1), 1, L.col_w, l), what="'✕ full' on Doing's title")
    app.mouse("release", *over)
    app.wait_status('“a0” back in To do: column "Doing" is full (WIP limit 2)')
    # Quick moves skip the full column: L takes a0 to Done.
    app.send_keys("L")
    after = [("To do", ["a1"]), ("Doing (2)", ["b0", "b1"]), ("Done", ["a0", "c0"])]
    app.wait_file(board_md(after))
    assert stat_key(app.board_path) != before_stat
    quit_and_check(app, board_md(after))


def test_wide_character_ghost_at_the_right_edge(lanes):
    """A CJK card dragged so its ghost hangs past the right edge: nothing is left behind after the drop."""
    cols = [("To do", ["漢字のカード 幅広い文字", "a1"]), ("Doing", ["b0"]), ("Done", ["c0", "c1"])]
    app = lanes(board_md(cols), wait_for="c1")
    L = Layout.simple(100, 30, cols)
    start = (L.col_x(0) + 3, L.card(0, 0).y + 1)  # grabbed near its left edge
    edge = (99, L.card(2, 1).y + 1)  # the pointer at the last cell: the ghost sticks out
    app.mouse("press", *start)
    path = line_between(start, edge, 8) + line_between(edge, L.lower(2, 0, dx=30), 3)
    for p in path[:-3]:
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("Over Done")
    for p in path[-3:]:
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.mouse("release", *path[-1])
    app.wait_status("Dropped “漢字のカード 幅広い文字” in Done at position 2")
    after = [("To do", ["a1"]), ("Doing", ["b0"]), ("Done", ["c0", "漢字のカード 幅広い文字", "c1"])]
    app.wait_file(board_md(after))
    L2 = Layout.simple(100, 30, after)
    # Wait out the drop flash, then every border must be back in place.
    app.wait_for(lambda l: title_shown_at(app, L2, 2, 1, "漢字のカード 幅広い文字", l), what="the card in Done")

    def drawn(lines: list[str]) -> bool:
        try:
            assert_board_drawn(app, L2, after, lines)
            return True
        except AssertionError:
            return False
    # The drop flash fades; then every border must be back in place (said in full if it never is).
    try:
        app.wait_for(drawn, what="every border back after the drop flash")
    except HarnessError:
        assert_board_drawn(app, L2, after)   # says which border is wrong
        raise
    for y in range(L2.card(2, 2).max_y, app.height - 1):
        assert app.text_at(0, y, 100).strip() == "", f"row {y} not blank after the drop\n{app.dump()}"
    quit_and_check(app, board_md(after))


def test_release_in_the_gap_between_columns_keeps_the_last_target(lanes):
    cols = [("To do", ["a0", "a1"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]
    app = lanes(board_md(cols), wait_for="c0")
    L = Layout.simple(100, 30, cols)
    start = L.title_point(0, 0)
    over = L.lower(1, 0)
    gap_x = L.col_x(2) - 1  # the 1-cell gap between Doing and Done
    app.mouse("press", *start)
    for p in line_between(start, over, 4):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("Over Doing, position 2 of 3")
    app.mouse("drag", gap_x, over[1])
    time.sleep(0.05)
    app.mouse("release", gap_x, over[1])
    app.wait_status("Dropped “a0” in Doing at position 2")
    after = [("To do", ["a1"]), ("Doing", ["b0", "a0", "b1"]), ("Done", ["c0"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_drop_on_a_column_title_goes_first(lanes):
    cols = [("To do", ["a0", "a1"]), ("Doing", ["b0", "b1"])]
    app = lanes(board_md(cols), wait_for="b1")
    L = Layout.simple(100, 30, cols)
    start = L.title_point(0, 1)
    title = (L.col_x(1) + 3, 1)
    app.drag([start] + line_between(start, title, 5))
    app.wait_status("Dropped “a1” in Doing at position 1")
    after = [("To do", ["a0"]), ("Doing", ["a1", "b0", "b1"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_drop_into_an_empty_column(lanes):
    cols = [("To do", ["a0", "a1"]), ("Doing", []), ("Done", ["c0"])]
    app = lanes(board_md(cols), wait_for="c0")
    L = Layout.simple(100, 30, cols)
    assert "(empty)" in app.text_at(L.col_x(1), 3, L.col_w), app.dump()
    start = L.title_point(0, 1)
    target = (L.col_x(1) + 5, 12)  # well below where the first card would be
    app.drag([start] + line_between(start, target, 5))
    app.wait_status("Dropped “a1” in Doing at position 1")
    after = [("To do", ["a0"]), ("Doing", ["a1"]), ("Done", ["c0"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


LONG = [("To do", ["a0", "a1"]), ("Long", [f"l{i}" for i in range(12)])]


def wheel_down(app, x, y):
    app.send_literal(f"\x1b[<65;{x + 1};{y + 1}M")


def test_drop_into_a_scrolled_column(lanes):
    app = lanes(board_md(LONG), wait_for="l7")
    L = Layout.simple(100, 30, LONG)
    x = L.col_x(1) + 5
    # 12 cards of 3 rows do not fit in rows 3-28: the column's rule says how many are below
    # (on the rule, never over a card's text).
    app.wait_for(lambda l: app.text_at(L.col_x(1), 2, L.col_w, l).endswith("▼ 4 more─"), what="the '▼ n more' hint")
    assert "more" not in app.text_at(L.col_x(1), 28, L.col_w), app.dump()
    wheel_down(app, x, 10)
    app.wait_for(lambda l: app.text_at(L.col_x(1), 2, 7, l) == "─▲ more", what="the '▲ more' rule after scrolling")
    wheel_down(app, x, 10)
    # Scrolled by 6 rows: l2 is the first card shown, at row 3.
    app.wait_for(lambda l: app.text_at(L.col_x(1), 4, 6, l) == "│ l2  ", what="l2 at the top after two wheel steps")
    start = L.title_point(0, 0)
    target = (x, 3 + 3 * 2 + 2)  # the last row of l4 (two cards below the top): lower half
    app.mouse("press", *start)
    for p in line_between(start, target, 5):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("Over Long, position 6 of 13")
    app.mouse("release", *target)
    app.wait_status("Dropped “a0” in Long at position 6")
    cards = [f"l{i}" for i in range(12)]
    cards.insert(5, "a0")
    after = [("To do", ["a1"]), ("Long", cards)]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_wheel_during_a_drag_moves_the_target(lanes):
    app = lanes(board_md(LONG), wait_for="l7")
    L = Layout.simple(100, 30, LONG)
    start = L.title_point(0, 0)
    over = L.lower(1, 1)  # after l1
    app.mouse("press", *start)
    for p in line_between(start, over, 5):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("Over Long, position 3 of 13")
    wheel_down(app, *over)  # 3 rows: the same cell is now the last row of l2
    app.wait_status("Over Long, position 4 of 13")
    app.mouse("release", *over)
    app.wait_status("Dropped “a0” in Long at position 4")
    cards = [f"l{i}" for i in range(12)]
    cards.insert(3, "a0")
    after = [("To do", ["a1"]), ("Long", cards)]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))
