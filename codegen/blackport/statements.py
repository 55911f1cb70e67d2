"""The front end: one statement's text -> a ``Line`` black would build, and back."""

from __future__ import annotations

import re

from codegen.blackport.linegen import transform_line
from codegen.blackport.lines import (
    BRACKET,
    CLOSING_BRACKETS,
    COLON,
    COMMA,
    DOT,
    EQUAL,
    LBRACE,
    LPAR,
    LSQB,
    MINUS,
    NAME,
    NUMBER,
    OPENING_BRACKETS,
    RPAR,
    RSQB,
    STRING,
    Leaf,
    Line,
    line_to_string,
)
from codegen.pystyle import UnsupportedSource

_TOKEN = re.compile(
    r"""
    [ \n]*
    (?:
      (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
    | (?P<number>(?:[0-9][0-9_]*(?:\.[0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][-+]?[0-9_]+)?[jJ]?)
    | (?P<name>[^\W\d]\w*)
    | (?P<op>[()\[\]{},:=|.\-])
    )
    """,
    re.VERBOSE,
)
_KEYWORDS = frozenset({"return", "assert", "await", "class"})


def _tokenize(text: str) -> list[Leaf]:
    leaves: list[Leaf] = []
    pos = 0
    text = text.rstrip(" \n")
    while pos < len(text):
        match = _TOKEN.match(text, pos)
        if match is None:
            raise UnsupportedSource(f"cannot split {text[pos:pos + 20]!r}")
        if match.group("string") is not None:
            if leaves and leaves[-1].type == NAME and match.start("string") == pos:
                raise UnsupportedSource("string prefix")
            leaves.append(Leaf(STRING, match.group("string")))
        elif match.group("number") is not None:
            leaves.append(Leaf(NUMBER, match.group("number")))
        elif match.group("name") is not None:
            leaves.append(Leaf(NAME, match.group("name")))
        else:
            op = match.group("op")
            leaves.append(Leaf(op, op))
        pos = match.end()
    return leaves


_LIST_PARENT = {("trailer", LPAR): "arglist", ("trailer", LSQB): "subscriptlist",
                ("atom", LSQB): "listmaker", ("atom", LBRACE): "dictsetmaker",
                ("atom", LPAR): "testlist_gexp", ("classdef", LPAR): "arglist"}


def _annotate(leaves: list[Leaf]) -> None:
    """Give brackets, commas, ``=`` and ``-`` the parent node types black looks at, and every
    leaf the whitespace black's ``whitespace()`` gives it; refuse what is outside the subset."""
    stack: list[Leaf] = []
    prev: Leaf | None = None
    is_class = bool(leaves) and leaves[0].type == NAME and leaves[0].value == "class"
    for index, leaf in enumerate(leaves):
        if leaf.type in OPENING_BRACKETS:
            if is_class and index == 2 and leaf.type == LPAR:
                leaf.parent = "classdef"
            elif leaf.type != LBRACE and prev is not None and (
                prev.type in (STRING, RPAR, RSQB) or (prev.type == NAME and prev.value not in _KEYWORDS)
            ):
                leaf.parent = "trailer"
            else:
                leaf.parent = "atom"
            stack.append(leaf)
        elif leaf.type in CLOSING_BRACKETS:
            if not stack or BRACKET[stack[-1].type] != leaf.type:
                raise UnsupportedSource("unbalanced brackets")
            leaf.parent = stack.pop().parent
        elif leaf.type == COMMA:
            if not stack:
                raise UnsupportedSource("a bare tuple")
            leaf.parent = _LIST_PARENT[(stack[-1].parent or "atom", stack[-1].type)]
        elif leaf.type == MINUS:
            if prev is not None and (prev.type in (NAME, NUMBER, STRING) or prev.type in CLOSING_BRACKETS):
                raise UnsupportedSource("binary minus")
            leaf.parent = "factor"
        elif leaf.type == COLON:
            if stack and stack[-1].type != LBRACE:
                raise UnsupportedSource("a slice")
        elif leaf.type == EQUAL:
            if not stack:
                leaf.parent = "expr_stmt"
            elif stack[-1].type == LPAR and stack[-1].parent == "trailer":
                leaf.parent = "argument"
            else:
                raise UnsupportedSource("'=' outside a call")
        leaf.prefix = leaf.canonical = _whitespace(leaf, prev)
        prev = leaf
    if stack:
        raise UnsupportedSource("unbalanced brackets")


def _whitespace(leaf: Leaf, prev: Leaf | None) -> str:
    """black's ``whitespace()`` for the supported subset."""
    if prev is None or prev.type in OPENING_BRACKETS:
        return ""
    if leaf.type in CLOSING_BRACKETS or leaf.type in (COMMA, COLON) or prev.type == DOT:
        return ""
    if leaf.type == DOT and prev.type in (NAME, NUMBER, STRING, RPAR, RSQB):
        return ""  # attribute access (a dot after anything else starts an ellipsis)
    if leaf.type in OPENING_BRACKETS and leaf.parent in ("trailer", "classdef"):
        return ""
    if "argument" in (leaf.parent, prev.parent) or prev.parent == "factor":
        return ""
    return " "


def _wrapped(leaves: list[Leaf]) -> list[Leaf]:
    """``leaves`` between invisible parentheses (black's ``normalize_invisible_parens``: a
    redundant pair of parentheses already there becomes the invisible pair)."""
    if not leaves:
        raise UnsupportedSource("empty expression")
    first, last = leaves[0], leaves[-1]
    if first.type == LPAR and first.parent == "atom" and last.type == RPAR and _matches(leaves):
        if len(leaves) > 2 and not any(
            leaf.type == COMMA and _depth_of(leaves, i) == 1 for i, leaf in enumerate(leaves)
        ):
            first.value = last.value = ""
            first.optional = last.optional = True
            return leaves
    opening = Leaf(LPAR, "", first.prefix, "atom")
    opening.canonical = first.canonical
    first.prefix = first.canonical = ""
    closing = Leaf(RPAR, "", "", "atom")
    return [opening, *leaves, closing]


def _matches(leaves: list[Leaf]) -> bool:
    """Whether ``leaves[0]`` is closed by ``leaves[-1]``."""
    depth = 0
    for i, leaf in enumerate(leaves):
        if leaf.type in OPENING_BRACKETS:
            depth += 1
        elif leaf.type in CLOSING_BRACKETS:
            depth -= 1
            if depth == 0:
                return i == len(leaves) - 1
    return False


def _statement_line(text: str, depth: int) -> Line:
    leaves = _tokenize(text)
    _annotate(leaves)
    if not leaves:
        raise UnsupportedSource("empty statement")
    head = leaves[0]
    if head.type == NAME and head.value == "class":
        parts = leaves
    elif head.type == NAME and head.value in ("return", "assert"):
        parts = [head, *_wrapped(leaves[1:])]
    else:
        parts = _assignment_parts(leaves)
    line = Line(depth=depth)
    for leaf in parts:
        line.append(leaf)
    return line


def format_statement_once(text: str, depth: int) -> tuple[str, bool]:
    """One pass of black over one statement (``text`` may span lines: it is re-joined), and
    whether a second pass could differ: only if this one added a trailing comma (which a second
    pass reads as magic) or made invisible parentheses visible (redundant on a second pass)."""
    out = transform_line(_statement_line(text, depth))
    changed = any(
        (leaf.optional and leaf.value) or (leaf.detached and leaf.type == COMMA)
        for ln in out
        for leaf in ln.leaves
    )
    return "\n".join(line_to_string(ln) for ln in out), changed


def split_statement(text: str, depth: int) -> str:
    """``text`` (one statement, without indentation) at ``depth`` indentation levels, laid out
    as ``black.format_str`` lays it out (several lines when too long). No trailing newline.

    Statements: ``name: annotation [= value]``, ``name = value``, ``return value``,
    ``assert value`` and ``class Name(bases):``. Like ``black.format_str``, a statement the
    first pass changed gets a second pass: the trailing commas the first pass added are then
    "magic", and parentheses it made visible are redundant, which can change the layout."""
    first, second_pass_may_differ = format_statement_once(text, depth)
    if not second_pass_may_differ:
        return first
    return format_statement_once(first, depth)[0]


def _assignment_parts(leaves: list[Leaf]) -> list[Leaf]:
    top = [i for i, leaf in enumerate(leaves) if leaf.type in (COLON, EQUAL) and _depth_of(leaves, i) == 0]
    if len(leaves) < 3 or leaves[0].type != NAME or not top or top[0] != 1:
        raise UnsupportedSource("not a simple (annotated) assignment")
    if leaves[1].type == COLON:
        equals = [i for i in top[1:] if leaves[i].type == EQUAL]
        if len(top) > 2 or (len(top) == 2 and not equals):
            raise UnsupportedSource("not a simple annotated assignment")
        end = equals[0] if equals else len(leaves)
        parts = [leaves[0], leaves[1], *_wrapped(leaves[2:end])]
        if equals:
            parts += [leaves[end], *_wrapped(leaves[end + 1 :])]
        return parts
    if len(top) > 1:
        raise UnsupportedSource("chained assignment")
    return [leaves[0], leaves[1], *_wrapped(leaves[2:])]


def _depth_of(leaves: list[Leaf], index: int) -> int:
    depth = 0
    for leaf in leaves[:index]:
        if leaf.type in OPENING_BRACKETS:
            depth += 1
        elif leaf.type in CLOSING_BRACKETS:
            depth -= 1
    return depth
