"""The structure check: a document against ``schema/manifest.schema.json`` (MANIFEST_SCHEMA).

Valid documents (the common case in a pre-commit hook) are confirmed by a small interpreter of
the keywords the manifest schema uses, so ``jsonschema`` (≈0.1 s to import) is imported only when
there is something to report; then jsonschema (Draft 2020-12, compiled once per shape) produces
the errors, one per problem, worded for humans and placed at the offending value.
``test_structure.py`` checks that both agree on a corpus of good and bad manifests.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from codegen.manifest.jsonpos import escape


@functools.cache
def manifest_schema() -> dict[str, Any]:
    from codegen.resources import schema_dir

    with open(schema_dir() / "manifest.schema.json", encoding="utf-8") as fh:
        schema: dict[str, Any] = json.load(fh)
    return schema


@functools.cache
def _validator(defname: str) -> Any:
    from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

    root = manifest_schema()
    return Draft202012Validator({"$ref": f"#/$defs/{defname}", "$defs": root["$defs"]})


def schema_errors(
    defname: str, value: Any, skip_protocol: bool = False
) -> list[tuple[str, str, str, bool]]:
    out: list[tuple[str, str, str, bool]] = []
    if quick_valid(defname, value):
        return out
    from jsonschema.exceptions import best_match  # type: ignore[import-untyped]

    for err in _validator(defname).iter_errors(value):
        if skip_protocol and list(err.absolute_path)[:1] == ["protocol"]:
            continue  # already reported as MANIFEST_REVISION_UNKNOWN
        if err.validator in ("anyOf", "oneOf") and err.context:
            types = _branch_types(err)
            if types:
                path = list(err.absolute_path)
                out.append(("".join("/" + escape(str(p)) for p in path),
                            f"{_where(path)} must be {' or '.join(types)}, not "
                            f"{describe(err.instance)}", "MANIFEST_SCHEMA", False))
                continue
            err = best_match(err.context)
        path = list(err.absolute_path)
        ptr = "".join("/" + escape(str(p)) for p in path)
        where = _where(path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = list(err.schema.get("properties", {}))
            for key in _unexpected(err):
                close = _close(key, allowed, n=1)
                hint = f"; did you mean `{close[0]}`?" if close else f" (allowed: {', '.join(allowed)})"
                out.append((f"{ptr}/{escape(key)}", f"unknown key `{key}` in {where}{hint}",
                            "MANIFEST_SCHEMA", True))
            continue
        out.append((ptr, _message(err, where), "MANIFEST_SCHEMA", False))
    return out


def _branch_types(err: Any) -> list[str]:
    """If every anyOf branch rejects the value's type outright: the accepted types, in words."""
    branches = err.validator_value
    by_branch: dict[int, list[Any]] = {}
    for sub in err.context:
        by_branch.setdefault(sub.schema_path[0], []).append(sub)
    names: list[str] = []
    for i in range(len(branches)):
        subs = by_branch.get(i, [])
        typ = [e for e in subs if e.validator == "type" and not e.relative_path]
        if not typ:
            return []
        for t in _as_list(typ[0].validator_value):
            if _TYPE_NAMES.get(t, t) not in names:
                names.append(_TYPE_NAMES.get(t, t))
    return names


def _as_list(v: Any) -> list[Any]:
    return v if isinstance(v, list) else [v]


def _unexpected(err: Any) -> list[str]:
    props = err.schema.get("properties", {})
    patterns = err.schema.get("patternProperties", {})
    return [k for k in err.instance if k not in props
            and not any(re.search(p, k) for p in patterns)]


_TYPE_NAMES = {"object": "a mapping", "array": "a list", "string": "a string",
               "integer": "an integer", "number": "a number", "boolean": "true or false",
               "null": "null"}


def _message(err: Any, where: str) -> str:
    v = err.validator
    if v == "type":
        types = err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        want = " or ".join(_TYPE_NAMES.get(str(t), str(t)) for t in types)
        return f"{where} must be {want}, not {describe(err.instance)}"
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        return f"{where} is missing the required key `{missing}`"
    if v == "enum":
        return (f"{where} must be one of {', '.join(json.dumps(x) for x in err.validator_value)}, "
                f"not {describe(err.instance)}")
    if v == "const":
        return f"{where} must be {json.dumps(err.validator_value)}, not {describe(err.instance)}"
    if v in ("minLength", "minItems"):
        return f"{where} must not be empty"
    if v == "uniqueItems":
        return f"{where} lists the same item twice"
    msg = err.message if len(err.message) <= 160 else err.message[:157] + "..."
    return f"{where}: {msg}"


def _where(path: list[Any]) -> str:
    if not path:
        return "the manifest"
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return f"`{out}`"


def describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {value[:40]!r}" + ("..." if len(value) > 40 else "")
    if isinstance(value, list):
        return "a list"
    return "a mapping"


# ---------------------------------------------------------------- the fast path

_SUPPORTED = frozenset((
    "$ref", "type", "required", "properties", "patternProperties", "additionalProperties",
    "items", "enum", "const", "anyOf", "minItems", "uniqueItems", "minLength", "minimum",
))
_ANNOTATIONS = frozenset((
    "$schema", "$id", "$defs", "title", "description", "format", "examples", "default", "$comment",
))


def _keywords_supported(schema: Any) -> bool:
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if not set(node) <= _SUPPORTED | _ANNOTATIONS:
                return False
            for k, v in node.items():
                if k in ("properties", "patternProperties", "$defs"):
                    todo.extend(v.values())
                elif k in ("items", "additionalProperties"):
                    todo.append(v)
                elif k == "anyOf":
                    todo.extend(v)
    return True


@functools.cache
def _quick_enabled() -> bool:
    return all(_keywords_supported(d) for d in manifest_schema()["$defs"].values())


def quick_valid(defname: str, value: Any) -> bool:
    """True only if ``value`` is valid against ``$defs/<defname>`` (False: ask jsonschema)."""
    if not _quick_enabled():
        return False
    defs = manifest_schema()["$defs"]
    return _valid(defs[defname], value, defs)


def _is_type(value: Any, t: str) -> bool:
    if t == "object":
        return isinstance(value, dict)
    if t == "array":
        return isinstance(value, list)
    if t == "string":
        return isinstance(value, str)
    if t == "boolean":
        return isinstance(value, bool)
    if t == "null":
        return value is None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return t == "number" or isinstance(value, int) or value.is_integer()


def _same(a: Any, b: Any) -> bool:
    return type(a) is type(b) and a == b if isinstance(a, bool) or isinstance(b, bool) else a == b


def _valid(schema: Any, value: Any, defs: dict[str, Any]) -> bool:
    if schema is True:
        return True
    if schema is False:
        return False
    ref = schema.get("$ref")
    if ref is not None and not _valid(defs[ref.rsplit("/", 1)[-1]], value, defs):
        return False
    t = schema.get("type")
    if t is not None and not any(_is_type(value, x) for x in (t if isinstance(t, list) else [t])):
        return False
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        return False
    if "const" in schema and not _same(value, schema["const"]):
        return False
    if "anyOf" in schema and not any(_valid(s, value, defs) for s in schema["anyOf"]):
        return False
    if isinstance(value, str):
        return len(value) >= int(schema.get("minLength", 0))
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return "minimum" not in schema or value >= schema["minimum"]
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            return False
        if schema.get("uniqueItems") and any(
            _same(a, b) for i, a in enumerate(value) for b in value[i + 1:]
        ):
            return False
        items = schema.get("items")
        return items is None or all(_valid(items, v, defs) for v in value)
    if isinstance(value, dict):
        if any(r not in value for r in schema.get("required", ())):
            return False
        props = schema.get("properties", {})
        patterns = schema.get("patternProperties", {})
        extra = schema.get("additionalProperties", True)
        for k, v in value.items():
            matched = False
            if k in props:
                matched = True
                if not _valid(props[k], v, defs):
                    return False
            for pat, sub in patterns.items():
                if re.search(pat, k):
                    matched = True
                    if not _valid(sub, v, defs):
                        return False
            if not matched and extra is not True and not _valid(extra, v, defs):
                return False
    return True


def _close(word: str, choices: Any, n: int = 1) -> list[str]:
    import difflib  # lazy: only needed when there is a typo to report

    return difflib.get_close_matches(word, list(choices), n=n)
