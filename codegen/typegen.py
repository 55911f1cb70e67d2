"""The only module that imports datamodel-code-generator (pinned exactly in pyproject.toml).

Everything here runs in-process, with a fixed set of options, and returns source text. Importing
this module is cheap; the generator itself is imported on the first call. ``generate_models``
output is formatted by callers (``codegen.format``, black); ``generate_tool_models`` output is
already black-clean (see ``black_style_models``), because black is too slow for it.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Mapping
from typing import Any

from codegen import pystyle
from codegen.errors import McpgenError
from codegen.format import LINE_LENGTH

# Options shared by every generation: deterministic output, no timestamps, pydantic v2,
# formatting left to codegen.format (black, pinned) so there is one formatter for all output.
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
            out = dcg.generate(dict(input_) if isinstance(input_, Mapping) else list(input_), **merged)
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
#   pyproject.toml, and costs ~1 s on 200 tools): ``black_style_models`` formats the result.
# * Every model derives from an open base (``extra="allow"``) unless its schema says
#   ``additionalProperties: false`` (then datamodel-code-generator emits ``extra="forbid"``):
#   the model's extra-field behaviour follows the schema.
TOOL_MODEL_OPTIONS: dict[str, Any] = {
    "naming_strategy": "parent-prefixed",
    "type_mappings": ["byte=string", "binary=string", "uri=string", "uri-reference=string",
                      "uri-template=string", "iri=string", "iri-reference=string"],
    "formatters": [],
}
_BASE_PLACEHOLDER = "mcpgen_tool_model_base_placeholder.OpenModel"


def generate_tool_models(
    tools: list[tuple[str, Mapping[str, Any], Mapping[str, Any] | None]],
    *,
    base_import: str,
) -> str:
    """Models for a list of ``(class_stem, inputSchema, outputSchema | None)`` in one run.

    Each tool yields ``<stem>Input`` (and ``<stem>Output`` when it has an outputSchema);
    ``$defs`` are hoisted as ``<stem>Input<Def>``. ``base_import`` is the import line that
    provides ``OpenModel`` (e.g. ``"from .model_base import OpenModel"``); it replaces the
    generator's absolute import. Raises ``McpgenError`` when an expected class is missing.
    """
    doc: list[dict[str, Any]] = []
    for stem, input_schema, output_schema in tools:
        item: dict[str, Any] = {"name": stem, "inputSchema": dict(input_schema)}
        if output_schema is not None:
            item["outputSchema"] = dict(output_schema)
        doc.append(item)
    if not doc:
        return ""
    src = generate_models(
        doc,
        input_file_type="mcp-tools",
        base_class=_BASE_PLACEHOLDER,
        **TOOL_MODEL_OPTIONS,
    )
    placeholder_line = "from mcpgen_tool_model_base_placeholder import OpenModel\n"
    if src.count(placeholder_line) != 1:
        raise McpgenError("model generation: unexpected base-class import layout")
    src = src.replace(placeholder_line, base_import.rstrip("\n") + "\n")
    # Drop the generator's own banner: callers add the mcpgen header.
    lines = src.splitlines(keepends=True)
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        lines.pop(0)
    src = black_style_models("".join(lines))
    for stem, _inp, out in tools:
        for cls in [f"{stem}Input"] + ([f"{stem}Output"] if out is not None else []):
            if f"\nclass {cls}(" not in "\n" + src:
                raise McpgenError(f"model generation did not produce class {cls}")
    return src


# --- black-clean models without black ----------------------------------------------------------
#
# The unformatted generator output is black's layout except for (1) string quotes and
# ``1e+20``-style numbers and (2) lines longer than the line length. (1) is a regular expression
# scan (``pystyle.normalize_literals``; the ``tokenize`` module when a string has a form the scan
# does not handle). (2) are field statements of the model classes (one line each), split by
# ``codegen.blackport`` (a port of black's line splitting), as are long class headers; long
# imports are parenthesised. A long line of another shape is left as it is (black would split it; none is known to
# occur). The generator's own "builtin" formatter is not used: it only approximates black (it
# misplaces about one long field in five). tests/server/test_black_clean.py checks the result
# with the pinned black.

_FROM_IMPORT = re.compile(r"from ([\w.]+) import ([\w, ]+)")


def _too_long(line: str) -> bool:
    return (len(line) > LINE_LENGTH) if line.isascii() else pystyle.width(line) > LINE_LENGTH


def _split_long_line(line: str) -> str:
    """One long line (no newline) of generated model source as black splits it, or unchanged
    when it has a shape nothing here handles."""
    from codegen import blackport

    field = line.startswith("    ") and line[4:5] not in (" ", ")", "]", "}")
    if field or line.startswith("class "):
        try:
            return blackport.split_statement(line[4:] if field else line, 1 if field else 0)
        except pystyle.UnsupportedSource:
            return line
    imports = _FROM_IMPORT.fullmatch(line)
    if imports is not None:
        names = [name.strip() for name in imports.group(2).split(",")]
        return pystyle.import_from("", imports.group(1), names)
    return line


def black_style_models(source: str) -> str:
    """``source`` (unformatted generator output) as the pinned black would format it."""
    try:
        normalized = pystyle.normalize_literals(source)
    except pystyle.UnsupportedSource:
        normalized = pystyle.normalize_literals_tokenize(source)
    lines = normalized.split("\n")
    done: dict[str, str] = {}  # the same field often recurs (shared $defs, common parameters)
    for i, line in enumerate(lines):
        if _too_long(line):
            if line not in done:
                done[line] = _split_long_line(line)
            lines[i] = done[line]
    return "\n".join(lines)
