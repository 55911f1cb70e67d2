"""JSON Schema dialects: which one a tool schema declares, and whether it is a valid schema.

`meta_errors(schema, dialect)` answers "is this a valid schema of that dialect?" with the
messages jsonschema gives against the official meta-schema. jsonschema costs about 3 ms per
schema for 2020-12 (its meta-schema is built from `$dynamicRef`s), so jsonschema-rs, with the
same bundled meta-schemas, answers first (about 2 µs); only the schemas it rejects reach
jsonschema, which writes the messages (tests/check/test_dialects.py checks that jsonschema-rs
never accepts what jsonschema rejects). Both resolve references from their bundled
meta-schemas only: jsonschema-rs gets a retriever that refuses, so nothing is ever fetched.
Validators are built once per process. In both, the ``regex`` format (``pattern``, the names
of ``patternProperties``) is what jsonschema-rs compiles (``regex_ok``): ``check`` accepts the
patterns a generated server enforces, no more, no less.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from mcpgen_runtime.jsonschema_facts import D4, D6, D7, D2019, D2020, dialect_of, pointer_from_path
from mcpgen_runtime.schemawalk import refuse_retrieval

__all__ = [
    "D2019",
    "D2020",
    "D4",
    "D6",
    "D7",
    "dialect_of",
    "meta_errors",
    "meta_validator",
    "python_regex_ok",
    "regex_ok",
    "rs_compile_problem",
    "rs_meta_validator",
    "rs_valid",
]

_META_URIS = {
    D2020: "https://json-schema.org/draft/2020-12/schema",
    D2019: "https://json-schema.org/draft/2019-09/schema",
    D7: "http://json-schema.org/draft-07/schema#",
    D6: "http://json-schema.org/draft-06/schema#",
    D4: "http://json-schema.org/draft-04/schema#",
}


_RS_CLASSES = {
    D2020: "Draft202012Validator",
    D2019: "Draft201909Validator",
    D7: "Draft7Validator",
    D6: "Draft6Validator",
    D4: "Draft4Validator",
}


@functools.lru_cache(maxsize=4096)
def regex_ok(p: str, dialect: str = D2020) -> bool:
    """The ``regex`` format: whether jsonschema-rs, the runtime's validator, compiles a schema
    ``{"pattern": p}`` of ``dialect`` as ``SchemaCheck`` builds it. One truth: what ``check``
    accepts is what a generated server can compile (Python's ``re``, which ``check`` used to
    ask, refuses ``\\p{L}``, which jsonschema-rs enforces, and accepts ``\\Z``, which it
    refuses). The dialect matters: draft-07 and draft-04 assert their meta-schema's ``regex``
    format (ECMA-262 syntax only: no ``\\z``, no ``\\x{41}``); 2020-12 and 2019-09 only compile
    the pattern."""
    import jsonschema_rs

    cls = getattr(jsonschema_rs, _RS_CLASSES.get(dialect, _RS_CLASSES[D2020]))
    try:
        cls({"pattern": p}, validate_formats=False, retriever=refuse_retrieval)
    except Exception:  # noqa: BLE001 (ValidationError; a lone surrogate is a ValueError)
        return False
    return True


def rs_compile_problem(schema: Any, dialect: str = D2020) -> str | None:
    """Why jsonschema-rs, the runtime's validator, cannot compile ``schema`` as a generated
    server does (no format assertions, retrieval refused), or None. The meta-schemas leave
    ``$ref``'s ``uri-reference`` format an annotation, so a schema can be valid against its
    meta-schema and still fail here: ``#/$defs/Ünïcode`` is no URI reference (it must be
    percent-encoded, ``#/$defs/%C3%9Cn%C3%AFcode``), and every call of the tool would fail."""
    import jsonschema_rs

    cls = getattr(jsonschema_rs, _RS_CLASSES.get(dialect, _RS_CLASSES[D2020]))
    try:
        cls(schema, validate_formats=False, retriever=refuse_retrieval)
    except jsonschema_rs.ValidationError as exc:
        return str(exc.message)
    except Exception as exc:  # noqa: BLE001 (e.g. ValueError: a dict key not a string)
        return str(exc)
    return None


@functools.lru_cache(maxsize=1024)
def python_regex_ok(p: str) -> bool:
    """Whether Python's ``re`` compiles ``p``: the ``regex`` format of jsonschema, which the
    official Python SDK's client checks every outputSchema with (OUTPUT_SCHEMA_PATTERN_PYTHON)."""
    import re
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", FutureWarning)  # "possible nested set": still valid
            re.compile(p)
    except (re.error, RecursionError, OverflowError, ValueError):
        return False
    return True


def _regex_format(dialect: str) -> Callable[[object], bool]:
    """``regex_ok`` as a format check (which may also be handed values that are no strings)."""
    return lambda value: not isinstance(value, str) or regex_ok(value, dialect)


def _any(_: str) -> bool:
    return True


# Only ``regex`` is asserted (by jsonschema-rs itself, see ``regex_ok``); the meta-schemas'
# uri/uri-reference formats stay annotations.
_ANNOTATIONS: dict[str, Callable[[str], bool]] = {
    "uri": _any,
    "uri-reference": _any,
    "iri": _any,
    "iri-reference": _any,
    "uri-template": _any,
}


@functools.cache
def rs_meta_validator(dialect: str) -> Any:
    """A jsonschema-rs validator for the dialect's meta-schema (bundled; retrieval refused)."""
    import jsonschema_rs

    uri = _META_URIS[dialect]
    return jsonschema_rs.validator_for(
        {"$schema": uri, "$ref": uri},
        retriever=refuse_retrieval,
        validate_formats=True,
        formats={"regex": _regex_format(dialect), **_ANNOTATIONS},
    )


def rs_valid(schema: Any, dialect: str) -> bool:
    """True only if jsonschema-rs finds ``schema`` valid against the dialect's meta-schema
    (False also when it cannot tell, e.g. for values JSON has no form for)."""
    if dialect not in _META_URIS:
        return False
    try:
        return bool(rs_meta_validator(dialect).is_valid(schema))
    except Exception:  # non-JSON values (int keys, NaN...) or a refused retrieval: ask jsonschema
        return False


# ---------------------------------------------------------------------------------------------
# The messages: jsonschema against the official meta-schema.


@functools.cache
def meta_validator(dialect: str) -> Any:
    """A jsonschema validator for the dialect's meta-schema, built once per process."""
    import jsonschema  # type: ignore[import-untyped]
    from jsonschema_specifications import REGISTRY  # type: ignore[import-untyped]  # no retrieval

    cls = {
        D2020: jsonschema.Draft202012Validator,
        D2019: jsonschema.Draft201909Validator,
        D7: jsonschema.Draft7Validator,
        D6: jsonschema.Draft6Validator,
        D4: jsonschema.Draft4Validator,
    }[dialect]
    checker = jsonschema.FormatChecker(formats=())
    checker.checks("regex")(_regex_format(dialect))  # the same verdict as rs_valid's
    return cls(cls.META_SCHEMA, registry=REGISTRY, format_checker=checker)


def meta_errors(schema: Any, dialect: str) -> list[tuple[str, str]]:
    """[(pointer inside ``schema``, message)] for each meta-schema violation (best first)."""
    if rs_valid(schema, dialect):
        return []
    from jsonschema.exceptions import relevance  # type: ignore[import-untyped]

    errors = sorted(meta_validator(dialect).iter_errors(schema), key=relevance)
    out: list[tuple[str, str]] = []
    for err in errors:
        leaf = err
        while leaf.context:  # anyOf/oneOf: report the most relevant branch
            leaf = min(leaf.context, key=relevance)
        ptr = pointer_from_path(leaf.absolute_path)
        out.append((ptr, _short(leaf.message)))
    return out


def _short(msg: str, limit: int = 160) -> str:
    msg = " ".join(msg.split())
    return msg if len(msg) <= limit else msg[: limit - 3] + "..."
