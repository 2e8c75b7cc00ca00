"""Mouse drag and drop in a real terminal (tmux), checked in the saved file."""

from __future__ import annotations

import time

import pytest

from checks import assert_board_drawn, assert_mouse_modes_on, marker_at, quit_and_check, title_shown_at
from lanes_harness import Layout, board_md, line_between, sgr, stat_key

THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
# a0 dropped on the lower half of b1: it becomes the 3rd card of Doing.
THREE_AFTER = [("To do", ["a1", "a2"]), ("Doing", ["b0", "b1", "a0", "b2"]), ("Done", ["c0"])]


def drag_a0_to_doing(app, L, enc="sgr"):
    """Press on a0, drag it step by step to the lower half of b1, checking what is shown on the way."""
    start = L.title_point(0, 0)
    app.mouse("press", *start, enc=enc)
    time.sleep(0.02)
    app.mouse("drag", start[0] + 1, start[1], enc=enc)
    app.wait_status("Picked up “a0” from To do, position 1")
    # The original is an empty dashed slot while it is dragged.
    # The original is an empty dashed slot (its left edge shows beside the ghost, moved one cell right),
    # and the ghost is the card's box, one cell to the right.
    app.wait_for(lambda l: [app.text_at(0, y, 2, l) for y in (3, 4, 5)] == ["┌╭", "╎│", "└╰"],
                 what="the dashed slot where a0 was, with the ghost one cell to the right")
    target = L.lower(1, 1)
    for p in line_between((start[0] + 1, start[1]), target, 5):
        app.mouse("drag", *p, enc=enc)
        time.sleep(0.02)
    app.wait_status("Over Doing, position 3 of 4")
    # The marker sits on the boundary where the card will land: the top of b2.
    r = L.card(1, 2)
    app.wait_for(lambda l: marker_at(app, r.x, r.y, L.col_w, l), what=f"the drop marker at ({r.x},{r.y})")
    app.mouse("release", *target, enc=enc)
    app.wait_status("Dropped “a0” in Doing at position 3")


@pytest.mark.parametrize("term", ["xterm-256color", "tmux-256color", "screen-256color"])
def test_drag_to_another_column_at_position(lanes, term):
    app = lanes(board_md(THREE), wait_for="a0", term=term)
    L = Layout.simple(100, 30, THREE)
    assert_board_drawn(app, L, THREE)
    assert_mouse_modes_on(app)

    drag_a0_to_doing(app, L)

    app.wait_file(board_md(THREE_AFTER), what="right after the drop (saves are immediate)")
    L2 = Layout.simple(100, 30, THREE_AFTER)
    app.wait_for(lambda l: title_shown_at(app, L2, 1, 2, "a0", l), what="a0 drawn as the 3rd card of Doing")
    assert_board_drawn(app, L2, THREE_AFTER)
    quit_and_check(app, board_md(THREE_AFTER))


def test_reorder_down_within_a_column(lanes):
    before = [("To do", ["a0", "a1", "a2", "a3", "a4"]), ("Doing", ["b0"])]
    after = [("To do", ["a0", "a2", "a3", "a1", "a4"]), ("Doing", ["b0"])]
    app = lanes(board_md(before), wait_for="a4")
    L = Layout.simple(100, 30, before)
    start, target = L.title_point(0, 1), L.lower(0, 3)
    app.mouse("press", *start)
    for p in line_between(start, target, 4):
        time.sleep(0.02)
        app.mouse("drag", *p)
    # Over the lower half of a3: final position 4 of the 5 places.
    app.wait_status("Over To do, position 4 of 5")
    app.mouse("release", *target)
    app.wait_status("Dropped “a1” in To do at position 4")
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_reorder_up_onto_upper_half(lanes):
    """a3 onto the upper half (top row) of a1: it lands before a1."""
    before = [("To do", ["a0", "a1", "a2", "a3", "a4"]), ("Doing", ["b0"])]
    after = [("To do", ["a0", "a3", "a1", "a2", "a4"]), ("Doing", ["b0"])]
    app = lanes(board_md(before), wait_for="a4")
    L = Layout.simple(100, 30, before)
    start, target = L.title_point(0, 3), L.upper(0, 1)
    app.drag([start] + line_between(start, target, 4))
    app.wait_status("Dropped “a3” in To do at position 2")
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


TWO = [("To do", ["a0", "a1"]), ("Doing", ["b0"])]


@pytest.mark.parametrize("where", ["header", "far-right", "status-line"])
def test_release_outside_snaps_back(lanes, where):
    app = lanes(board_md(TWO), wait_for="b0")
    L = Layout.simple(100, 30, TWO)
    assert L.col_x(1) + L.col_w + 2 < 95, "far-right point must be beyond the gutter tolerance"
    outside = {"header": (50, 0), "far-right": (95, 12), "status-line": (50, 29)}[where]
    before_stat = stat_key(app.board_path)
    start = L.title_point(0, 0)
    over_b0 = L.lower(1, 0)
    app.mouse("press", *start)
    for p in line_between(start, over_b0, 3):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("Over Doing, position 2 of 2")
    for p in line_between(over_b0, outside, 3):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("release here to put it back")
    app.mouse("release", *outside)
    app.wait_status("Released outside: “a0” back in To do")
    # After the snap-back the card is drawn in its place again.
    app.wait_for(lambda l: title_shown_at(app, L, 0, 0, "a0", l), what="a0 back in its place")
    assert_board_drawn(app, L, TWO)
    quit_and_check(app, board_md(TWO))
    assert stat_key(app.board_path) == before_stat, "the file was rewritten although nothing changed"


def test_escape_mid_drag_cancels(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    before_stat = stat_key(app.board_path)
    start, target = L.title_point(0, 0), L.lower(1, 1)
    app.mouse("press", *start)
    for p in line_between(start, target, 4):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("Over Doing, position 3 of 4")
    app.send_keys("Escape")
    app.wait_status("Cancelled: “a0” back in To do, position 1")
    app.wait_for(lambda l: title_shown_at(app, L, 0, 0, "a0", l), what="a0 back in its place")
    # The button is still "held": more motion and the release must not drop anything.
    for p in line_between(target, L.lower(2, 0), 3):
        app.mouse("drag", *p)
        time.sleep(0.02)
    app.mouse("release", *L.lower(2, 0))
    quit_and_check(app, board_md(THREE))
    assert stat_key(app.board_path) == before_stat, "the file was rewritten although nothing changed"


@pytest.mark.parametrize("steps", [0, 4, 120])
def test_whole_drag_in_one_write(lanes, steps):
    """Press, drags and release typed in one go (one read); steps=0 is a press and a far release
    with no motion reported in between, which is still a drag."""
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    start, target = L.title_point(0, 0), L.lower(1, 1)
    if steps == 0:
        app.send_literal(sgr("press", *start) + sgr("release", *target))
    else:
        path = [start] + line_between(start, target, steps)
        app.drag(path, one_call=True)
    app.wait_file(board_md(THREE_AFTER))
    # The status names the card that moved (a0), not the one now at its old place.
    app.wait_status("Dropped “a0” in Doing at position 3")
    quit_and_check(app, board_md(THREE_AFTER))


@pytest.mark.parametrize("enc", ["x10", "urxvt"])
def test_other_mouse_encodings(lanes, enc):
    app = lanes(board_md(THREE), wait_for="a0", term="tmux-256color")
    L = Layout.simple(100, 30, THREE)
    drag_a0_to_doing(app, L, enc=enc)
    app.wait_file(board_md(THREE_AFTER))
    quit_and_check(app, board_md(THREE_AFTER))


def test_x10_whole_drag_in_one_write(lanes):
    app = lanes(board_md(THREE), wait_for="a0", term="screen-256color")
    L = Layout.simple(100, 30, THREE)
    start, target = L.title_point(2, 0), L.upper(0, 1)
    app.drag([start] + line_between(start, target, 6), enc="x10", one_call=True)
    app.wait_status("Dropped “c0” in To do at position 2")
    after = [("To do", ["a0", "c0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", [])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_click_does_not_move(lanes):
    """A press and release on the same cell is a click: it selects, it never moves a card."""
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    before_stat = stat_key(app.board_path)
    app.mouse("press", *L.title_point(1, 1))
    app.mouse("release", *L.title_point(1, 1))
    # The click selected b1: J now moves b1 (not a0) down one place.
    app.send_keys("J")
    after = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b2", "b1"]), ("Done", ["c0"])]
    app.wait_file(board_md(after), what="after clicking b1 and pressing J")
    assert stat_key(app.board_path) != before_stat
    quit_and_check(app, board_md(after))


def test_two_drags_in_a_row_then_undo(lanes):
    """Each drop is one undo step."""
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    app.drag([L.title_point(0, 0)] + line_between(L.title_point(0, 0), L.lower(1, 1), 4))
    app.wait_status("Dropped “a0” in Doing at position 3")
    app.wait_file(board_md(THREE_AFTER))
    L2 = Layout.simple(100, 30, THREE_AFTER)
    # Now drag c0 to the top of To do (upper half of a1).
    app.drag([L2.title_point(2, 0)] + line_between(L2.title_point(2, 0), L2.upper(0, 0), 4))
    app.wait_status("Dropped “c0” in To do at position 1")
    second = [("To do", ["c0", "a1", "a2"]), ("Doing", ["b0", "b1", "a0", "b2"]), ("Done", [])]
    app.wait_file(board_md(second))
    app.send_keys("u")
    app.wait_file(board_md(THREE_AFTER), what="after one undo")
    app.send_keys("u")
    app.wait_file(board_md(THREE), what="after two undos")
    app.send_keys("C-r")
    app.wait_file(board_md(THREE_AFTER), what="after redo")
    quit_and_check(app, board_md(THREE_AFTER))


def test_right_button_does_not_drag(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    before_stat = stat_key(app.board_path)
    start, target = L.title_point(0, 0), L.lower(1, 1)
    seq = f"\x1b[<2;{start[0] + 1};{start[1] + 1}M"
    seq += "".join(f"\x1b[<34;{x + 1};{y + 1}M" for x, y in line_between(start, target, 4))
    seq += f"\x1b[<2;{target[0] + 1};{target[1] + 1}m"
    app.send_literal(seq)
    # Then a real left-button drag of b0, to know the right-button one was handled first.
    b0 = L.title_point(1, 0)
    app.drag([b0] + line_between(b0, L.lower(1, 2), 4))
    app.wait_status("Dropped “b0” in Doing at position 3")
    after = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b1", "b2", "b0"]), ("Done", ["c0"])]
    app.wait_file(board_md(after))
    assert stat_key(app.board_path) != before_stat
    quit_and_check(app, board_md(after))
