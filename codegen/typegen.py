"""The only module that imports datamodel-code-generator (pinned exactly in pyproject.toml).

Everything here runs in-process, with a fixed set of options, and returns source text; callers
format it (``codegen.format``) and emit it. Importing this module is cheap; the generator itself
is imported on the first call.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from typing import Any

from codegen.errors import McpgenError

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

    merged: dict[str, Any] = {**BASE_OPTIONS, **options}
    merged["input_file_type"] = dcg.InputFileType(input_file_type)
    merged["output_model_type"] = dcg.DataModelType(merged["output_model_type"])
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
