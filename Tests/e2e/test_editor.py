"""E hands the terminal to $EDITOR with the card as a small Markdown file, and takes it back."""

from __future__ import annotations

import stat

from checks import quit_and_check
from lanes_harness import board_md


def test_editing_a_card_in_the_editor(lanes, tmp_path):
    editor = tmp_path / "editor.sh"
    # A scripted editor: it checks it was given the card, then adds a description and a sub-task.
    editor.write_text(
        "#!/bin/sh\n"
        "grep -q '^- first$' \"$1\" || exit 3\n"
        "printf '    > added by the editor\\n    * [ ] new step\\n' >> \"$1\"\n"
    )
    editor.chmod(editor.stat().st_mode | stat.S_IXUSR)
    app = lanes(board_md([("A", ["first", "second"])]), wait_for="second", env={"EDITOR": str(editor), "VISUAL": ""})
    app.send_keys("E")
    app.wait_status("Card updated")
    # The terminal is back: alternate screen and mouse tracking on again, the hint line drawn.
    app.wait_for("☑ 0/1", what="the edited card's hint line")
    assert app.fmt("#{alternate_on} #{mouse_button_flag}") == "1 1", app.dump()
    expected = "## A\n\n- first\n    > added by the editor\n    * [ ] new step\n- second\n"
    app.wait_file(expected)
    app.send_keys("u")
    app.wait_file(board_md([("A", ["first", "second"])]))
    quit_and_check(app, board_md([("A", ["first", "second"])]))
