"""The committed width table and grapheme-break fixture are what scripts/gen-widths makes from the
Unicode data files (Debian's unicode-data, installed by scripts/ensure-deps test)."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_committed_table_is_what_the_generator_makes():
    r = subprocess.run([str(ROOT / "scripts" / "gen-widths"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "up to date with Unicode 15.0.0" in r.stdout


def test_the_generator_refuses_files_of_mixed_versions(tmp_path):
    ucd = Path("/usr/share/unicode")
    for name in ("EastAsianWidth.txt", "extracted/DerivedGeneralCategory.txt", "PropList.txt",
                 "emoji/emoji-data.txt", "auxiliary/GraphemeBreakTest.txt"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((ucd / name).read_text(encoding="utf-8"), encoding="utf-8")
    east = tmp_path / "EastAsianWidth.txt"
    east.write_text(east.read_text(encoding="utf-8").replace("EastAsianWidth-15.0.0", "EastAsianWidth-14.0.0", 1),
                    encoding="utf-8")
    r = subprocess.run([str(ROOT / "scripts" / "gen-widths"), "--check", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode != 0 and "different versions" in r.stderr, r.stdout + r.stderr
