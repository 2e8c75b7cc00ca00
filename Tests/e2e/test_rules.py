"""Accept rules: a sidecar `.board.md.lanes` beside the board says which columns take cards from which."""

from __future__ import annotations

import subprocess
import time

from checks import quit_and_check
from lanes_harness import Layout, board_md, find_binary, line_between, stat_key

THREE = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["c0"])]
RULES = '# Only finished work goes to Done.\naccept "Done" from "Doing"\n'
SIDECAR = ".board.md.lanes"


def start_with_rules(lanes, tmp_path, rules: str | None, columns=THREE, wait=True, **kw):
    folder = tmp_path / "w"
    folder.mkdir()
    if rules is not None:
        (folder / SIDECAR).write_text(rules)
    return lanes(board_md(columns), wait_for=columns[0][1][0] if wait else None, workdir=folder, **kw)


def drag(app, start, target, steps=5):
    app.mouse("press", *start)
    for p in line_between(start, target, steps):
        time.sleep(0.02)
        app.mouse("drag", *p)


def test_a_refused_drop_leaves_the_file_and_an_allowed_one_saves(lanes, tmp_path):
    app = start_with_rules(lanes, tmp_path, RULES)
    L = Layout.simple(100, 30, THREE)
    before = stat_key(app.board_path)

    # a0 from To do over Done: refused, and the status says why.
    drag(app, L.title_point(0, 0), L.lower(2, 0))
    app.wait_status('Column "Done" accepts cards only from "Doing", not from "To do"')
    app.wait_for(lambda l: app.text_at(L.col_x(2), 1, L.col_w, l).startswith("Done 1 ✕"),
                 what="Done's header marked as refusing")
    app.mouse("release", *L.lower(2, 0))
    app.wait_status('“a0” back in To do: column "Done" accepts cards only from "Doing", not from "To do"')
    # An absence has nothing to wait for: longer than a save waits for the hand to rest (0.2 s).
    time.sleep(0.3)
    app.assert_file(board_md(THREE), "after a refused drop")
    assert stat_key(app.board_path) == before, "the board was rewritten although the drop was refused"

    # b0 from Doing onto Done: the rule names Doing, so it lands below c0.
    drag(app, L.title_point(1, 0), L.lower(2, 0))
    app.wait_status("Over Done, position 2 of 2")
    app.mouse("release", *L.lower(2, 0))
    app.wait_status("Dropped “b0” in Done at position 2")
    after = [("To do", ["a0", "a1", "a2"]), ("Doing", ["b1", "b2"]), ("Done", ["c0", "b0"])]
    app.wait_file(board_md(after))
    assert (app.workdir / SIDECAR).read_text() == RULES, "the rules file is only read"
    quit_and_check(app, board_md(after), keep=[SIDECAR])
    assert (app.workdir / SIDECAR).read_text() == RULES, "quitting (and releasing the lock) left the rules"


def test_the_keyboard_sets_a_rule_and_a_lifted_card_skips_the_refusing_column(lanes, tmp_path):
    app = start_with_rules(lanes, tmp_path, None)
    # Select Doing and let it take cards only from Done.
    app.send_keys("l", "F")
    app.wait_for(lambda l: "Accepts from" in app.status(l), what="the accept prompt")
    app.send_keys("-l", "done")
    app.send_keys("Enter")
    app.wait_status("Doing accepts only from Done")
    sidecar = app.workdir / SIDECAR
    deadline = time.monotonic() + 5
    while not sidecar.exists() and time.monotonic() < deadline:
        time.sleep(0.03)
    assert sidecar.read_text().endswith('accept "Doing" from "Done"\n'), sidecar.read_text()
    app.assert_file(board_md(THREE), "setting a rule does not touch the board")
    # Lift a0 and move right: Doing refuses, so the card goes to Done.
    app.send_keys("h", "Space")
    app.wait_status("Picked up “a0” from To do, position 1")
    app.send_keys("Right")
    app.wait_status("Over Done, position 1 of 2")
    app.send_keys("Enter")
    after = [("To do", ["a1", "a2"]), ("Doing", ["b0", "b1", "b2"]), ("Done", ["a0", "c0"])]
    app.wait_file(board_md(after))
    # Clearing the rule deletes the file Lanes made (the drop selected a0 in Done; h selects Doing).
    app.send_keys("h", "F", "C-u", "Enter")
    app.wait_status("Doing accepts from any column")
    deadline = time.monotonic() + 5
    while sidecar.exists() and time.monotonic() < deadline:
        time.sleep(0.03)
    quit_and_check(app, board_md(after))


def test_a_malformed_rules_file_stops_lanes_with_file_and_line(lanes, tmp_path):
    app = start_with_rules(lanes, tmp_path, 'accept "Done" from "Doing"\naccept Done\n', wait=False)
    # The board never appears; lanes says what is wrong and exits 2.
    code = app.wait_exit()
    assert code == 2, app.dump()
    screen = app.screen()
    assert f"{SIDECAR}:2: expected from after accept \"Done\", found \"accept Done\"" in screen, screen
    app.assert_file(board_md(THREE))


def run(*args, cwd):
    return subprocess.run([str(find_binary()), *args], cwd=cwd, capture_output=True, text=True, timeout=30)


def test_cli_prints_sets_and_enforces_rules(tmp_path):
    (tmp_path / "board.md").write_text(board_md(THREE))
    r = run("rules", "board.md", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, "# no accept rules: every column accepts cards from every column\n")
    r = run("rules", "board.md", "--column", "done", "--from", "Doing", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr) == (0, '"Done" accepts cards only from "Doing".\n', "")
    assert (tmp_path / SIDECAR).read_text().endswith('accept "Done" from "Doing"\n')
    r = run("rules", "board.md", cwd=tmp_path)
    assert r.stdout == 'accept "Done" from "Doing"\n'

    r = run("move", "board.md", "a0", "--to", "Done", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr == 'lanes: column "Done" accepts cards only from "Doing", not from "To do"; --force moves anyway\n'
    assert (tmp_path / "board.md").read_text() == board_md(THREE)
    r = run("move", "board.md", "b0", "--to", "Done", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    r = run("move", "board.md", "a0", "--to", "Done", "--force", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert (tmp_path / "board.md").read_text() == board_md(
        [("To do", ["a1", "a2"]), ("Doing", ["b1", "b2"]), ("Done", ["c0", "b0", "a0"])])

    r = run("rules", "board.md", "--column", "Done", "--any", cwd=tmp_path)
    assert (r.returncode, r.stdout) == (0, '"Done" accepts cards from every column.\n')
    assert not (tmp_path / SIDECAR).exists()
    r = run("rules", "board.md", "--from", "Doing", cwd=tmp_path)
    assert r.returncode == 2 and "--from and --any need --column" in r.stderr
    (tmp_path / SIDECAR).write_text("accept Done from\n")
    r = run("show", "board.md", cwd=tmp_path)
    assert r.returncode == 2
    assert r.stderr == f"{SIDECAR}:1: accept \"Done\" from no column: name at least one after from, or remove the line\n"


def test_names_of_no_column_are_reported_when_the_board_opens(lanes, tmp_path):
    app = start_with_rules(lanes, tmp_path, 'accept "Done" from "Reviw"\n')
    app.wait_status("Accept rules in .board.md.lanes name no such column: “Reviw”")
    L = Layout.simple(100, 30, THREE)
    # The rule still holds: Done takes nothing from Doing.
    drag(app, L.title_point(1, 0), L.lower(2, 0))
    app.wait_status('Column "Done" accepts cards only from "Reviw" (no such column)')
    app.mouse("release", *L.lower(2, 0))
    app.wait_status('“b0” back in Doing: column "Done" accepts cards only from "Reviw" (no such')
    quit_and_check(app, board_md(THREE), keep=[SIDECAR])
