"""Each tool's parameters, for every generator that needs them: the typed client's methods
today; the typed CLI and prompt and template arguments next.

``tool_models`` runs datamodel-code-generator on the tools' schemas once
(``typegen.generate_tool_models``); the parameters are built from that run's facts (each
``<Stem>Input``'s fields: name, JSON name, type hint, required) and the inputSchema, never from
the printed module. For each field: the parameter name is the field name (``self`` is
renamed), the annotation is the field's type hint (``Annotated[...]`` metadata already left
out by the generator), and the default is the property's ``default`` in the schema when that
is an immutable JSON literal; otherwise (a list, an object, none) an optional parameter
defaults to ``None`` and the model's default applies (``None`` arguments are never sent).

Annotations reference model classes as ``_m.<Name>``: the type hint's names are read with
Python's own tokenizer (``typehints``), and a name the models module defines is prefixed. Other
names are builtins or ones the generator imports (``Literal``, ``date_aliased``, ...);
``imports`` are the import lines the client module needs for them.
"""

from __future__ import annotations

import builtins
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen.naming import is_safe_identifier, snake_identifier
from mcpgen.typegen import FieldFacts, ModelsRun, generate_tool_models, type_import
from mcpgen.typehints import TypeHint, read_type_hint
from mcpgen_runtime.schemawalk import get_pointer

_BUILTIN = frozenset(dir(builtins)) | {"None"}
_RESERVED_PARAMS = frozenset({"self"})


@dataclass(frozen=True)
class Param:
    name: str
    """The method's parameter name."""
    field: str
    """The input model's field name."""
    annotation: str
    default: str | None
    """Python source of the default, or None for a required parameter."""
    description: str | None
    prop: str = ""
    """The inputSchema property this parameter fills (the JSON name)."""

    @property
    def required(self) -> bool:
        return self.default is None


@dataclass(frozen=True)
class MethodParams:
    params: tuple[Param, ...]
    root: bool
    """The input model is a RootModel (no named fields): the method takes ``arguments``."""


@dataclass(frozen=True)
class ModelsInfo:
    methods: dict[str, MethodParams]
    """Input model name -> parameters."""
    imports: tuple[str, ...]
    """Import lines the client module needs for the annotations."""


ToolSchemas = Sequence[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]]
"""``(class_stem, inputSchema, outputSchema | None)`` per tool."""


class ToolModels:
    """The models module of a set of tools and, read from it on first use, each tool's
    parameters."""

    def __init__(self, tools: ToolSchemas) -> None:
        self.tools = tuple(tools)
        self.run = generate_tool_models(list(self.tools))
        self.source = self.run.source
        """The models module (unformatted; ``""`` for no tools)."""

    @cached_property
    def info(self) -> ModelsInfo:
        """Each ``<stem>Input``'s parameters, and the imports their annotations need."""
        if not self.tools:
            return ModelsInfo({}, ())
        names = [f"{stem}Input" for stem, _i, _o in self.tools]
        schemas = {f"{stem}Input": inp for stem, inp, _o in self.tools}
        return read_models(self.run, names, schemas)


def tool_models(tools: ToolSchemas) -> ToolModels:
    """One generator run over ``tools`` (``typegen.generate_tool_models``)."""
    return ToolModels(tools)


def _param_name(field: str, taken: set[str]) -> str:
    """``field`` itself, or for ``self`` and non-ASCII field names (``é``) an ASCII name that
    no other parameter has."""
    if field not in _RESERVED_PARAMS and is_safe_identifier(field):
        return field
    base = snake_identifier(field, fallback="arg")
    name = base if base not in _RESERVED_PARAMS else base + "_"
    n = 2
    while name in taken:
        name = f"{base}_{n}"
        n += 1
    taken.add(name)
    return name


def _schema_default(prop: Any, root: Mapping[str, Any]) -> tuple[bool, Any]:
    """The property's ``default`` (or that of the local ``$ref`` it is), if any."""
    if not isinstance(prop, Mapping):
        return False, None
    if "default" in prop:
        return True, prop["default"]
    ref = prop.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        found, target = get_pointer(root, ref[1:])
        if found and isinstance(target, Mapping) and "default" in target:
            return True, target["default"]
    return False, None


def _param(
    f: FieldFacts,
    name: str,
    hint: TypeHint,
    props: Mapping[str, Any],
    root: Mapping[str, Any],
) -> Param:
    """One field of an input model as a keyword parameter."""
    annotation = hint.text
    schema = props.get(f.alias)
    default: str | None = None
    if not f.required:
        has, value = _schema_default(schema, root)
        immutable = has and (value is None or isinstance(value, (str, int, float, bool)))
        default = repr(value) if immutable else "None"
        if default == "None" and not hint.allows_none:
            annotation = f"{annotation} | None"
    desc = schema.get("description") if isinstance(schema, Mapping) else None
    return Param(
        name,
        f.name,
        annotation,
        default,
        desc if isinstance(desc, str) and desc.strip() else None,
        f.alias,
    )


def read_models(
    run: ModelsRun, input_models: list[str], schemas: Mapping[str, Mapping[str, Any]]
) -> ModelsInfo:
    """Parameters of each ``input_models`` class of ``run``; ``schemas`` maps a model name to
    its inputSchema (for defaults and descriptions)."""
    defined = frozenset(run.models)
    used: set[str] = set()
    methods: dict[str, MethodParams] = {}
    for model in input_models:
        facts = run.models.get(model)
        if facts is None or facts.kind == "alias":
            raise McpgenError(f"model generation did not produce class {model}")
        if facts.kind == "root":
            methods[model] = MethodParams((), root=True)
            continue
        schema = schemas.get(model, {})
        props = schema.get("properties")
        props = props if isinstance(props, Mapping) else {}
        taken = {f.name for f in facts.fields}
        params = []
        for f in facts.fields:
            hint = read_type_hint(f.type, defined, "_m.")
            for other in hint.names - defined - _BUILTIN:
                used.add(other)
            params.append(_param(f, _param_name(f.name, taken), hint, props, schema))
        methods[model] = MethodParams(tuple(params), root=False)
    imports = tuple(sorted({type_import(n) for n in used}))
    return ModelsInfo(methods, imports)
