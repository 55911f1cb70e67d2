"""A strict JSON parser that remembers where every value starts.

The stdlib ``json`` module gives no positions, so this module walks the text itself with an
explicit stack (no recursion: 10,000-deep input is refused cleanly, never a RecursionError) and
uses the C helpers of ``json`` (``scanstring``) for strings. It returns plain Python data plus, for
every RFC 6901 pointer, the character offset of the value and of its key; ``sourcemap`` turns
offsets into 1-based line:col.

Strict RFC 8259: no comments, no trailing commas, no NaN/Infinity, no control characters in
strings. Duplicate keys are recorded (the last one wins, like ``json.loads``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from json.decoder import scanstring
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?")


class JsonSyntaxError(ValueError):
    def __init__(self, message: str, offset: int) -> None:
        super().__init__(message)
        self.message = message
        self.offset = offset


@dataclass
class JsonParse:
    value: Any
    positions: dict[str, int] = field(default_factory=dict)
    key_positions: dict[str, int] = field(default_factory=dict)
    # (pointer of the repeated member, offset of the repeated key, offset of the first key)
    duplicates: list[tuple[str, int, int]] = field(default_factory=list)


def escape(token: str) -> str:
    """RFC 6901 escaping of one reference token."""
    if "~" in token or "/" in token:
        return token.replace("~", "~0").replace("/", "~1")
    return token


def _describe(text: str, i: int) -> str:
    if i >= len(text):
        return "end of file"
    ch = text[i]
    return repr(ch) if ch.isprintable() else f"character U+{ord(ch):04X}"


def parse_json(text: str, max_depth: int) -> JsonParse:
    """Parse ``text``; raise ``JsonSyntaxError`` (with a character offset) on any error."""
    out = JsonParse(None)
    pos = out.positions
    kpos = out.key_positions
    ws = _WS.match
    n = len(text)
    # frames: [container, pointer, is_object, current key, offsets of keys seen (objects)]
    stack: list[list[Any]] = []
    ptr = ""
    i = ws(text, 0).end()
    if i >= n:
        raise JsonSyntaxError("expected a JSON value, found end of file", i)

    def read_key(i: int, frame: list[Any]) -> tuple[str, int]:
        # at a '"' (checked by caller); returns (pointer of the member, index of its value)
        start = i
        try:
            key, i = scanstring(text, i + 1, True)
        except ValueError as exc:
            raise JsonSyntaxError(_json_msg(exc), getattr(exc, "pos", i)) from None
        kptr = frame[1] + "/" + escape(key)
        seen = frame[4]
        if key in seen:
            out.duplicates.append((kptr, start, seen[key]))
        seen[key] = start
        kpos[kptr] = start
        frame[3] = key
        i = ws(text, i).end()
        if i >= n or text[i] != ":":
            raise JsonSyntaxError(f"expected ':' after an object key, found {_describe(text, i)}", i)
        i = ws(text, i + 1).end()
        return kptr, i

    while True:
        # ---- parse one value starting at i, for pointer ptr
        if i >= n:
            raise JsonSyntaxError("expected a value, found end of file", i)
        pos[ptr] = i
        ch = text[i]
        if ch == '"':
            try:
                val, i = scanstring(text, i + 1, True)
            except ValueError as exc:
                raise JsonSyntaxError(_json_msg(exc), getattr(exc, "pos", i)) from None
        elif ch == "{" or ch == "[":
            if len(stack) >= max_depth:
                raise JsonSyntaxError(f"nested more than {max_depth} levels deep", i)
            is_obj = ch == "{"
            i = ws(text, i + 1).end()
            close = "}" if is_obj else "]"
            if i < n and text[i] == close:
                val = {} if is_obj else []
                i += 1
            else:
                frame: list[Any] = [{} if is_obj else [], ptr, is_obj, None, {}]
                stack.append(frame)
                if is_obj:
                    if i >= n or text[i] != '"':
                        raise JsonSyntaxError(
                            f"expected a string key or '}}', found {_describe(text, i)}", i
                        )
                    ptr, i = read_key(i, frame)
                else:
                    ptr = ptr + "/0"
                continue
        elif ch == "t" and text.startswith("true", i):
            val, i = True, i + 4
        elif ch == "f" and text.startswith("false", i):
            val, i = False, i + 5
        elif ch == "n" and text.startswith("null", i):
            val, i = None, i + 4
        else:
            m = _NUMBER.match(text, i)
            if m is None:
                raise JsonSyntaxError(f"expected a JSON value, found {_describe(text, i)}", i)
            num = m.group()
            val = float(num) if (m.group(1) or m.group(2)) else int(num)
            i = m.end()
        # ---- attach val to its container; close containers as they end
        while True:
            if not stack:
                out.value = val
                i = ws(text, i).end()
                if i < n:
                    raise JsonSyntaxError(
                        f"unexpected {_describe(text, i)} after the end of the JSON document", i
                    )
                return out
            frame = stack[-1]
            i = ws(text, i).end()
            c = text[i] if i < n else ""
            if frame[2]:
                frame[0][frame[3]] = val
                if c == ",":
                    i = ws(text, i + 1).end()
                    if i >= n or text[i] != '"':
                        raise JsonSyntaxError(
                            f"expected a string key after ',', found {_describe(text, i)}", i
                        )
                    ptr, i = read_key(i, frame)
                    break
                if c == "}":
                    i += 1
                    val = frame[0]
                    stack.pop()
                    continue
                raise JsonSyntaxError(
                    f"expected ',' or '}}' after an object member, found {_describe(text, i)}", i
                )
            frame[0].append(val)
            if c == ",":
                i = ws(text, i + 1).end()
                ptr = f"{frame[1]}/{len(frame[0])}"
                break
            if c == "]":
                i += 1
                val = frame[0]
                stack.pop()
                continue
            raise JsonSyntaxError(
                f"expected ',' or ']' after an array element, found {_describe(text, i)}", i
            )


def _json_msg(exc: ValueError) -> str:
    msg = getattr(exc, "msg", None) or str(exc)
    return str(msg).split(": line ")[0]
