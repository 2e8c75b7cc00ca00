"""Assertions shared by the e2e tests: what the screen must show, how a run must end."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from lanes_harness import HarnessError, LanesApp, Layout, sanitized, text_width


def assert_board_drawn(app: LanesApp, layout: Layout, columns: Sequence[tuple[str, Sequence[str]]],
                       lines: list[str] | None = None) -> None:
    """The header, every column's title, rule and cards are where the spec puts them."""
    lines = lines if lines is not None else app.capture()
    problems = []
    if f"Lanes · {app.board_name}" not in lines[0]:
        problems.append(f"header row 0 lacks 'Lanes · {app.board_name}'")
    if "? help" not in lines[0]:
        problems.append("header row 0 lacks '? help'")
    w = layout.col_w
    for k, (title, cards) in enumerate(columns):
        if k >= layout.per_page:
            break
        x = layout.col_x(k)
        head = app.text_at(x, 1, w, lines)
        if not head.startswith(f"{title} {len(cards)}"):
            problems.append(f"column {k} title row: expected {title!r} and count {len(cards)} at x={x}, "
                            f"found {head!r}")
        rule = app.text_at(x, 2, w, lines)
        if rule != "─" * w:
            problems.append(f"column {k} rule at row 2, x={x}: {rule!r}")
        for i, card in enumerate(cards):
            r = layout.card(k, i)
            if r.max_y > app.height - 1:
                break
            top = app.text_at(r.x, r.y, w, lines)
            bottom = app.text_at(r.x, r.max_y - 1, w, lines)
            if not (top.startswith("╭─") and top.endswith("─╮")):
                problems.append(f"card {card!r}: top border at ({r.x},{r.y}) is {top!r}")
            if not (bottom.startswith("╰─") and bottom.endswith("─╯")):
                problems.append(f"card {card!r}: bottom border at ({r.x},{r.max_y - 1}) is {bottom!r}")
            shown = sanitized(card.split("\n")[0])
            row = app.text_at(r.x, r.y + 1, w, lines)
            if not row.startswith("│ " + shown[: w - 4]) or not row.endswith("│"):
                problems.append(f"card {card!r}: title row at ({r.x},{r.y + 1}) is {row!r}")
    if problems:
        raise HarnessError("the board is not drawn as specified:\n  " + "\n  ".join(problems) + "\n" + app.dump())


def assert_mouse_modes_on(app: LanesApp) -> None:
    """The app asked the terminal (tmux) for button-event tracking in SGR encoding."""
    flags = app.fmt("#{mouse_button_flag} #{mouse_sgr_flag} #{alternate_on}")
    if flags != "1 1 1":
        raise HarnessError(f"expected mode 1002 and 1006 on and the alternate screen in use, "
                           f"tmux reports mouse_button/mouse_sgr/alternate_on = {flags!r}\n{app.dump()}")


def quit_and_check(app: LanesApp, expected: str | bytes, what: str = "", keep: Sequence[str] = ()) -> None:
    """q quits with status 0, the terminal is restored, the file holds exactly `expected`,
    and no temporary or lock file is left beside it (`keep`: other files that belong there)."""
    code = app.quit()
    if code != 0:
        raise HarnessError(f"lanes exited with status {code}\n{app.dump()}")
    flags = app.fmt("#{alternate_on} #{mouse_any_flag} #{mouse_button_flag} #{mouse_sgr_flag}")
    if flags != "0 0 0 0":
        raise HarnessError(f"terminal not restored after quitting: alternate/mouse any/button/sgr = {flags!r}")
    app.assert_file(expected, what)
    left = sorted(p.name for p in Path(app.workdir).iterdir() if p.name != app.board_name and p.name not in keep)
    if left:
        raise HarnessError(f"files left beside the board after quitting: {left}")


def marker_at(app: LanesApp, x: int, y: int, width: int, lines: list[str] | None = None) -> bool:
    t = app.text_at(x, y, width, lines)
    return t.startswith("▶━") and t.endswith("━◀")


def title_shown_at(app: LanesApp, layout: Layout, k: int, i: int, title: str,
                   lines: list[str] | None = None) -> bool:
    r = layout.card(k, i)
    return app.text_at(r.x, r.y + 1, layout.col_w, lines).startswith("│ " + sanitized(title)[: layout.col_w - 4])


__all__ = ["assert_board_drawn", "assert_mouse_modes_on", "quit_and_check", "marker_at", "title_shown_at",
           "text_width"]
