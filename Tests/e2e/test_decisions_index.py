"""DECISIONS.md's index names every record under its own title, and only records that are there,
each with the status its record gives (the first words of its `Status:` line)."""

from __future__ import annotations

import re
from pathlib import Path

DECISIONS = Path(__file__).resolve().parents[2] / "DECISIONS.md"


def test_the_index_lists_every_record_with_its_title_and_status():
    text = DECISIONS.read_text()
    records = {}
    for section in re.split(r"^(?=### )", text, flags=re.M):
        m = re.match(r"### (\d+\.\d+) (.+)\n", section)
        if m:
            status = re.search(r"^Status: ([^·(\n]+)", section, re.M)
            records[m.group(1)] = (m.group(2), status.group(1).strip() if status else None)
    index = {m.group(1): (m.group(2), m.group(3)) for m in
             re.finditer(r"^\| (\d+\.\d+) \| (.+?) \| (.+) \|$", text, re.M)}
    assert sorted(records) == sorted(index), (
        f"not in the index: {sorted(set(records) - set(index))}; no such record: {sorted(set(index) - set(records))}")
    for number, (title, status) in records.items():
        assert index[number][0] == title, (number, index[number][0], title)
        assert status is not None, f"{number} has no Status line"
        assert index[number][1].startswith(status), (number, index[number][1], status)
