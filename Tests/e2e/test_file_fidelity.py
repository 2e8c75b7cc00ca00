"""Files as users keep them (#15 column fidelity, #17 hard links): Lanes changes only the lines of
what changed, and a hard-linked board stays one board under every name."""

from __future__ import annotations

import os

from checks import quit_and_check

# A taskell board with its own spacing: two blank lines after "To do", none between Doing's cards,
# three before Done.
ODD = "## To do\n\n\n- a0\n- a1\n\n## Doing\n- b0\n- b1\n\n\n\n## Done\n\n- c0\n"


def test_adding_a_column_to_a_taskell_file_adds_only_its_own_lines(lanes):
    app = lanes(ODD, wait_for="a0")
    app.send_keys("l")          # select Doing
    app.send_keys("A")          # a new column after it
    app.wait_status("New column:")
    app.send_literal("Review")
    app.send_keys("Enter")
    app.wait_for("Review", what="the new column")
    expected = ODD.replace("- b1\n\n\n\n## Done", "- b1\n\n\n\n## Review\n\n\n\n## Done")
    app.wait_file(expected, what="the other columns' lines untouched")
    # Moving it and renaming it change only its own lines too.
    app.send_keys("<")
    moved = ODD.replace("## Doing\n", "## Review\n\n\n\n## Doing\n")
    app.wait_file(moved, what="the column moved before Doing, nothing else rewritten")
    quit_and_check(app, moved)


def test_a_hard_linked_board_is_written_in_place_and_both_names_see_it(lanes):
    app = lanes(ODD, wait_for="a0")
    other = app.board_path.with_name("same-board.md")
    os.link(app.board_path, other)
    inode = os.stat(app.board_path).st_ino
    app.send_keys("J")
    after = ODD.replace("- a0\n- a1\n", "- a1\n- a0\n")
    app.wait_file(after)
    assert os.stat(app.board_path).st_ino == inode and os.stat(app.board_path).st_nlink == 2, "the link was split"
    assert other.read_text() == after
    # A second Lanes through the other name is the same board: its move shows in the first.
    second = lanes(None, wait_for="a1", args=["same-board.md"], workdir=app.workdir)
    second.send_keys("l", "J")
    both = after.replace("- b0\n- b1\n", "- b1\n- b0\n")
    app.wait_file(both, what="the second name's move in the first name's file")
    app.wait_status("1 card changed elsewhere", timeout=3)
    assert os.stat(app.board_path).st_ino == inode
    assert second.quit() == 0
    assert other.read_text() == both
    quit_and_check(app, both, keep=["same-board.md"])
