"""Which models a package's one generator run makes (``mcpgen.parameters.tool_models``): each
tool's input and output, then each template's variables and each prompt's arguments that get
a model. Pure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from mcpgen.ir.resources_prompts import ResourcesAndPrompts
from mcpgen.ir.tools import ToolIR
from mcpgen.modelview import tool_model_spec

ModelSpec = tuple[str, Mapping[str, Any], Mapping[str, Any] | None]
"""``(class stem, input schema, output schema | None)``."""


def model_specs(
    tools: Sequence[ToolIR], resources_and_prompts: ResourcesAndPrompts
) -> list[ModelSpec]:
    """Every model of the package: each tool's (its schemas as ``mcpgen.modelview`` shows
    them to the generator), then each resource template's and prompt's."""
    specs: list[ModelSpec] = [
        tool_model_spec(t.class_stem, t.input_schema, t.output_schema) for t in tools
    ]
    for item in resources_and_prompts.all:
        if item.model_stem and item.model_schema is not None:
            specs.append((item.model_stem, item.model_schema, None))
    return specs
