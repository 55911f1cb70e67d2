"""Revision pins (``schema/revisions.json``): upstream URL + sha256 per MCP revision.

The official schema files are never committed. ``pull`` downloads each pinned file into a user
cache directory (or copies it from a local mirror with ``--from DIR``) and verifies its sha256;
``load_schema`` reads a verified schema for the generators. A mismatch is always an error.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen.resources import schema_dir

FACT_DEFINITIONS: tuple[str, ...] = (
    "Tool",
    "Resource",
    "ResourceTemplate",
    "Prompt",
    "PromptArgument",
)
"""The schema definitions whose fields each revision pin records (the runtime serves only the
fields a client's revision has)."""


@dataclass(frozen=True)
class Pin:
    revision: str
    url: str
    sha256: str
    module: str
    stateless: bool = False
    """The revision has no ``initialize`` handshake (the 2026-07-28 wire)."""
    fields: tuple[tuple[str, tuple[str, ...]], ...] = ()
    """``(definition, its top-level properties)`` for each of ``FACT_DEFINITIONS`` (checked
    against the schema by ``check_facts``)."""


def pins_path() -> Path:
    """``schema/revisions.json``; ``$MCPGEN_PINS_FILE`` points elsewhere (to try a new pin)."""
    env = os.environ.get("MCPGEN_PINS_FILE")
    return Path(env) if env else schema_dir() / "revisions.json"


def load_pins_document() -> dict[str, Any]:
    path = pins_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise McpgenError(f"cannot read revision pins: {exc}", path=str(path)) from None
    if not isinstance(data, dict) or not isinstance(data.get("revisions"), dict):
        raise McpgenError(
            "revision pins must be an object with a 'revisions' object", path=str(path)
        )
    return data


def load_pins() -> dict[str, Pin]:
    data = load_pins_document()
    pins: dict[str, Pin] = {}
    for rev, entry in data["revisions"].items():
        fields = entry.get("fields") if isinstance(entry, dict) else None
        if (
            not isinstance(entry, dict)
            or not all(isinstance(entry.get(k), str) for k in ("url", "sha256", "module"))
            or not isinstance(entry.get("stateless"), bool)
            or not isinstance(fields, dict)
            or sorted(fields) != sorted(FACT_DEFINITIONS)
            or not all(
                isinstance(v, list) and all(isinstance(f, str) for f in v) for v in fields.values()
            )
        ):
            raise McpgenError(
                f"revision pin {rev!r} needs url, sha256, module (strings), stateless (a "
                f"boolean) and fields (for each of {', '.join(FACT_DEFINITIONS)}: a list of "
                "strings)",
                path=str(pins_path()),
            )
        pins[rev] = Pin(
            rev,
            entry["url"],
            entry["sha256"],
            entry["module"],
            stateless=entry["stateless"],
            fields=tuple((k, tuple(fields[k])) for k in FACT_DEFINITIONS),
        )
    return pins


def check_facts(pin: Pin, doc: dict[str, Any]) -> None:
    """The pin's ``stateless`` and ``fields`` must say what its schema says."""
    defs = doc.get("definitions") or doc.get("$defs") or {}
    for name, pinned in pin.fields:
        node = defs.get(name) if isinstance(defs, dict) else None
        props = node.get("properties") if isinstance(node, dict) else None
        fields = sorted(props) if isinstance(props, dict) else []
        if sorted(pinned) != fields:
            raise McpgenError(
                f"revision pin {pin.revision!r}: fields.{name} {sorted(pinned)} but its "
                f"schema's {name} has {fields}",
                path=str(pins_path()),
            )
    stateless = "InitializeRequest" not in defs
    if pin.stateless != stateless:
        raise McpgenError(
            f"revision pin {pin.revision!r}: stateless is {str(pin.stateless).lower()} but its "
            f"schema {'has no' if stateless else 'has an'} InitializeRequest",
            path=str(pins_path()),
        )


def select(revisions: tuple[str, ...] | list[str] | None) -> list[Pin]:
    """The pins for ``revisions`` (all when empty), in pin order; unknown names are an error."""
    pins = load_pins()
    if not revisions:
        return list(pins.values())
    unknown = [r for r in revisions if r not in pins]
    if unknown:
        raise McpgenError(
            f"unknown MCP revision {unknown[0]!r}; known revisions: {', '.join(pins)}"
        )
    return [pins[r] for r in pins if r in revisions]


def cache_root() -> Path:
    env = os.environ.get("MCPGEN_CACHE_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "mcpgen" / "spec"


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def verify_sha256(data: bytes, expected: str, what: str, origin: str) -> None:
    """``McpgenError`` (exit 2, located at ``origin``) unless ``data`` hashes to ``expected``.
    Every pinned upstream file goes through here (MCP revisions, the registry's schema)."""
    got = sha256_bytes(data)
    if got != expected:
        raise McpgenError(
            f"sha256 mismatch for {what}: expected {expected}, got {got}", path=origin
        )


def download(url: str, what: str, timeout: float) -> bytes:
    """The bytes at a pinned https ``url`` (verify them with ``verify_sha256``)."""
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:  # noqa: S310 (pinned https URL)
            data: bytes = resp.read()
            return data
    except (urllib.error.URLError, OSError) as exc:
        raise McpgenError(f"cannot download {what}: {exc}", path=url) from None


def write_bytes_atomic(dest: Path, data: bytes) -> None:
    """``dest`` replaced whole (a temporary file beside it, renamed); folders created."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=dest.parent, prefix=".schema-")
    with os.fdopen(fd, "wb") as fh:
        fh.write(data)
    os.replace(tmp, dest)


def _verify(pin: Pin, data: bytes, origin: str) -> None:
    verify_sha256(data, pin.sha256, f"MCP revision {pin.revision}", origin)


def _read_source(pin: Pin, source: Path | None, timeout: float) -> tuple[bytes, str]:
    if source is not None:
        path = source / pin.revision / "schema.json"
        try:
            return path.read_bytes(), str(path)
        except OSError as exc:
            raise McpgenError(
                f"cannot read schema: {exc.strerror or exc}", path=str(path)
            ) from None
    return download(pin.url, f"MCP revision {pin.revision}", timeout), pin.url


def pull(
    revisions: list[str] | None = None,
    *,
    source: Path | None = None,
    cache_dir: Path | None = None,
    timeout: float = 30.0,
) -> Path:
    """Fetch and verify the pinned schemas into ``cache_dir`` (laid out ``<rev>/schema.json``).

    Every file is verified before anything is written; each is written atomically.
    Returns the cache directory.
    """
    target = cache_dir or cache_root()
    fetched: list[tuple[Pin, bytes]] = []
    for pin in select(revisions):
        data, origin = _read_source(pin, source, timeout)
        _verify(pin, data, origin)
        fetched.append((pin, data))
    for pin, data in fetched:
        write_bytes_atomic(target / pin.revision / "schema.json", data)
    return target


def resolve_source(source: Path | None) -> Path:
    """Where generators read schemas from: ``--from DIR`` or the pull cache."""
    return source if source is not None else cache_root()


def load_schema(pin: Pin, source: Path | None) -> tuple[dict[str, Any], bytes]:
    """Read, verify and parse one pinned schema. Returns (parsed JSON, raw bytes)."""
    base = resolve_source(source)
    path = base / pin.revision / "schema.json"
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        hint = (
            "" if source is not None else " (run `mcpgen protocol pull` first, or pass --from DIR)"
        )
        raise McpgenError(
            f"schema for MCP revision {pin.revision} not found{hint}", path=str(path)
        ) from None
    except OSError as exc:
        raise McpgenError(f"cannot read schema: {exc.strerror or exc}", path=str(path)) from None
    _verify(pin, data, str(path))
    try:
        doc = json.loads(data)
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        col = getattr(exc, "colno", None)
        msg = getattr(exc, "msg", str(exc))
        raise McpgenError(
            f"schema is not valid JSON: {msg}", path=str(path), line=line, col=col
        ) from None
    if not isinstance(doc, dict):
        raise McpgenError("schema is not a JSON object", path=str(path), line=1, col=1)
    return doc, data
