"""``ClientTool``: one tool as a generated client knows it (its ``tools.py`` lists them)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..jsonschema_facts import D7, D2020, dialect_of
from ..server.validation import SchemaCheck, SchemaCompileError, pydantic_problems
from .errors import ArgumentsError

if TYPE_CHECKING:
    from pydantic import BaseModel

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
        from pydantic import ValidationError

        check = self._schema_check()
        if check is not None:
            # what the caller gave, as JSON, first (as the server checks the raw arguments):
            # the model would convert False or "5" for a number, and that is not what was given
            from pydantic_core import to_jsonable_python

            fields = model.model_fields
            try:  # keys are field names (``class_``) or JSON names; the schema has JSON names
                raw = {
                    # a nested model given as an instance: its unset fields are None
                    # (an explicit None is refused below, after the model's dump)
                    (fields[k].alias or k) if k in fields else k: to_jsonable_python(
                        v, by_alias=True, exclude_none=True
                    )
                    for k, v in given.items()
                }
            except Exception:  # noqa: BLE001 - not JSON-able: the model says what is wrong
                raw = None
            if raw is not None and "root" not in fields:
                self._refuse(check, raw)
        try:
            arguments = model.model_validate(given).model_dump(
                mode="json", by_alias=True, exclude_unset=True
            )
        except ValidationError as exc:
            raise ArgumentsError(self.name, pydantic_problems(exc.errors())) from None
        if check is not None:
            self._refuse(check, arguments)
        return arguments

    def plain_arguments(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """``given`` (JSON names to JSON scalars), checked against the inputSchema only: what
        ``arguments`` sends for a flat input whose every field is a plain scalar (the generated
        CLI's table says which: ``cli_table``), without loading the input model."""
        arguments = dict(given)
        check = self._schema_check()
        if check is not None:
            self._refuse(check, arguments)
        return arguments

    def _schema_check(self) -> SchemaCheck | None:
        """The inputSchema's jsonschema-rs check (None: not a schema this runtime checks,
        or one it cannot compile, e.g. a remote ``$ref``; the server answers for those)."""
        if self._input_check is None:
            schema = self.definition.get("inputSchema")
            dialect = dialect_of(schema)[0]
            if not isinstance(schema, dict) or dialect not in (D2020, D7):
                return None
            self._input_check = SchemaCheck(schema, dialect)
        return self._input_check

    def _refuse(self, check: SchemaCheck, arguments: Any) -> None:
        try:
            problems = check.problems(arguments)
        except SchemaCompileError:
            return
        if problems:
            raise ArgumentsError(self.name, problems)
