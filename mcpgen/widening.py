"""The first step of a tool's model view (``mcpgen.modelview``): a schema whose Python type is
never narrower than the schema, and whose every reference mcpgen has already resolved.

The validator decides (issue 51): jsonschema-rs checks the schema as written on the server and
in the typed client; the model only types what was admitted, so where a Python type cannot say
what the schema says, the model's input says less:

* **References.** A ``#/$defs/<name>`` (or ``#/definitions/...``) of the tool's own root scope
  is kept (it becomes a named model). Every other reference (relative to an embedded ``$id``,
  an ``$anchor``, a URN base, a pointer into an embedded resource, ``#``) is resolved by
  ``mcpgen.schemascope`` against the schema itself and inlined; a recursive one, or one that
  leads nowhere, is any JSON value. datamodel-code-generator never sees a reference it would
  resolve itself, so it never reaches the network.
* **Object and array keywords without ``type``** (``properties``, ``required``, ``items``...)
  apply only to objects or arrays; any other value is valid. The view is
  ``anyOf: [<the schema as an object>, {}]``: ``Model | Any``.
* **Boolean subschemas** in ``allOf``/``anyOf``/``oneOf``: ``true`` says nothing, ``false``
  never matches; an ``allOf`` with ``false`` admits nothing, so its model may be anything.
* **``unevaluatedProperties``/``unevaluatedItems``, ``$dynamicRef``** depend on what the
  rest of the schema evaluated at run time: below the root such a schema is any JSON value; at
  the root the keyword and the applicators beside it are left out (``properties`` stay typed).
* Deeper than ``MAX_DEPTH`` subschemas, a value is any JSON value.
* ``enum``/``const`` beside a ``$ref`` are left to the validator (the generator reads them as
  the whole type). In draft-07 every sibling of ``$ref`` but the annotations is left out: the
  dialect ignores them.
"""

from __future__ import annotations

import re
from typing import Any

from mcpgen.schemascope import Scope
from mcpgen_runtime.jsonschema_facts import (
    D7,
    D2020,
    LIST_KEYWORDS,
    MAP_KEYWORDS,
    SINGLE_KEYWORDS,
    dialect_of,
)

__all__ = [
    "ARRAY_KEYWORDS",
    "MAX_DEPTH",
    "OBJECT_KEYWORDS",
    "OPAQUE_KEYWORDS",
    "schema_depth",
    "widen",
]

OBJECT_KEYWORDS = (
    "properties",
    "required",
    "additionalProperties",
    "patternProperties",
    "propertyNames",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
)
ARRAY_KEYWORDS = ("items", "prefixItems", "minItems", "maxItems", "uniqueItems", "additionalItems")
OPAQUE_KEYWORDS = ("unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef")
_ANNOTATIONS = ("title", "description", "default", "examples", "deprecated")
_IDENTS = ("$id", "$anchor", "$dynamicAnchor", "$schema", "$vocabulary", "$recursiveAnchor")
_ROOT_APPLICATORS = frozenset(
    ("allOf", "anyOf", "oneOf", "if", "then", "else", "not", "$ref", "dependentSchemas")
    + OPAQUE_KEYWORDS
)
_MAP = frozenset(MAP_KEYWORDS) - {"$defs", "definitions"}
_LIST = frozenset(LIST_KEYWORDS)
_ONE = frozenset(SINGLE_KEYWORDS)
_KEEP_BOOL = frozenset(("additionalProperties", "items", "additionalItems"))
_ROOT_DEF = re.compile(r"#/(\$defs|definitions)/([^/]+)")
_MAX_INLINED = 2000  # schemas inlined per tool schema; past it, references are any value
MAX_DEPTH = 48
"""Subschemas nested deeper than this are any JSON value in the model (the validator checks
them; the generator, pydantic and the runtime recurse on such depths)."""


def widen(schema: dict[str, Any]) -> dict[str, Any]:
    """The view of a tool's root ``schema`` (a copy; see the module), in the dialect its
    ``$schema`` names (2020-12 without one)."""
    return _Widener(schema, dialect_of(schema)[0] or D2020).root()


def schema_depth(pointer: str) -> int:
    """How many subschemas deep the schema at ``pointer`` (below a tool's root) is."""
    tokens = pointer.split("/")[1:]
    depth, i = 0, 0
    while i < len(tokens):
        key = tokens[i]
        depth += 1
        i += 2 if key in _MAP or key in _LIST or key in ("$defs", "definitions") else 1
        if key == "items" and i < len(tokens) and tokens[i].isdigit():  # draft-07 tuple
            i += 1
    return depth


def _annotations(node: dict[str, Any]) -> dict[str, Any]:
    return {k: node[k] for k in _ANNOTATIONS if k in node}


class _Widener:
    def __init__(self, schema: dict[str, Any], dialect: str) -> None:
        self.schema = schema
        self.scope = Scope.of_root(schema, dialect)
        self.draft7 = dialect == D7
        self.inlined = 0
        self.depth = 0
        defs = {}
        for key in ("$defs", "definitions"):
            if isinstance(schema.get(key), dict):
                defs[key] = schema[key]
        self.defs = defs

    def root(self) -> dict[str, Any]:
        node = self.schema
        if any(k in node for k in OPAQUE_KEYWORDS):
            node = {k: v for k, v in node.items() if k not in _ROOT_APPLICATORS}
        out = self._dict(node, self.scope, (), True, is_root=True)
        for key, defs in self.defs.items():
            out[key] = {
                name: self._node(d, self.scope.enter(d), (), True) for name, d in defs.items()
            }
        return out

    def _node(self, node: Any, scope: Scope, stack: tuple[int, ...], root_scope: bool) -> Any:
        if isinstance(node, bool):
            return {}
        if not isinstance(node, dict):
            return node
        if "$id" in node:
            root_scope = False
        if self.depth >= MAX_DEPTH:
            return _annotations(node)
        self.depth += 1
        try:
            return self._dict(node, scope, stack, root_scope, is_root=False)
        finally:
            self.depth -= 1

    def _dict(
        self,
        node: dict[str, Any],
        scope: Scope,
        stack: tuple[int, ...],
        root_scope: bool,
        is_root: bool,
    ) -> dict[str, Any]:
        if any(k in node for k in OPAQUE_KEYWORDS):
            return _annotations(node)
        ref = node.get("$ref")
        if isinstance(ref, str) and self.draft7:
            node = {"$ref": ref, **_annotations(node)}  # draft-07: $ref's siblings are ignored
        if isinstance(ref, str) and not self._kept(ref, root_scope):
            return self._inline(node, ref, scope, stack)
        out: dict[str, Any] = {}
        for k, v in node.items():
            if k in _IDENTS or k in ("$defs", "definitions", "$comment"):
                continue
            if k in ("enum", "const") and "$ref" in node:
                continue  # left to the validator
            if k in _MAP and isinstance(v, dict):
                out[k] = {n: self._sub(s, scope, stack, root_scope) for n, s in v.items()}
            elif k in ("allOf", "anyOf", "oneOf") and isinstance(v, list):
                branches = self._branches(k, v, scope, stack, root_scope)
                if branches is None:
                    return _annotations(node)  # admits nothing, or anything: any value
                if branches:
                    out[k] = branches
            elif k in _LIST and isinstance(v, list) or k == "items" and isinstance(v, list):
                out[k] = [self._sub(s, scope, stack, root_scope) for s in v]
            elif k in _ONE or k == "items":
                keep = k in _KEEP_BOOL and isinstance(v, bool)
                out[k] = v if keep else self._sub(v, scope, stack, root_scope)
            else:
                out[k] = v
        if not is_root and "type" not in node:
            return self._typeless(out)
        return out

    @staticmethod
    def _wide_kinds(view: Any) -> list[str]:
        """The types of a view ``_typeless`` widened (``anyOf: [{type: k...}, {}]``), else []."""
        alts = view.get("anyOf") if isinstance(view, dict) else None
        if not isinstance(alts, list) or not alts or alts[-1] != {}:
            return []
        return [a["type"] for a in alts[:-1] if isinstance(a, dict) and "type" in a]

    def _sub(self, node: Any, scope: Scope, stack: tuple[int, ...], root_scope: bool) -> Any:
        return self._node(node, scope.enter(node), stack, root_scope)

    def _branches(
        self, k: str, items: list[Any], scope: Scope, stack: tuple[int, ...], root_scope: bool
    ) -> list[Any] | None:
        """The views of a combinator's branches; None when the combinator makes the schema
        admit nothing (``allOf`` with ``false``) or anything (``anyOf``/``oneOf`` with
        ``true``)."""
        out = []
        for item in items:
            if item is True:
                if k == "allOf":
                    continue
                return None
            if item is False:
                if k == "allOf":
                    return None
                continue
            out.append(self._sub(item, scope, stack, root_scope))
        if not out and k != "allOf":
            return None  # no branch can match: the validator refuses every value
        return out

    def _typeless(self, out: dict[str, Any]) -> dict[str, Any]:
        kinds: list[str] = []
        if any(k in out for k in OBJECT_KEYWORDS):
            kinds.append("object")
        if any(k in out for k in ARRAY_KEYWORDS):
            kinds.append("array")
        # an allOf whose branches say nothing of the type but were widened: the generator
        # merges allOf branches into one model and drops their `{}` alternative
        merged = out.get("allOf")
        if isinstance(merged, list) and not any(
            isinstance(b, dict) and ("type" in b or "$ref" in b) for b in merged
        ):
            for b in merged:
                kinds.extend(k for k in self._wide_kinds(b) if k not in kinds)
        if not kinds:
            return out
        notes = _annotations(out)
        body = {k: v for k, v in out.items() if k not in _ANNOTATIONS}
        branches: list[Any] = [{**body, "type": kind} for kind in kinds]
        return {**notes, "anyOf": [*branches, {}]}

    def _kept(self, ref: str, root_scope: bool) -> bool:
        m = _ROOT_DEF.fullmatch(ref)
        if not (root_scope and m):
            return False
        defs = self.defs.get(m.group(1))
        return defs is not None and m.group(2) in defs

    def _inline(
        self, node: dict[str, Any], ref: str, scope: Scope, stack: tuple[int, ...]
    ) -> dict[str, Any]:
        notes = _annotations(node)
        found = scope.lookup(ref)
        self.inlined += 1
        if found is None or self.inlined > _MAX_INLINED:
            return notes
        target, tscope = found
        if id(target) in stack or isinstance(target, bool):
            return notes  # recursive (or true/false): any value
        view = self._node(target, tscope, (*stack, id(target)), False)
        if not isinstance(view, dict):
            return notes
        return {**view, **notes}
