"""#25 point 8 in a real emulator: the window shrinks (and grows) while a card is dragged with a real
pointer over cards with descriptions; every card's `≡` is drawn once.

xterm on Xvfb (see test_real_terminals.py for the harness): the pointer presses on a card whose
description shows `≡`, glides over another column's described cards, and then the X window is resized
with xdotool to odd sizes while the button stays down, the pointer moving on after each. The relay
passes each new size to Lanes' terminal; the mirror pane is set to the same size, and what Lanes drew is
read there after each resize: no card shows `≡` twice, no `≡` is off a card's text column, and the
drop lands where the status said.
"""

from __future__ import annotations

import re

import pytest

from lanes_harness import line_between
from test_real_terminals import RealLanes, emulator_param, real, xserver  # noqa: F401 (fixtures)
from xharness import wait_until, xdo

D = "\n    > notes"
COLUMNS = [
    ("To do", [f"a{i}" + (D if i % 2 == 0 else "") for i in range(12)]),
    ("Doing", [f"g{i}" + (D if i % 3 != 1 else "") for i in range(10)]),
    ("Done", [f"n{i}" + D for i in range(4)]),
]
DESCRIBED = sum(c.count(D) > 0 for _, cards in COLUMNS for c in cards)


def boxes(lines: list[str]) -> list[tuple[int, int, int, int]]:
    """Card frames (x, y, right, bottom) whose four corners are on screen."""
    found = []
    for y, row in enumerate(lines):
        for x, ch in enumerate(row):
            if ch != "╭":
                continue
            right = row.find("╮", x + 1)
            if right < 0:
                continue
            for y2 in range(y + 1, len(lines)):
                c = lines[y2][x] if x < len(lines[y2]) else " "
                if c == "╰":
                    found.append((x, y, right, y2))
                    break
                if c != "│":
                    break
    return found


def problems(lines: list[str]) -> list[str]:
    out = []
    if "".join(lines).count("≡") > DESCRIBED:
        out.append(f"{''.join(lines).count('≡')} ≡ for {DESCRIBED} described cards")
    for y, row in enumerate(lines):
        for x, ch in enumerate(row):
            # A card's ≡ starts its badge row, after "│ " (or the marker's end drawn on the ghost's border,
            # "▶ "); only a ghost cut by the left edge shows it at x < 2.
            if ch == "≡" and x >= 2 and row[x - 2:x] not in ("│ ", "▶ "):
                out.append(f"≡ off a card's text column at {x},{y}")
    for x, y, right, bottom in boxes(lines):
        n = sum(1 for r in range(y + 1, bottom) if len(lines[r]) > x + 2 and lines[r][x + 2] == "≡"
                and lines[r][x] in "│▶")
        if n > 1:
            out.append(f"card at {x},{y} shows ≡ {n} times")
    return out


SEQUENCES = [
    [(61, 19), (45, 15), (100, 30)],
    [(79, 23), (37, 11), (53, 17)],
    [(41, 29), (99, 13), (67, 21)],
]


@pytest.mark.parametrize("setup", ["plain", "marked", "scrolled"])
@pytest.mark.parametrize("sizes", SEQUENCES, ids=lambda s: "-".join(f"{c}x{r}" for c, r in s))
@pytest.mark.parametrize("emulator", [emulator_param("xterm")])
def test_resizing_the_window_mid_drag_draws_every_card_once(real, emulator, sizes, setup):
    app: RealLanes = real(emulator, columns=COLUMNS)
    m = app.mirror
    lines = m.wait_for(lambda l: "a0" in "".join(l) and "≡" in "".join(l), what="the board with ≡ marks")
    assert not problems(lines), m.dump()
    card = "a0"
    if setup == "marked":
        # a0 and a2 marked (both described): the drag of a0 carries a2, which stays drawn in place.
        app.x.key("v", "j", "j", "v", "k", "k")
        m.wait_for(lambda l: "".join(l).count("●") == 2, what="two marks")
    elif setup == "scrolled":
        # To do and Doing scrolled down by the wheel: the drag starts from a card lower in the list.
        for col in (5, 40):
            app.move((col, 12))
            for _ in range(3):
                xdo(app.x.env, "click", "5")
        lines = m.wait_for(lambda l: "▲ more" in "".join(l), what="the columns scrolled")
        card = next(t for t in ("a4", "a3", "a2", "a1") if any(re.search(rf"│ {t}\b", l) for l in lines))
    lines = m.capture()
    # Press on the card (described or not) and glide over Doing's described cards.
    y0 = next(y for y, l in enumerate(lines) if re.search(rf"│ {card}\b", l))
    x0 = lines[y0].index(card)
    app.pick_up((x0, y0), card)
    app.glide((x0 + 1, y0), (x0 + 36, y0 + 5), 8)
    m.wait_for(lambda l: "over doing" in m.status(l).lower(), what="the card over Doing")
    w0, h0 = app.x.geometry[2], app.x.geometry[3]
    g = app.grid
    for step, (cols, rows) in enumerate(sizes):
        winches = len([l for l in app.x.log_lines() if l.startswith("WINCH ")])
        m.tmux.run("resize-window", "-t", m.name, "-x", str(cols), "-y", str(rows))
        m.width, m.height = cols, rows
        px, py = int(w0 - (100 - cols) * g.cw), int(h0 - (30 - rows) * g.ch)
        xdo(app.x.env, "windowsize", app.x.window, str(px), str(py))
        got = app.x.wait_log("WINCH ", winches + 1, timeout=10)[-1].split()
        assert (int(got[1]), int(got[2])) == (cols, rows), f"xterm took {got[1:]} for {cols}x{rows} ({px}x{py} px)"
        # The pointer moves on inside the new window, over a described card of the second column when one shows.
        lines = m.wait_for(lambda l: len(l) <= rows and m.status(l) != "", what=f"the frame at {cols}x{rows}")
        target = next(((lines[y].index("≡"), y) for y in range(len(lines)) if "≡" in lines[y][cols // 3:]
                       and lines[y].index("≡") >= cols // 3), (cols // 2, rows // 2))
        app.glide((min(cols - 2, x0 + 2), min(rows - 3, 4)), (min(cols - 2, target[0]), min(rows - 2, target[1])), 6)
        wait_until(lambda: m.status() != "", 5, "a status")
        lines = m.wait_for(lambda l: "over" in m.status(l).lower() or "Dragging" in m.status(l), what="the drag still under way")
        assert not problems(lines), f"step {step} at {cols}x{rows}: {problems(lines)}\n" + m.dump()
    app.x.release()
    m.wait_for(lambda l: "Dropped" in m.status(l) or "Cancelled" in m.status(l) or "Moved" in m.status(l)
               or "back" in m.status(l), what="the drag ended")
    lines = m.capture()
    assert not problems(lines), m.dump()
