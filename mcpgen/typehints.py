"""A type hint as the generator reports it (``emit_model_metadata``'s field ``type``, such as
``list[XTag] | None``), read with Python's own tokenizer: the names it uses, whether it admits
``None``, and its text with the names of one module prefixed (``_m.XTag``).

Only the tokens are read, never the hint's structure: string literals (``Literal['a b']``)
are single tokens, so no name inside one is touched; attribute names (``x.y``) and keyword
arguments (``Field(ge=1)``) are not names the hint uses.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Collection
from dataclasses import dataclass

from mcpgen.errors import McpgenError

_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")
_SKIP = frozenset({tokenize.NEWLINE, tokenize.NL, tokenize.ENDMARKER, tokenize.INDENT})


@dataclass(frozen=True)
class TypeHint:
    text: str
    """The hint with each ``defined`` name prefixed."""
    names: frozenset[str]
    """Every name it uses (before prefixing)."""
    allows_none: bool
    """``None`` or ``Any`` is one of its top-level ``|`` members."""


def read_type_hint(hint: str, defined: Collection[str], prefix: str) -> TypeHint:
    """``hint`` read as tokens; the names in ``defined`` get ``prefix``. A hint that does not
    tokenize, or spans lines, is a generator bug (``McpgenError``)."""
    if "\n" in hint or not hint.strip():
        raise McpgenError(f"model generation: unexpected field type {hint!r}")
    try:
        tokens = [
            t for t in tokenize.generate_tokens(io.StringIO(hint).readline) if t.type not in _SKIP
        ]
    except (tokenize.TokenError, SyntaxError) as exc:
        raise McpgenError(f"model generation: unexpected field type {hint!r}") from exc
    out: list[str] = []
    names: set[str] = set()
    members: list[list[str]] = [[]]
    depth = 0
    pos = 0
    for i, tok in enumerate(tokens):
        start = tok.start[1]
        out.append(hint[pos:start])
        pos = tok.end[1]
        text = tok.string
        if tok.type == tokenize.OP:
            depth += text in _OPEN
            depth -= text in _CLOSE
        is_name = (
            tok.type == tokenize.NAME
            and not (i > 0 and tokens[i - 1].string == ".")
            and not (i + 1 < len(tokens) and tokens[i + 1].string == "=")
        )
        if is_name:
            names.add(text)
            if text in defined:
                text = prefix + text
        if depth == 0 and tok.type == tokenize.OP and tok.string == "|":
            members.append([])
        else:
            members[-1].append(tok.string)
        out.append(text)
    out.append(hint[pos:])
    allows_none = any("".join(m) in ("None", "Any") for m in members)
    return TypeHint("".join(out), frozenset(names), allows_none)
