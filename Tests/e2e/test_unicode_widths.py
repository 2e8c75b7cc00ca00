"""No string of zero-width characters, combining marks, emoji sequences, flags, keycaps or wide
CJK paints a cell outside its card or its card view, in a real terminal (#25 point 5)."""

from __future__ import annotations

import unicodedata

from lanes_harness import board_md

CORPUS = [
    "a\u200bb zwsp", "x\u200dy zwj", "\u0301lone mark", "e\u0301\u0302\u0303 stacked", "\u200b\u200b", "\u200d\u200d\u200d",
    "\ufe0f\ufe0f vs", "snow \u2603\ufe0e text", "snow \u2603\ufe0f emoji", "a\ufe0f letter vs",
    "family \U0001F468\u200d\U0001F469\u200d\U0001F467 z", "\U0001F469\u200d\U0001F4BB\u200d end",
    "flag \U0001F1EB\U0001F1F7 z", "keycap 1\ufe0f\u20e3 z", "cjk 看板看板 z", "word\u2060joiner \ufeffbom",
    "rtl \u200fmark\u200e", "tone \U0001F44D\U0001F3FD z",
]


def cells(line: str) -> list[str]:
    """A captured line as tmux 3.3 lays it out: a character of no width (mark, format) joins
    the cell before it, a character after a ZWJ joins the ZWJ's cell, East Asian wide ones and
    emoji take two cells ('' for the second)."""
    out: list[str] = []
    glue = False
    for ch in line:
        cat = unicodedata.category(ch)
        if out and (glue or cat in ("Mn", "Me", "Cf")):
            out[-1 if out[-1] != "" else -2] += ch
            glue = ch == "\u200d"
            continue
        glue = False
        out.append(ch)
        if unicodedata.east_asian_width(ch) in ("W", "F") or 0x1F300 <= ord(ch) <= 0x1FAFF:
            out.append("")
    return out


def test_zero_width_emoji_and_cjk_stay_inside_cards_and_the_card_view(lanes):
    cards = [c for c in CORPUS]
    text = "## Unicode\n\n" + "".join(f"- {c}\n    > {c} desc\n" for c in cards) + "\n## Second\n\n- b0\n"
    app = lanes(text, wait_for="b0", width=70, height=80)
    lines = app.wait_for("tone", what="the last card")
    # Two columns of 34 cells: x 0..33 and 35..68. Every card row has its borders exactly there.
    rows = [y for y, l in enumerate(lines) if l.startswith("│")]
    assert len(rows) >= 2 * len(cards), app.dump()
    bad = []
    for y in rows:
        c = cells(lines[y])
        if len(c) < 34 or c[0] != "│" or c[33] != "│" or any(x == "│" for x in c[1:33]):
            bad.append(f"row {y}: {lines[y]!r} → {len(c)} cells")
    assert not bad, "\n".join(bad) + "\n" + app.dump()
    # Nothing invisible is left on a border or after it.
    for y, l in enumerate(lines):
        assert "\u200d│" not in l and "\u200b│" not in l and "\ufe0f│" not in l, f"row {y}: {l!r}\n{app.dump()}"

    # The card view of every card: its box keeps its borders on every row.
    for i, card in enumerate(cards):
        app.send_keys("Enter")
        # The box is painted top to bottom and tmux may be read between two writes of one frame:
        # its closing corner at x 68 says the whole box is on the screen.
        shown = app.wait_for(
            lambda l: any("Description" in x for x in l)
            and any(len(c := cells(x)) > 68 and c[1] == "╰" and c[68] == "╯" for x in l),
            what=f"the whole card view of card {i}")
        box_rows = [l for l in shown if "│" in l and ("Column:" in l or "desc" in l or "Description" in l)]
        for l in box_rows:
            c = cells(l)
            # The box is centred: 68 wide from x 1 (width - 2, at most 76).
            assert len(c) >= 69 and c[1] == "│" and c[68] == "│", f"card {i}: {l!r}\n{app.dump()}"
        app.send_keys("Escape")
        app.wait_for(lambda l: not any("Description" in x for x in l), what="the card view closed")
        app.send_keys("j")
    app.quit()
