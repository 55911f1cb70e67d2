"""What a tool's models are generated from: its schemas minus what a pydantic model cannot
express as the JSON Schema means it.

The schema decides (issue 36): a generated server checks every call's arguments and every
structured result with jsonschema-rs against the schema as written, and a typed client checks
the arguments it sends the same way. A model must therefore never refuse what the schema
accepts; where it cannot say what a keyword says, it leaves that keyword to the schema:

* ``format`` is an annotation (formats are not asserted), but datamodel-code-generator types
  ``date-time`` as ``AwareDatetime``, ``email`` as ``EmailStr``, ``uuid`` as ``UUID``...,
  which refuse strings the schema accepts and hand handlers converted values. Left out, the
  value is the ``str`` that was sent.
* ``pattern`` is an ECMA-262 regex as jsonschema-rs reads it; pydantic's engines (Rust
  ``regex``, or Python's ``re``, which datamodel-code-generator switches a whole model to when
  one pattern has a lookaround) read ``\\D``, ``\\W``, ``\\s`` and ``\\p{..}`` differently, or not
  at all. Left out, the string is any string and jsonschema-rs enforces the pattern.
* ``patternProperties``: the generator types the object as
  ``dict[Annotated[str, pattern], V]`` (refusing the names ``additionalProperties`` admits) or,
  beside ``properties``, drops it and forbids the extra names it admits. Left out, with the
  ``additionalProperties``/``unevaluatedProperties`` it qualifies, the object is a
  ``dict[str, Any]`` (or a model open to extra names) and the schema decides.

Only tool schemas get this view: a resource template's variables and a prompt's arguments are
checked by their models alone, so their models keep every keyword. The schemas served and
validated are never changed; only the generator's input is.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from mcpgen.widening import widen
from mcpgen_runtime.schemawalk import walk

__all__ = ["LEFT_TO_THE_SCHEMA", "model_view", "tool_model_spec"]

LEFT_TO_THE_SCHEMA = ("format", "pattern", "patternProperties")
"""The keywords a model leaves to the schema (with those ``patternProperties`` qualifies)."""

_QUALIFIED_BY_PATTERNS = ("additionalProperties", "unevaluatedProperties")


def model_view(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A copy of ``schema`` without the keywords a model cannot express (see the module)."""
    view: dict[str, Any] = copy.deepcopy(widen(dict(schema)))
    for node in walk(view):
        sub = node.schema
        sub.pop("format", None)
        sub.pop("pattern", None)
        if "patternProperties" in sub:
            del sub["patternProperties"]
            for keyword in _QUALIFIED_BY_PATTERNS:
                sub.pop(keyword, None)
    return view


def tool_model_spec(
    stem: str, input_schema: Mapping[str, Any], output_schema: Mapping[str, Any] | None
) -> tuple[str, Mapping[str, Any], Mapping[str, Any] | None]:
    """``(stem, input, output)`` as ``parameters.tool_models`` takes it, for a tool."""
    return (
        stem,
        model_view(input_schema),
        None if output_schema is None else model_view(output_schema),
    )
