"""A board file's lane layout survives a copy into PostgreSQL and back (schema migration 3).

Heading levels, each lane's card bullet and check style, and the lines Markdown keeps after a
lane's list (an unindented HTML comment under a card ends the list for Obsidian Kanban; what
follows is kept, not shown) are stored per column: `lanes copy FILE URL` then `lanes copy URL
FILE` gives them back, and a card added in between is written in its lane's style.
"""
from __future__ import annotations

import subprocess

import pytest

from pg_helpers import board_url as url, psql
from test_postgres_cli import lanes

BOARD = """---
kanban-plugin: board
---

# Todo

* [ ] Call Ana
* [x] Fence quote
<!-- task-id: 3f2a -->
* [ ] kept after the comment, not shown


# Doing

1. [ ] Parts from the shop
2. [ ] Invoice

### Done

- Fixed the gate

%% kanban:settings
```
{"kanban-plugin":"board"}
```
%%

# Later

* [ ] after the settings
"""


@pytest.fixture(scope="module")
def layout_schema(pg, lanes_bin, tmp_path_factory):  # noqa: F811
    f = tmp_path_factory.mktemp("layout") / "setup.md"
    f.write_text("## A\n\n- a\n")
    r = lanes(lanes_bin, "copy", "--replace", str(f), url(pg, "lanes_admin", "layout-setup"))
    assert r.returncode == 0, r.stderr
    return pg


def test_a_files_lane_layout_comes_back_from_postgres(layout_schema, lanes_bin, tmp_path):
    src = tmp_path / "board.md"
    src.write_text(BOARD)
    u = url(layout_schema, "alice", "layout")
    r = lanes(lanes_bin, "copy", "--replace", str(src), u)
    assert r.returncode == 0, r.stderr
    # As the plugin reads it: two cards in Todo (the comment ends its list), a lane after the settings.
    r = lanes(lanes_bin, "show", u)
    assert r.returncode == 0, r.stderr
    assert "kept after the comment" not in r.stdout
    assert "after the settings" in r.stdout
    rows = psql(layout_schema, "alice",
                "SELECT title || '|' || coalesce(heading, '') || '|' || coalesce(card_style, '') || '|' || coalesce(after_list, '') "
                "FROM lanes.columns c JOIN lanes.boards b ON b.id = c.board_id WHERE b.name = 'layout' ORDER BY c.key")
    lines = rows.split("\n")
    assert lines[0].startswith("Todo|# |* [ ] |<!-- task-id: 3f2a -->"), rows
    assert "Doing|# |1. [ ] |" in rows and "Done|### |- |" in rows, rows
    out = tmp_path / "out.md"
    r = lanes(lanes_bin, "copy", "--replace", u, str(out))
    assert r.returncode == 0, r.stderr
    text = out.read_text()
    # Heading levels, each lane's card style and the lines after Todo's list come back as they were
    # (blank-line spacing and a card's own numbering are not stored: the file's defaults are written).
    assert "\n# Todo\n\n* [ ] Call Ana\n* [x] Fence quote\n<!-- task-id: 3f2a -->\n* [ ] kept after the comment, not shown\n" in text, text
    assert "\n# Doing\n\n1. [ ] Parts from the shop\n" in text and "\n### Done\n\n- Fixed the gate\n" in text, text
    assert "%% kanban:settings\n```\n" in text and "\n# Later\n\n* [ ] after the settings\n" in text, text
    assert lanes(lanes_bin, "show", str(out)).stdout == lanes(lanes_bin, "show", u).stdout
    # A card added on the server is written in its lane's style, in the list the plugin reads.
    r = lanes(lanes_bin, "add", u, "-c", "Todo", "New one")
    assert r.returncode == 0, r.stderr
    r = lanes(lanes_bin, "copy", "--replace", u, str(out))
    assert r.returncode == 0, r.stderr
    assert "* [x] Fence quote\n* [ ] New one\n<!-- task-id: 3f2a -->\n" in out.read_text()
