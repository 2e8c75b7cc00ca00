"""Hostile card text, resizes mid-drag, the starter board, the board lock, pages."""

from __future__ import annotations

import re
import time

import pytest

from checks import assert_board_drawn, quit_and_check, title_shown_at
from lanes_harness import (
    REPO, Layout, board_md, every_once, line_between, sanitized, stat_key, to_cells,
)

EVIL = "evil \x1b[31mred\x1b[0m \x07 title"
OSC = "\x1b]2;pwned\x07osc"

_SGR = re.compile(r"\x1b\[([0-9;:]*)m")


def red_cells(lines: list[str]) -> list[str]:
    """SGR sequences in a `capture-pane -e` dump that turn the foreground red."""
    found = []
    for line in lines:
        for m in _SGR.finditer(line):
            params = m.group(1).replace(":", ";").split(";")
            if "31" in params or "91" in params or "38;5;1" in ";".join(params) or "38;5;9" in ";".join(params):
                found.append(m.group(0))
    return found


def test_control_characters_in_titles_are_shown_safely_and_kept(lanes):
    before = [("To do", [EVIL, OSC, "a2"]), ("Doing", ["b0"])]
    after = [("To do", [OSC, "a2"]), ("Doing", ["b0", EVIL])]
    raw = board_md(before).encode()
    assert b"\x1b[31m" in raw and b"\x07" in raw
    app = lanes(raw, wait_for="a2")
    L = Layout.simple(100, 30, before)
    lines = app.wait_for(lambda l: title_shown_at(app, L, 0, 0, EVIL, l), what="the evil title with placeholders")
    shown = sanitized(EVIL)
    assert shown == "evil ^[[31mred^[[0m ^G title"
    assert any(shown in l for l in lines), "the ^[ placeholders are not on the screen"
    assert any(sanitized(OSC) in l for l in lines)
    # Geometry intact: every border where it belongs, nothing shifted by a swallowed sequence.
    assert_board_drawn(app, L, before, lines)
    assert app.fmt("#{window_bell_flag}") == "0", "a BEL from a card title reached the terminal"
    assert "pwned" not in app.fmt("#{pane_title}"), "an OSC from a card title set the window title"
    reds = red_cells(app.capture(escapes=True))
    assert not reds, f"text turned red: a colour sequence from a title reached the terminal: {reds!r}"

    start = L.title_point(0, 0)
    app.drag([start] + line_between(start, L.lower(1, 0), 5))
    app.wait_status("Dropped “" + shown + "” in Doing at position 2")
    app.wait_file(board_md(after).encode(), what="with the raw control bytes kept exactly")
    L2 = Layout.simple(100, 30, after)
    lines = app.wait_for(lambda l: title_shown_at(app, L2, 1, 1, EVIL, l), what="the evil card drawn in Doing")
    assert_board_drawn(app, L2, after, lines)
    assert app.fmt("#{window_bell_flag}") == "0"
    assert not red_cells(app.capture(escapes=True))
    quit_and_check(app, board_md(after).encode())


def test_pasted_control_characters_are_shown_safely_kept_and_the_file_reopens(lanes):
    """The same hostile title arriving by bracketed paste into the add prompt: shown with
    placeholders, saved raw, moved by mouse with its bytes intact, and the board opens again."""
    start = [("To do", ["a0", "a1"]), ("Doing", ["b0"])]
    app = lanes(board_md(start), wait_for="a0")
    shown = sanitized(EVIL)
    app.send_keys("a")
    app.wait_status("New card:")
    app.send_literal("\x1b[200~" + EVIL + "\x1b[201~")
    app.wait_status("New card: " + shown)
    app.send_keys("Enter")
    added = [("To do", ["a0", EVIL, "a1"]), ("Doing", ["b0"])]
    app.wait_file(board_md(added).encode(), what="with the pasted control bytes kept exactly")
    L = Layout.simple(100, 30, added)
    lines = app.wait_for(lambda l: title_shown_at(app, L, 0, 1, EVIL, l), what="the pasted title with placeholders")
    assert_board_drawn(app, L, added, lines)
    assert app.fmt("#{window_bell_flag}") == "0", "a BEL from a card title reached the terminal"
    assert not red_cells(app.capture(escapes=True)), "a colour sequence from a title reached the terminal"

    p = L.title_point(0, 1)
    app.drag([p] + line_between(p, L.lower(1, 0), 5))
    app.wait_status("Dropped “" + shown + "” in Doing at position 2")
    moved = [("To do", ["a0", "a1"]), ("Doing", ["b0", EVIL])]
    app.wait_file(board_md(moved).encode())
    quit_and_check(app, board_md(moved).encode())

    # What Lanes wrote, Lanes must read back.
    again = lanes(None, wait_for=None, workdir=app.workdir)
    again.wait_for(lambda l: "b0" in "\n".join(l) or any(x.startswith("LANES-EXIT:") for x in l),
                   what="the board to reopen (or lanes to exit)")
    lines = again.capture()
    assert not any(x.startswith("LANES-EXIT:") for x in lines), \
        f"lanes cannot reopen the board it saved itself:\n{again.dump()}"
    L2 = Layout.simple(100, 30, moved)
    again.wait_for(lambda l: title_shown_at(again, L2, 1, 1, EVIL, l), what="the hostile card after reopening")
    quit_and_check(again, board_md(moved).encode())


THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
THREE_AFTER = [("To do", ["a1", "a2"]), ("Doing", ["b0", "b1", "a0", "b2"]), ("Done", ["c0"])]
ALL = ["a0", "a1", "a2", "b0", "b1", "b2", "c0"]


def wait_size(app, w, h):
    app.wait_for(lambda l: app.fmt("#{pane_width}x#{pane_height}") == f"{w}x{h}", what=f"the pane to be {w}x{h}")
    app.width, app.height = w, h
    if w < 24 or h < 8:
        app.wait_for("Terminal too small", what="the too-small notice")
    else:
        app.wait_for(lambda l: app.text_at(w - 7, 0, 6, l) == "? help", what=f"the header redrawn for width {w}")


@pytest.mark.parametrize("size", [(60, 20), (140, 40), (20, 6)], ids=["shrink", "grow", "too-small"])
def test_resize_during_drag_loses_no_card(lanes, size):
    app = lanes(board_md(THREE), wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    start, over = L.title_point(0, 0), L.lower(1, 1)
    app.mouse("press", *start)
    for p in line_between(start, over, 4):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("Over Doing, position 3 of 4")

    w, h = size
    app.tmux.run("resize-window", "-t", app.name, "-x", str(w), "-y", str(h))
    wait_size(app, w, h)
    if w >= 24 and h >= 8:
        # Keep dragging in the new layout and release on the lower half of b1.
        L2 = Layout.simple(w, h, THREE)
        target = L2.lower(1, 1)
        for p in line_between(over, target, 3):
            app.mouse("drag", min(p[0], w - 1), min(p[1], h - 1))
            time.sleep(0.02)
        app.mouse("release", *target)
    else:
        app.mouse("drag", 3, 3)
        app.mouse("release", 3, 3)
        # The too-small notice has no status line: look at the outcome at the first size.
        app.tmux.run("resize-window", "-t", app.name, "-x", "100", "-y", "30")
        wait_size(app, 100, 30)
    app.wait_for(lambda l: any(s in app.status(l) for s in ("Dropped “a0”", "Released outside: “a0”",
                                                            "Cancelled: “a0”")),
                 what="the drag to have ended (dropped, released outside or cancelled)")
    outcome = app.status()

    # Back to the first size: the screen must show exactly what the file holds.
    app.tmux.run("resize-window", "-t", app.name, "-x", "100", "-y", "30")
    wait_size(app, 100, 30)
    if "Dropped" in outcome:
        # The status speaks at the drop; the save lands right after it.
        app.wait_file(board_md(THREE_AFTER), what=f"the drop saved (status {outcome!r})")
    text = app.read_file().decode()
    problems = every_once(text, ALL)
    assert not problems, f"after {outcome!r}: {problems}\n{text}"
    assert text in (board_md(THREE), board_md(THREE_AFTER)), f"unexpected board after {outcome!r}:\n{text}"
    if "Dropped" in outcome:
        assert text == board_md(THREE_AFTER), f"status says {outcome!r} but the file is\n{text}"
    else:
        assert text == board_md(THREE), f"status says {outcome!r} but the file is\n{text}"
    final = THREE_AFTER if text == board_md(THREE_AFTER) else THREE
    app.wait_for(lambda l: title_shown_at(app, Layout.simple(100, 30, final), 1, 0, "b0", l), what="the board redrawn")
    assert_board_drawn(app, Layout.simple(100, 30, final), final)
    print(f"resize {size}: {outcome}")
    quit_and_check(app, text)


def test_resize_during_keyboard_lift_keeps_the_card(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    app.send_keys("Space")
    app.wait_status("Picked up “a0” from To do, position 1")
    app.send_keys("Right")
    app.wait_status("Over Doing, position 1 of 4")
    app.tmux.run("resize-window", "-t", app.name, "-x", "70", "-y", "24")
    wait_size(app, 70, 24)
    app.wait_for(lambda l: any(s in app.status(l) for s in ("Cancelled", "Over")), what="the lift to be handled")
    app.send_keys("Enter")  # drops if still lifted, opens the card otherwise
    lines = app.wait_for(lambda l: "─ Card ─" in "\n".join(l) or "Dropped" in app.status(l), what="the drop or the card")
    if "─ Card ─" in "\n".join(lines):
        app.send_keys("Escape")
        app.wait_for(lambda l: "─ Card ─" not in "\n".join(l), what="the card view to close")
    # q saves what is pending: the file then holds every card exactly once.
    assert app.quit() == 0, app.dump()
    assert app.fmt("#{alternate_on} #{mouse_button_flag}") == "0 0", "terminal not restored after quitting"
    text = app.read_file().decode()
    assert not every_once(text, ALL), every_once(text, ALL)


def test_missing_file_is_created_from_the_starter_board(lanes):
    app = lanes(None, wait_for="Created new.md from the starter board", board_name="new.md",
                args=["new.md"])
    starter = (REPO / "Resources" / "starter.md").read_bytes()
    app.wait_file(starter, what="(the starter board, written when the board opens)")
    app.wait_for("│ Drag me to “Doing” with the", what="the first starter card")
    quit_and_check(app, starter)


def test_two_instances_on_one_board_both_save_and_see_each_other(lanes):
    """No session lock: a second Lanes on the same file works, and each sees the other's moves."""
    app = lanes(board_md(THREE), wait_for="a0")
    other = lanes(None, wait_for="a0", workdir=app.workdir)
    # The first moves a0 down; the second sees it within a second, then moves b0 down.
    app.send_keys("J")
    after = [("To do", ["a1", "a0", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
    app.wait_file(board_md(after))
    other.wait_status("1 card changed elsewhere", timeout=3)
    L = Layout.simple(100, 30, after)
    other.wait_for(lambda l: other.text_at(*L.title_point(0, 0, dx=2), 2, l) == "a1", what="a1 first in the second view")
    # Its selection followed a0 to row 2; `g` takes the first card of the next column, b0.
    other.send_keys("l", "g", "J")
    both = [("To do", ["a1", "a0", "a2"]), ("Doing", ["b1", "b0", "b2"]), ("Done", ["c0"])]
    other.wait_file(board_md(both))
    app.wait_status("1 card changed elsewhere", timeout=3)
    app.wait_for(lambda l: app.text_at(*L.title_point(1, 0, dx=2), 2, l) == "b1", what="b1 first in the first view")
    quit_and_check(other, board_md(both))
    quit_and_check(app, board_md(both))


def test_pages_when_columns_do_not_fit(lanes):
    cols = [("A", ["a0"]), ("B", ["b0"]), ("C", ["c0"]), ("D", ["d0"]), ("E", ["e0", "e1", "e2"])]
    app = lanes(board_md(cols), wait_for="d0")
    L = Layout.simple(100, 30, cols)
    assert L.per_page == 4 and L.col_w == 24
    lines = app.capture()
    assert "◀ page 1/2 ▶" in lines[0], app.dump()
    assert_board_drawn(app, L, cols[:4], lines)
    # Click the ▶ of the page indicator.
    cells = to_cells(lines[0])
    x = max(i for i, c in enumerate(cells) if c == "▶")
    app.mouse("press", x, 0)
    app.mouse("release", x, 0)
    app.wait_status("Page 2 of 2")
    app.wait_for(lambda l: "◀ page 2/2 ▶" in l[0], what="the page indicator to say 2/2")
    app.wait_for(lambda l: app.text_at(0, 1, 3, l) == "E 3", what="column E first on page 2")
    # Drag e0 below e2 on page 2.
    start = L.title_point(4, 0)
    app.drag([start] + line_between(start, L.lower(4, 2), 4))
    app.wait_status("Dropped “e0” in E at position 3")
    after = cols[:4] + [("E", ["e1", "e2", "e0"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_file_changed_on_disk_is_taken_in(lanes):
    app = lanes(board_md(THREE), wait_for="a0")
    # Another program rewrites the board (atomically, as editors and git do).
    changed = [("To do", ["a0", "a1", "a2", "new from outside"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
    tmp = app.board_path.with_name(".board.md.tmp")
    tmp.write_text(board_md(changed))
    tmp.replace(app.board_path)
    app.wait_for("new from outside", timeout=5, what="the board reloaded from disk")
    app.wait_status("1 card changed elsewhere")
    L = Layout.simple(100, 30, changed)
    p = L.title_point(0, 3)
    app.drag([p] + line_between(p, L.upper(1, 0), 5))
    app.wait_status("Dropped “new from outside” in Doing at position 1")
    after = [("To do", ["a0", "a1", "a2"]), ("Doing", ["new from outside", "b0", "b1", "b2"]), ("Done", ["c0"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_resize_moves_the_source_column_off_the_page_mid_drag(lanes):
    """c0 is dragged from Done; the window shrinks so Done is on page 2 and not shown.
    The drag goes on and the drop on Doing lands where the marker says."""
    app = lanes(board_md(THREE), wait_for="c0")
    L = Layout.simple(100, 30, THREE)
    start, over = L.title_point(2, 0), L.lower(1, 1)
    app.mouse("press", *start)
    for p in line_between(start, over, 4):
        time.sleep(0.02)
        app.mouse("drag", *p)
    app.wait_status("Over Doing, position 3 of 4")
    app.tmux.run("resize-window", "-t", app.name, "-x", "60", "-y", "20")
    wait_size(app, 60, 20)
    app.wait_for(lambda l: "◀ page 1/2 ▶" in l[0], what="two pages at 60 columns")
    L2 = Layout.simple(60, 20, THREE)
    target = L2.lower(1, 1)
    for p in line_between((59, over[1]), target, 3):
        app.mouse("drag", *p)
        time.sleep(0.02)
    app.wait_status("Over Doing, position 3 of 4")
    app.mouse("release", *target)
    app.wait_status("Dropped “c0” in Doing at position 3")
    after = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "c0", "b2"]), ("Done", [])]
    app.wait_file(board_md(after))
    assert not every_once(app.read_file().decode(), ALL)
    quit_and_check(app, board_md(after))
