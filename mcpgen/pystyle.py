"""String literals for generated source: the one way a manifest string reaches Python code.

* ``str_literal``: a string literal for *any* ``str`` (quotes, backslashes, newlines, NUL, lone
  surrogates, non-ASCII), escaped like ``repr()`` but quoted as black prefers. ``ast.literal_eval``
  gives the exact input back, and nothing in it can end the literal (a Hypothesis test checks
  both).
* ``literal``: the same for ``None``/``bool``/``int``/finite ``float``/``str``.

Layout is not done here: generated files are formatted by ``mcpgen.format`` (ruff format,
black-compatible) after rendering.
"""

from __future__ import annotations

import math
from typing import Any

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


def _black_number(text: str) -> str:
    """Black's numeric-literal normalisation for the decimal/scientific forms ``repr`` uses:
    lower-case ``e`` and no ``+`` in the exponent."""
    if "e" not in text.lower():
        return text
    mantissa, _, exponent = text.lower().partition("e")
    if exponent.startswith("+"):
        exponent = exponent[1:]
    return f"{mantissa}e{exponent}"
