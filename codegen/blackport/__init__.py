"""Black's splitting of one over-long statement, without black (stdlib only).

A port of the parts of black 26.10.1 that decide how a line too long for the line length is
split (``linegen.transform_line`` and what it calls, ``lines.Line``, ``brackets.BracketTracker``;
black is MIT-licensed, Copyright (c) 2018 Łukasz Langa), restricted to the statements generated
code needs::

    name: annotation [= value]      name = value      return value      assert value
    class Name(bases):

whose expressions hold names, numbers, single-line string literals, attribute access,
subscripts, calls with (keyword) arguments, list and dict displays, unary minus and ``|``. No
comments; black's default mode (no preview features, magic trailing commas on).

* ``lines``: leaves, the bracket tracker and ``Line`` (black's ``lines``/``brackets``);
* ``linegen``: ``transform_line`` and the right-hand/delimiter splits (black's ``linegen``);
* ``statements``: the front end: tokens, the parent node types black consults, whitespace,
  invisible parentheses, and ``split_statement`` (two passes, as ``black.format_str``).

The port keeps black's structure, names and its mutation of shared leaves (prefixes, bracket
depths, invisible parentheses made visible) on purpose: that is what makes the output
identical. Anything outside the subset raises ``codegen.pystyle.UnsupportedSource``.
``tests/server/test_black_clean.py`` compares the output with the pinned black.
"""

from __future__ import annotations

from codegen.blackport.statements import format_statement_once, split_statement

__all__ = ["format_statement_once", "split_statement"]
