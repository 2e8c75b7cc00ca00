"""A status longer than the screen is shown whole, wrapped onto the rows above the last (#25 point 7)."""

from __future__ import annotations

import os
import re

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


_PLACE = re.compile(r"(\d+)–(\d+) of (\d+)|(\d+) rows · all shown")


def _messages_view_rows(app) -> list[str]:
    """Every row of the open messages view, read page by page from its top (the bottom border
    says which rows of how many are shown); each row as the text between the box's borders."""
    app.send_keys("Home")
    rows: dict[int, str] = {}
    def at_top(lines: list[str]) -> bool:
        return any("╰" in r and (p := _PLACE.search(r)) and (p.group(4) or p.group(1) == "1") for r in lines)
    lines = app.wait_for(at_top, what="the messages view at its top")
    while True:
        top = next(y for y, r in enumerate(lines) if "╭" in r and "Messages" in r)
        bottom = next(y for y in range(top + 1, len(lines)) if "╰" in lines[y] and _PLACE.search(lines[y]))
        left, right = lines[top].index(" Messages") - 2, lines[top].rindex("╮")
        m = _PLACE.search(lines[bottom])
        first, last, total = (int(m.group(1)), int(m.group(2)), int(m.group(3))) if m.group(1) else (1, int(m.group(4)), int(m.group(4)))
        for i, y in enumerate(range(top + 1, top + 1 + last - first + 1)):
            r = lines[y]
            assert r[left] == "│" and r[right] == "│", "\n".join(lines)
            rows[first + i] = r[left + 2:right - 1]
        if last >= total:
            break
        app.send_keys("NPage")
        lines = app.wait_for(lambda l: any("╰" in r and (p := _PLACE.search(r)) and p.group(1) and int(p.group(1)) > first
                                           for r in l), what="the next page of messages")
    assert sorted(rows) == list(range(1, total + 1)), rows
    return [rows[i] for i in range(1, total + 1)]


def test_a_message_longer_than_the_screen_is_read_whole_in_the_messages_view(lanes, tmp_path):
    # A path of about 1,000 characters: the message does not fit on a 50 × 12 screen (11 × 49 cells).
    editor = tmp_path
    for part in ("first-part-of-a-very-long-editor-path", "second", "third", "fourth", "fifth"):
        editor = editor / (part + "-" + "y" * 160)
    app = lanes(board_md(THREE), wait_for="a0", width=50, height=12,
                env={"EDITOR": str(editor), "VISUAL": ""})
    whole = f"The editor “{editor}” was not found; set $VISUAL or $EDITOR. The card is as it was"
    assert len(whole) > 11 * 49
    app.send_keys("E")
    # The status takes the screen and says how to read the rest.
    app.wait_for(lambda l: app.status().endswith("^ shows it whole"), what="the cut message naming ^")
    assert len(app.status_rows()) == 11, app.dump()
    app.send_keys("^")
    rows = _messages_view_rows(app)
    # The message's rows: from its time to the next time (or the end).
    start = next(i for i, r in enumerate(rows) if re.match(r"\d\d:\d\d:\d\d The editor", r))
    end = next((i for i in range(start + 1, len(rows)) if re.match(r"\d\d:\d\d:\d\d ", rows[i])), len(rows))
    text = "".join(r[9:].strip() for r in rows[start:end])
    assert text.replace(" ", "") == whole.replace(" ", ""), "\n".join(rows)
    assert "…" not in text
    # Esc closes it, and the board is back.
    app.send_keys("Escape")
    app.wait_for(lambda l: not any("Messages" in r for r in l) and any("a0" in r for r in l), what="the board again")
