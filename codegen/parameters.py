"""Each tool's parameters, for every generator that needs them: the typed client's methods
today; the typed CLI and prompt and template arguments next.

``tool_models`` runs datamodel-code-generator on the tools' schemas; the field types it chose
are read from the in-memory text of that same run (never from disk), on first use. For each
field of ``<Stem>Input`` (what datamodel-code-generator made of the inputSchema):
the parameter name is the field name (``self`` is renamed), the annotation is the field's
type without ``Annotated[...]`` metadata, and the default is the field's default when that is
an immutable literal; otherwise (a list, a dict, a factory) the parameter defaults to
``None`` and the model's default applies (``None`` arguments are never sent).

Annotations reference model classes as ``_m.<Name>`` and keep every other name as the models
module imports it (``Literal``, ``date_aliased``, ...); ``imports`` are the import lines the
client module needs for them. Everything is re-printed with ``ast.unparse`` from the parsed
models source, so no manifest text reaches the client module except through Python's own
literal printing.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from codegen.errors import McpgenError
from codegen.naming import is_safe_identifier, snake_identifier
from codegen.typegen import generate_tool_models

_BUILTIN = frozenset(dir(builtins))
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
        return read_models(self.source, names, schemas, self.run.aliases)


def tool_models(tools: ToolSchemas) -> ToolModels:
    """One generator run over ``tools`` (``typegen.generate_tool_models``)."""
    return ToolModels(tools)


def _strip_annotated(node: ast.expr) -> ast.expr:
    if (
        isinstance(node, ast.Subscript)
        and isinstance(node.value, ast.Name)
        and node.value.id == "Annotated"
        and isinstance(node.slice, ast.Tuple)
        and node.slice.elts
    ):
        return node.slice.elts[0]
    return node


def _alias(node: ast.expr) -> str | None:
    if not (isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple)):
        return None
    for meta in node.slice.elts[1:]:
        if isinstance(meta, ast.Call):
            for kw in meta.keywords:
                if (
                    kw.arg == "alias"
                    and isinstance(kw.value, ast.Constant)
                    and isinstance(kw.value.value, str)
                ):
                    return kw.value.value
    return None


def _immutable_literal(node: ast.expr | None) -> bool:
    if node is None:
        return False
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return value is None or isinstance(value, (str, int, float, bool))


def _allows_none(node: ast.expr) -> bool:
    if isinstance(node, ast.Constant) and node.value is None:
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _allows_none(node.left) or _allows_none(node.right)
    return isinstance(node, ast.Name) and node.id in ("Any", "None")


class _Rewrite(ast.NodeTransformer):
    def __init__(self, classes: set[str], imported: Mapping[str, str]) -> None:
        self.classes = classes
        self.imported = imported
        self.used: set[str] = set()

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id in self.classes:
            return ast.copy_location(
                ast.Attribute(value=ast.Name("_m", ast.Load()), attr=node.id, ctx=ast.Load()), node
            )
        if node.id in self.imported:
            self.used.add(node.id)
        elif node.id not in _BUILTIN:
            raise McpgenError(f"model generation: unexpected name {node.id!r} in a field type")
        return node


def _module_names(tree: ast.Module) -> tuple[dict[str, ast.ClassDef], dict[str, str]]:
    """The module's classes, and each imported name -> the import line that brings it."""
    classes: dict[str, ast.ClassDef] = {}
    imported: dict[str, str] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            classes[stmt.name] = stmt
        elif (
            isinstance(stmt, ast.ImportFrom)
            and stmt.module
            and stmt.module != "__future__"
            and stmt.level == 0
        ):
            for alias in stmt.names:
                local = alias.asname or alias.name
                as_ = f" as {alias.asname}" if alias.asname else ""
                imported[local] = f"from {stmt.module} import {alias.name}{as_}"
        elif isinstance(stmt, ast.Import):
            for alias in stmt.names:
                local = alias.asname or alias.name.split(".")[0]
                as_ = f" as {alias.asname}" if alias.asname else ""
                imported[local] = f"import {alias.name}{as_}"
    return classes, imported


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


def _param(f: ast.AnnAssign, name: str, rewrite: _Rewrite, props: Mapping[str, Any]) -> Param:
    """One field of an input model as a keyword parameter."""
    assert isinstance(f.target, ast.Name)
    prop = _alias(f.annotation) or f.target.id
    typ = _strip_annotated(f.annotation)
    typ = rewrite.visit(ast.parse(ast.unparse(typ), mode="eval").body)
    annotation = ast.unparse(typ)
    default: str | None
    if f.value is None:
        default = None
    elif _immutable_literal(f.value):
        default = ast.unparse(f.value)
        if default == "None" and not _allows_none(typ):
            annotation = f"{annotation} | None"
    else:
        default = "None"
        if not _allows_none(typ):
            annotation = f"{annotation} | None"
    schema = props.get(prop)
    desc = schema.get("description") if isinstance(schema, dict) else None
    return Param(
        name,
        f.target.id,
        annotation,
        default,
        desc if isinstance(desc, str) and desc.strip() else None,
        prop,
    )


def read_models(
    source: str,
    input_models: list[str],
    schemas: Mapping[str, Mapping[str, Any]],
    aliases: frozenset[str],
) -> ModelsInfo:
    """Parameters of each ``input_models`` class in ``source``; ``schemas`` maps a model name
    to its inputSchema (for parameter descriptions)."""
    classes, imported = _module_names(ast.parse(source))
    # constrained scalars are type aliases: referenced as ``_m.<Name>`` like classes
    rewrite = _Rewrite(set(classes) | aliases, imported)
    methods: dict[str, MethodParams] = {}
    for model in input_models:
        cls = classes.get(model)
        if cls is None:
            raise McpgenError(f"model generation did not produce class {model}")
        if any(ast.unparse(b).startswith("RootModel") for b in cls.bases):
            methods[model] = MethodParams((), root=True)
            continue
        props = schemas.get(model, {}).get("properties")
        props = props if isinstance(props, dict) else {}
        fields = [
            s
            for s in cls.body
            if isinstance(s, ast.AnnAssign)
            and isinstance(s.target, ast.Name)
            and s.target.id != "model_config"
        ]
        taken = {f.target.id for f in fields if isinstance(f.target, ast.Name)}
        params = [
            _param(
                f,
                _param_name(f.target.id, taken),
                rewrite,
                props if isinstance(props, dict) else {},
            )
            for f in fields
            if isinstance(f.target, ast.Name)
        ]
        methods[model] = MethodParams(tuple(params), root=False)
    imports = tuple(sorted({imported[n] for n in rewrite.used}))
    return ModelsInfo(methods, imports)
