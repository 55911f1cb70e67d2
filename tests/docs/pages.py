"""Reading the docs site's Markdown: its pages and the shell commands they show."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"


def page(relative: str) -> str:
    return (DOCS / relative).read_text(encoding="utf-8")


def pages() -> dict[str, str]:
    """Every hand-written page (the generated reference pages exist only in a build)."""
    return {
        p.relative_to(DOCS).as_posix(): p.read_text(encoding="utf-8")
        for p in sorted(DOCS.rglob("*.md"))
    }


def sh_blocks(text: str) -> list[str]:
    """The bodies of the page's ```sh fenced blocks, in order."""
    return re.findall(r"^```sh\n(.*?)\n```$", text, re.S | re.M)


def section(text: str, title: str) -> str:
    """From the heading ``title`` (any level) to the next heading of the same or a higher level."""
    m = re.search(rf"^(#+) {re.escape(title)}\n", text, re.M)
    assert m, f"no heading {title!r}"
    level = len(m.group(1))
    end = re.compile(rf"^#{{1,{level}}} ", re.M).search(text, m.end())
    return text[m.start() : end.start() if end else None]
