"""The door is sealed by the compiler: outside LanesCore, a board changes only through an edit.

Each snippet is what another module (the terminal, a command, an agent's server) might write to
change a board without the door; each must fail to type-check against the modules `make test`
built, with the compiler's own reason. The control snippet, the same change through the door,
must type-check, so a failure means the seal and not a broken set-up.
"""
import shutil
import subprocess
from pathlib import Path

import pytest

from lanes_harness import REPO

MODULES = REPO / ".build" / "debug" / "Modules"
# The C shims LanesCore builds on (CStatx), found by their module maps as the package build finds them.
SHIMS = [p.parent for p in sorted((REPO / "Sources").glob("C*/module.modulemap"))]

PRELUDE = """
import DragKit
import LanesCore
var board = Board(columns: [Column(title: "To do", cards: [Card(id: CardID(1), title: "a")]), Column(title: "Done", cards: [])])
var document = BoardDocument(board: board)
"""

# What another module might try, and the words the compiler must refuse it with.
ATTEMPTS = {
    "append a column": ("board.columns.append(Column(title: \"X\", cards: []))", "'columns' setter is inaccessible"),
    "set a WIP limit": ("board.columns[1].wipLimit = 1", "'columns' setter is inaccessible"),
    "move a card by hand": ("board.columns[1].cards.append(board.columns[0].cards[0])", "'columns' setter is inaccessible"),
    "replace a card": ("board[ItemPath(section: 0, item: 0)] = Card(id: CardID(1), title: \"b\")", "setter is inaccessible"),
    "set the accept rules": ("board.acceptRules = AcceptRules()", "'acceptRules' setter is inaccessible"),
    "a rule of its own": ("board.acceptRules.setSources([\"To do\"], for: \"Done\")", "'acceptRules' setter is inaccessible"),
    "swimlanes by hand": ("board.acceptRules.swimlanes = nil", "'acceptRules' setter is inaccessible"),
    "the capacity": ("board.capacity = .everything", "setter is inaccessible"),
    "the data source's insert": ("board.insertItem(Card(id: CardID(2), title: \"c\"), at: ItemPath(section: 0, item: 0))",
                                 "inaccessible due to 'internal' protection level"),
    "delete through the data source": ("board.deleteItem(at: ItemPath(section: 0, item: 0))",
                                       "inaccessible due to 'internal' protection level"),
    "move a column by hand": ("board.moveColumn(from: 0, to: 1)", "inaccessible due to 'internal' protection level"),
    "rename a column by hand": ("board.renameColumn(at: 0, to: \"Doing\")", "inaccessible due to 'internal' protection level"),
    "replace the document's board": ("document.board = board", "'board' setter is inaccessible"),
    "edit the document's board": ("document.board.columns.removeAll()", "setter is inaccessible"),
    "rewrite the undo history": ("document.history = History(limit: 1)", "'history' setter is inaccessible"),
}

CONTROL = """
let moved = try board.applying(.moveCards([CardID(1)], to: board.columns[1].id, at: .end))
try document.apply(.setWIPLimit(board.columns[1].id, 1))
print(moved.board.cardCount)
"""


def typecheck(tmp_path: Path, body: str) -> subprocess.CompletedProcess:
    source = tmp_path / "attempt.swift"
    source.write_text(PRELUDE + body + "\n")
    swiftc = shutil.which("swiftc") or "/opt/swift/usr/bin/swiftc"
    shims = [a for d in SHIMS for a in ("-I", str(d))]
    return subprocess.run([swiftc, "-typecheck", "-I", str(MODULES), *shims, str(source)],
                          capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module", autouse=True)
def built_modules():
    if not (MODULES / "LanesCore.swiftmodule").exists():
        pytest.fail(f"{MODULES}/LanesCore.swiftmodule is missing: build with `swift build` first")


def test_the_same_change_through_the_door_type_checks(tmp_path):
    r = typecheck(tmp_path, CONTROL)
    assert r.returncode == 0, r.stderr


@pytest.mark.parametrize("name", sorted(ATTEMPTS))
def test_a_change_outside_the_door_does_not_compile(tmp_path, name):
    body, reason = ATTEMPTS[name]
    r = typecheck(tmp_path, body)
    assert r.returncode != 0, f"{name}: compiled outside LanesCore"
    assert reason in r.stderr, r.stderr
    # The one error is the attempt's own line: the prelude compiles.
    assert f"attempt.swift:{PRELUDE.count(chr(10)) + 1}:" in r.stderr, r.stderr
