"""JSON with positions, at the speed of the stdlib's C decoder.

``json.loads`` (C) parses the data; positions are found *lazily*: the first time someone asks
for ``/tools/3/name``, the locator indexes the members of ``""``, ``/tools``, ``/tools/3`` (one
pass over each container, skipping member values with the C scanner) and caches every offset
it saw. Most documents have few diagnostics, so most positions are never computed; a 10 MB
file parses in a fraction of a second.

Nesting is measured before parsing (a C-speed bracket count), so 10,000-deep input is refused
with a position instead of a ``RecursionError``. Strict RFC 8259: ``NaN``/``Infinity`` are
refused, as are numbers beyond the double range or Python's integer digit limit. Duplicate
keys are found (the last one wins, like ``json.loads``).
"""

from __future__ import annotations

import bisect
import json
import re
import sys
from json.decoder import scanstring  # type: ignore[attr-defined]
from json.scanner import make_scanner
from typing import Any

from mcpgen_runtime.jsonschema_facts import escape_token, unescape_token

_WS = re.compile(r"[ \t\n\r]*")
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{}]')
_DELTA = {"[": 1, "{": 1, "]": -1, "}": -1}
_DECODER = json.JSONDecoder()


class JsonSyntaxError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


escape = escape_token
"""RFC 6901 escaping of one reference token."""
unescape = unescape_token


class _Constant(Exception):
    pass


def _refuse_constant(name: str) -> Any:
    raise _Constant(name, f"{name} is not valid JSON")


def _float(literal: str) -> float:
    value = float(literal)
    if value in (_INF, -_INF):
        raise _Constant(literal, f"{literal} is too large for a JSON number (it would be infinity)")
    return value


_INF = float("inf")


def parse_json(text: str, max_depth: int) -> tuple[Any, JsonLocator]:
    """Parse strict JSON; raise ``JsonSyntaxError`` with a character offset on any error."""
    dup_objects: list[dict[str, Any]] = []

    def pairs_hook(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        d = dict(pairs)
        if len(d) != len(pairs):
            dup_objects.append(d)
        return d

    try:
        value = json.loads(
            text, object_pairs_hook=pairs_hook, parse_constant=_refuse_constant, parse_float=_float
        )
    except json.JSONDecodeError as exc:
        raise JsonSyntaxError(exc.msg, exc.pos) from None
    except _Constant as exc:
        literal, message = exc.args
        where = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|(' + re.escape(literal) + ")")
        offset = next((m.start(1) for m in where.finditer(text) if m.group(1)), 0)
        raise JsonSyntaxError(message, offset) from None
    except ValueError:  # an int beyond sys.get_int_max_str_digits(): not one the C decoder reads
        limit = sys.get_int_max_str_digits()
        digits = "(-?[0-9]{" + str(limit + 1) + ",}(?![0-9.eE]))"
        where = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|' + digits)
        found = next((m for m in where.finditer(text) if m.group(1)), None)
        raise JsonSyntaxError(
            f"an integer with more than {limit} digits is too large to read or to write as JSON",
            found.start(1) if found else 0,
        ) from None
    except RecursionError:
        value = None  # far too deep for the C decoder: _check_depth finds where
    if value is None or _too_deep(value, max_depth):
        _check_depth(text, max_depth)
    loc = JsonLocator(text)
    if dup_objects:
        loc.find_duplicates(value, {id(d) for d in dup_objects})
    return value, loc


def _too_deep(value: Any, max_depth: int) -> bool:
    if not isinstance(value, (dict, list)):
        return False
    todo: list[tuple[Any, int]] = [(value, 1)]
    while todo:
        node, depth = todo.pop()
        if depth > max_depth:
            return True
        for child in node.values() if isinstance(node, dict) else node:
            if isinstance(child, (dict, list)):
                todo.append((child, depth + 1))
    return False


def _check_depth(text: str, max_depth: int) -> None:
    """Raise at the bracket that opens level ``max_depth + 1`` (if there is one)."""
    depth = 0
    for m in _TOKENS.finditer(text):
        d = _DELTA.get(m.group())
        if d is not None:
            depth += d
            if depth > max_depth:
                raise JsonSyntaxError(f"nested more than {max_depth} levels deep", m.start())


class JsonLocator:
    """Offsets of values and keys by JSON pointer, computed on demand and cached."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.values: dict[str, int] = {"": _WS.match(text, 0).end()}  # type: ignore[union-attr]
        self.keys: dict[str, int] = {}
        self.duplicates: list[tuple[str, int, int]] = []  # (pointer, repeated key, first key)
        self._indexed: set[str] = set()
        self._scan = make_scanner(_DECODER)  # type: ignore[arg-type]
        self._line_starts: list[int] | None = None

    def offset(self, pointer: str, *, key: bool = False) -> int | None:
        table = self.keys if key else self.values
        if pointer not in table:
            self._reach(pointer)
        return table.get(pointer)

    def line_col(self, offset: int) -> tuple[int, int]:
        if self._line_starts is None:
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        line = bisect.bisect_right(self._line_starts, offset)
        return line, offset - self._line_starts[line - 1] + 1

    def _reach(self, pointer: str) -> None:
        if not pointer.startswith("/"):
            return
        current = ""
        for token in pointer[1:].split("/"):
            if current not in self._indexed:
                if current not in self.values:
                    return
                self._index(current)
            current = f"{current}/{token}"

    def _index(self, pointer: str) -> None:
        """Record the offsets of every member of the container at ``pointer``."""
        self._indexed.add(pointer)
        text, ws, scan = self.text, _WS.match, self._scan
        i = self.values[pointer]
        opener = text[i : i + 1]
        if opener not in ("{", "["):
            return
        i = ws(text, i + 1).end()  # type: ignore[union-attr]
        n = 0
        seen: dict[str, int] = {}
        while text[i] not in "}]":
            if opener == "{":
                key_start = i
                key, i = scanstring(text, i + 1, True)
                i = ws(text, ws(text, i).end() + 1).end()  # type: ignore[union-attr]
                child = f"{pointer}/{escape(key)}"
                if key in seen:
                    self.duplicates.append((child, key_start, seen[key]))
                seen[key] = key_start
                self.keys[child] = key_start
            else:
                child = f"{pointer}/{n}"
                n += 1
            self.values[child] = i
            _, i = scan(text, i)
            i = ws(text, i).end()  # type: ignore[union-attr]
            if text[i] == ",":
                i = ws(text, i + 1).end()  # type: ignore[union-attr]

    def find_duplicates(self, root: Any, ids: set[int]) -> None:
        """Index the objects whose ids are in ``ids`` (they repeat a key)."""
        todo: list[tuple[Any, str]] = [(root, "")]
        while todo:
            node, ptr = todo.pop()
            if isinstance(node, dict):
                if id(node) in ids:
                    self._reach(ptr + "/")
                    if ptr not in self._indexed:
                        self._index(ptr)
                todo.extend(
                    (v, f"{ptr}/{escape(k)}")
                    for k, v in node.items()
                    if isinstance(v, (dict, list))
                )
            elif isinstance(node, list):
                todo.extend(
                    (v, f"{ptr}/{i}") for i, v in enumerate(node) if isinstance(v, (dict, list))
                )
        self.duplicates.sort(key=lambda d: d[1])


class LazyPositions(dict):  # type: ignore[type-arg]
    """A ``dict`` of pointer -> (line, col) that fills itself from a ``JsonLocator`` on lookup.

    ``in``, ``[]`` and ``.get`` work for every pointer of the document; iterating shows only the
    positions computed so far.
    """

    def __init__(self, locator: JsonLocator | None = None, key: bool = False) -> None:
        super().__init__()
        self._loc = locator
        self._key = key

    def _lookup(self, pointer: Any) -> tuple[int, int] | None:
        if dict.__contains__(self, pointer):
            return dict.__getitem__(self, pointer)  # type: ignore[no-any-return]
        if self._loc is None or not isinstance(pointer, str):
            return None
        off = self._loc.offset(pointer, key=self._key)
        if off is None:
            return None
        pos = self._loc.line_col(off)
        dict.__setitem__(self, pointer, pos)
        return pos

    def __contains__(self, pointer: object) -> bool:
        return self._lookup(pointer) is not None

    def __getitem__(self, pointer: Any) -> tuple[int, int]:
        pos = self._lookup(pointer)
        if pos is None:
            raise KeyError(pointer)
        return pos

    def get(self, pointer: Any, default: Any = None) -> Any:
        pos = self._lookup(pointer)
        return default if pos is None else pos
