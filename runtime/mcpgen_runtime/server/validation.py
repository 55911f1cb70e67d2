"""JSON Schema checks of tool arguments and structured output, by jsonschema-rs.

One :class:`SchemaCheck` per schema: a ``jsonschema_rs`` validator of the dialect the caller
names (``Draft202012Validator`` or ``Draft7Validator``; a nested ``$schema`` is the library's
business), compiled once, on first use. Formats are annotations (``validate_formats=False``).
A valid call costs one ``is_valid``; only an invalid one collects and formats the errors.

Nothing is ever fetched (MCP 2026-07-28 forbids it; jsonschema-rs would otherwise fetch
``http(s)`` and ``file`` references): the retriever refuses every URI, and since the library
resolves every non-local ``$ref`` while compiling, such a schema fails in :meth:`compile`
with :class:`SchemaCompileError`, as does a schema its meta-schema rejects. ``problems()``
lets that error propagate (the runtime answers with a tool error); it is raised again on
every later call, never recompiled.

An instance gets a verdict or the line "cannot be checked against the schema (<exception>)",
never an exception. A walk over the instance first raises for what jsonschema-rs would get
wrong or crash on: NaN and infinities (it reads null), an int beyond Python's
``sys.get_int_max_str_digits()`` (it reads 0), nesting deeper than ``_MAX_DEPTH`` or a cycle
(it recurses on the native stack, and overflowing that is a SIGSEGV: a recursive schema
crashed at a depth of thousands in the Linux default 8 MiB stack, of hundreds in a 1 MiB
one). What the library raises itself (a dict key that is not a string, bytes, a lone
surrogate) ends the same way. The walk is on every call's path; its cost shows in
``bench/bench_server.py --instructions``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import isfinite
from typing import Any, NoReturn

import jsonschema_rs

from ..jsonschema_facts import D7, D2020, pointer_from_path

__all__ = ["SchemaCheck", "SchemaCompileError", "pydantic_problems"]

_MAX_ERRORS = 8
_MAX_ERROR_TEXT = 300
_MAX_DEPTH = 128
_STR_SAFE_BITS = 2000  # 602 digits: below any sys.set_int_max_str_digits() limit (>= 640)
_LEAVES = frozenset({str, bool, type(None)})
_NO_BASE = "json-schema:///"  # the library's base URI for a document without "$id"


class SchemaCompileError(Exception):
    """The schema cannot be used: invalid, or a ``$ref`` that would need a fetch."""


def _clip(text: str) -> str:
    return text if len(text) <= _MAX_ERROR_TEXT else text[: _MAX_ERROR_TEXT - 3] + "..."


def _line(path: Sequence[Any], message: str) -> str:
    return f"- {pointer_from_path(path) or '(root)'}: {_clip(message)}"


def problem_places(problems: Sequence[str]) -> list[str]:
    """The instance places (``/id``, ``(root)``) that ``SchemaCheck.problems`` lines name,
    sorted and without repeats: where a value failed, never the value itself."""
    return sorted({p[2:].split(": ", 1)[0] for p in problems if p.startswith(("- /", "- (root)"))})


def _vet(instance: Any) -> None:
    """Raise what ``instance`` would make jsonschema-rs get wrong or crash on."""
    level, depth = [instance], 0
    while level:
        below: list[Any] = []
        for value in level:
            kind = type(value)
            if kind in _LEAVES:
                continue
            if kind is int:
                if value.bit_length() > _STR_SAFE_BITS:
                    str(value)  # ValueError beyond sys.get_int_max_str_digits(); Rust reads 0
            elif isinstance(value, float):
                if not isfinite(value):
                    raise ValueError("NaN and infinities are not JSON")  # Rust reads null
            elif isinstance(value, dict):
                below.extend(value.values())
            elif isinstance(value, (list, tuple)):
                below.extend(value)
        if below:
            depth += 1
            if depth > _MAX_DEPTH:
                raise RecursionError(f"nested deeper than {_MAX_DEPTH}")  # or a cycle
        level = below


def _order(error: jsonschema_rs.ValidationError) -> tuple[list[str], str]:
    return list(map(str, error.instance_path)), error.message


class SchemaCheck:
    """One schema of one dialect (``"2020-12"`` or ``"draft-07"``); compiled lazily, once."""

    __slots__ = ("_dialect", "_failure", "_schema", "validator")

    def __init__(self, schema: Mapping[str, Any], dialect: str) -> None:
        if dialect not in (D2020, D7):
            raise ValueError(f"unsupported dialect {dialect!r}; expected {D2020!r} or {D7!r}")
        self._schema = schema
        self._dialect = dialect
        self.validator: jsonschema_rs.Validator | None = None
        """The compiled validator, once :meth:`compile` succeeded. A caller that holds an
        instance needing no ``_vet`` may ask its ``is_valid`` directly."""
        self._failure: SchemaCompileError | None = None

    def compile(self) -> None:
        """Compile now (else the first ``problems()`` does); raises
        :class:`SchemaCompileError`, the same one on every call, if the schema is unusable."""
        if self._failure is not None:
            raise self._failure
        if self.validator is not None:
            return
        refused: list[str] = []

        def refuse(uri: str) -> NoReturn:
            refused.append(uri.removeprefix(_NO_BASE))
            raise PermissionError(f"{uri}: generated servers never fetch schemas")

        schema: Any = self._schema
        if not isinstance(schema, (dict, bool)):
            schema = dict(schema)
        draft7 = self._dialect == D7
        cls = jsonschema_rs.Draft7Validator if draft7 else jsonschema_rs.Draft202012Validator
        try:
            self.validator = cls(schema, validate_formats=False, retriever=refuse)
        except jsonschema_rs.ValidationError as exc:
            uri = next((u for u in refused if f"'{u}'" in exc.message), None)
            if uri is not None:
                reason = f"$ref {uri!r} refused: generated servers never fetch schemas"
            else:
                reason = f"{pointer_from_path(exc.instance_path) or '(root)'}: {exc.message}"
            self._failure = SchemaCompileError(f"schema cannot be compiled: {reason}")
        except Exception as exc:  # noqa: BLE001 (e.g. ValueError: a dict key not a string)
            self._failure = SchemaCompileError(f"schema cannot be compiled: {exc}")
        if self._failure is not None:
            raise self._failure

    def problems(self, instance: Any, vetted: bool = False) -> list[str]:
        """``[]`` when ``instance`` is valid; else up to 8 located messages (sorted by
        instance path, then message) and ``- ... and N more``. Raises only
        :class:`SchemaCompileError`. ``vetted``: the caller knows ``instance`` needs no
        ``_vet`` (``.flat``: ``flat_scalar_bound`` or ``plain_json_text`` accepted it)."""
        validator = self.validator
        if validator is None:
            self.compile()
            validator = self.validator
            assert validator is not None
        try:
            if not vetted:
                _vet(instance)
            if validator.is_valid(instance):
                return []
            errors = sorted(validator.iter_errors(instance), key=_order)
        except (KeyboardInterrupt, SystemExit):
            raise
        except BaseException as exc:  # noqa: BLE001 (also pyo3's PanicException)
            return [
                f"- (root): the value cannot be checked against the schema ({type(exc).__name__})"
            ]
        lines = [_line(e.instance_path, e.message) for e in errors]
        if len(lines) > _MAX_ERRORS:
            lines = lines[:_MAX_ERRORS] + [f"- ... and {len(lines) - _MAX_ERRORS} more"]
        return lines or ["- (root): the value does not match the schema"]


def pydantic_problems(errors: Sequence[Mapping[str, Any]]) -> list[str]:
    """Messages for pydantic's ``ValidationError.errors()`` in the same style."""
    return [_line(list(err["loc"]), str(err["msg"])) for err in errors][:_MAX_ERRORS]
