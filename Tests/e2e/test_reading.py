"""Reading the board in a real terminal: card detail, a help that fits, done and WIP marks,
the compact view, whole emoji, fresh status words, real dates, unique column names, paging back."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from checks import quit_and_check
from lanes_harness import board_md, text_width

DESCRIPTION = ("The first paragraph explains why this card exists and goes on long enough to wrap "
               "over several lines of the detail view at any width we test. "
               "It ends with the word omega-tail.")

TASKELL = f"""## To do

- Write the report #docs #q3
    @ 2026-03-31
    > {DESCRIPTION}
    > Second line of notes.
    * [ ] gather figures
    * [ ] draft the text
    * [ ] final proofreading pass
- Plain card

## Done

- Old card
"""


def write_config(tmp_path: Path, text: str, index: int = 0) -> None:
    """The config the `index`-th app of a test reads (the fixture's workdir is tmp_path/w<index>)."""
    folder = tmp_path / f"w{index}-config" / "lanes"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config").write_text(text)


def joined(lines: list[str]) -> str:
    """The screen's text with box borders and runs of spaces squeezed, to find wrapped sentences."""
    inner = []
    for l in lines:
        l = l.replace("│", " ").strip()
        inner.append(l)
    return re.sub(r"\s+", " ", " ".join(inner))


# --- card detail ---------------------------------------------------------------------------------

@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
def test_enter_opens_the_whole_card_and_space_ticks_a_subtask(lanes, size):
    w, h = size
    app = lanes(TASKELL, wait_for="Write the report", width=w, height=h)
    app.send_keys("Enter")
    # The whole detail frame, not one caught half-written by the terminal (its last line drawn too).
    lines = app.wait_for(lambda l: any(" Card " in x for x in l) and "Description" in "".join(l)
                         and "The first paragraph explains why this card exists" in joined(l), what="the card detail")
    text = joined(lines)
    assert "Write the report #docs #q3" in text, app.dump()
    assert "Due: 2026-03-31" in text and "Tags: #docs #q3" in text and "Column: To do" in text, app.dump()
    # The description is wrapped in full, never cut with an ellipsis.
    assert "The first paragraph explains why this card exists" in text, app.dump()
    assert "…" not in "".join(lines[1:h - 2]), app.dump()
    # Scroll to the end: the rest of the description and every sub-task with its tick box.
    app.send_keys("End")
    lines = app.wait_for(lambda l: "final proofreading pass" in "".join(l), what="the last sub-task")
    text = joined(lines)
    assert "[ ] final proofreading pass" in text and "Sub-tasks 0/3" in text, app.dump()
    seen = joined(lines)
    app.send_keys("Home")
    app.wait_for(lambda l: "Write the report" in "".join(l[1:4]), what="the top again")
    assert "omega-tail." in seen + joined(app.capture()), app.dump()
    # Choose the last sub-task with down and tick it with space: one change in the file.
    app.send_keys("End", "Down", "Down", "Down")
    app.send_keys("Space")
    app.wait_status("Ticked “final proofreading pass” (3 of 3)")
    want = TASKELL.replace("* [ ] final proofreading pass", "* [x] final proofreading pass")
    app.wait_file(want)
    app.wait_for(lambda l: "[x] final proofreading pass" in "".join(l), what="the tick in the detail")
    # e edits the title from the detail and comes back to it.
    app.send_keys("e")
    app.wait_status("Title: Write the report")
    app.send_keys("C-u")
    app.send_literal("Report")
    app.send_keys("Enter")
    app.wait_for(lambda l: any(" Card " in x for x in l) and app.status(l).startswith("Title changed"), what="back in the detail")
    # Esc closes: the board again.
    app.send_keys("Escape")
    app.wait_for(lambda l: not any(" Card " in x for x in l) and "Plain card" in "".join(l), what="the board")
    want = want.replace("- Write the report #docs #q3", "- Report")
    quit_and_check(app, want)


def test_a_second_click_on_the_selected_card_opens_it(lanes):
    app = lanes(TASKELL, wait_for="Plain card", width=80, height=24)
    row = next(i for i, l in enumerate(app.capture()) if "Plain card" in l)
    app.mouse("press", 6, row)
    app.mouse("release", 6, row)
    app.wait_for(lambda l: "Plain card" in l[row], what="selection")
    assert not any(" Card " in x for x in app.capture()), app.dump()
    app.mouse("press", 6, row)
    app.mouse("release", 6, row)
    # The frame is drawn before its contents: wait for the whole detail, not only its border.
    app.wait_for(lambda l: any(" Card " in x for x in l) and "No description" in "".join(l) and "No sub-tasks" in "".join(l),
                 what="the detail, with its empty description and sub-tasks, after a second click")
    app.send_keys("Escape")
    app.wait_for(lambda l: not any(" Card " in x for x in l), what="the detail closed")
    quit_and_check(app, TASKELL)


# --- help ----------------------------------------------------------------------------------------

ACTIONS = None


def all_action_names(lanes_bin) -> list[str]:
    import subprocess
    out = subprocess.run([str(lanes_bin), "keys"], capture_output=True, text=True, check=True).stdout
    return [line.split("\t")[0] for line in out.splitlines()]


def test_help_scrolls_to_its_last_key_at_80x24_and_names_every_action(lanes, lanes_bin):
    names = all_action_names(lanes_bin)
    assert "toggle-compact" in names and "set-accepts" in names and len(names) >= 30
    app = lanes(board_md([("A", ["a"])]), wait_for="a", width=80, height=24)
    app.send_keys("?")
    lines = app.wait_for(lambda l: "Keys ·" in l[1], what="the help")
    seen = set()
    text = ""
    # Page down until the end: every action shows, each description whole.
    for _ in range(20):
        lines = app.capture()
        # The box's own columns (2..77): the board behind shows its borders at either side.
        text += " " + joined([r[2:78] for r in lines[2:22]])
        seen |= {n for n in names if re.search(rf"\b{re.escape(n)}\b", "\n".join(lines[2:22]))}
        if "· end" in lines[22]:
            break
        app.send_keys("PageDown")
        app.wait_for(lambda l, before=lines[2:22]: l[2:22] != before, what="the help to scroll")
    assert "· end" in app.capture()[22], app.dump()
    assert set(names) == seen, f"never shown: {set(names) - seen}\n{app.dump()}"
    assert "z toggle-compact switch between full cards and the compact view (one line per card)" in text
    assert "lift the selected card (then move it, and drop with space or enter)" in text
    # j and k scroll one row; esc closes.
    before = [r[2:78] for r in app.capture()[2:22]]
    app.send_keys("k")
    app.wait_for(lambda l: [r[2:78] for r in l[3:22]] == before[:19], what="one row up")
    app.send_keys("Escape")
    app.wait_for(lambda l: "Keys ·" not in l[1], what="the help closed")
    quit_and_check(app, board_md([("A", ["a"])]))


def test_clicking_help_in_the_title_bar_opens_it(lanes):
    app = lanes(board_md([("A", ["a"])]), wait_for="a", width=80, height=24)
    x = app.capture()[0].index("? help")
    app.mouse("press", x + 2, 0)
    app.mouse("release", x + 2, 0)
    app.wait_for(lambda l: "Keys ·" in l[1], what="the help after a click on ? help")
    app.send_keys("q")
    app.wait_for(lambda l: "Keys ·" not in l[1], what="q closes the help, not the app")
    quit_and_check(app, board_md([("A", ["a"])]))


# --- marks ---------------------------------------------------------------------------------------

OBSIDIAN = """---

kanban-plugin: board

---

## Doing

- [ ] Open task
- [x] Finished task


%% kanban:settings
```
{"kanban-plugin":"board"}
```
%%
"""


def dim_before(line_with_escapes: str, text: str) -> bool:
    """Whether the text is drawn dim (SGR 2) on this captured line."""
    i = line_with_escapes.index(text)
    last = line_with_escapes.rfind("\x1b[", 0, i)
    params = re.findall(r"\x1b\[([0-9;]*)m", line_with_escapes[:i])
    on = False
    for p in params:
        codes = p.split(";") if p else ["0"]
        for c in codes:
            if c in ("0", "22"):
                on = False
            elif c == "2":
                on = True
    return on and last >= 0


def test_done_cards_are_marked_and_dimmed_in_obsidian_and_x_toggles_the_file(lanes):
    app = lanes(OBSIDIAN, wait_for="Finished task", width=80, height=24)
    lines = app.capture()
    assert any("✓ Finished task" in l for l in lines) and not any("✓ Open task" in l for l in lines), app.dump()
    esc = app.capture(escapes=True)
    row = next(l for l in esc if "Finished task" in l)
    assert dim_before(row, "Finished task"), repr(row)
    open_row = next(l for l in esc if "Open task" in l)
    assert not dim_before(open_row, "Open task"), repr(open_row)
    app.send_keys("x")
    app.wait_status("Marked “Open task” done")
    app.wait_for("✓ Open task")
    want = OBSIDIAN.replace("- [ ] Open task", "- [x] Open task")
    app.wait_file(want)
    app.send_keys("u")
    app.wait_status("Undid mark done")
    app.wait_file(OBSIDIAN)
    quit_and_check(app, OBSIDIAN)


def test_taskell_cannot_store_a_done_mark_and_says_so_without_an_undo_step(lanes):
    board = board_md([("To do", ["a0", "a1"])])
    app = lanes(board, wait_for="a1", width=80, height=24)
    app.send_keys("x")
    app.wait_status("Taskell files have no done mark: nothing changed")
    assert not any("✓" in l for l in app.capture()), app.dump()
    app.send_keys("u")
    app.wait_status("Nothing to undo")
    quit_and_check(app, board)


def test_a_column_at_its_wip_limit_is_marked_at_rest(lanes):
    board = "## To do\n\n- a0\n\n## Doing (2)\n\n- b0\n- b1\n\n## Review (1)\n\n- r0\n- r1\n"
    app = lanes(board, wait_for="r1", width=100, height=24)
    head = app.capture()[1]
    assert "Doing 2/2 ● full" in head, app.dump()
    assert "Review 2/1 ▲ over" in head, app.dump()
    assert "To do 1" in head and "To do 1 ●" not in head, app.dump()
    esc = next(l for l in app.capture(escapes=True) if "Doing" in l)
    # Coloured: yellow (33) at the limit, red (31) over it.
    assert re.search(r"\x1b\[[0-9;]*33[0-9;]*m[^\x1b]*Doing", esc), repr(esc)
    quit_and_check(app, board)


# --- compact view --------------------------------------------------------------------------------

LONG = [("Long", [f"k{i:02d}" for i in range(30)]), ("Side", ["s0 has a description"])]


def visible_cards(lines: list[str]) -> int:
    return sum(len(re.findall(r"\bk\d\d\b", l[:39])) for l in lines[3:-1])


def test_compact_view_from_the_config_shows_twenty_cards_at_80x24_and_z_switches(lanes, tmp_path):
    write_config(tmp_path, "set view compact\n")
    app = lanes(board_md(LONG), wait_for="k00", width=80, height=24)
    lines = app.wait_for(lambda l: visible_cards(l) >= 19, what="a compact column")
    assert visible_cards(lines) == 20, app.dump()
    # One card per row, in order.
    assert [re.search(r"k\d\d", l).group(0) for l in lines[3:23]] == [f"k{i:02d}" for i in range(20)], app.dump()
    app.send_keys("z")
    app.wait_status("Full cards")
    lines = app.wait_for(lambda l: "╭" in l[3], what="boxed cards")
    assert visible_cards(lines) <= 7, app.dump()
    app.send_keys("z")
    app.wait_status("Compact view: one line per card")
    app.wait_for(lambda l: visible_cards(l) == 20, what="compact again")
    quit_and_check(app, board_md(LONG))


def test_dragging_in_the_compact_view_moves_the_card(lanes, tmp_path):
    write_config(tmp_path, "set view compact\n")
    app = lanes(board_md(LONG), wait_for="k00", width=80, height=24)
    app.wait_for(lambda l: visible_cards(l) == 20, what="a compact column")
    # k00 is on row 3 of Long (x 0–38); drag it onto Side (x 40–78), below its card.
    app.drag([(5, 3), (10, 4), (30, 5), (50, 5), (50, 6)])
    app.wait_status("Dropped “k00” in Side at position 2")
    after = [("Long", [f"k{i:02d}" for i in range(1, 30)]), ("Side", ["s0 has a description", "k00"])]
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


# --- whole graphemes -----------------------------------------------------------------------------

ZWJ = "\U0001F469\u200D\U0001F4BB"     # woman technologist
FLAG = "\U0001F1EF\U0001F1F5"           # flag of Japan
THUMB = "\U0001F44D\U0001F3FD"          # thumbs up, medium skin tone


def cells_to(line: str, needle: str, clusters: list[str]) -> int:
    """The cell where `needle` starts on a captured line, each cluster counted as 2 cells."""
    i = line.index(needle)
    head = line[:i]
    for c in clusters:
        head = head.replace(c, "##")
    return text_width(head)


@pytest.mark.parametrize("emoji", [ZWJ, FLAG], ids=["zwj", "flag"])
def test_a_multi_code_point_emoji_is_drawn_whole_and_the_row_stays_aligned(lanes, emoji):
    board = board_md([("A", [f"x {emoji} y"]), ("B", ["b"])])
    app = lanes(board, wait_for="b", width=80, height=24)
    lines = app.wait_for(lambda l: any("x " in r and " y" in r for r in l), what="the card")
    row = next(r for r in lines if "x " in r and " y" in r)
    assert f"x {emoji} y" in row, f"{row!r}\n{app.dump()}"
    # The card's right border is where the top border's corner is: nothing shifted.
    top = next(r for r in lines if "╭" in r)
    assert cells_to(row, "│ b" if "│ b" in row else "│", [emoji]) >= 0
    right_here = cells_to(row[row.index(" y"):], "│", []) + cells_to(row, " y", [emoji])
    assert right_here == text_width(top[:top.index("╮")]), f"{row!r} vs {top!r}\n{app.dump()}"
    quit_and_check(app, board)


def test_a_skin_tone_emoji_is_drawn_whole(lanes):
    board = board_md([("A", [f"x {THUMB} y"]), ("B", ["b"])])
    app = lanes(board, wait_for="b", width=80, height=24)
    lines = app.wait_for(lambda l: any("x " in r and " y" in r for r in l), what="the card")
    row = next(r for r in lines if "x " in r and " y" in r)
    # Base and modifier arrive together in one cell's text: never the base alone.
    assert f"x {THUMB} y" in row, f"{row!r}\n{app.dump()}"
    quit_and_check(app, board)


# --- fresh, true words ---------------------------------------------------------------------------

def test_a_successful_action_clears_an_old_error(lanes):
    board = board_md([("To do", ["a0"]), ("Doing", [])])
    app = lanes(board, wait_for="a0", width=80, height=24)
    app.send_keys("W")
    app.send_literal("many")
    app.send_keys("Enter")
    # Refused: the words above the prompt, which stays open with what was typed (#24).
    app.wait_for("A WIP limit is a whole number above 0")
    app.wait_status("WIP limit (empty for none): many")
    app.send_keys("C-u")
    app.send_literal("3")
    app.send_keys("Enter")
    status = app.wait_status("To do takes at most 3 cards")
    assert "whole number" not in status
    quit_and_check(app, board.replace("## To do", "## To do (3)"))


def test_hints_follow_the_keymap_after_unbind_q(lanes, tmp_path):
    write_config(tmp_path, "unbind q\nbind o help\nunbind ?\n")
    board = board_md([("A", ["a"])])
    app = lanes(board, wait_for="a", width=100, height=24)
    status = app.status()
    assert "q quit" not in status and "ctrl-c quit" in status and "o help" in status and "? help" not in status, status
    app.send_keys("C-c")
    assert app.wait_exit() == 0


def test_a_date_that_does_not_exist_is_refused_with_words(lanes):
    board = board_md([("To do", ["a0"])])
    app = lanes(board, wait_for="a0", width=100, height=24)
    app.send_keys("@")
    app.send_literal("2026-13-45")
    app.send_keys("Enter")
    # Refused: the words above the prompt, which stays open with what was typed (#24).
    app.wait_for("Not set: month 13 does not exist")
    app.wait_status("Due date (empty clears): 2026-13-45")
    app.send_keys("C-u")
    app.send_literal("2026-02-29")
    app.send_keys("Enter")
    app.wait_for("day 29 does not exist in “2026-02-29” (February 2026 has 28 days)")
    assert app.read_file().decode() == board
    app.send_keys("C-u")
    app.send_literal("2028-02-29")
    app.send_keys("Enter")
    app.wait_status("Due 2028-02-29")
    want = board.replace("- a0\n", "- a0\n    @ 2028-02-29\n")
    app.wait_file(want)
    quit_and_check(app, want)


def test_a_duplicate_column_name_is_refused_ignoring_case(lanes):
    board = board_md([("To do", ["a0"]), ("Doing", ["b0"])])
    app = lanes(board, wait_for="b0", width=100, height=24)
    app.send_keys("A")
    app.send_literal("doing")
    app.send_keys("Enter")
    # Refused: the words above the prompt, which stays open with what was typed (#24).
    app.wait_for("Not added: “doing” is the same name as the column “Doing” (case is ignored)")
    app.wait_status("New column: doing")
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    app.send_keys("R")
    app.wait_status("Column title: To do")
    app.send_keys("C-u")
    app.send_literal("DOING")
    app.send_keys("Enter")
    app.wait_for("Not renamed: “DOING” is the same name as the column “Doing” (case is ignored)")
    assert app.read_file().decode() == board
    app.send_keys("Escape")
    app.wait_status("Cancelled")
    assert len([h for h in app.capture()[1].split("  ") if h.strip()]) >= 2
    quit_and_check(app, board)


# --- paging --------------------------------------------------------------------------------------

def test_shrinking_and_growing_back_returns_to_one_page(lanes):
    cols = [(f"Col{k}", [f"c{k}"]) for k in range(4)]
    board = board_md(cols)
    app = lanes(board, wait_for="c3", width=120, height=40)
    assert "page" not in app.capture()[0], app.dump()
    app.send_keys("l", "l", "l")
    app.tmux.run("resize-window", "-t", app.name, "-x", "30", "-y", "10")
    app.wait_for(lambda l: "page" in l[0], what="pages at 30×10")
    app.tmux.run("resize-window", "-t", app.name, "-x", "120", "-y", "40")
    lines = app.wait_for(lambda l: len(l) >= 40 and all(f"Col{k}" in l[1] for k in range(4)), what="all four columns again")
    assert "page" not in lines[0], app.dump()
    assert lines[1].index("Col0") == 0, app.dump()
    quit_and_check(app, board)


# --- the action names on the command line ----------------------------------------------------------

def test_lanes_help_and_lanes_keys_name_every_action(lanes_bin):
    import subprocess
    keys = subprocess.run([str(lanes_bin), "keys"], capture_output=True, text=True)
    assert keys.returncode == 0, keys.stderr
    rows = [line.split("\t") for line in keys.stdout.splitlines()]
    assert all(len(r) == 3 for r in rows), keys.stdout
    table = {r[0]: r[1] for r in rows}
    assert table["toggle-done"] == "x" and table["quit"] == "q ctrl-c" and table["toggle-compact"] == "z"
    helped = subprocess.run([str(lanes_bin), "--help"], capture_output=True, text=True)
    text = re.sub(r"\s+", " ", helped.stdout)
    for name in table:
        assert re.search(rf"(: |, ){re.escape(name)}(,| \()", text), f"--help lacks {name}\n{helped.stdout}"
