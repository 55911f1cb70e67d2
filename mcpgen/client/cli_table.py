"""The typed CLI's table (``mcpgen cli``): each tool as a subcommand, each parameter of the
typed client's method as an option typed from the tool's inputSchema. Pure.

Subcommand names are the tool names in kebab case (``get_weather`` -> ``get-weather``); two
tools that would share one, or a tool named like a built-in subcommand, stop generation with a
located error. Option kinds: ``str``, ``int``, ``float``, ``bool`` (``--x/--no-x``), a string
``enum`` as choices, an array of those as a repeatable option, anything else as JSON text.
"""

from __future__ import annotations

import ast
import json
import keyword
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen.manifest.model import Manifest
from mcpgen.parameters import MethodParams

__all__ = ["BUILTIN_COMMANDS", "CliCommand", "CliOptionSpec", "cli_commands", "command_names"]

BUILTIN_COMMANDS = frozenset({"resources", "prompts", "help"})
_SCALARS = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
_RESERVED_FLAGS = frozenset({"help", "h"})


@dataclass(frozen=True)
class CliOptionSpec:
    flag: str
    param: str
    kind: str
    required: bool
    help: str | None
    default: str | None
    choices: tuple[str, ...]
    multiple: bool
    field: str = ""
    """The key the client method passes the value under (the input model's field)."""
    unset: str | None = None
    """The method's default (Python literal source) when the option is not given."""


@dataclass(frozen=True)
class CliCommand:
    name: str
    tool: str
    method: str
    help: str | None
    options: tuple[CliOptionSpec, ...]
    index: int = 0
    """The tool's place in ``tools.TOOLS``."""
    input_model: str | None = None
    """None: a call the compiled path cannot make (it takes the typed client)."""
    plain_input: bool = False
    """Every option a flat scalar the input model passes through unchanged: the compiled
    path checks the arguments against the inputSchema alone (no model, no pydantic)."""
    output_fields: tuple[tuple[str, str], ...] | None = None
    """A flat scalar outputSchema's properties and kinds, in the output model's order: the
    compiled path prints ``structuredContent`` as the model would dump it, without it."""
    output_model: str | None = None
    """The classes of ``models`` the compiled stdio path validates with (``cli_lean``)."""


def _kebab(name: str) -> str:
    text = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")
    return text


def command_names(manifest: Manifest) -> tuple[str, ...]:
    """Each tool's subcommand name; raises a located ``McpgenError`` on a collision."""
    seen: dict[str, str] = {}
    out: list[str] = []
    for i, tool in enumerate(manifest.tools):
        name = _kebab(tool.name) or f"tool-{i + 1}"
        line, col = manifest.source_map.locate(tool.pointer + "/name")
        if name in BUILTIN_COMMANDS or (name == "skills" and manifest.skills):
            raise McpgenError(
                f"tool {tool.name!r} would be the CLI subcommand {name!r}, which the CLI has "
                "already (resources, prompts, help, and skills on a server with skills): "
                "rename the tool",
                path=manifest.path,
                line=line,
                col=col,
            )
        if name in seen:
            raise McpgenError(
                f"tools {seen[name]!r} and {tool.name!r} would both be the CLI subcommand "
                f"{name!r}: rename one of them",
                path=manifest.path,
                line=line,
                col=col,
            )
        seen[name] = tool.name
        out.append(name)
    return tuple(out)


def _one_line(text: Any, limit: int = 300) -> str | None:
    if not isinstance(text, str) or not text.strip():
        return None
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def _kind(schema: Any) -> tuple[str, tuple[str, ...], bool]:
    """(kind, choices, multiple) of one property's schema."""
    if not isinstance(schema, Mapping) or "$ref" in schema:
        return "json", (), False
    typ = schema.get("type")
    enum = schema.get("enum")
    if isinstance(enum, list) and enum and all(isinstance(e, str) for e in enum):
        return "str", tuple(enum), False
    if isinstance(typ, str) and typ in _SCALARS and not enum:
        return _SCALARS[typ], (), False
    if typ == "array":
        kind, choices, multiple = _kind(schema.get("items"))
        if kind != "json" and kind != "bool" and not multiple:
            return kind, choices, True
    return "json", (), False


_PLAIN_KEYS = frozenset(
    {
        "type",
        "enum",
        "description",
        "title",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "minLength",
        "maxLength",
        "examples",
        "deprecated",
    }
)
_KIND_OF_TYPE = {"string": "str", "integer": "int", "number": "float", "boolean": "bool"}
_PLAIN_ANNOTATION = re.compile(r"(str|int|float|bool|Literal\[[^\[\]]*\])( \| None)?")


def _plain_kind(schema: Any, *, default_ok: bool = False) -> str | None:
    """The kind of a property the models keep as it is (a scalar type, string enums, bounds;
    no format, pattern, $ref or combinator; a default only where ``default_ok``: an input the
    model dumps without its unset fields), else None."""
    allowed = _PLAIN_KEYS | {"default"} if default_ok else _PLAIN_KEYS
    if not isinstance(schema, Mapping) or not set(schema) <= allowed:
        return None
    typ = schema.get("type")
    kind = _KIND_OF_TYPE.get(typ) if isinstance(typ, str) else None
    enum = schema.get("enum")
    if enum is not None:
        ok = isinstance(enum, list) and enum and all(isinstance(e, str) for e in enum)
        return "str" if ok and kind in (None, "str") else None
    return kind


def _plain_name(name: str) -> bool:
    return (
        name.isidentifier() and not keyword.iskeyword(name) and not name.startswith(("_", "model_"))
    )


def _plain_param(o: CliOptionSpec, field: str, prop: str, annotation: str, schema: Any) -> bool:
    return (
        field == prop
        and _plain_name(prop)
        and not o.multiple
        and o.kind == _plain_kind(schema, default_ok=True)  # an unset field is not sent
        and _PLAIN_ANNOTATION.fullmatch(annotation) is not None
        and (o.unset is None or type(ast.literal_eval(o.unset)).__name__ == o.kind)
    )


def _output_fields(schema: Any) -> tuple[tuple[str, str], ...] | None:
    if not isinstance(schema, Mapping) or schema.get("type") != "object":
        return None
    if not set(schema) <= {
        "type",
        "properties",
        "required",
        "additionalProperties",
        "title",
        "description",
    }:
        return None
    if not isinstance(schema.get("additionalProperties", False), bool):
        return None
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return None
    out: list[tuple[str, str]] = []
    for name, sub in props.items():
        kind = _plain_kind(sub)
        if kind is None or not _plain_name(name):
            return None
        out.append((name, kind))
    return tuple(out)


def _literal(source: str) -> bool:
    try:
        ast.literal_eval(source)
    except (ValueError, SyntaxError):
        return False
    return True


def _default(schema: Any) -> str | None:
    if not isinstance(schema, Mapping) or "default" not in schema:
        return None
    value = schema["default"]
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def cli_commands(
    names: Sequence[str],
    tools: Sequence[Any],
    methods: Mapping[str, MethodParams],
) -> tuple[CliCommand, ...]:
    """The table: ``tools`` are ``mcpgen.ir.tools.ToolIR`` (name, method, input model, schema,
    help)."""
    out: list[CliCommand] = []
    for name, tool in zip(names, tools, strict=True):
        method = methods.get(tool.input_model)
        props = tool.input_schema.get("properties")
        props = props if isinstance(props, Mapping) else {}
        required = tool.input_schema.get("required")
        required = set(required) if isinstance(required, list) else set()
        options: list[CliOptionSpec] = []
        if method is not None and method.root:
            options.append(
                CliOptionSpec(
                    "arguments", "arguments", "json", True, "The tool's arguments.", None, (), False
                )  # the root model's method: the dict is the arguments (field "")
            )
        used: set[str] = set()
        compiled = method is not None
        for p in method.params if method is not None else ():
            schema = props.get(p.prop)
            kind, choices, multiple = _kind(schema)
            flag = _kebab(p.name) or "arg"
            if flag in _RESERVED_FLAGS:
                flag += "-value"
            while flag in used:
                flag += "-2"
            used.add(flag)
            options.append(
                CliOptionSpec(
                    flag=flag,
                    param=p.name,
                    kind=kind,
                    required=p.prop in required and p.required,
                    help=_one_line(p.description),
                    default=_default(schema),
                    choices=choices,
                    multiple=multiple,
                    field=p.field,
                    unset=p.default if p.default not in (None, "None") else None,
                )
            )
            if options[-1].unset is not None and not _literal(options[-1].unset):
                compiled = False
        plain = compiled and method is not None and not method.root
        for o, p in zip(
            options, method.params if plain and method is not None else (), strict=False
        ):
            plain = plain and _plain_param(o, p.field, p.prop, p.annotation, props.get(p.prop))
        title = _one_line(tool.title)
        desc = _one_line(tool.description, 1000)
        text = "\n\n".join(t for t in (title, desc) if t) or None
        out.append(
            CliCommand(
                name,
                tool.name,
                tool.method_name,
                text,
                tuple(options),
                index=tool.index,
                input_model=tool.input_model if compiled else None,
                output_model=tool.output_model or None,
                plain_input=plain,
                output_fields=_output_fields(tool.output_schema) if compiled else None,
            )
        )
    return tuple(out)
