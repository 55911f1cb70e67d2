"""Code mode's typed API, computed at build time: the Python the model sees and the table the
sandbox runs it with (``mcpgen_runtime.codemode.run_code``).

One ``async def`` per tool, keyword-only, with the typed client's names: the function is the
client's method name (``naming.assign_tool_names`` with the client's reserved names, plus
Python's builtins, which a sandbox global must not shadow), the parameters are the client's
(``parameters.tool_models``: the same names, order, defaults and required-ness). Annotations
are the JSON shapes the sandbox passes and receives (``dict[str, Any]`` where the client has a
model class, ``Literal[...]`` for an enum), since the sandbox has no model classes.

Manifest strings reach the stub only through ``repr()`` (docstrings, ``Literal`` values);
output is deterministic (definition order, no hashing of dicts).
"""

from __future__ import annotations

import builtins
import keyword
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcpgen.client.ir import RESERVED_METHODS
from mcpgen.naming import assign_tool_names
from mcpgen.parameters import MethodParams, tool_models
from mcpgen.typehints import read_type_hint
from mcpgen_runtime.schemawalk import get_pointer

__all__ = ["CodeApi", "api_stub", "compile_api", "function_names"]

# Names a sandbox global must not take: Python's builtins (``list``, ``print``) and the
# typed client's own attributes (its method names stay the client's).
_RESERVED = frozenset(n for n in dir(builtins) if not n.startswith("_")) | RESERVED_METHODS
# Names a JSON-shaped annotation may use (anything else becomes a JSON shape).
_PLAIN = frozenset({"str", "int", "float", "bool", "None", "list", "dict", "Any", "Literal"})
_SCALARS = {
    "string": "str",
    "integer": "int",
    "number": "float",
    "boolean": "bool",
    "null": "None",
    "object": "dict[str, Any]",
}
_HEADER = (
    "# Code mode: the server's tools as async Python functions (keyword arguments only).\n"
    "# Await each call; the value of the script's last expression is the answer.\n"
    "# A tool error raises RuntimeError. No imports beyond json, math, re, datetime, ...\n"
    "from typing import Any, Literal\n"
)


@dataclass(frozen=True)
class CodeApi:
    stub: str
    """The Python the model reads (``api_stub``)."""
    table: dict[str, Any]
    """What ``run_code`` takes as ``api``: ``{"functions": {function: {"tool": name,
    "params": {parameter: JSON property}, "root": bool}}}``."""

    @property
    def names(self) -> dict[str, str]:
        return {fn: spec["tool"] for fn, spec in self.table["functions"].items()}


def _name(definition: Mapping[str, Any]) -> str:
    name = definition.get("name")
    if not isinstance(name, str):
        raise ValueError("every tool definition needs a string 'name'")
    return name


def _json_type(schema: Any, root: Mapping[str, Any], depth: int = 0) -> str:
    """The JSON shape of ``schema`` as a Python annotation (``Any`` when it cannot tell)."""
    if not isinstance(schema, Mapping) or depth > 6:
        return "Any"
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#"):
        found, target = get_pointer(root, ref[1:])
        return _json_type(target, root, depth + 1) if found else "Any"
    if "const" in schema:
        return _literal([schema["const"]])
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        return _literal(enum)
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            return _union(_json_type(o, root, depth + 1) for o in options)
    typ = schema.get("type")
    types = typ if isinstance(typ, list) else [typ]
    parts = []
    for t in types:
        if t == "array":
            parts.append(f"list[{_json_type(schema.get('items'), root, depth + 1)}]")
        elif isinstance(t, str) and t in _SCALARS:
            parts.append(_SCALARS[t])
        else:
            return "Any"
    return _union(parts)


def _literal(values: Sequence[Any]) -> str:
    if all(v is None or isinstance(v, (str, int, bool)) for v in values):
        return "Literal[" + ", ".join(repr(v) for v in values) + "]"
    return "Any"


def _union(parts: Any) -> str:
    seen: list[str] = []
    for p in parts:
        if p == "Any":
            return "Any"
        if p not in seen:
            seen.append(p)
    return " | ".join(seen) if seen else "Any"


def _annotation(client_hint: str, prop: Any, schema: Mapping[str, Any]) -> str:
    """The client's annotation when it is plain JSON types, else the property's JSON shape."""
    hint = read_type_hint(client_hint, frozenset(), "")
    if hint.names <= _PLAIN:
        return client_hint
    shape = _json_type(prop, schema)
    if hint.allows_none and shape != "Any" and "None" not in shape.split(" | "):
        shape += " | None"
    return shape


def _doc(description: Any) -> str:
    text = description.strip() if isinstance(description, str) else ""
    return f"    {text!r}\n" if text else "    ...\n"


def _function(
    fn: str, definition: Mapping[str, Any], method: MethodParams
) -> tuple[str, dict[str, Any]]:
    schema = definition.get("inputSchema")
    schema = schema if isinstance(schema, Mapping) else {}
    props = schema.get("properties")
    props = props if isinstance(props, Mapping) else {}
    out = definition.get("outputSchema")
    returns = "dict[str, Any]" if isinstance(out, Mapping) else "Any"
    spec: dict[str, Any] = {"tool": _name(definition)}
    if method.root:
        spec["root"] = True
        head = f"async def {fn}(*, arguments: dict[str, Any]) -> {returns}:\n"
        return head + _doc(definition.get("description")), spec
    params = []
    mapping = {}
    for p in sorted(method.params, key=lambda p: not p.required):  # required first, stable
        ann = _annotation(p.annotation, props.get(p.prop), schema)
        params.append(f"{p.name}: {ann}" + ("" if p.required else f" = {p.default}"))
        mapping[p.name] = p.prop
    spec["params"] = mapping
    head = f"async def {fn}(" + ("*, " + ", ".join(params) if params else "") + f") -> {returns}:\n"
    return head + _doc(definition.get("description")), spec


def compile_api(
    definitions: Sequence[Mapping[str, Any]],
    *,
    params: Mapping[str, MethodParams] | None = None,
) -> CodeApi:
    """The stub and the sandbox's table for ``definitions`` (name, inputSchema, outputSchema,
    description), in their order.

    ``params``: each tool's parameters by tool name, when the caller has them already (the
    server generator's own models run: ``models.info.methods[tool.input_model]``); else the
    models generator runs once over the input schemas (seconds for hundreds of tools)."""
    names = assign_tool_names([_name(d) for d in definitions], reserved=_RESERVED)
    for n in names:
        if keyword.iskeyword(n.method_name):  # pragma: no cover (naming already avoids it)
            raise ValueError(f"tool {n.tool_name!r}: no function name")
    if params is None:
        specs = []
        for n, d in zip(names, definitions, strict=True):
            schema = d.get("inputSchema")
            specs.append((n.class_stem, schema if isinstance(schema, Mapping) else {}, None))
        methods = tool_models(specs).info.methods if specs else {}
        params = {n.tool_name: methods[n.input_model] for n in names}
    chunks = [_HEADER]
    table: dict[str, Any] = {}
    for n, d in zip(names, definitions, strict=True):
        text, spec = _function(n.method_name, d, params[n.tool_name])
        chunks.append("\n\n" + text)
        table[n.method_name] = spec
    return CodeApi(stub="".join(chunks), table={"functions": table})


def api_stub(definitions: Sequence[Mapping[str, Any]]) -> str:
    """The typed Python API the model sees (see ``compile_api``)."""
    return compile_api(definitions).stub


def function_names(definitions: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Function name -> tool name, in definition order (the names ``compile_api`` uses)."""
    names = assign_tool_names([_name(d) for d in definitions], reserved=_RESERVED)
    return {n.method_name: n.tool_name for n in names}
