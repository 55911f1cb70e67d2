"""JSON Schema dialects: which one a tool schema declares, and whether it is a valid schema.

`meta_errors(schema, dialect)` answers "is this a valid schema of that dialect?" with the
messages jsonschema gives against the official meta-schema. Checking with jsonschema costs
about 3 ms per schema for 2020-12 (its meta-schema is built from `$dynamicRef`s), so a
hand-written checker that mirrors the 2020-12 and draft-07 meta-schemas keyword by keyword
runs first; only schemas it cannot vouch for reach jsonschema. The fast path may only ever
say "valid" when jsonschema agrees (tests/check/test_dialects.py compares the two on
generated schemas); when unsure it defers. jsonschema is imported lazily, validators are
built once per process and resolve references from the bundled meta-schemas only (no
network).
"""

from __future__ import annotations

import functools
import re
from typing import Any

D2020 = "2020-12"
D2019 = "2019-09"
D7 = "draft-07"
D6 = "draft-06"
D4 = "draft-04"

_URIS = {
    "json-schema.org/draft/2020-12/schema": D2020,
    "json-schema.org/draft/2019-09/schema": D2019,
    "json-schema.org/draft-07/schema": D7,
    "json-schema.org/draft-06/schema": D6,
    "json-schema.org/draft-04/schema": D4,
}


def dialect_of(schema: Any) -> tuple[str | None, str | None]:
    """(dialect, declared $schema). No ``$schema`` means 2020-12 (MCP 2025-11-25+);
    an unrecognised value gives dialect None."""
    if not isinstance(schema, dict) or "$schema" not in schema:
        return D2020, None
    declared = schema["$schema"]
    if not isinstance(declared, str):
        return None, repr(declared)
    key = declared.strip()
    for prefix in ("https://", "http://"):
        if key.startswith(prefix):
            key = key[len(prefix) :]
            break
    else:
        return None, declared
    if key.endswith("#"):
        key = key[:-1]
    return _URIS.get(key), declared


# ---------------------------------------------------------------------------------------------
# Fast path: a keyword-by-keyword mirror of the meta-schemas. Returns True only when sure.

_SIMPLE_TYPES = frozenset(("array", "boolean", "integer", "null", "number", "object", "string"))
_ANCHOR = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*\Z")


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _is_nonneg_int(v: Any) -> bool:
    if isinstance(v, bool):
        return False
    if isinstance(v, int):
        return v >= 0
    return isinstance(v, float) and v.is_integer() and v >= 0


@functools.lru_cache(maxsize=4096)
def _regex_ok(p: str) -> bool:
    try:
        re.compile(p)
    except (re.error, RecursionError, OverflowError, ValueError):
        return False
    return True


def _string_array(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v) and len(set(v)) == len(v)


def _type_ok(v: Any) -> bool:
    if isinstance(v, str):
        return v in _SIMPLE_TYPES
    return (
        isinstance(v, list)
        and len(v) > 0
        and all(isinstance(x, str) and x in _SIMPLE_TYPES for x in v)
        and len(set(v)) == len(v)
    )


def _str(v: Any) -> bool:
    return isinstance(v, str)


def _bool(v: Any) -> bool:
    return isinstance(v, bool)


def _nums(v: Any) -> bool:
    return _is_num(v)


def _multiple_of(v: Any) -> bool:
    return _is_num(v) and v > 0


def _array(v: Any) -> bool:
    return isinstance(v, list)


def _pattern(v: Any) -> bool:
    return isinstance(v, str) and _regex_ok(v)


def _anchor(v: Any) -> bool:
    return isinstance(v, str) and _ANCHOR.match(v) is not None


def _id2020(v: Any) -> bool:
    return isinstance(v, str) and "#" not in v.rstrip("#") and v.count("#") <= 1


def _vocab(v: Any) -> bool:
    return isinstance(v, dict) and all(isinstance(x, bool) for x in v.values())


def _dep_required(v: Any) -> bool:
    return isinstance(v, dict) and all(_string_array(x) for x in v.values())


# keyword -> predicate on its value (non-schema keywords).
_COMMON = {
    "$schema": _str,  # format "uri" is not asserted (no rfc3987 checker is used)
    "$ref": _str,
    "$comment": _str,
    "title": _str,
    "description": _str,
    "readOnly": _bool,
    "examples": _array,
    "multipleOf": _multiple_of,
    "maximum": _nums,
    "exclusiveMaximum": _nums,
    "minimum": _nums,
    "exclusiveMinimum": _nums,
    "maxLength": _is_nonneg_int,
    "minLength": _is_nonneg_int,
    "pattern": _pattern,
    "maxItems": _is_nonneg_int,
    "minItems": _is_nonneg_int,
    "uniqueItems": _bool,
    "maxProperties": _is_nonneg_int,
    "minProperties": _is_nonneg_int,
    "required": _string_array,
    "enum": _array,
    "type": _type_ok,
    "format": _str,
    "contentMediaType": _str,
    "contentEncoding": _str,
}
_PLAIN = {
    D2020: {
        **_COMMON,
        "$id": _id2020,
        "$anchor": _anchor,
        "$dynamicRef": _str,
        "$dynamicAnchor": _anchor,
        "$recursiveAnchor": _anchor,
        "$recursiveRef": _str,
        "$vocabulary": _vocab,
        "deprecated": _bool,
        "writeOnly": _bool,
        "maxContains": _is_nonneg_int,
        "minContains": _is_nonneg_int,
        "dependentRequired": _dep_required,
    },
    D7: {**_COMMON, "$id": _str},
}
_SINGLE = {
    D2020: frozenset(
        (
            "items", "contains", "additionalProperties", "propertyNames", "if", "then", "else",
            "not", "unevaluatedItems", "unevaluatedProperties", "contentSchema",
        )
    ),
    D7: frozenset(("additionalItems", "contains", "additionalProperties", "propertyNames", "if", "then", "else", "not")),
}
_MAPS = {
    D2020: frozenset(("$defs", "definitions", "properties", "patternProperties", "dependentSchemas")),
    D7: frozenset(("definitions", "properties", "patternProperties")),
}
_ARRAYS = {
    D2020: frozenset(("prefixItems", "allOf", "anyOf", "oneOf")),
    D7: frozenset(("allOf", "anyOf", "oneOf")),
}


def fast_valid(schema: Any, dialect: str) -> bool:
    """True only if ``schema`` is surely valid against the dialect's meta-schema."""
    plain = _PLAIN.get(dialect)
    if plain is None:
        return False
    single, maps, arrays = _SINGLE[dialect], _MAPS[dialect], _ARRAYS[dialect]
    stack = [schema]
    budget = 100_000
    while stack:
        s = stack.pop()
        budget -= 1
        if budget < 0:
            return False
        if isinstance(s, bool):
            continue
        if not isinstance(s, dict):
            return False
        for kw, v in s.items():
            pred = plain.get(kw)
            if pred is not None:
                if not pred(v):
                    return False
            elif kw in single:
                stack.append(v)
            elif kw in maps:
                if not isinstance(v, dict):
                    return False
                if kw == "patternProperties" and not all(_regex_ok(k) for k in v):
                    return False
                stack.extend(v.values())
            elif kw in arrays:
                if not isinstance(v, list) or not v:
                    return False
                stack.extend(v)
            elif kw == "dependencies":
                if not isinstance(v, dict):
                    return False
                for dep in v.values():
                    if isinstance(dep, list):
                        if not _string_array(dep):
                            return False
                    else:
                        stack.append(dep)
            elif kw == "items" and dialect == D7:
                if isinstance(v, list):
                    if not v:
                        return False
                    stack.extend(v)
                else:
                    stack.append(v)
            # any other keyword is unknown to the meta-schema: allowed, not checked
    return True


# ---------------------------------------------------------------------------------------------
# Slow path: jsonschema against the official meta-schema (exact messages).


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
    checker = jsonschema.FormatChecker(formats=("regex",))
    return cls(cls.META_SCHEMA, registry=REGISTRY, format_checker=checker)


def meta_errors(schema: Any, dialect: str) -> list[tuple[str, str]]:
    """[(pointer inside ``schema``, message)] for each meta-schema violation (best first)."""
    if fast_valid(schema, dialect):
        return []
    from jsonschema.exceptions import relevance  # type: ignore[import-untyped]

    from codegen.schemawalk import esc

    errors = sorted(meta_validator(dialect).iter_errors(schema), key=relevance)
    out: list[tuple[str, str]] = []
    for err in errors:
        leaf = err
        while leaf.context:  # anyOf/oneOf: report the most relevant branch
            leaf = min(leaf.context, key=relevance)
        ptr = "".join("/" + esc(str(p)) for p in leaf.absolute_path)
        out.append((ptr, _short(leaf.message)))
    return out


def _short(msg: str, limit: int = 160) -> str:
    msg = " ".join(msg.split())
    return msg if len(msg) <= limit else msg[: limit - 3] + "..."
