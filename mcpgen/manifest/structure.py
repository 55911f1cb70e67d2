"""The structure check: a document against ``schema/manifest.schema.json`` (MANIFEST_SCHEMA).

Valid documents (the common case in a pre-commit hook) are confirmed by jsonschema-rs (compiled
once per shape, about 0.3 ms for 100 tools), so ``jsonschema`` (≈0.1 s to import) is imported
only when there is something to report; then jsonschema (Draft 2020-12, compiled once per shape)
produces the errors, one per problem, worded for humans and placed at the offending value.
``test_structure.py`` checks that both agree on a corpus of good and bad manifests.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from mcpgen_runtime.jsonschema_facts import escape_token as escape
from mcpgen_runtime.jsonschema_facts import pointer_from_path


@functools.cache
def manifest_schema() -> dict[str, Any]:
    from mcpgen.resources import schema_dir

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
        keys = _alternative_keys(err)
        if keys is not None:
            path = list(err.absolute_path)
            out.append((pointer_from_path(path), _alternatives(err, keys, path), *_SCHEMA))
            continue
        if err.validator in ("anyOf", "oneOf") and err.context:
            types = _branch_types(err)
            if types:
                path = list(err.absolute_path)
                out.append(
                    (
                        pointer_from_path(path),
                        f"{_where(path)} must be {' or '.join(types)}, not "
                        f"{describe(err.instance)}",
                        "MANIFEST_SCHEMA",
                        False,
                    )
                )
                continue
            err = best_match(err.context)
        path = list(err.absolute_path)
        ptr = pointer_from_path(path)
        where = _where(path)
        if err.validator == "additionalProperties" and isinstance(err.instance, dict):
            allowed = list(err.schema.get("properties", {}))
            for key in _unexpected(err):
                close = _close(key, allowed, n=1)
                hint = (
                    f"; did you mean `{close[0]}`?"
                    if close
                    else f" (allowed: {', '.join(allowed)})"
                )
                out.append(
                    (
                        f"{ptr}/{escape(key)}",
                        f"unknown key `{key}` in {where}{hint}",
                        "MANIFEST_SCHEMA",
                        True,
                    )
                )
            continue
        if "propertyNames" in err.schema_path and isinstance(err.instance, str):
            # a bad key: placed at the key itself, not at its object
            key_ptr = pointer_from_path([*path, err.instance])
            out.append((key_ptr, _message(err, where + " key"), "MANIFEST_SCHEMA", True))
            continue
        out.append((ptr, _message(err, where), "MANIFEST_SCHEMA", False))
    return out


_SCHEMA = ("MANIFEST_SCHEMA", False)


def _alternative_keys(err: Any) -> list[str] | None:
    """For a ``oneOf``/``anyOf`` whose branches each only require one key (a resource's
    ``text``, ``file`` or ``handler``) and a mapping: those keys; else None."""
    branches = err.validator_value
    if err.validator not in ("anyOf", "oneOf") or not isinstance(err.instance, dict):
        return None
    if not isinstance(branches, list) or not branches:
        return None
    keys: list[str] = []
    for b in branches:
        if not (isinstance(b, dict) and list(b) == ["required"] and len(b["required"]) == 1):
            return None
        keys.append(str(b["required"][0]))
    return keys


def _alternatives(err: Any, keys: list[str], path: list[Any]) -> str:
    """``needs one of `a`, `b` or `c``` or ``has both `a` and `b`; give only one of ...``."""
    named = [f"`{k}`" for k in keys]
    choices = ", ".join(named[:-1]) + f" or {named[-1]}" if len(named) > 1 else named[0]
    present = [f"`{k}`" for k in keys if k in err.instance]
    where = _where(path)
    if len(present) > 1 and err.validator == "oneOf":
        both = ", ".join(present[:-1]) + f" and {present[-1]}"
        return f"{where} has {both}; give only one of {choices}"
    return f"{where} needs one of {choices}"


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
    return [
        k for k in err.instance if k not in props and not any(re.search(p, k) for p in patterns)
    ]


_TYPE_NAMES = {
    "object": "a mapping",
    "array": "a list",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
    "boolean": "true or false",
    "null": "null",
}


def _message(err: Any, where: str) -> str:
    v = err.validator
    if v == "type":
        types = (
            err.validator_value if isinstance(err.validator_value, list) else [err.validator_value]
        )
        want = " or ".join(_TYPE_NAMES.get(str(t), str(t)) for t in types)
        return f"{where} must be {want}, not {describe(err.instance)}"
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        return f"{where} is missing the required key `{missing}`"
    if v == "enum":
        return (
            f"{where} must be one of {', '.join(json.dumps(x) for x in err.validator_value)}, "
            f"not {describe(err.instance)}"
        )
    if v == "const":
        return f"{where} must be {json.dumps(err.validator_value)}, not {describe(err.instance)}"
    if v == "pattern" and isinstance(err.schema.get("examples"), list) and err.schema["examples"]:
        return f"{where}: {describe(err.instance)} is not of the form {err.schema['examples'][0]!r}"
    if v in ("minLength", "minItems"):
        return f"{where} must not be empty"
    if v == "uniqueItems":
        return f"{where} lists the same item twice"
    if v == "not" and isinstance(err.validator_value, dict) and "enum" in err.validator_value:
        return f"{where}: {describe(err.instance)} is a reserved word here"
    bound = _BOUNDS.get(str(v))
    if bound is not None and isinstance(err.validator_value, (int, float)):
        return f"{where} must be {bound} {err.validator_value!r}, not {describe(err.instance)}"
    if v in ("maxLength", "maxItems", "minLength", "minItems"):
        what = "characters" if v.endswith("Length") else "items"
        most = "at most" if v.startswith("max") else "at least"
        return f"{where} must have {most} {err.validator_value} {what}"
    if v == "pattern":
        return (
            f"{where}: {describe(err.instance)} does not match the pattern {err.validator_value!r}"
        )
    if v == "format":
        return f"{where}: {describe(err.instance)} is not a valid {err.validator_value}"
    if v == "oneOf" and not err.context:
        return f"{where} fits more than one of its allowed forms; it must fit exactly one"
    if v in ("anyOf", "oneOf"):
        return f"{where} fits none of its allowed forms"
    # jsonschema's own words start with the value's repr (a whole mapping, maybe): name it
    msg = err.message
    shown = repr(err.instance)
    if msg.startswith(shown):
        msg = describe(err.instance) + msg[len(shown) :]
    msg = msg if len(msg) <= 160 else msg[:157] + "..."
    return f"{where}: {msg}"


_BOUNDS = {
    "minimum": "at least",
    "maximum": "at most",
    "exclusiveMinimum": "greater than",
    "exclusiveMaximum": "less than",
}


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


@functools.cache
def _rs_validator(defname: str) -> Any:
    import jsonschema_rs

    from mcpgen_runtime.schemawalk import refuse_retrieval

    root = manifest_schema()
    return jsonschema_rs.validator_for(
        {"$ref": f"#/$defs/{defname}", "$defs": root["$defs"]}, retriever=refuse_retrieval
    )


def quick_valid(defname: str, value: Any) -> bool:
    """True only if jsonschema-rs finds ``value`` valid against ``$defs/<defname>`` (False:
    ask jsonschema, which writes the messages; also for values JSON has no form for)."""
    try:
        return bool(_rs_validator(defname).is_valid(value))
    except Exception:
        return False


def _close(word: str, choices: Any, n: int = 1) -> list[str]:
    import difflib  # lazy: only needed when there is a typo to report

    return difflib.get_close_matches(word, list(choices), n=n)
