"""Load a tool manifest: document -> shape detection -> structure check -> bundled ``Manifest``.

Accepted shapes (all validated against ``schema/manifest.schema.json``):

* a manifest mapping: ``server``, ``protocol``, ``tools``, ``$defs`` (``$defs/Manifest``);
* a ``tools/list`` result ``{"tools": [...], "nextCursor": ...}`` (``$defs/ToolsListResult``):
  chosen when the mapping has result keys and none of ``server``/``protocol``/``$defs``;
* a JSON-RPC response wrapping one (``$defs/JsonRpcResponse``);
* a bare list of tools (``$defs/ToolList``).

Without a ``server.name`` the server is named after the file (``weather.yaml`` -> ``weather``).

Findings are ``Diagnostic``s: ``MANIFEST_SCHEMA`` (one per structural error, at the offending
value), ``MANIFEST_REVISION_UNKNOWN``, the ``YAML_*`` ones from the parser and the ``REF_*`` ones
from bundling (``mcpgen.manifest.refs``). Unreadable input raises ``McpgenError`` instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpgen.diagnostics import Diagnostic, Severity
from mcpgen.errors import McpgenError
from mcpgen.manifest.model import (
    KNOWN_REVISIONS,
    Dependency,
    Manifest,
    SectionItem,
    ServerInfo,
    ToolDef,
)
from mcpgen.manifest.sourcemap import Document, load_document, parse_text
from mcpgen.manifest.structure import describe, schema_errors

_RESULT_KEYS = frozenset(("nextCursor", "_meta", "resultType", "ttlMs", "cacheScope"))
_MANIFEST_KEYS = frozenset(("server", "protocol", "$defs"))


@dataclass
class LoadResult:
    manifest: Manifest | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.severity >= Severity.ERROR]


def load_manifest(path: str | Path) -> LoadResult:
    """Load ``path``; raises ``McpgenError`` only if it cannot be read as YAML/JSON at all."""
    return load_from_document(load_document(path), Path(path).parent)


def load_manifest_text(
    text: str,
    path: str,
    base_dir: str | Path | None = None,
    read_bytes: Callable[[Path], bytes] | None = None,
) -> LoadResult:
    """Same as ``load_manifest`` for text read elsewhere (a git blob). File ``$ref``s resolve
    against ``base_dir`` (default: the directory of ``path``) and are read with ``read_bytes``
    (default: from the disk), e.g. from the same git ref."""
    return load_from_document(
        parse_text(text, path), Path(base_dir or Path(path).parent), read_bytes
    )


def require_manifest(path: str | Path) -> Manifest:
    """For generators: the manifest, or ``McpgenError`` with the first error's location."""
    return usable(load_manifest(path), path)


def usable(result: LoadResult, path: str | Path) -> Manifest:
    """``result``'s manifest, or ``McpgenError`` (exit 2) with the first load error's location."""
    errors = sorted(result.errors, key=Diagnostic.sort_key)
    if errors or result.manifest is None:
        if not errors:  # pragma: no cover - a None manifest always comes with an error
            raise McpgenError("not a usable manifest", path=str(path))
        first = errors[0]
        more = f" (+{len(errors) - 1} more errors; run mcpgen check)" if len(errors) > 1 else ""
        raise McpgenError(
            f"{first.message} [{first.rule_id}]{more}",
            path=first.path,
            line=first.line,
            col=first.col,
        )
    return result.manifest


def load_from_document(
    doc: Document, base_dir: Path, read_bytes: Callable[[Path], bytes] | None = None
) -> LoadResult:
    diags = list(doc.diagnostics)
    value = doc.value

    def report(
        pointer: str, message: str, rule: str = "MANIFEST_SCHEMA", key: bool = False
    ) -> None:
        diags.append(Diagnostic(rule, Severity.ERROR, doc.location(pointer, key=key), message))

    shape, prefix = _shape(value)
    if shape is None:
        if value is None:
            report(
                "",
                "the file is empty; expected a manifest mapping with `tools`, a tools/list "
                "result or a list of tools",
            )
        else:
            report(
                "",
                "expected a manifest mapping with `tools`, a tools/list result or a list of "
                f"tools, found {describe(value)}",
            )
        return LoadResult(None, diags)

    unknown_revision = _check_revisions(value if shape == "Manifest" else None, report)
    for err in schema_errors(shape, value, skip_protocol=unknown_revision):
        report(*err)

    container = value if shape != "JsonRpcResponse" else value.get("result")
    tools_raw = container if isinstance(container, list) else (container or {}).get("tools")
    if not isinstance(tools_raw, list):
        return LoadResult(None, diags)

    defs = value.get("$defs") if shape == "Manifest" else None
    defs = defs if isinstance(defs, dict) else {}
    from mcpgen.manifest.refs import Bundler

    bundler = Bundler(doc, base_dir, diags, read_bytes)
    tools = []
    for i, t in enumerate(tools_raw):
        if isinstance(t, dict):
            ptr = f"{prefix}/{i}"
            tools.append(ToolDef(bundler.bundle_tool(t, ptr), ptr))

    resources = _section(value, shape, "resources")
    file_deps: list[Dependency] = []
    if read_bytes is None:  # from disk (a git ref's manifest needs no resource contents)
        resources = _resource_files(resources, base_dir, file_deps, report)
    skills = _skills(value, shape, doc, base_dir, diags, file_deps, read_bytes)
    if skills:
        from mcpgen.manifest.skills import taken_uris

        taken_uris(skills, resources, doc.location, diags.append)
    manifest = Manifest(
        path=doc.path,
        server=_server(value if shape == "Manifest" else {}, doc.path),
        revisions=_revisions(value if shape == "Manifest" else {}),
        tools=tuple(tools),
        defs=defs,
        source_map=doc.source_map,
        raw=value,
        dependencies=tuple(sorted({*bundler.dependencies(), *file_deps}, key=lambda d: d.path)),
        resources=resources,
        templates=_section(value, shape, "resourceTemplates"),
        prompts=_section(value, shape, "prompts"),
        skills=skills,
    )
    return LoadResult(manifest, diags)


def _skills(
    value: Any,
    shape: str,
    doc: Document,
    base_dir: Path,
    diags: list[Diagnostic],
    deps: list[Dependency],
    read_bytes: Callable[[Path], bytes] | None,
) -> tuple[Any, ...]:
    """The ``skills`` folders, read (``mcpgen.manifest.skills``; imported only when there
    are some)."""
    if shape != "Manifest" or not isinstance(value, dict) or not value.get("skills"):
        return ()
    from mcpgen.manifest.skills import load_skills

    return load_skills(value["skills"], base_dir, doc.location, diags.append, deps, read_bytes)


def _resource_files(
    resources: tuple[SectionItem, ...], base_dir: Path, deps: list[Dependency], report: Any
) -> tuple[SectionItem, ...]:
    """Each ``file:`` resource with its contents read (``RESOURCE_FILE`` for one that cannot
    be used); the files are recorded in ``deps``."""
    from mcpgen.manifest.resource_files import read_resource_file
    from mcpgen_runtime.apps import RESOURCE_MIME_TYPE as VIEW_MIME

    out = []
    for item in resources:
        spelled = item.raw.get("file")
        if isinstance(spelled, str) and spelled:
            view = item.raw.get("mimeType") == VIEW_MIME or str(item.raw.get("uri")).startswith(
                "ui://"
            )
            if view and (base_dir / spelled).is_dir():
                spelled = spelled.rstrip("/\\") + "/index.html"  # an MCP Apps view's built folder
            got = read_resource_file(base_dir, spelled)
            if isinstance(got, str):
                report(item.pointer + "/file", got, "RESOURCE_FILE")
            else:
                data, dep = got
                deps.append(dep)
                item = SectionItem(item.raw, item.pointer, data)
        out.append(item)
    return tuple(out)


def _section(value: Any, shape: str, key: str) -> tuple[SectionItem, ...]:
    """A full manifest's ``resources``/``resourceTemplates``/``prompts`` (the structure check
    has reported anything malformed; entries that are not mappings are skipped)."""
    items = value.get(key) if shape == "Manifest" and isinstance(value, dict) else None
    if not isinstance(items, list):
        return ()
    return tuple(
        SectionItem(item, f"/{key}/{i}") for i, item in enumerate(items) if isinstance(item, dict)
    )


def _shape(value: Any) -> tuple[str | None, str]:
    """(name of the $defs entry to validate against, pointer of the tools list)."""
    if isinstance(value, list):
        return "ToolList", ""
    if not isinstance(value, dict):
        return None, ""
    keys = value.keys()
    if "jsonrpc" in keys and "result" in keys and "tools" not in keys:
        return "JsonRpcResponse", "/result/tools"
    if "tools" in keys and keys & _RESULT_KEYS and not keys & _MANIFEST_KEYS:
        return "ToolsListResult", "/tools"
    return "Manifest", "/tools"


def _server(value: dict[str, Any], path: str) -> ServerInfo:
    s = value.get("server")
    s = s if isinstance(s, dict) else {}

    def text(key: str) -> str | None:
        v = s.get(key)
        return v if isinstance(v, str) and v else None

    icons = s.get("icons")
    return ServerInfo(
        name=text("name") or Path(path).stem or "server",
        version=text("version") or "0.1.0",
        title=text("title"),
        description=text("description"),
        instructions=text("instructions"),
        website_url=text("websiteUrl"),
        icons=tuple(i for i in icons if isinstance(i, dict)) if isinstance(icons, list) else (),
        list_changed=_list_changed(s),
        limits=dict(s["limits"]) if isinstance(s.get("limits"), dict) else None,
        cache_ttl_ms=_cache(s).get("ttlMs", 0),
        cache_scope=_cache(s).get("scope", "private"),
        auth=dict(s["auth"]) if isinstance(s.get("auth"), dict) else None,
        toolsets=_toolsets(s),
        http=dict(s["http"]) if isinstance(s.get("http"), dict) else None,
        tasks=dict(s["tasks"]) if isinstance(s.get("tasks"), dict) else None,
        discovery=dict(s["discovery"]) if isinstance(s.get("discovery"), dict) else None,
        models="typeddict" if s.get("models") == "typeddict" else "pydantic",
    )


def _toolsets(server: dict[str, Any]) -> dict[str, dict[str, Any]] | None:
    """``server.toolsets`` with only well-typed entries (the structure check reports the rest)."""
    t = server.get("toolsets")
    if not isinstance(t, dict):
        return None
    return {k: dict(v) for k, v in t.items() if isinstance(k, str) and isinstance(v, dict)}


def _cache(server: dict[str, Any]) -> dict[str, Any]:
    """``server.cache`` with only well-typed values (the structure check reports the rest)."""
    c = server.get("cache")
    c = c if isinstance(c, dict) else {}
    out: dict[str, Any] = {}
    ttl = c.get("ttlMs")
    if isinstance(ttl, int) and not isinstance(ttl, bool) and ttl >= 0:
        out["ttlMs"] = ttl
    if c.get("scope") in ("private", "public"):
        out["scope"] = c["scope"]
    return out


def _list_changed(server: dict[str, Any]) -> bool:
    caps = server.get("capabilities")
    tools = caps.get("tools") if isinstance(caps, dict) else None
    return isinstance(tools, dict) and tools.get("listChanged") is True


def _revisions(value: dict[str, Any]) -> tuple[str, ...]:
    p = value.get("protocol")
    given = [p] if isinstance(p, str) else p if isinstance(p, list) else []
    known = tuple(r for r in KNOWN_REVISIONS if r in given)
    return known or KNOWN_REVISIONS


def _check_revisions(value: Any, report: Any) -> bool:
    """Report unknown revision names; True if there were any."""
    if not isinstance(value, dict) or "protocol" not in value:
        return False
    found = False
    p = value["protocol"]
    items = (
        [("/protocol", p)]
        if isinstance(p, str)
        else ([(f"/protocol/{i}", r) for i, r in enumerate(p)] if isinstance(p, list) else [])
    )
    for ptr, rev in items:
        if isinstance(rev, str) and rev not in KNOWN_REVISIONS:
            close = _close(rev, KNOWN_REVISIONS, n=1)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            report(
                ptr,
                f"unknown MCP revision {rev!r} (known: {', '.join(KNOWN_REVISIONS)}){hint}",
                "MANIFEST_REVISION_UNKNOWN",
            )
            found = True
    return found


def _close(word: str, choices: Any, n: int = 1) -> list[str]:
    import difflib  # lazy: only needed when there is a typo to report

    return difflib.get_close_matches(word, list(choices), n=n)
