"""Escaping every manifest string on its way into a reference page. Pure.

* ``visible``: control characters, bidirectional overrides, zero-width and line-separator
  characters are shown as ``\\u202e``-style escapes, so no string can hide text, reorder what a
  reader sees or break a line the page did not break. Newlines stay (the callers decide).
* ``md_text`` / ``md_cell``: Markdown with every ASCII punctuation character that could start
  markup backslash-escaped (CommonMark lets any ASCII punctuation be escaped), so no manifest
  string can open a tag, a link, emphasis or code, or end a table cell; ``md_cell`` also turns
  newlines into ``<br>`` so a cell stays on its row.
* HTML needs no helper here: the HTML template autoescapes every value (jinja2 + markupsafe),
  after ``visible``.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["json_text", "md_cell", "md_text", "visible"]

_MD_SPECIAL = frozenset("\\`*_{}[]>#|!")
# Characters a backslash does not escape in every Markdown (Python-Markdown, which mkdocs
# uses, shows `\<` with its backslash): written as character references, which all read.
_MD_ENTITY = {"<": "&lt;", "&": "&amp;", "$": "&#36;", "~": "&#126;"}
_LIST_START = re.compile(r"^(?:[-+=]|\d+[.)])")
_INVISIBLE = frozenset(
    [0x7F, 0x85, 0xAD, 0x061C, 0x180E, 0xFEFF, 0x2028, 0x2029]
    + list(range(0x200B, 0x2010))
    + list(range(0x202A, 0x202F))
    + list(range(0x2060, 0x2070))
)


def _shown(ch: str) -> str:
    code = ord(ch)
    if code == 0x09:
        return "\\t"
    if code == 0x0D:
        return "\\r"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(value: Any) -> str:
    """``str(value)`` with invisible and reordering characters shown as escapes (newlines
    kept)."""
    text = str(value)
    out: list[str] = []
    for ch in text:
        code = ord(ch)
        if ch == "\n":
            out.append(ch)
        elif code < 0x20 or 0x7F <= code < 0xA0 or code in _INVISIBLE:
            out.append(_shown(ch))
        else:
            out.append(ch)
    return "".join(out)


def md_text(value: Any) -> str:
    """A Markdown paragraph showing ``value`` literally (newlines become line breaks)."""
    lines = [_md_escape(line.strip()) for line in visible(value).split("\n")]
    return "<br>\n".join(lines).strip()


def md_cell(value: Any) -> str:
    """A Markdown table cell showing ``value`` literally: one line, no unescaped ``|``."""
    text = "<br>".join(_md_escape(line) for line in visible(value).split("\n"))
    return text.strip() or " "


def _md_escape(line: str) -> str:
    """Escape what could start markup anywhere on a line, and a list or heading underline
    marker at its start."""
    text = "".join(_MD_ENTITY.get(ch) or ("\\" + ch if ch in _MD_SPECIAL else ch) for ch in line)
    m = _LIST_START.match(text)
    if m:
        end = m.end()
        text = text[: end - 1] + "\\" + text[end - 1 :]
    return text


def json_text(value: Any) -> str:
    """A JSON value as one line (defaults, enums, constants, examples), unicode kept."""
    return json.dumps(value, ensure_ascii=False, sort_keys=False, separators=(", ", ": "))
