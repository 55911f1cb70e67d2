"""Where a tool's generated type is wider than its schema (issue 51): the validator decides,
and the model never refuses what it accepted, so where a Python type cannot say what the
schema says, the type says less (``mcpgen.widening``). These warnings tell the author where
that matters to a handler.

* ``SCHEMA_TYPE_IMPLIED``: object keywords (``properties``, ``required``...) or array keywords
  (``items``, ``prefixItems``...) without ``type`` apply only to objects or arrays; any other
  value is valid, so the parameter is typed ``Model | Any``. Not reported on a branch of
  ``allOf``/``anyOf``/``oneOf``/``if``/``then``/``else``/``not``/``dependentSchemas`` (the
  schema around it says what the value is), nor at the root (``INPUT_SCHEMA_ROOT_OBJECT``).
* ``SCHEMA_TYPED_AS_ANY``: ``unevaluatedProperties``/``unevaluatedItems`` and ``$dynamicRef``
  below the root depend on what the rest of the schema evaluated at run time, and subschemas
  nested deeper than ``widening.MAX_DEPTH`` are more than the generator and pydantic recurse
  through: the value is typed as any JSON value (the validator still checks it).
"""

from __future__ import annotations

import re

from mcpgen.check.context import ToolCtx
from mcpgen.check.registry import LINT, W, checker, rule
from mcpgen.widening import (
    ARRAY_KEYWORDS,
    MAX_DEPTH,
    OBJECT_KEYWORDS,
    OPAQUE_KEYWORDS,
    schema_depth,
)
from mcpgen_runtime.jsonschema_facts import escape_token

rule(
    "SCHEMA_TYPE_IMPLIED",
    LINT,
    W,
    "A subschema with object or array keywords (properties, required, items...) says its type.",
    why="Without `type`, those keywords apply only to objects (or arrays): any other value, "
    "`[]`, `12`, `null`, is valid, so the generated type is `Model | Any` and the handler may "
    "receive it. Add `type: object` (or `array`) if that is what you meant.",
)
rule(
    "SCHEMA_TYPED_AS_ANY",
    LINT,
    W,
    "A parameter's schema can be typed in Python (no unevaluated* or $dynamicRef below the root).",
    why="What unevaluatedProperties, unevaluatedItems and $dynamicRef admit depends on what the "
    "rest of the schema evaluated at run time; no Python type says that, so the value is typed "
    "as any JSON value (the validator still checks every call).",
)

_IN_PLACE = re.compile(r"/(allOf|anyOf|oneOf)/\d+$|/(if|then|else|not)$|/dependentSchemas/[^/]+$")


@checker("SCHEMA_TYPE_IMPLIED", "SCHEMA_TYPED_AS_ANY")
def check_implied_types(ctx: ToolCtx) -> None:
    for field, nodes in (("inputSchema", ctx.input_nodes), ("outputSchema", ctx.output_nodes)):
        opaque_under = ""
        for node in nodes:
            s, ptr = node.schema, node.pointer
            if ptr == "" or (opaque_under and ptr.startswith(opaque_under + "/")):
                continue
            if schema_depth(ptr) > MAX_DEPTH:
                opaque_under = ptr
                ctx.emit(
                    "SCHEMA_TYPED_AS_ANY",
                    f"/{field}{ptr}",
                    f"nested more than {MAX_DEPTH} subschemas deep: from here the value is "
                    "typed as any JSON value (the schema still checks it)",
                )
                continue
            opaque = next((k for k in OPAQUE_KEYWORDS if k in s), None)
            if opaque is not None:
                opaque_under = ptr
                ctx.emit(
                    "SCHEMA_TYPED_AS_ANY",
                    f"/{field}{ptr}/{escape_token(opaque)}",
                    f"`{opaque}` here: the value is typed as any JSON value (the schema still "
                    "checks it)",
                    key=True,
                )
                continue
            if "type" in s or "$ref" in s or _IN_PLACE.search(ptr):
                continue
            for kws, kind in ((OBJECT_KEYWORDS, "object"), (ARRAY_KEYWORDS, "array")):
                kw = next((k for k in kws if k in s), None)
                if kw is not None:
                    ctx.emit(
                        "SCHEMA_TYPE_IMPLIED",
                        f"/{field}{ptr}/{escape_token(kw)}",
                        f"`{kw}` without `type: {kind}` also accepts non-{kind}s, and so does "
                        f"the generated type; add `type: {kind}`",
                        key=True,
                    )
                    break
