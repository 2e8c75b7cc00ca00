"""One door for every edit (#24): what a person types while another writer changes the same
board is kept or answered in words, undo never copies a card or grows a title, and a column
prompt means the column that was on screen. Each test reproduces a loss of the design before
#24 (prompts and undo by index and snapshot) and passes with edits by identity."""

from __future__ import annotations

from checks import quit_and_check
from lanes_harness import board_md

THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]


def write_behind_the_back(path, text: str) -> None:
    """Another writer: a new file renamed over the old one, as editors and git do."""
    tmp = path.with_name("." + path.name + ".other-tmp")
    tmp.write_text(text)
    tmp.replace(path)


def board_lines(lines: list[str]) -> str:
    """The screen without its last row (the prompt or status line)."""
    return "\n".join(lines[:-1])


def test_an_edited_title_brings_back_a_card_deleted_meanwhile(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    app.send_keys("j", "e", "C-u")
    app.send_literal("a1 rewritten")
    app.wait_for("Title: a1 rewritten")
    gone = [("To do", ["a0", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]
    write_behind_the_back(app.board_path, board_md(gone))
    app.wait_for(lambda lines: "a2" in board_lines(lines) and "a1" not in board_lines(lines), timeout=3,
                 what="the other writer's deletion on screen, the prompt still open")
    app.send_keys("Enter")
    back = [("To do", ["a0", "a1 rewritten", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]
    app.wait_file(board_md(back), what="the typed title saved, on the card brought back")
    app.wait_status("“a1” was deleted elsewhere: brought back in “To do” with your change")
    quit_and_check(app, board_md(back))


def test_a_card_typed_for_a_column_deleted_meanwhile_lands_where_the_status_says(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    app.send_keys("l", "l", "a")
    app.send_literal("typed for Done")
    app.wait_for("New card: typed for Done")
    no_done = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1"])]
    write_behind_the_back(app.board_path, board_md(no_done))
    app.wait_for(lambda lines: "Done" not in board_lines(lines) and "c0" not in board_lines(lines), timeout=3,
                 what="the column gone from the screen, the prompt still open")
    app.send_keys("Enter")
    landed = [("To do", ["a0", "a1", "a2", "typed for Done"]), ("Doing", ["b0", "b1"])]
    app.wait_file(board_md(landed), what="the typed card saved")
    app.wait_status("Its column was deleted elsewhere: added the card to “To do”")
    quit_and_check(app, board_md(landed))


def test_undo_after_another_writer_edited_and_moved_the_card_makes_no_copy(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    app.send_keys("e", "C-u")
    app.send_literal("mine")
    app.send_keys("Enter")
    mine = [("To do", ["mine", "a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]
    app.wait_file(board_md(mine))
    theirs = [("To do", ["a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0", "theirs"])]
    write_behind_the_back(app.board_path, board_md(theirs))
    app.wait_for("theirs", timeout=3, what="the other writer's edit and move on screen")
    app.send_keys("u")
    app.wait_for(lambda lines: "Undid" in lines[-1] or "Nothing to undo" in lines[-1], what="the undo answered")
    app.assert_file(board_md(theirs), "undo neither copies the card nor reverts their edit")
    app.wait_status("Nothing to undo of edit title")
    quit_and_check(app, board_md(theirs))


def test_undo_and_redo_never_grow_a_title_another_writer_changed(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    app.send_keys("e", "C-u")
    app.send_literal("b")
    app.send_keys("Enter")
    app.wait_file(board_md([("To do", ["b", "a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]))
    theirs = [("To do", ["c", "a1", "a2"]), ("Doing", ["b0", "b1"]), ("Done", ["c0"])]
    write_behind_the_back(app.board_path, board_md(theirs))
    app.wait_for(lambda lines: "│ c " in board_lines(lines) or " c " in board_lines(lines), timeout=3,
                 what="their title on screen")
    app.wait_status("changed elsewhere", timeout=3)
    for _ in range(3):
        app.send_keys("u")
        app.wait_for(lambda lines: "Undid" in lines[-1] or "Nothing to undo" in lines[-1], what="the undo answered")
        app.send_keys("C-r")
        app.wait_for(lambda lines: "Redid" in lines[-1] or "Nothing to redo" in lines[-1], what="the redo answered")
    app.assert_file(board_md(theirs), "the title stays theirs, one card, no joined text")
    quit_and_check(app, board_md(theirs))


def test_rename_renames_the_column_on_screen_after_another_writer_inserts_one(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    app.send_keys("l", "R", "C-u")
    app.send_literal("In progress")
    app.wait_for("Column title: In progress")
    inserted = [("Inbox", ["i0"])] + THREE
    write_behind_the_back(app.board_path, board_md(inserted))
    app.wait_for("Inbox", timeout=3, what="the inserted column on screen, the prompt still open")
    app.send_keys("Enter")
    renamed = [("Inbox", ["i0"]), ("To do", ["a0", "a1", "a2"]), ("In progress", ["b0", "b1"]), ("Done", ["c0"])]
    app.wait_file(board_md(renamed), what="Doing renamed, not the column now at its index")
    app.wait_status("Renamed the column to “In progress”")
    quit_and_check(app, board_md(renamed))


def test_adding_to_a_full_column_is_refused_as_lanes_add_refuses_and_keeps_the_text(lanes):
    limited = "## To do\n\n- a0\n\n## Doing (1)\n\n- b0\n"
    app = lanes(limited, wait_for="a0")
    app.send_keys("l", "O")
    app.send_literal("one too many")
    app.send_keys("Enter")
    app.wait_for("New card: one too many", what="the prompt open again with the text")
    app.wait_for('Column "Doing" is full (WIP limit 1)')
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    quit_and_check(app, limited)
