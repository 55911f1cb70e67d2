"""The MCP Registry's ``server.json`` schema, pinned by URL and sha256 (never committed), and the
validation of a registry entry against it: one located problem per error.

Where the schema is read from, first found wins; whatever is read is checked against the pin
(``mcpgen.protocol.pins.verify_sha256``, as the MCP revisions are), a mismatch is one error:
1. ``$MCPGEN_REGISTRY_SCHEMA_DIR/<version>/server.schema.json`` (a local mirror, laid out as
   the registry's ``static`` repository is; the tests point it at ``../shared/mcp-registry``);
2. the cache, ``<mcpgen cache>/registry/<version>/server.schema.json``;
3. the pinned URL, downloaded once into the cache.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any, NamedTuple

from mcpgen.errors import McpgenError
from mcpgen.protocol.pins import cache_root, download, verify_sha256, write_bytes_atomic

__all__ = [
    "SCHEMA_SHA256",
    "SCHEMA_URL",
    "SCHEMA_VERSION",
    "Problem",
    "load_registry_schema",
    "schema_path",
    "validate_server_json",
]

SCHEMA_VERSION = "2025-12-11"
"""The schema the registry accepts for new publications."""
SCHEMA_URL = f"https://static.modelcontextprotocol.io/schemas/{SCHEMA_VERSION}/server.schema.json"
SCHEMA_SHA256 = "3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0"
ENV_DIR = "MCPGEN_REGISTRY_SCHEMA_DIR"
_WHAT = f"the MCP Registry's server.json schema ({SCHEMA_VERSION})"


class Problem(NamedTuple):
    """One reason a registry entry is refused: where (a JSON pointer into the document) and
    why. ``line``/``col`` are set when the document was read from a file."""

    pointer: str
    message: str
    line: int | None = None
    col: int | None = None

    def where(self, path: str) -> str:
        if self.line is not None:
            return f"{path}:{self.line}:{self.col}"
        return f"{path} {self.pointer or '/'}"


def schema_path() -> Path:
    """Where the schema is read from (``$MCPGEN_REGISTRY_SCHEMA_DIR`` or the cache)."""
    env = os.environ.get(ENV_DIR)
    base = Path(env) if env else cache_root() / "registry"
    return base / SCHEMA_VERSION / "server.schema.json"


@functools.cache
def _load(path: Path, from_env: bool, timeout: float) -> dict[str, Any]:
    try:
        data: bytes | None = path.read_bytes()
    except (FileNotFoundError, NotADirectoryError):
        data = None
    except OSError as exc:
        raise McpgenError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    if data is not None:
        verify_sha256(data, SCHEMA_SHA256, _WHAT, str(path))
    elif from_env:
        raise McpgenError(
            f"{_WHAT} is not in ${ENV_DIR} (expected {SCHEMA_VERSION}/server.schema.json "
            "there; unset it to download the pinned file)",
            path=str(path),
        )
    else:
        try:
            data = download(SCHEMA_URL, _WHAT, timeout)
        except McpgenError as exc:  # offline: say where a copy can come from
            raise McpgenError(
                f"{exc.message}; offline, set ${ENV_DIR} to a folder that holds "
                f"{SCHEMA_VERSION}/server.schema.json (a copy of {SCHEMA_URL})",
                path=exc.path,
                line=exc.line,
                col=exc.col,
            ) from None
        verify_sha256(data, SCHEMA_SHA256, _WHAT, SCHEMA_URL)
        try:
            write_bytes_atomic(path, data)
        except OSError:
            pass  # no cache (a read-only home): downloaded again next time
    doc: dict[str, Any] = json.loads(data)
    return doc


def load_registry_schema(timeout: float = 30.0) -> dict[str, Any]:
    """The pinned schema, verified (``McpgenError``, exit 2, on a mismatch or no way to get
    it)."""
    return _load(schema_path(), bool(os.environ.get(ENV_DIR)), timeout)


@functools.cache
def _validator(schema_json: str) -> Any:
    from jsonschema import Draft7Validator, FormatChecker  # type: ignore[import-untyped]

    return Draft7Validator(json.loads(schema_json), format_checker=FormatChecker())


def validate_server_json(doc: Any, text: str | None = None) -> list[Problem]:
    """Every way ``doc`` breaks the pinned schema, one located ``Problem`` each, in document
    order (``text``: the file it was parsed from, for line:col)."""
    schema = load_registry_schema()
    validator = _validator(json.dumps(schema, sort_keys=True))
    from mcpgen_runtime.jsonschema_facts import pointer_from_path

    problems: list[Problem] = []
    for err in validator.iter_errors(doc):
        err = _deepest(err)
        path = list(err.absolute_path)
        problems.append(Problem(pointer_from_path(path), _message(err, path)))
    if text is not None:
        problems = [_located(p, text) for p in problems]
    return sorted(set(problems), key=lambda p: (p.line or 0, p.col or 0, p.pointer, p.message))


def _deepest(err: Any) -> Any:
    """For ``anyOf``/``oneOf``/``allOf``: the branch error that says most, so the message names
    the missing key or bad value. A branch whose ``type`` the value does not have (a positional
    argument is not a named one) is passed over; then jsonschema's ``best_match``."""
    from jsonschema.exceptions import best_match  # type: ignore[import-untyped]

    while err.validator in ("anyOf", "oneOf", "allOf") and err.context:
        if _all_required(err):
            return err
        branches: dict[Any, list[Any]] = {}
        for sub in err.context:
            branches.setdefault(sub.schema_path[0], []).append(sub)
        kept = [
            subs for subs in branches.values() if not any(_wrong_kind(sub, err) for sub in subs)
        ]
        if not kept and err.validator == "anyOf":
            return _KindError(err, [sub for sub in err.context if _wrong_kind(sub, err)])
        pool = kept[0] if len(kept) == 1 else list(err.context)
        err = best_match(pool)
    return err


class _KindError:
    """No branch of an ``anyOf`` takes the value's ``type``: say which types there are."""

    validator = "kind"

    def __init__(self, err: Any, subs: list[Any]) -> None:
        self.absolute_path = [*err.absolute_path, "type"]
        self.instance = err.instance.get("type") if isinstance(err.instance, dict) else None
        kinds: list[str] = []
        for sub in subs:
            vals = sub.validator_value if sub.validator == "enum" else [sub.validator_value]
            kinds += [str(v) for v in vals if str(v) not in kinds]
        self.validator_value = kinds


def _wrong_kind(sub: Any, parent: Any) -> bool:
    """``sub`` says the value is of another kind: its ``type`` member fails an enum/const."""
    rel = list(sub.absolute_path)[len(list(parent.absolute_path)) :]
    return rel == ["type"] and sub.validator in ("enum", "const")


def _all_required(err: Any) -> bool:
    """An ``anyOf`` of ``required``s on the value itself: one of these keys is needed."""
    return err.validator == "anyOf" and all(
        sub.validator == "required" and not list(sub.relative_path) for sub in err.context
    )


def _where(path: list[Any]) -> str:
    out = ""
    for p in path:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else str(p))
    return f"`{out}`" if out else "the document"


def _message(err: Any, path: list[Any]) -> str:
    where = _where(path)
    v, value, inst = err.validator, err.validator_value, err.instance
    if v == "kind":
        return (
            f"{where} must be one of {', '.join(json.dumps(k) for k in value)}, not "
            + (json.dumps(inst)[:40])
        )
    if v == "anyOf" and _all_required(err):
        keys = [str(sub.validator_value[0]) for sub in err.context if sub.validator_value]
        return f"{where} needs one of the keys {', '.join(f'`{k}`' for k in keys)}"
    if v == "required":
        missing = err.message.split("'")[1] if "'" in err.message else "?"
        return f"{where} is missing the required key `{missing}`"
    if v == "maxLength":
        return f"{where} is {len(inst)} characters; at most {value} are allowed"
    if v == "minLength":
        return f"{where} must not be empty" if value == 1 else f"{where} is too short"
    if v == "pattern":
        return f"{where}: {json.dumps(inst)} does not match the pattern {value}"
    if v == "not" and isinstance(value, dict) and "const" in value:
        return f"{where} must be a specific version, not {json.dumps(inst)}"
    if v == "enum":
        return f"{where} must be one of {', '.join(json.dumps(x) for x in value)}"
    if v == "type":
        return f"{where} must be of type {value}, not {json.dumps(inst)[:40]}"
    msg = err.message if len(err.message) <= 160 else err.message[:157] + "..."
    return f"{where}: {msg}"


def _located(p: Problem, text: str) -> Problem:
    from mcpgen.manifest.jsonpos import JsonLocator

    loc = JsonLocator(text)
    ptr = p.pointer
    while True:
        off = loc.offset(ptr)
        if off is not None or not ptr:
            break
        ptr = ptr.rsplit("/", 1)[0]
    line, col = loc.line_col(off) if off is not None else (1, 1)
    return p._replace(line=line, col=col)
