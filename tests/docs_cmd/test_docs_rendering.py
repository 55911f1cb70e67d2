"""How ``mcpgen docs`` output reads (issue 50): characters a backslash does not escape in every
Markdown (mkdocs' Python-Markdown showed ``\\<`` with its backslash) are character references,
and table cells never break a word mid-column (``strin/g``)."""

from __future__ import annotations

import html
import re

import markdown

from mcpgen.docs.escape import md_cell, md_text
from mcpgen.resources import templates_dir


def test_markup_characters_read_literally_in_python_markdown() -> None:
    text = "a < b & c $5 ~x <b>bold</b> *y*"
    for escaped in (md_text(text), md_cell(text)):
        assert "\\<" not in escaped and "\\$" not in escaped and "\\&" not in escaped
        out = markdown.markdown(escaped)
        assert "\\" not in out, out
        assert html.unescape(re.sub(r"</?p>", "", out)) == text, out


def test_cells_do_not_break_words_mid_column() -> None:
    css = (templates_dir() / "docs" / "index.html.jinja").read_text(encoding="utf-8")
    for rule in ("td {", "code {"):
        line = next(ln for ln in css.splitlines() if ln.startswith(rule))
        assert "overflow-wrap: anywhere" not in line and "break-word" in line, line
