"""``ClientTool``: one tool as a generated client knows it (its ``tools.py`` lists them)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ValidationError

from ..jsonschema_facts import D7, D2020, dialect_of
from ..server.validation import SchemaCheck, SchemaCompileError, pydantic_problems
from .errors import ArgumentsError

__all__ = ["ClientTool"]


class ClientTool:
    """One tool as a generated client knows it: its exact definition (JSON text) and the
    dialect of its outputSchema. The schema checks are compiled on first use."""

    __slots__ = (
        "_check",
        "_definition",
        "_input_check",
        "definition_json",
        "name",
        "output_dialect",
    )

    def __init__(self, name: str, definition_json: str, output_dialect: str | None = None) -> None:
        self.name = name
        self.definition_json = definition_json
        self.output_dialect = output_dialect
        self._definition: dict[str, Any] | None = None
        self._check: SchemaCheck | None = None
        self._input_check: SchemaCheck | None = None

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

    def arguments(self, model: type[BaseModel], given: Mapping[str, Any]) -> dict[str, Any]:
        """``given`` as the JSON arguments to send: validated by the input ``model``, dumped
        (fields never set are left out), then checked against the inputSchema with
        jsonschema-rs, as the server checks them. The schema decides what the model cannot
        say (a ``null`` the schema refuses on an optional field, a ``pattern``...). Raises
        ``ArgumentsError`` (nothing was sent)."""
        try:
            arguments = model.model_validate(given).model_dump(
                mode="json", by_alias=True, exclude_unset=True
            )
        except ValidationError as exc:
            raise ArgumentsError(self.name, pydantic_problems(exc.errors())) from None
        check = self._input_check
        if check is None:
            schema = self.definition.get("inputSchema")
            dialect = dialect_of(schema)[0]
            if not isinstance(schema, dict) or dialect not in (D2020, D7):
                return arguments  # not a schema this runtime checks: the server answers
            check = self._input_check = SchemaCheck(schema, dialect)
        try:
            problems = check.problems(arguments)
        except SchemaCompileError:  # e.g. a remote $ref: the server answers for it
            return arguments
        if problems:
            raise ArgumentsError(self.name, problems)
        return arguments
