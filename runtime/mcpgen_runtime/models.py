"""Base of every generated tool model (server and client packages).

Extra properties are kept (``extra="allow"``), matching JSON Schema's default; a model whose
schema says ``additionalProperties: false`` overrides this with ``extra="forbid"``.
Validators are built when a model is first used (``defer_build``), not at import: a 200-tool
server imports its models in about half the time.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

__all__ = ["OpenModel"]


class OpenModel(BaseModel):
    model_config = ConfigDict(extra="allow", populate_by_name=True, defer_build=True)
