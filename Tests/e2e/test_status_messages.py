"""A status longer than the screen is shown whole, wrapped onto the rows above the last (#25 point 7)."""

from __future__ import annotations

import os

from lanes_harness import board_md

THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]


def test_a_long_status_wraps_and_is_shown_whole(lanes, tmp_path):
    editor = tmp_path / ("an-editor-whose-name-is-long-enough-to-need-two-rows" + "-x" * 10)
    app = lanes(board_md(THREE), wait_for="a0", width=60, height=20,
                env={"EDITOR": str(editor), "VISUAL": ""})
    app.send_keys("E")
    whole = f"The editor “{editor}” was not found; set $VISUAL or $EDITOR. The card is as it was"
    app.wait_status("The card is as it was")
    rows = app.status_rows()
    assert len(rows) >= 3, app.dump()
    assert all(len(r) <= 60 for r in rows)
    # Every word is there, in order; only the path (longer than a row) is broken, nothing is cut.
    assert "".join(r.strip() for r in rows).replace(" ", "") == whole.replace(" ", ""), app.dump()
    assert "…" not in "".join(rows)
    # The next key brings back the one-row hint and the board rows under it.
    app.send_keys("j")
    app.wait_for(lambda l: len(app.status_rows()) == 1, what="the status back on one row")


def test_the_quit_question_after_a_failed_save_is_readable_at_80_columns(lanes):
    app = lanes(board_md(THREE), wait_for="a0", width=80, height=24)
    os.chmod(app.board_path, 0o444)
    app.send_keys("J")
    app.wait_status("NOT SAVED")
    app.send_keys("q")
    app.wait_for(lambda l: "esc stay" in app.status() and "Lanes does not change it" in app.status(),
                 what="the whole quit question")
    text = app.status()
    assert text.startswith("NOT SAVED — r retry · s save a copy · d quit, discard · esc stay"), text
    assert "read-only (no write permission)" in text, app.dump()
    app.send_keys("d")
    assert app.wait_exit() == 0


def test_a_long_message_in_the_card_view_is_readable_over_it(lanes, tmp_path):
    editor = tmp_path / ("an-editor-whose-name-is-long-enough-to-need-two-rows" + "-x" * 10)
    app = lanes(board_md(THREE), wait_for="a0", width=60, height=20,
                env={"EDITOR": str(editor), "VISUAL": ""})
    app.send_keys("Enter")
    app.wait_for("No description", what="the card view")
    app.send_keys("E")
    text = app.wait_status("The card is as it was")
    assert text.startswith("The editor “"), app.dump()
    assert len(app.status_rows()) >= 3, app.dump()
    assert any("No description" in l for l in app.capture()), "the card view is still open\n" + app.dump()
