"""The only module that imports datamodel-code-generator (pinned exactly in pyproject.toml).

Everything here runs in-process, with a fixed set of options. ``generate_models`` returns source
text; ``generate_tool_models`` returns a ``ModelsRun``: the text and each model's facts (kind,
fields, types) from the generator's own ``emit_model_metadata`` file, so nothing reads the text
back. Importing this module is cheap; the generator itself is imported on the first call. The
text is formatted by callers (``mcpgen.format``: black for the protocol package, ruff for
generated server packages).
"""

from __future__ import annotations

import functools
import json
import tempfile
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mcpgen.errors import McpgenError
from mcpgen_runtime.schemawalk import get_pointer

# Options shared by every generation: deterministic output, no timestamps, pydantic v2,
# formatting left to mcpgen.format (black, pinned) so there is one formatter for all output.
BASE_OPTIONS: dict[str, Any] = {
    "output_model_type": "pydantic_v2.BaseModel",
    "target_python_version": "3.10",
    "disable_timestamp": True,
    "use_annotated": True,
    "use_union_operator": True,
    "use_double_quotes": True,
    "snake_case_field": True,
    "remove_special_field_name_prefix": True,
    "enum_field_as_literal": "all",
    "formatters": ["builtin"],
}


def generate_models(
    input_: Mapping[str, Any] | list[Any],
    *,
    input_file_type: str = "jsonschema",
    **options: Any,
) -> str:
    """Run datamodel-code-generator on an in-memory document and return the module source.

    ``input_file_type`` is ``"jsonschema"`` or ``"mcp-tools"`` (a tools/list result or tool
    list). ``options`` override/extend ``BASE_OPTIONS`` (names of ``GenerateConfigDict``).
    Enum-valued options may be given as their string values.
    """
    import datamodel_code_generator as dcg
    from datamodel_code_generator.enums import DataModelType, InputFileType

    merged: dict[str, Any] = {**BASE_OPTIONS, **options}
    merged["input_file_type"] = InputFileType(input_file_type)
    merged["output_model_type"] = DataModelType(merged["output_model_type"])
    merged["target_python_version"] = dcg.PythonVersion(merged["target_python_version"])
    if "formatters" in merged:
        from datamodel_code_generator.format import Formatter

        merged["formatters"] = [Formatter(f) for f in merged["formatters"]]
    if isinstance(merged.get("enum_field_as_literal"), str):
        merged["enum_field_as_literal"] = dcg.LiteralType(merged["enum_field_as_literal"])
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = dcg.generate(
                dict(input_) if isinstance(input_, Mapping) else list(input_), **merged
            )
    except dcg.Error as exc:
        raise McpgenError(f"model generation failed: {exc}") from exc
    if not isinstance(out, str):
        raise McpgenError("model generation returned several modules; expected one")
    return out if out.endswith("\n") else out + "\n"


# Per-tool models for generated servers/clients (``mcp-tools`` input type).
# * ``parent-prefixed`` names inline models after their parent (``GetWeatherInputLocation``)
#   instead of global numbered names, so adding a tool does not rename another tool's models.
# * ``format`` keywords that pydantic would *transform* (base64 decoding, URL normalisation)
#   stay plain strings: the wire value must reach handlers unchanged.
# * No formatter pass inside the generator (it would read formatter settings from the nearest
#   pyproject.toml, and costs ~1 s on 200 tools): ``mcpgen.format`` formats the whole package
#   once, with ruff.
# * Every model derives from an open base (``extra="allow"``) unless its schema says
#   ``additionalProperties: false`` (then datamodel-code-generator emits ``extra="forbid"``):
#   the model's extra-field behaviour follows the schema.
# * ``use_type_alias``: a constrained scalar (``items: {type: string, minLength: 1}``) becomes
#   ``TypeAliasType("...", Annotated[str, Field(min_length=1)])``, never a ``RootModel`` wrapper:
#   handlers get plain ``list[str]`` values and typed clients accept ``["a", "b"]`` under
#   ``mypy --strict``; pydantic still enforces the constraint (and jsonschema-rs the schema).
TOOL_MODEL_OPTIONS: dict[str, Any] = {
    "naming_strategy": "parent-prefixed",
    "type_mappings": [
        "byte=string",
        "binary=string",
        "uri=string",
        "uri-reference=string",
        "uri-template=string",
        "iri=string",
        "iri-reference=string",
    ],
    "formatters": [],
}
TYPEDDICT_OPTIONS: dict[str, Any] = {
    "output_model_type": "typing.TypedDict",
    "snake_case_field": False,
}
"""``server.models: typeddict``: ``TypedDict``s keyed by the JSON property names (a name that is
not an identifier, or is a keyword, gets the functional ``TypedDict("X", {...})`` form); the
handler's dict is the JSON as sent, so no name is changed. No base class: nothing validates
with them (the runtime's JSON Schema validator decides)."""
RUNTIME_MODEL_BASE = "mcpgen_runtime.models.OpenModel"
"""The base class of generated server and client models (datamodel-code-generator's
``base_class``: it writes ``from mcpgen_runtime.models import OpenModel``)."""

ModelKind = Literal["class", "root", "alias"]


@dataclass(frozen=True)
class FieldFacts:
    """One field of a generated model, as datamodel-code-generator reports it."""

    name: str
    """The Python field name (``class_`` for ``class``)."""
    alias: str
    """The JSON property name."""
    type: str
    """The field's type hint without ``Annotated`` metadata (``list[XTag] | None``)."""
    required: bool


@dataclass(frozen=True)
class ModelFacts:
    class_name: str
    kind: ModelKind
    """``class`` (an ``OpenModel``), ``root`` (a ``RootModel`` wrapper) or ``alias`` (a
    ``TypeAliasType``)."""
    fields: tuple[FieldFacts, ...]
    """A class's fields (none for a root or an alias)."""
    type: str = ""
    """A root's or an alias's type (``""`` for a class)."""


@dataclass(frozen=True)
class ModelsRun:
    """What one run of the generator produced: the module text and each model's facts, from
    its ``emit_model_metadata`` file (never read back from the text)."""

    source: str
    """The models module (unformatted; ``""`` for no tools)."""
    models: Mapping[str, ModelFacts]
    """Class name -> facts, in the module's order."""

    @property
    def aliases(self) -> frozenset[str]:
        return frozenset(n for n, m in self.models.items() if m.kind == "alias")


NO_MODELS = ModelsRun("", {})


def generate_tool_models(
    tools: list[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]],
    *,
    typeddict: bool = False,
) -> ModelsRun:
    """Models for a list of ``(class_stem, inputSchema, outputSchema | None)`` in one run
    (``NO_MODELS`` for no tools).

    Each tool yields ``<stem>Input`` (and ``<stem>Output`` when it has an outputSchema);
    ``$defs`` are hoisted as ``<stem>Input<Def>``. Raises ``McpgenError`` when an expected
    class is missing. ``typeddict`` (``server.models: typeddict``): ``TypedDict``s instead
    (``TYPEDDICT_OPTIONS``); a root that is not an object is a type alias there, which is fine:
    nothing validates with it.
    """
    doc: list[dict[str, Any]] = []
    for stem, input_schema, output_schema in tools:
        item: dict[str, Any] = {"name": stem, "inputSchema": dict(input_schema)}
        if output_schema is not None:
            item["outputSchema"] = dict(output_schema)
        doc.append(item)
    if not doc:
        return NO_MODELS
    if typeddict:
        return tool_models_run(doc, use_type_alias=True, typeddict=True)
    # Constrained scalars as type aliases, not RootModel wrappers. A tool's own Input/Output
    # must stay a class (the runtime and clients validate with it), so a manifest where one
    # would become an alias (a root anyOf input, a non-object output) is generated with
    # wrappers, as before, in a second run of the same pinned generator.
    # A root that surely becomes an alias skips the first run (it would be thrown away).
    if any(_surely_alias(i) or _surely_alias(o) for _s, i, o in tools):
        return _checked(tools, _wrapped(doc))
    run = tool_models_run(doc, use_type_alias=True)
    aliases = run.aliases
    if any(f"{stem}Input" in aliases or f"{stem}Output" in aliases for stem, _i, _o in tools):
        run = _wrapped(doc)
    return _checked(tools, run)


def _wrapped(doc: list[dict[str, Any]]) -> ModelsRun:
    """The run with wrapper classes. A wrapper cannot take a plain default
    (``color: Color | None = "red"`` does not type-check), so a ``$ref`` to a non-object
    definition with a default is inlined first: ``color: Literal["red", "blue"] | None``.
    The schemas served and validated are not changed; only the models' input is."""
    shaped = [
        {k: (_inline_scalar_defaults(v, v) if k != "name" else v) for k, v in item.items()}
        for item in doc
    ]
    return tool_models_run(shaped, use_type_alias=False)


def _inline_scalar_defaults(node: Any, root: Any) -> Any:
    if isinstance(node, list):
        return [_inline_scalar_defaults(v, root) for v in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/"):
        found, target = get_pointer(root, ref[1:])
        if (
            found
            and isinstance(target, dict)
            and target.get("type") != "object"
            and "properties" not in target
            and "$ref" not in target
            and ("default" in node or "default" in target)
        ):
            merged = {k: v for k, v in target.items() if k not in ("$defs", "definitions")}
            merged.update({k: v for k, v in node.items() if k != "$ref"})
            return {k: _inline_scalar_defaults(v, root) for k, v in merged.items()}
    return {k: _inline_scalar_defaults(v, root) for k, v in node.items()}


_SCALARS = ("array", "string", "integer", "number", "boolean")
_SHAPING = ("properties", "patternProperties", "allOf", "anyOf", "oneOf", "not", "if", "$ref")


def _surely_alias(schema: Mapping[str, Any] | None) -> bool:
    """A tool root the generator writes as a type alias, not a class, whatever else the
    manifest holds: a scalar or array type, or an object that is only a map
    (``additionalProperties`` a schema, nothing else that shapes it)."""
    if not isinstance(schema, Mapping) or any(k in schema for k in _SHAPING):
        return False
    kind = schema.get("type")
    if kind == "object":
        extra = schema.get("additionalProperties")
        return isinstance(extra, Mapping) and bool(extra)
    return kind in _SCALARS


def _checked(
    tools: list[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]], run: ModelsRun
) -> ModelsRun:
    for stem, _inp, out in tools:
        for cls in [f"{stem}Input"] + ([f"{stem}Output"] if out is not None else []):
            model = run.models.get(cls)
            if model is None or model.kind == "alias":
                raise McpgenError(f"model generation did not produce class {cls}")
    return run


# The generator's banner (it has no option to leave it out: an empty ``custom_file_header``
# counts as none, and a custom header moves ``from __future__`` into it, a line apart from
# the other imports). Callers add the mcpgen header.
_BANNER = "# generated by datamodel-codegen:\n#   filename:  <dict>\n\n"


def tool_models_run(
    doc: list[dict[str, Any]], *, use_type_alias: bool, typeddict: bool = False
) -> ModelsRun:
    """One generator run over an ``mcp-tools`` document: its module and its models' facts."""
    options = {**TOOL_MODEL_OPTIONS, "use_type_alias": use_type_alias}
    if typeddict:
        options.update(TYPEDDICT_OPTIONS)
    else:
        options["base_class"] = RUNTIME_MODEL_BASE
    with tempfile.TemporaryDirectory(prefix="mcpgen-models-") as tmp:
        meta_path = Path(tmp) / "models.json"
        src = generate_models(
            doc, input_file_type="mcp-tools", emit_model_metadata=meta_path, **options
        )
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    if not src.startswith(_BANNER):
        raise McpgenError("model generation: unexpected module header")
    models = {m["class_name"]: _model_facts(m) for m in meta["models"]}
    return ModelsRun(src[len(_BANNER) :], models)


def _model_facts(meta: Mapping[str, Any]) -> ModelFacts:
    """Facts of one ``emit_model_metadata`` entry. The entry does not say what the model is;
    datamodel-code-generator names the one field of a ``RootModel`` ``root`` (no original
    name) and that of a type alias ``""``: that is how the kind is told."""
    fields = [
        FieldFacts(f["name"], f["alias"], f["type"], bool(f["required"])) for f in meta["fields"]
    ]
    name = meta["class_name"]
    if len(fields) == 1 and fields[0].name == "" and fields[0].alias == "":
        return ModelFacts(name, "alias", (), fields[0].type)
    only = meta["fields"][0] if len(fields) == 1 else None
    if only is not None and only["name"] == "root" and only["original_name"] is None:
        return ModelFacts(name, "root", (), fields[0].type)
    return ModelFacts(name, "class", tuple(fields))


def type_import(name: str) -> str:
    """The import line that brings ``name`` into generated models, from the generator's own
    table of what it imports (``Literal``, ``AwareDatetime``; ``date_aliased`` where a field
    named ``date`` hides the type). The run's metadata lists no imports."""
    table = _import_table()
    base = name.removesuffix("_aliased")
    if name in table:
        return table[name]
    if base != name and base in table:
        return f"{table[base]} as {name}"
    raise McpgenError(f"model generation: unexpected name {name!r} in a field type")


@functools.cache
def _import_table() -> dict[str, str]:
    from datamodel_code_generator import imports
    from datamodel_code_generator.model.pydantic_v2 import imports as v2_imports

    table: dict[str, str] = {}
    for module in (imports, v2_imports):
        for value in vars(module).values():
            if isinstance(value, imports.Import) and value.from_ and not value.alias:
                table.setdefault(value.import_, f"from {value.from_} import {value.import_}")
    return table
