"""Issue #31: dragging in real terminal emulators under Xvfb, with a real pointer.

Each test starts an emulator (xterm; lxterminal, the VTE engine of GNOME Terminal and
xfce4-terminal) on a private X server, 100x30 cells, running Lanes on a board in a fresh
folder, and drives it with X's XTEST pointer and keyboard (xdotool): a person's mouse, so the
emulator itself turns the pointer into the mouse reports Lanes reads. Cell positions in pixels
are measured from the emulator's own reports (xharness.CellGrid.measure), once per emulator.

What Lanes drew is read through a mirror (a tmux pane fed the same output bytes, see
xharness), the emulator's pixels with `xwd` (the ghost mid-drag), the board file for what was
stored. Every wait is for one of those to show something.

At the end of each test Lanes quits with `q`; then the same terminal is clicked, dragged in,
and loses and regains focus, and the test asserts that not one byte (no mouse or focus
report) reached the program reading it.

The kitty case (no release once the pointer leaves its window; a button-less motion when it
comes back, with any-motion tracking on) is tested here in tmux with the exact bytes kitty
sends, as is a focus-out mid-drag and marking with clicks that carry no modifier bits (what
qterminal sends for alt- and ctrl-clicks).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from checks import quit_and_check
from lanes_harness import LanesApp, Layout, board_md, line_between, sgr, stat_key, watchdog
from xharness import EMULATORS, CellGrid, XError, XServer, XSession, emulator_table, wait_until

COLS, ROWS = 100, 30
THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
# a0 dropped on the lower half of b1: the 3rd card of Doing.
THREE_AFTER = [("To do", ["a1", "a2"]), ("Doing", ["b0", "b1", "a0", "b2"]), ("Done", ["c0"])]
# Then b0 dropped on the lower half of a0: after it.
REORDERED = [("To do", ["a1", "a2"]), ("Doing", ["b1", "a0", "b0", "b2"]), ("Done", ["c0"])]

# Per emulator: the measured grid and the window size it was measured at.
_grids: dict[str, tuple[CellGrid, tuple[int, int]]] = {}


@pytest.fixture(scope="session")
def xserver(tmp_path_factory):
    server = XServer(tmp_path_factory.mktemp("xvfb"))
    if not server.start():
        pytest.skip(f"real-terminal tests need an X server: {server.why_not}")
    yield server
    server.stop()


def emulator_param(name: str):
    emu = EMULATORS[name]
    return pytest.param(emu, id=name, marks=pytest.mark.skipif(
        not emu.available(), reason=f"{name} is not installed (scripts/ensure-deps test installs {emu.package})"))


ALL = [emulator_param(n) for n in EMULATORS]


class RealLanes:
    """Lanes in one emulator window: the pointer in cells, the mirror's screen, the board file."""

    def __init__(self, xserver: XServer, tmux_server, lanes_bin: Path, emulator, workdir: Path, columns):
        self.workdir = workdir
        workdir.mkdir(parents=True)
        self.board = workdir / "board.md"
        self.board.write_bytes(board_md(columns).encode())
        self.layout = Layout.simple(COLS, ROWS, columns)
        name = f"mirror-{workdir.name}"
        # The mirror pane: raw, no echo, no output processing, so it draws exactly Lanes' bytes.
        tmux_server.run("new-session", "-d", "-s", name, "-x", str(COLS), "-y", str(ROWS),
                        f"stty raw -echo -opost; printf MIRROR-READY; {watchdog()}")
        self.mirror = LanesApp(tmux_server, name, lanes_bin, workdir, "board.md", "xterm", COLS, ROWS)
        self.mirror.started = True
        self.mirror.wait_for("MIRROR-READY", what="the mirror pane to be raw")
        tty = self.mirror.fmt("#{pane_tty}")
        config = workdir / "config"
        (config / "lxterminal").mkdir(parents=True, exist_ok=True)
        # lxterminal: no menu bar or scroll bar (as many users set it); nothing else changed.
        (config / "lxterminal" / "lxterminal.conf").write_text("[general]\nhidemenubar=true\nhidescrollbar=true\n")
        command = ["env", f"XDG_CONFIG_HOME={config}", f"HOME={workdir}", "LC_ALL=C.UTF-8", "LANG=C.UTF-8",
                   str(lanes_bin), "board.md"]
        known = _grids.get(emulator.name)
        self.x = XSession(xserver, emulator, workdir, command, COLS, ROWS, tty, probe=known is None)
        try:
            self.x.wait_log("READY")
            self.x.focus(self.x.window)
            if known is None:
                self.x.wait_log("PROBING")  # the emulator has read the mouse modes: clicks are reported
                w, h = self.x.geometry[2], self.x.geometry[3]
                grid = CellGrid.measure(self._probe_clicks, (COLS, ROWS),
                                        (int(w * 0.2), int(h * 0.25), int(w * 0.8), int(h * 0.8)), (w, h))
                _grids[emulator.name] = (grid, (w, h))
                self.x.key("Z")
                self.x.wait_log("PROBE-DONE")
                known = _grids[emulator.name]
            elif known[1] != self.x.geometry[2:]:
                raise XError(f"the {emulator.name} window is {self.x.geometry[2:]}, measured at {known[1]}")
            self.grid = known[0]
            self.x.wait_log("LANES-START")
            self.mirror.wait_for(lambda l: "a0" in "".join(l) and self.mirror.status(l) != "",
                                 timeout=15, what="the board and its status line")
        except BaseException:
            self.close()
            raise

    def _probe_clicks(self, points: list[tuple[int, int]]) -> list[tuple[int, int]]:
        n = len([l for l in self.x.log_lines() if l.startswith("CLICK ")])
        self.x.click_many(points)
        lines = self.x.wait_log("CLICK ", n + len(points), timeout=10)[n:n + len(points)]
        return [(int(l.split()[1]), int(l.split()[2])) for l in lines]

    # ----- the pointer, in cells

    def move(self, cell: tuple[int, int]) -> None:
        self.x.move(*self.grid.center(*cell))

    def press_at(self, cell: tuple[int, int]) -> None:
        self.move(cell)
        self.x.press()

    def glide(self, a: tuple[int, int], b: tuple[int, int], steps: int = 5) -> None:
        """Moves the pointer from cell a to cell b through `steps` cells, as a hand does."""
        for p in line_between(a, b, steps):
            self.move(p)

    def pick_up(self, cell: tuple[int, int], title: str) -> None:
        """Presses on a card and moves one cell: the drag starts ("Picked up ...")."""
        self.press_at(cell)
        self.move((cell[0] + 1, cell[1]))
        self.mirror.wait_for(lambda l: "Picked up" in self.mirror.status(l) and f"“{title}”" in self.mirror.status(l),
                             what=f"the status line saying {title} was picked up")

    def any_motion(self) -> str:
        """Whether mode 1003 is on, as the mirror (tmux) saw Lanes switch it: "1" or "0"."""
        return self.mirror.fmt("#{mouse_all_flag}")

    def wait_any_motion(self, value: str) -> None:
        wait_until(lambda: self.any_motion() == value, 5, f"any-motion tracking (1003) to be {value}",
                   self.mirror.dump)

    def reports_in(self) -> bytes:
        """Every byte the emulator sent to Lanes so far (the relay logs them)."""
        out = b""
        for line in self.x.log_lines():
            if line.startswith("IN "):
                out += ast.literal_eval(line[3:])  # the relay writes repr(bytes)
        return out

    # ----- ending

    def quit_and_check_silence(self, expected: str) -> None:
        """q ends Lanes with status 0 and the modes off; the file is `expected`; then a click, a
        drag and a focus change in the terminal send nothing to the program reading it."""
        self.x.focus(self.x.window)
        self.x.key("q")
        code = int(self.x.wait_log("LANES-EXIT")[0].split()[1])
        assert code == 0, f"lanes exited with {code}\n{self.x.describe()}"
        flags = self.mirror.fmt("#{alternate_on} #{mouse_any_flag} #{mouse_all_flag} #{mouse_sgr_flag}")
        assert flags == "0 0 0 0", f"modes left on after quitting (alternate/any/all/sgr): {flags}"
        assert self.board.read_bytes() == expected.encode()
        self.x.wait_log("SINK")
        mid = (COLS // 2, ROWS // 2)
        self.x.click_pixel(*self.grid.center(*mid))
        self.press_at((10, 10))
        self.glide((10, 10), (30, 12))
        self.x.release()
        self.x.focus(self.x.root())
        self.x.focus(self.x.window)
        self.x.key("Z")
        self.x.wait_log("SINK-DONE")
        got = (self.workdir / "after-quit.bytes").read_bytes()
        assert got == b"Z", f"the terminal sent {got!r} after Lanes quit (only the typed 'Z' was expected)"

    def close(self) -> None:
        if hasattr(self, "x"):
            # A test that failed mid-drag must not leave the X server's button (or alt) down for the next.
            self.x.key_up_all()
            self.x.close()
        self.mirror.kill()


@pytest.fixture
def real(xserver, tmux_server, lanes_bin, tmp_path, request):
    sessions: list[RealLanes] = []

    def start(emulator, columns=THREE) -> RealLanes:
        s = RealLanes(xserver, tmux_server, lanes_bin, emulator, tmp_path / f"w{len(sessions)}", columns)
        sessions.append(s)
        return s

    yield start
    failed = getattr(request.node, "rep_call", None) is not None and request.node.rep_call.failed
    for s in sessions:
        if failed:
            print(s.mirror.dump())
            print(s.x.describe())
        s.close()


# --------------------------------------------------------------------------- real emulators


@pytest.mark.parametrize("emulator", ALL)
def test_drag_across_columns_with_the_ghost_reorder_and_click(real, emulator):
    app = real(emulator)
    L, m = app.layout, app.mirror
    baseline = app.x.screenshot()
    start = L.title_point(0, 0)
    app.pick_up(start, "a0")
    app.wait_any_motion("1")  # any-motion tracking is on while the drag is up ...
    # On the way, over the empty part of Done: the ghost is there, in the emulator's pixels.
    spot = (L.col_x(2) + 6, 14)
    app.glide((start[0] + 1, start[1]), spot)
    check_ghost_in_pixels(app, baseline, "a0", 2)
    app.glide(spot, L.lower(1, 1))
    m.wait_status("Over Doing, position 3 of 4")
    app.x.release()
    m.wait_status("Dropped “a0” in Doing at position 3")
    m.wait_file(board_md(THREE_AFTER))
    app.wait_any_motion("0")  # ... and off once it is down

    # Reorder inside Doing: b0 onto the lower half of a0.
    L2 = Layout.simple(COLS, ROWS, THREE_AFTER)
    b0 = L2.title_point(1, 0)
    app.pick_up(b0, "b0")
    app.glide((b0[0] + 1, b0[1]), L2.lower(1, 2), steps=4)
    m.wait_status("Over Doing, position 3 of 4")
    app.x.release()
    m.wait_status("Dropped “b0” in Doing at position 3")
    m.wait_file(board_md(REORDERED))

    # A click without a drag selects; a second click on the selected card opens it. Nothing moves.
    before = stat_key(app.board)
    L3 = Layout.simple(COLS, ROWS, REORDERED)
    app.x.click_pixel(*app.grid.center(*L3.title_point(2, 0)))
    app.x.click_pixel(*app.grid.center(*L3.title_point(2, 0)))
    m.wait_for("Column:", what="c0's detail view")
    assert "c0" in m.screen() and "Done" in m.screen()
    app.x.key("Escape")
    m.wait_for(lambda l: "Column:" not in "".join(l), what="the detail view closed")
    assert stat_key(app.board) == before, "a click rewrote the board file"
    app.quit_and_check_silence(board_md(REORDERED))


@pytest.mark.parametrize("emulator", ALL)
def test_release_on_last_row_outside_window_and_focus_lost_snap_back(real, emulator):
    app = real(emulator)
    L, m = app.layout, app.mirror
    original = app.board.read_text()
    before = stat_key(app.board)
    start = L.title_point(0, 0)

    # Released on the last row (the status line): nothing takes it.
    app.pick_up(start, "a0")
    app.glide((start[0] + 1, start[1]), (40, ROWS - 1))
    app.x.release()
    m.wait_status("Released outside: “a0” back in To do")
    app.wait_any_motion("0")

    # Dragged out of the window and released there.
    app.pick_up(start, "a0")
    app.glide((start[0] + 1, start[1]), L.lower(1, 1), steps=3)
    m.wait_status("Over Doing")
    w, h = app.x.geometry[2], app.x.geometry[3]
    for px, py in ((w - 20, h // 2), (w + 30, h + 30), (w + 80, h + 60)):
        app.x.move(px, py)
    app.x.release()
    # Back into the window, over Doing, with no button held.
    app.move((L.lower(1, 1)[0], L.lower(1, 1)[1] + 1))
    status = m.wait_status("back in To do")
    if emulator.release_outside == "reported":
        assert status.startswith("Released outside: “a0”"), status
    else:
        # It never reported the release: the motion back in, with no button, ended the drag.
        assert emulator.release_outside == "not reported: the motion back in ends it"
        assert status.startswith("Released outside the window: “a0”"), status
        assert re.search(rb"\x1b\[<35;\d+;\d+M", app.reports_in())
    app.wait_any_motion("0")

    # The window loses the keyboard focus mid-drag: the release may never come.
    app.pick_up(start, "a0")
    app.glide((start[0] + 1, start[1]), L.lower(1, 1), steps=3)
    m.wait_status("Over Doing")
    app.x.focus(app.x.root())
    if emulator.focus_out_mid_drag == "at once":
        m.wait_status("The window lost focus: “a0” back in To do")
        assert b"\x1b[O" in app.reports_in()
    else:
        # This emulator reports the focus leaving (while its button is down) only once the focus
        # comes back, together with the focus-in (the table says so): the drag ends then.
        assert emulator.focus_out_mid_drag == "when the focus returns"
        app.x.focus(app.x.window)
        m.wait_status("The window lost focus: “a0” back in To do")
        assert b"\x1b[O\x1b[I" in app.reports_in()
    app.x.release()
    app.x.focus(app.x.window)
    app.wait_any_motion("0")

    assert app.board.read_text() == original
    assert stat_key(app.board) == before, "a snapped-back drag rewrote the board file"
    app.quit_and_check_silence(original)


@pytest.mark.parametrize("emulator", ALL)
def test_mark_two_cards_alt_click_and_mark_box_then_drag_both(real, emulator):
    cols = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0"]), ("Done", [])]
    after = [("To do", ["a0", "a2"]), ("Doing", []), ("Done", ["a1", "b0"])]
    app = real(emulator, cols)
    L, m = app.layout, app.mirror
    # Alt-click a1.
    a1 = L.title_point(0, 1)
    app.x.click_pixel(*app.grid.center(*a1), modifier="alt")
    m.wait_status("1 card marked")
    press = re.findall(rb"\x1b\[<(\d+);%d;%dM" % (a1[0] + 1, a1[1] + 1), app.reports_in())
    assert press and int(press[-1]) & 8, f"the alt-click was reported as {press!r}"
    # b0's mark box (the top-left of its border), clicked with no modifier.
    box = (L.card(1, 0).x + 2, L.card(1, 0).y)
    app.x.click_pixel(*app.grid.center(*box))
    m.wait_status("2 cards marked")
    assert re.search(rb"\x1b\[<0;%d;%dM" % (box[0] + 1, box[1] + 1), app.reports_in()), \
        "the mark-box click did not arrive as a plain press"
    assert m.text_at(box[0], box[1], 1) == "●"
    # Drag a1: both go, in board order.
    app.pick_up(a1, "a1")
    target = (L.col_x(2) + 4, 5)
    app.glide((a1[0] + 1, a1[1]), target)
    m.wait_status("2 cards over Done, position 1")
    app.x.release()
    m.wait_status("Dropped 2 cards in Done")
    m.wait_file(board_md(after))
    app.quit_and_check_silence(board_md(after))


def check_ghost_in_pixels(app: RealLanes, baseline, title: str, column: int) -> None:
    """The emulator draws the ghost under the pointer: its cells' pixels changed, others did not.

    Where the ghost is comes from the mirror (the same bytes, drawn by tmux); that the emulator
    shows it comes from a screenshot of its window compared with `baseline`, taken before the
    drag, where the ghost now is over an empty part of `column`."""
    L, m = app.layout, app.mirror

    def ghost_top():
        lines = m.capture()
        for y in range(3, ROWS - 3):
            x = m.text_at(0, y, COLS, lines).find("╭", L.col_x(column))
            if x >= 0 and f"│ {title}" in m.text_at(x, y + 1, L.col_w, lines):
                return (x, y)
        return None

    gx, gy = wait_until(ghost_top, 5, f"the ghost of {title} in column {column} on the mirror", m.dump)
    shot = wait_until(lambda: _changed(app, baseline, (gx, gy + 1, 4, 1)) and app.x.screenshot(), 5,
                      "the emulator to draw the ghost", m.dump)
    # Every cell the mirror shows inked in the ghost (its border, the title) is drawn by the
    # emulator: those pixels changed from the empty column's.
    lines = m.capture()
    inked = [(c, y) for y in range(gy, gy + 3) for c in range(gx, min(COLS, gx + L.col_w))
             if m.text_at(c, y, 1, lines).strip()]
    assert len(inked) >= 2 * L.col_w, f"the mirror shows too little of the ghost: {inked}"
    unchanged = [cell for cell in inked if _changed_cells(app, baseline, shot, (*cell, 1, 1)) == 0]
    assert not unchanged, f"the emulator did not draw the ghost's cells {unchanged}"
    # Below the ghost, in the same empty column: pixels as before.
    assert _changed_cells(app, baseline, shot, (L.col_x(column) + 2, ROWS - 6, 20, 3)) == 0


def _changed_cells(app: RealLanes, before, after, area) -> int:
    """How many cells of `area` (x, y, w, h in cells) have a pixel that differs between shots."""
    x, y, w, h = area
    n = 0
    for r in range(y, y + h):
        for c in range(x, x + w):
            box = app.grid.box(c, r)
            if before.region(*box) != after.region(*box):
                n += 1
    return n


def _changed(app: RealLanes, before, area) -> bool:
    return _changed_cells(app, before, app.x.screenshot(), area) > 0


# --------------------------------------------------------------------------- the bytes other terminals send (tmux)


def test_kitty_buttonless_motion_after_leaving_ends_the_drag(lanes):
    """kitty reports no release outside its window; with 1003 on it reports the pointer coming
    back as a motion with no button (SGR 35). Lanes takes that as a release elsewhere."""
    original = board_md(THREE)
    app = lanes(original, wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    before = stat_key(app.board_path)
    start = L.title_point(0, 0)
    app.mouse("press", *start)
    app.mouse("drag", start[0] + 1, start[1])
    app.wait_status("Picked up “a0”")
    assert app.fmt("#{mouse_all_flag}") == "1", "any-motion tracking is off during the drag"
    for p in line_between((start[0] + 1, start[1]), L.lower(1, 1), 3):
        app.mouse("drag", *p)
    app.wait_status("Over Doing, position 3 of 4")
    # The pointer left the window and the button went up there: kitty said nothing. Back over Doing:
    x, y = L.lower(1, 1)
    app.send_literal(f"\x1b[<35;{x + 1};{y + 1}M")
    app.wait_status("Released outside the window: “a0” back in To do, position 1")
    wait_until(lambda: app.fmt("#{mouse_all_flag} #{mouse_button_flag}") == "0 1", 5, "1003 off after the drag")
    # More button-less motion, as kitty sends it until 1003 is off, changes nothing.
    app.send_literal(f"\x1b[<35;{x + 2};{y + 1}M")
    app.send_keys("l")  # a key after it: the status shows the idle hint again
    app.wait_for(lambda l: "Released outside" not in app.status(l), what="the next key's words")
    assert app.read_file() == original.encode() and stat_key(app.board_path) == before
    quit_and_check(app, original)


def test_focus_out_mid_drag_ends_it(lanes):
    original = board_md(THREE)
    app = lanes(original, wait_for="a0")
    L = Layout.simple(100, 30, THREE)
    start = L.title_point(0, 0)
    app.mouse("press", *start)
    for p in line_between(start, L.lower(1, 1), 4):
        app.mouse("drag", *p)
    app.wait_status("Over Doing")
    app.send_literal("\x1b[O")
    app.wait_status("The window lost focus: “a0” back in To do, position 1")
    # The release that may still come later is a release with no drag: it changes nothing.
    app.mouse("release", *L.lower(1, 1))
    quit_and_check(app, original)


def test_marking_with_clicks_that_carry_no_modifier_bits(lanes):
    """qterminal sends alt- and ctrl-clicks without the modifier bit: the mark box needs none."""
    cols = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0"]), ("Done", [])]
    after = [("To do", ["a0", "a2"]), ("Doing", []), ("Done", ["a1", "b0"])]
    app = lanes(board_md(cols), wait_for="a0")
    L = Layout.simple(100, 30, cols)
    for k, i, n in ((0, 1, 1), (1, 0, 2)):
        r = L.card(k, i)
        app.send_literal(sgr("press", r.x + 2, r.y) + sgr("release", r.x + 2, r.y))
        app.wait_status(f"{n} card{'s' if n > 1 else ''} marked")
        app.wait_for(lambda l: app.text_at(r.x, r.y, 3, l) == "╭─●", what="the ● on the marked card")
    # The box again unmarks; a click elsewhere on a card only selects.
    r = L.card(1, 0)
    app.send_literal(sgr("press", r.x + 2, r.y) + sgr("release", r.x + 2, r.y))
    app.wait_status("1 card marked")
    app.send_literal(sgr("press", r.x + 2, r.y) + sgr("release", r.x + 2, r.y))
    app.wait_status("2 cards marked")
    a1 = L.title_point(0, 1)
    app.drag([a1, (a1[0] + 1, a1[1])] + line_between((a1[0] + 1, a1[1]), (L.col_x(2) + 4, 5), 4))
    app.wait_status("Dropped 2 cards in Done")
    app.wait_file(board_md(after))
    quit_and_check(app, board_md(after))


def test_readme_table_of_emulators_is_what_the_tests_assert():
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert emulator_table() in readme, "README.md's table of emulators differs from xharness.emulator_table():\n" \
        + emulator_table()
