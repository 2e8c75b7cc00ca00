"""Seeded board files of every shape docs/FORMATS.md records, for the terminal and CLI tests.

The same shapes as Tests/LanesCoreTests/WildCorpus.swift (which drives the in-process tests over
10,000 files): Obsidian Kanban boards as people's notes hold them, and taskell files. `SHAPES`
names each shape; `sample(n, seed)` gives n files that together hold every shape at least once.
"""
from __future__ import annotations

import random

WORDS = ["Plan", "the", "garden", "Call", "Ana", "fix", "bug", "#urgent", "#blog", "[[Shed]]",
         "[[Notes|alias]]", "Überprüfen", "日本語", "emoji 🌱", "**bold**", "`code`", "a<br>b",
         "[link](https://example.org)", "50%", "(draft)", "@home", "x&y", "~strike~", "#a/b-c"]

SETTINGS = [
    ["%% kanban:settings", "```", '{"kanban-plugin":"board","list-collapse":[false,false]}', "```", "%%"],
    ["%% kanban:settings", "", "```", '{"kanban-plugin":"board"}', "```", "", "%%"],
    ["%% kanban:settings", "```", "{", '  "kanban-plugin": "board",', '  "lane-width": 300', "}", "```", "%%"],
    ["%% kanban:settings"],
    ["%% kanban:settings", "## Archive", "", "```", "```", "", "%%"],
    ["%% kanban:settings", "```", "{}", "```", "%%", "***", "", "## Archive", "", "%% kanban:settings", "```", "{}", "```", "%%"],
]

# Each card's extra lines: shape name -> lines.
EXTRA = {
    "tab tag": ["\t#blog"],
    "indented note": ["    an indented note"],
    "unindented html comment": ["<!-- task-id: 4711 -->"],
    "indented html comment": ["\t<!-- task-id: 4712 -->"],
    "tab sub-task": ["\t- [ ] a sub-task"],
    "nested sub-task": ["\t\t- [x] nested deeper"],
    "two-space sub-item": ["  - [ ] two-space sub-item"],
    "quote": ["\t> a quote in the card"],
    "blank then indented": ["", "    after a blank line, indented"],
    "unindented note after blank": ["", "An unindented note after a blank line"],
    "lazy continuation": ["a lazy continuation line"],
    "fenced code in card": ["\t```", "\t## code in a card", "\t```"],
    "html block": ["<div>", "a block of HTML", "</div>"],
    "thematic break": ["***"],
}

SHAPES = (["frontmatter plugin", "frontmatter compact", "frontmatter extra keys", "preamble", "heading level",
           "complete lane", "lane paragraph", "fence above cards", "bullet *", "bullet +", "ordered", "plain bullet",
           "other list kind", "space-indented marker", "checked marks", "empty title", "blank between cards",
           "archive", "lane after archive", "lane after settings", "text after settings", "crlf", "bom",
           "no final newline", "taskell"] + [f"settings {k}" for k in range(len(SETTINGS))]
          + [f"extra: {k}" for k in EXTRA])


class Gen:
    def __init__(self, seed: int):
        self.r = random.Random(seed)
        self.shapes: set[str] = set()

    def chance(self, p: float) -> bool:
        return self.r.random() < p

    def title(self) -> str:
        t = " ".join(self.r.choice(WORDS) for _ in range(self.r.randint(1, 4)))
        if self.chance(0.15):
            t += f" @{{2025-0{self.r.randint(1, 9)}-1{self.r.randint(0, 9)}}}"
        return t

    def obsidian(self) -> list[str]:
        fm = self.r.randint(0, 2)
        self.shapes.add(["frontmatter plugin", "frontmatter compact", "frontmatter extra keys"][fm])
        lines = [["---", "", "kanban-plugin: board", "", "---", ""], ["---", "kanban-plugin: basic", "---", ""],
                 ["---", "tags: [home]", "kanban-plugin: board", "cssclasses: wide", "---"]][fm]
        if self.chance(0.15):
            self.shapes.add("preamble")
            lines += ["Notes above the lanes.", ""]
        level = 2 if self.chance(0.7) else self.r.randint(1, 6)
        if level != 2:
            self.shapes.add("heading level")
        style = self.r.choice(["- [ ] ", "- [ ] ", "* [ ] ", "+ [ ] ", "1. [ ] ", "- "])
        self.shapes.add({"* [ ] ": "bullet *", "+ [ ] ": "bullet +", "1. [ ] ": "ordered", "- ": "plain bullet"}.get(style, "frontmatter plugin"))
        gap = 1 if self.chance(0.4) else 0
        if gap:
            self.shapes.add("blank between cards")
        for lane in range(self.r.randint(1, 4)):
            if lane:
                lines += ["", ""]
            lines += ["#" * level + " " + self.r.choice(["Todo", "Doing", "Done", "Later", "🔥 Hot"]), ""]
            if self.chance(0.15):
                self.shapes.add("complete lane")
                lines += ["**Complete**"]
            if self.chance(0.05):
                self.shapes.add("lane paragraph")
                lines += ["A paragraph about this lane.", ""]
            if self.chance(0.04):
                self.shapes.add("fence above cards")
                lines += ["```", "## not a lane", "- [ ] not a card", "```", ""]
            for k in range(self.r.randint(0, 5)):
                if k:
                    lines += [""] * gap
                m = style
                if "[" in m and self.chance(0.3):
                    self.shapes.add("checked marks")
                    m = m.replace("[ ]", "[" + self.r.choice("xX/-") + "]")
                if k and self.chance(0.04):
                    self.shapes.add("other list kind")
                    m = self.r.choice(["* [ ] ", "+ [ ] ", "2) "])
                if k and self.chance(0.04):
                    self.shapes.add("space-indented marker")
                    m = " " + m
                if self.chance(0.04):
                    self.shapes.add("empty title")
                    lines.append(m.rstrip(" ") if "[" in m else m)
                else:
                    lines.append(m + self.title())
                if self.chance(0.3):
                    name = self.r.choice(list(EXTRA))
                    self.shapes.add(f"extra: {name}")
                    lines += EXTRA[name]
        if self.chance(0.25):
            self.shapes.add("archive")
            lines += ["", "", "***", "", "## Archive", ""] + ["- [x] " + self.title() for _ in range(self.r.randint(0, 2))]
            if self.chance(0.3):
                self.shapes.add("lane after archive")
                lines += ["", "## After the archive", "", "- [ ] " + self.title()]
        if self.chance(0.85):
            k = self.r.randrange(len(SETTINGS))
            self.shapes.add(f"settings {k}")
            lines += ["", "", ""] + SETTINGS[k]
        if self.chance(0.05):
            self.shapes.add("text after settings")
            lines += ["", "Text after the settings."]
        if self.chance(0.1):
            self.shapes.add("lane after settings")
            lines += ["", "## Added later", "", "- [ ] " + self.title()]
        return lines

    def taskell(self) -> list[str]:
        self.shapes.add("taskell")
        lines: list[str] = []
        for k in range(self.r.randint(1, 4)):
            if k:
                lines.append("")
            lines += ["## " + self.r.choice(["To Do", "Doing", "Done", "週末"]), ""]
            for _ in range(self.r.randint(0, 5)):
                lines.append("- " + self.title().split(" @{")[0])
                if self.chance(0.2):
                    lines.append(f"    @ 2025-0{self.r.randint(1, 9)}-1{self.r.randint(0, 9)}")
                if self.chance(0.3):
                    lines.append("    > " + self.title())
                if self.chance(0.3):
                    lines.append("    * [x] " + self.title())
        return lines

    def file(self) -> bytes:
        lines = self.taskell() if self.chance(0.2) else self.obsidian()
        ending = "\n"
        if self.chance(0.1):
            self.shapes.add("crlf")
            ending = "\r\n"
        text = ending.join(lines)
        if self.chance(0.9):
            text += ending
        else:
            self.shapes.add("no final newline")
        data = text.encode()
        if self.chance(0.03):
            self.shapes.add("bom")
            data = b"\xef\xbb\xbf" + data
        return data


def sample(n: int, seed: int = 0x3030) -> tuple[list[bytes], set[str]]:
    """n files, and the shapes they hold (a test asserts that is every shape)."""
    g = Gen(seed)
    return [g.file() for _ in range(n)], g.shapes
