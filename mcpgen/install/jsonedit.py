"""Set one entry of a JSON (or JSONC: comments, trailing commas) configuration file, leaving
every other byte as it was. Pure: text in, text out.

The document is parsed by json-five (a maintained JSON5 parser whose model keeps each node's
line and column); the new entry is spliced in as text at the place the model names, the way
VS Code's jsonc-parser ``modify`` edits settings files, and the result is parsed again to
confirm it holds exactly the intended value.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcpgen.errors import McpgenError

__all__ = ["Edit", "get_entry", "set_entry"]


@dataclass(frozen=True)
class Edit:
    text: str
    """The whole new document."""
    previous: Any
    """The entry's value before (None when it was absent)."""


def _parse(text: str, path: str) -> Any:
    from json5.loader import ModelLoader, loads
    from json5.utils import JSON5DecodeError

    try:
        return loads(text, loader=ModelLoader())
    except JSON5DecodeError as exc:
        import re

        full = str(exc)
        primary = full.split("The primary error was:", 1)[-1].strip()
        msg = primary.split("\n")[0].strip()
        found = re.search(r"line (\d+) column (\d+)", msg)
        line, col = (int(found[1]), int(found[2])) if found else (None, None)
        msg = re.sub(r"\s*at: line \d+ column \d+ \(char \d+\)", "", msg)
        raise McpgenError(
            f"not valid JSON (or JSONC): {msg}", path=path, line=line, col=col
        ) from None
    except (ValueError, RecursionError) as exc:
        raise McpgenError(f"not valid JSON (or JSONC): {exc}", path=path) from None


def _plain(node: Any) -> Any:
    """A json-five model node as plain Python data."""
    from json5.dumper import ModelDumper, dumps
    from json5.loader import loads

    return loads(dumps(node, dumper=ModelDumper()))  # type: ignore[arg-type]


def _key(node: Any) -> str:
    chars = getattr(node, "characters", None)
    return chars if isinstance(chars, str) else str(getattr(node, "name", ""))


def _offset(lines: list[int], line: int, col: int) -> int:
    """Character offset of 1-based ``line`` and 0-based ``col``."""
    return lines[line - 1] + col


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)
    return starts


def _find(obj: Any, key: str) -> Any:
    for kv in obj.key_value_pairs:
        if _key(kv.key) == key:
            return kv
    return None


def _indent_of(text: str, offset: int) -> str:
    start = text.rfind("\n", 0, offset) + 1
    line = text[start:offset]
    return line[: len(line) - len(line.lstrip())]


def _dump(value: Any, indent: str, step: str) -> str:
    body = json.dumps(value, indent=len(step) or None, ensure_ascii=False)
    return body.replace("\n", "\n" + indent)


def set_entry(
    text: str, path: str, container: Sequence[str], key: str, value: Mapping[str, Any]
) -> Edit:
    """``text`` with ``container...[key] = value`` (containers created as needed). Raises
    ``McpgenError`` (with line:col) for a document that is not JSON/JSONC or whose containers
    are not objects."""
    from json5.model import JSONObject

    if not text.strip():
        doc: dict[str, Any] = {}
        cur = doc
        for name in container:
            cur = cur.setdefault(name, {})
        cur[key] = dict(value)
        return Edit(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", None)
    model = _parse(text, path)
    starts = _line_starts(text)
    node = model.value
    where = "the document"
    for name in container:
        if not isinstance(node, JSONObject):
            raise McpgenError(
                f"{where} must be a JSON object",
                path=path,
                line=node.lineno,
                col=node.col_offset + 1,
            )
        kv = _find(node, name)
        if kv is None:
            nested: dict[str, Any] = {key: dict(value)}
            for outer in reversed(container[container.index(name) + 1 :]):
                nested = {outer: nested}
            new = _insert(text, starts, node, name, nested)
            return _checked(new, path, container, key, value, None)
        node, where = kv.value, f"`{name}`"
    if not isinstance(node, JSONObject):
        raise McpgenError(
            f"{where} must be a JSON object", path=path, line=node.lineno, col=node.col_offset + 1
        )
    kv = _find(node, key)
    if kv is None:
        return _checked(
            _insert(text, starts, node, key, dict(value)), path, container, key, value, None
        )
    old = _plain(kv.value)
    v = kv.value
    begin = _offset(starts, v.lineno, v.col_offset)
    end = _offset(starts, v.end_lineno, v.end_col_offset)
    indent = _indent_of(text, _offset(starts, kv.key.lineno, kv.key.col_offset))
    new = text[:begin] + _dump(dict(value), indent, "  ") + text[end:]
    return _checked(new, path, container, key, value, old)


def _insert(text: str, starts: list[int], obj: Any, key: str, value: Any) -> str:
    """Add ``"key": value`` as the last member of ``obj``."""
    pairs = obj.key_value_pairs
    close = _offset(starts, obj.end_lineno, obj.end_col_offset) - 1  # the `}`
    assert text[close] == "}", (close, text[close - 5 : close + 5])
    if pairs:
        last = pairs[-1].value
        after = _offset(starts, last.end_lineno, last.end_col_offset)
        indent = _indent_of(text, _offset(starts, pairs[-1].key.lineno, pairs[-1].key.col_offset))
        if "\n" not in text[_offset(starts, obj.lineno, obj.col_offset) : close]:
            indent = ""  # a one-line object stays on one line
        sep = "\n" + indent if indent else " "
        piece = f"{sep}{json.dumps(key)}: {_dump(value, indent, '  ')}"
        comma, tail = _line_tail(text, after)
        if comma:  # the file ends its entries with a comma: so does the new one
            return text[:tail] + piece + "," + text[tail:]
        return text[:after] + "," + text[after:tail] + piece + text[tail:]
    else:
        outer = _indent_of(text, close)
        inner = outer + "  "
        piece = f"\n{inner}{json.dumps(key)}: {_dump(value, inner, '  ')}\n{outer}"
        body_start = _offset(starts, obj.lineno, obj.col_offset) + 1
        return text[:body_start] + piece + text[close:]


def _line_tail(text: str, after: int) -> tuple[bool, int]:
    """What follows a member's value on its own line: (a comma?, the offset where the line's
    comma, spaces and comments end). A comment there belongs to that member and stays with it:
    a new member goes after it, never between the value and its comment."""
    i, comma = after, False
    n = len(text)
    while i < n:
        if text[i] in " \t":
            i += 1
        elif text[i] == "," and not comma:
            comma, i = True, i + 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0 or "\n" in text[i:end]:
                break  # a block comment that runs on: it is not this line's
            i = end + 2
        else:
            break
    return comma, _back_over_spaces(text, i, after)


def _back_over_spaces(text: str, i: int, floor: int) -> int:
    while i > floor and text[i - 1] in " \t":
        i -= 1
    return i


def _checked(
    new: str, path: str, container: Sequence[str], key: str, value: Mapping[str, Any], old: Any
) -> Edit:
    got = get_entry(new, path, container, key)
    if got != json.loads(json.dumps(dict(value))):  # pragma: no cover - a bug, never shipped
        raise McpgenError("internal: the edited document does not hold the new entry", path=path)
    return Edit(new, old)


def get_entry(text: str, path: str, container: Sequence[str], key: str) -> Any:
    """``container...[key]`` of a JSON/JSONC document as plain data (None when absent)."""
    if not text.strip():
        return None
    from json5.model import JSONObject

    node = _parse(text, path).value
    for name in [*container, key]:
        if not isinstance(node, JSONObject):
            return None
        kv = _find(node, name)
        if kv is None:
            return None
        node = kv.value
    return _plain(node)
