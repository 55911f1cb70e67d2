"""The tools of a manifest as every generated package (server, client, CLI) and
``mcpgen export summary`` see them. Pure.

``build_tools`` checks the package name and that tool names are unique, assigns the Python
names (``mcpgen.naming``), serialises each tool's exact JSON and decides the dialect of its
schemas. ``ToolIR`` holds each fact once; the package IRs (``mcpgen.server.ir``,
``mcpgen.client.ir``) hold these records, not copies of their fields.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from mcpgen.errors import McpgenError
from mcpgen.manifest.model import Manifest
from mcpgen.naming import ToolNames, assign_tool_names, package_name_problem
from mcpgen_runtime.jsonschema_facts import GENERATED_DIALECTS, dialect_of

SUPPORTED_DIALECTS = GENERATED_DIALECTS


def schema_dialect(schema: Mapping[str, Any] | None, *, where: str) -> str:
    """``"2020-12"`` (the default when ``$schema`` is absent) or ``"draft-07"``."""
    dialect, declared = dialect_of(schema)
    if dialect is not None and dialect in SUPPORTED_DIALECTS:
        return dialect
    raise McpgenError(
        f"{where}: unsupported JSON Schema dialect {declared!r} "
        f"(supported: {', '.join(SUPPORTED_DIALECTS)})"
    )


def canonical_json(value: Any) -> str:
    """Compact JSON that keeps key order exactly as written (what is served on tools/list)."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


@dataclass(frozen=True)
class ToolIR:
    """One tool as the templates see it."""

    index: int
    name: str
    names: ToolNames
    """Its Python names (method, class stem, models)."""
    raw_json: str
    """The complete wire ``Tool`` object as compact JSON, key order as in the manifest."""
    input_schema: Mapping[str, Any]
    """The parsed inputSchema (what the typed models are generated from)."""
    output_schema: Mapping[str, Any] | None
    input_dialect: str
    output_dialect: str | None
    title: str | None
    description: str | None
    pointer: str
    """Where the tool stands in the manifest (JSON Pointer)."""
    scopes: tuple[str, ...]
    """The OAuth scopes the server needs for this tool (``x-mcpgen.scopes``)."""
    forwarded: str | None
    """``GET /items`` when the runtime forwards the tool to the HTTP API (``x-mcpgen.http``
    and ``server.http``): handlers.py gets no stub for it."""

    @property
    def method_name(self) -> str:
        return self.names.method_name

    @property
    def class_stem(self) -> str:
        return self.names.class_stem

    @property
    def input_model(self) -> str:
        return self.names.input_model

    @property
    def has_output(self) -> bool:
        return self.output_schema is not None

    @property
    def output_model(self) -> str | None:
        """``<Stem>Output`` when the tool declares an outputSchema."""
        return self.names.output_model if self.output_schema is not None else None


def _forwarded(raw: Mapping[str, Any], api: Mapping[str, Any] | None) -> str | None:
    ext = raw.get("x-mcpgen")
    http = ext.get("http") if isinstance(ext, Mapping) else None
    if api is None or not isinstance(http, Mapping):
        return None
    return f"{http.get('method')} {http.get('path')}"


def build_tools(
    manifest: Manifest, *, package: str, reserved: Iterable[str] = ()
) -> tuple[ToolIR, ...]:
    """Every tool of ``manifest``, in order, ready for an IR; ``McpgenError`` (with the
    tool's position) for a bad package name, a duplicate tool name, a tool that is not
    JSON-serialisable or a schema dialect generated code cannot validate."""
    problem = package_name_problem(package)
    if problem is not None:
        raise McpgenError(f"--package {package!r} {problem}")
    seen: dict[str, str] = {}
    for tool in manifest.tools:
        if tool.name in seen:
            line, col = manifest.source_map.locate(tool.pointer)
            raise McpgenError(
                f"duplicate tool name {tool.name!r} (also at {seen[tool.name]})",
                path=manifest.path,
                line=line,
                col=col,
            )
        seen[tool.name] = tool.pointer or "/"
    names = assign_tool_names([t.name for t in manifest.tools], reserved=reserved)
    out: list[ToolIR] = []
    for i, (tool, nm) in enumerate(zip(manifest.tools, names, strict=True)):
        where = f"tool {tool.name!r}"
        try:
            raw_json = canonical_json(tool.raw)
        except ValueError as exc:
            line, col = manifest.source_map.locate(tool.pointer)
            raise McpgenError(
                f"{where} is not JSON-serialisable: {exc}", path=manifest.path, line=line, col=col
            ) from exc
        output = tool.output_schema
        out.append(
            ToolIR(
                index=i,
                name=tool.name,
                names=nm,
                raw_json=raw_json,
                input_schema=tool.input_schema,
                output_schema=output,
                input_dialect=schema_dialect(tool.input_schema, where=f"{where} inputSchema"),
                output_dialect=(
                    schema_dialect(output, where=f"{where} outputSchema")
                    if output is not None
                    else None
                ),
                title=tool.title,
                description=tool.description,
                pointer=tool.pointer,
                scopes=tool.scopes,
                forwarded=_forwarded(tool.raw, manifest.server.http),
            )
        )
    return tuple(out)
