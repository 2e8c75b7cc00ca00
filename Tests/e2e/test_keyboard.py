"""Keyboard drag and card editing in a real terminal, checked in the saved file."""

from __future__ import annotations

import pytest

from checks import assert_board_drawn, quit_and_check, title_shown_at
from lanes_harness import Layout, board_md, stat_key

BOARD = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]


@pytest.mark.parametrize("keys", [("Space", "Right", "Down", "Enter"), ("Space", "l", "j", "Space")],
                         ids=["arrows-enter", "hjkl-space"])
def test_lift_move_drop_across_columns(lanes, keys):
    app = lanes(board_md(BOARD), wait_for="a0", term="tmux-256color")
    lift, right, down, drop = keys
    app.send_keys(lift)
    app.wait_status("Picked up “a0” from To do, position 1")
    app.send_keys(right)
    app.wait_status("Over Doing, position 1 of 3")
    app.send_keys(down)
    app.wait_status("Over Doing, position 2 of 3")
    app.send_keys(drop)
    app.wait_status("Dropped “a0” in Doing at position 2")
    after = [("To do", ["a1", "a2"]), ("Doing", ["b0", "a0", "b1"]), ("Done", ["c0"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_lift_then_escape_cancels(lanes):
    app = lanes(board_md(BOARD), wait_for="a0")
    before_stat = stat_key(app.board_path)
    app.send_keys("Space")
    app.wait_status("Picked up “a0” from To do, position 1")
    app.send_keys("Right")
    app.wait_status("Over Doing, position 1 of 3")
    app.send_keys("Down")
    app.wait_status("Over Doing, position 2 of 3")
    app.send_keys("Escape")
    app.wait_status("Cancelled: “a0” back in To do, position 1")
    L = Layout.simple(100, 30, BOARD)
    app.wait_for(lambda l: title_shown_at(app, L, 0, 0, "a0", l), what="a0 back in its place")
    # Esc ended the lift: Enter now drops nothing (it opens the selected card; esc closes it).
    app.send_keys("Enter")
    app.wait_for(lambda l: any(" Card " in r for r in l), what="the card detail")
    app.send_keys("Escape")
    app.wait_for(lambda l: not any(" Card " in r for r in l), what="the detail closed")
    quit_and_check(app, board_md(BOARD))
    assert stat_key(app.board_path) == before_stat, "the file was rewritten although nothing changed"


def test_quick_moves_HLJK(lanes):
    app = lanes(board_md(BOARD), wait_for="a0")
    steps = [
        ("J", [("To do", ["a1", "a0", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]),
        # L keeps the card's row: a0 (2nd in To do) becomes the 2nd card of Doing.
        ("L", [("To do", ["a1", "a2"]), ("Doing", ["b0", "a0", "b1"]), ("Done", ["c0"])]),
        ("K", [("To do", ["a1", "a2"]), ("Doing", ["a0", "b0", "b1"]), ("Done", ["c0"])]),
        ("L", [("To do", ["a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["a0", "c0"])]),
        ("J", [("To do", ["a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0", "a0"])]),
        ("J", [("To do", ["a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0", "a0"])]),  # already last
        # H keeps the row too: a0 (2nd in Done) lands 2nd in Doing, then 2nd in To do.
        ("H", [("To do", ["a1", "a2"]), ("Doing", ["b0", "a0", "b1"]), ("Done", ["c0"])]),
        ("H", [("To do", ["a1", "a0", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]),
    ]
    for n, (key, board) in enumerate(steps):
        app.send_keys(key)
        app.wait_file(board_md(board), what=f"after step {n + 1} ({key})")
    final = steps[-1][1]
    L = Layout.simple(100, 30, final)
    app.wait_for(lambda l: title_shown_at(app, L, 0, 1, "a0", l), what="a0 drawn 2nd in To do")
    quit_and_check(app, board_md(final))


def test_add_edit_delete_undo_redo_with_wide_characters(lanes):
    start = [("To do", ["a0", "a1"]), ("Doing", ["b0"])]
    app = lanes(board_md(start), wait_for="a0", term="screen-256color")
    cjk = "日本語のカード"
    edited = "日本語のカード 完了"
    added = [("To do", ["a0", cjk, "a1"]), ("Doing", ["b0"])]
    after_edit = [("To do", ["a0", edited, "a1"]), ("Doing", ["b0"])]

    app.send_keys("a")
    app.wait_status("New card:")
    app.send_literal(cjk)
    app.wait_status("New card: " + cjk)
    app.send_keys("Enter")
    app.wait_file(board_md(added), what="after adding a card below a0")
    L = Layout.simple(100, 30, added)
    app.wait_for(lambda l: title_shown_at(app, L, 0, 1, cjk, l), what="the new card drawn below a0")
    # Wide characters line up: the card's right border is still in the last cell of the column.
    assert_board_drawn(app, L, added)

    app.send_keys("e")
    app.wait_status("Title: " + cjk)
    app.send_literal(" 完了済")
    app.send_keys("BSpace")  # removes the whole wide character 済
    app.wait_status("Title: " + edited)
    app.send_keys("Enter")
    app.wait_file(board_md(after_edit), what="after editing the title")

    app.send_keys("d")
    app.wait_file(board_md(start), what="after deleting the card")
    app.wait_status("Deleted “" + edited + "”")

    app.send_keys("u")
    app.wait_file(board_md(after_edit), what="after undoing the delete")
    app.send_keys("u")
    app.wait_file(board_md(added), what="after undoing the edit")
    app.send_keys("u")
    app.wait_file(board_md(start), what="after undoing the add")
    app.send_keys("C-r")
    app.wait_file(board_md(added), what="after redoing the add")
    app.send_keys("C-r")
    app.wait_file(board_md(after_edit), what="after redoing the edit")
    L = Layout.simple(100, 30, after_edit)
    app.wait_for(lambda l: title_shown_at(app, L, 0, 1, edited, l), what="the edited card drawn")
    assert_board_drawn(app, L, after_edit)
    quit_and_check(app, board_md(after_edit))


def test_escape_in_prompt_changes_nothing(lanes):
    start = [("To do", ["a0", "a1"]), ("Doing", ["b0"])]
    app = lanes(board_md(start), wait_for="a0")
    before_stat = stat_key(app.board_path)
    app.send_keys("a")
    app.wait_status("New card:")
    app.send_literal("never added")
    app.wait_status("New card: never added")
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    app.send_keys("e")
    app.wait_status("Title: a0")
    app.send_keys("C-u")
    app.send_literal("not this")
    app.wait_status("Title: not this")
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    quit_and_check(app, board_md(start))
    assert stat_key(app.board_path) == before_stat


def test_keys_typed_in_one_go_all_count(lanes):
    app = lanes(board_md(BOARD), wait_for="a0")
    app.send_literal("JJK")  # one write: down, down, up
    after = [("To do", ["a1", "a0", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]
    app.wait_file(board_md(after))
    app.send_literal("uuu")
    app.wait_file(board_md(BOARD), what="after three undos typed in one go")
    quit_and_check(app, board_md(BOARD))
