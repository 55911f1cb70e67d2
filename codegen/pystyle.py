"""Python source in the pinned black's style, without running black (stdlib only).

Generated files must already be what black (``codegen.format`` mode: line length 100, default
settings) would print, but black itself is too slow to run over a large server package. The
templates produce black's layout directly with these helpers:

* ``str_literal``: a string literal for *any* ``str`` (quotes, backslashes, newlines, NUL, lone
  surrogates, non-ASCII), escaped like ``repr()`` but quoted as black prefers. It is the only
  way a manifest string reaches generated source: ``ast.literal_eval`` gives the exact input
  back, and nothing in it can end the literal.
* ``literal``: the same for ``None``/``bool``/``int``/finite ``float``/``str``.
* ``width``/``fits``: a line's display width as black measures it (East Asian wide characters
  count 2) and whether it fits the line length.
* ``bracket_split``/``function_def``/``import_from``/``tuple_display``/``assignment``: the
  layouts black gives a call, a ``def`` signature, a ``from`` import, a tuple display and an
  assignment of one atom, from "one line if it fits" down to one item per line. Templates use
  them (``codegen.render``'s ``py_*`` globals) where the length of a line depends on manifest
  data; statements of a shape these do not cover go to ``codegen.blackport``.
* ``normalize_literals``: black's string-quote and numeric-literal normalisation for module
  text (the datamodel-code-generator output), by a single regular-expression scan
  (``normalize_literals_tokenize``: the same with the ``tokenize`` module, for any source).

``tests/server/test_black_clean.py`` checks all of this against the pinned black.
"""

from __future__ import annotations

import ast
import math
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

from codegen.format import LINE_LENGTH

INDENT = "    "

_ESCAPES = {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(ch: str) -> str:
    if ch in _ESCAPES:
        return _ESCAPES[ch]
    if ch.isprintable():
        return ch
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def str_literal(value: str) -> str:
    """The string literal black would print for ``value`` (``repr()``'s escapes, black's quotes).

    Black prefers double quotes unless they need more escaping than single quotes: a string
    holding only ``"`` stays single-quoted; with both kinds the quote occurring less often is
    used, ties going to ``"``. Non-printable characters (controls, NUL, lone surrogates,
    separators such as U+2028) are escaped exactly as ``repr()`` escapes them.
    """
    if not isinstance(value, str):
        raise TypeError(f"str_literal() takes a str, not {type(value).__name__}")
    doubles = value.count('"')
    singles = value.count("'")
    quote = '"' if doubles == 0 or (singles and doubles <= singles) else "'"
    if value.isascii() and value.isprintable() and "\\" not in value:
        body = value  # fast path: nothing but the chosen quote needs escaping
    else:
        body = "".join(_escape_char(ch) for ch in value)
    if quote in body:
        body = body.replace(quote, "\\" + quote)
    return quote + body + quote


def literal(value: Any) -> str:
    """A Python literal for ``None``, ``bool``, ``int``, finite ``float`` or ``str``."""
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, str):
        return str_literal(value)
    if isinstance(value, int):
        return repr(int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{value!r} has no Python literal")
        return _black_number(repr(value))
    raise TypeError(f"no literal for {type(value).__name__} values")


def _char_width(ch: str) -> int:
    if unicodedata.east_asian_width(ch) in ("W", "F") and unicodedata.category(ch)[0] != "M":
        return 2
    return 1


def width(line: str) -> int:
    """Display width of ``line`` as black measures it (``str_width``): 2 for East Asian wide and
    full-width characters, 1 for every other one (combining marks included). Black uses its own
    table (wcwidth, Unicode 17); this uses ``unicodedata``, which differs only for a few hundred
    symbols added in recent Unicode versions."""
    if line.isascii():
        return len(line)
    return sum(_char_width(ch) for ch in line)


def fits(line: str) -> bool:
    return width(line) <= LINE_LENGTH


def bracket_split(
    indent: str,
    head: str,
    items: Sequence[str],
    tail: str = "",
    *,
    open_: str = "(",
    close: str = ")",
) -> str:
    """``{indent}{head}(item, ...){close}{tail}`` in black's layout (no trailing newline).

    For calls, ``def`` signatures, class bases and subscripts (``open_="["``) with at least
    two items, or one item that is not a ``def`` parameter, and no split points black would
    prefer inside ``head``, ``tail`` or an item: the whole construct on one line if it fits;
    else the items on one indented line between the brackets if that fits; else one item per
    line with a trailing comma. (A collection display - list, dict, set, tuple - skips the
    middle form: see ``tuple_display``.)
    """
    one_line = f"{indent}{head}{open_}{', '.join(items)}{close}{tail}"
    if fits(one_line):
        return one_line
    inner = indent + INDENT
    joined = inner + ", ".join(items)
    if fits(joined):
        return f"{indent}{head}{open_}\n{joined}\n{indent}{close}{tail}"
    body = "".join(f"{inner}{item},\n" for item in items)
    return f"{indent}{head}{open_}\n{body}{indent}{close}{tail}"


def function_def(indent: str, head: str, params: Sequence[str], returns: str) -> str:
    """``{indent}{head}(params) -> {returns}:`` as black lays out a ``def`` signature: like
    ``bracket_split``, and when the closing ``) -> returns:`` line is still too long, the return
    annotation goes in parentheses on its own line (split before each ``|`` if need be; a
    single name that does not fit there either stays where it is).
    ``params``: at least two (black adds a trailing comma to a lone parameter it splits)."""
    text = bracket_split(indent, head, params, f" -> {returns}:")
    if "\n" not in text:
        return text
    before, _, last = text.rpartition("\n")
    if fits(last):
        return text
    inner = indent + INDENT
    if fits(inner + returns):
        annotation = inner + returns
    elif " | " in returns:
        first, *rest = returns.split(" | ")
        annotation = "\n".join([inner + first, *(f"{inner}| {part}" for part in rest)])
    else:
        return text  # one name that fits nowhere: black leaves it
    return f"{before}\n{indent}) -> (\n{annotation}\n{indent}):"


def import_from(indent: str, module: str, names: Sequence[str]) -> str:
    """``from {module} import ...``: one line if it fits, else parenthesised, one name per
    line, with a trailing comma (black always explodes a split import)."""
    one_line = f"{indent}from {module} import {', '.join(names)}"
    if fits(one_line):
        return one_line
    body = "".join(f"{indent}{INDENT}{name},\n" for name in names)
    return f"{indent}from {module} import (\n{body}{indent})"


def tuple_display(indent: str, head: str, items: Sequence[str]) -> str:
    """``{indent}{head}(...)``: a tuple display of single-line ``items`` as black prints it:
    ``()``, ``(item,)`` when that fits, else one item per line with trailing commas (a
    trailing comma is "magic" for black in every display except a one-item tuple)."""
    if not items:
        return f"{indent}{head}()"
    if len(items) == 1:
        one_line = f"{indent}{head}({items[0]},)"
        if fits(one_line):
            return one_line
    body = "".join(f"{indent}{INDENT}{item},\n" for item in items)
    return f"{indent}{head}(\n{body}{indent})"


def assignment(indent: str, target: str, atom: str) -> str:
    """``{indent}{target} = {atom}`` (``atom``: one unsplittable token, e.g. a string literal)
    as black prints it: one line if it fits; otherwise the atom in parentheses on its own line.
    For a plain name target black does that only when it makes the atom fit; for an annotated
    target (``NAME: type``) it always does."""
    one_line = f"{indent}{target} = {atom}"
    if fits(one_line):
        return one_line
    inner = f"{indent}{INDENT}{atom}"
    if ":" in target or fits(inner):
        return f"{indent}{target} = (\n{inner}\n{indent})"
    return one_line


# --- module text ------------------------------------------------------------------------


class UnsupportedSource(ValueError):
    """``normalize_literals`` met a construct its fast scan does not handle (a string prefix,
    a triple-quoted or implicitly continued string); callers fall back to a full formatter."""


# One token of interest per match, scanning left to right: comments, single-line string
# literals (so that quotes and '#' inside them are never misread), scientific-notation
# numbers, the start of a triple-quoted string and a quote that starts no complete
# single-line string (``stray``). Everything else is copied through.
_TOKEN = re.compile(
    r"""
      (?P<comment>\#[^\n]*)
    | (?P<triple>'''|\"\"\")
    | (?P<string>'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")
    | (?P<number>(?<![A-Za-z0-9_.])[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9_]+)
    | (?P<stray>['"])
    """,
    re.VERBOSE,
)
_IDENTIFIER_CHAR = re.compile(r"\w")


def _black_number(text: str) -> str:
    """Black's numeric-literal normalisation for the decimal/scientific forms ``repr`` uses:
    lower-case ``e`` and no ``+`` in the exponent."""
    if "e" not in text.lower():
        return text
    mantissa, _, exponent = text.lower().partition("e")
    if exponent.startswith("+"):
        exponent = exponent[1:]
    return f"{mantissa}e{exponent}"


def _normalize_string(token: str, cache: dict[str, str]) -> str:
    if token[0] == "'" and '"' not in token and "\\" not in token:
        return '"' + token[1:-1] + '"'
    if token[0] == '"' and "'" not in token and "\\" not in token:
        return token
    got = cache.get(token)
    if got is None:
        value = ast.literal_eval(token)
        if not isinstance(value, str):  # pragma: no cover - the pattern only matches str
            raise UnsupportedSource(f"unexpected literal {token}")
        got = cache[token] = str_literal(value)
    return got


def normalize_literals(source: str) -> str:
    """Rewrite every string literal of ``source`` as ``str_literal`` spells its value and every
    scientific-notation number as black does; everything else is left byte for byte.

    Raises ``UnsupportedSource`` for prefixed (``r''``, ``b''``, ``f''``), triple-quoted or
    backslash-continued strings; ``normalize_literals_tokenize`` handles those.
    """
    cache: dict[str, str] = {}

    def replace(match: re.Match[str]) -> str:
        if match.group("comment") is not None:
            return match.group()
        if match.group("triple") is not None:
            raise UnsupportedSource("a triple-quoted string")
        if match.group("number") is not None:
            return _black_number(match.group())
        if match.group("stray") is not None:
            raise UnsupportedSource("a string literal spanning lines")
        start = match.start()
        if start and _IDENTIFIER_CHAR.match(source, start - 1):
            raise UnsupportedSource(f"string prefix before {match.group()[:40]!r}")
        return _normalize_string(match.group("string"), cache)

    return _TOKEN.sub(replace, source)


def normalize_literals_tokenize(source: str) -> str:
    """``normalize_literals`` for any valid module, with the ``tokenize`` module (slower):
    prefixed and triple-quoted strings are left as they are."""
    import io
    import tokenize

    lines = source.splitlines(keepends=True)
    edits: list[tuple[int, int, int, str]] = []
    cache: dict[str, str] = {}
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        text = tok.string
        if tok.type == tokenize.NUMBER:
            new = _black_number(text)
        elif tok.type == tokenize.STRING and text[0] in "'\"" and text[:3] not in ("'''", '"""'):
            if tok.start[0] != tok.end[0]:
                continue
            new = _normalize_string(text, cache)
        else:
            continue
        if new != text:
            edits.append((tok.start[0] - 1, tok.start[1], tok.end[1], new))
    for row, start, end, new in reversed(edits):
        line = lines[row]
        lines[row] = line[:start] + new + line[end:]
    return "".join(lines)
