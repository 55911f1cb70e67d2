"""``ClientTool``: one tool as a generated client knows it (its ``tools.py`` lists them)."""

from __future__ import annotations

import json
from typing import Any

from ..server.validation import SchemaCheck

__all__ = ["ClientTool"]


class ClientTool:
    """One tool as a generated client knows it: its exact definition (JSON text) and the
    dialect of its outputSchema. The schema check is compiled on first use."""

    __slots__ = ("_check", "_definition", "definition_json", "name", "output_dialect")

    def __init__(self, name: str, definition_json: str, output_dialect: str | None = None) -> None:
        self.name = name
        self.definition_json = definition_json
        self.output_dialect = output_dialect
        self._definition: dict[str, Any] | None = None
        self._check: SchemaCheck | None = None

    @property
    def definition(self) -> dict[str, Any]:
        if self._definition is None:
            value = json.loads(self.definition_json)
            assert isinstance(value, dict)
            self._definition = value
        return self._definition

    @property
    def output_check(self) -> SchemaCheck | None:
        if self._check is None and self.output_dialect is not None:
            schema = self.definition.get("outputSchema")
            if isinstance(schema, dict):
                self._check = SchemaCheck(schema, self.output_dialect)
        return self._check
