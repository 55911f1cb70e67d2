"""``mcpgen import openapi SPEC -o FILE``: a manifest from an OpenAPI 3.0/3.1 document.

Thin: load and validate (``mcpgen.openapi.load``), convert (``mcpgen.openapi.convert``,
pure), write the manifest atomically, report what was skipped or renamed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import click

from mcpgen.errors import McpgenError


@click.group("import")
def import_group() -> None:
    """Write a manifest from another description of an API."""


def _names(values: tuple[str, ...]) -> frozenset[str]:
    return frozenset(n.strip() for v in values for n in v.split(",") if n.strip())


@import_group.command("openapi")
@click.argument("spec")
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(path_type=Path),  # a directory: mcpgen.outputs refuses it, in one line
    help="The manifest to write (YAML).",
)
@click.option("--include-tags", multiple=True, metavar="A,B", help="Only operations with a tag.")
@click.option("--exclude-tags", multiple=True, metavar="A,B", help="No operation with a tag.")
@click.option("--operations", multiple=True, metavar="ID,ID", help="Only these operationIds.")
@click.option("--paths", "path_globs", multiple=True, metavar="GLOB", help="Only paths matching.")
@click.option(
    "--name-max-length",
    type=click.IntRange(8, 128),
    default=64,
    show_default=True,
    help="Tool names are cut to this (64: what Claude Desktop and others accept).",
)
@click.option("--name", "server_name", default=None, help="server.name (default: from info.title).")
@click.option(
    "--overlay",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Your curation, applied to every import: renames, descriptions, tighter schemas, "
    "removed operations (keyed by `METHOD /path`; see the README).",
)
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing: report how OUTPUT differs from a fresh import (upstream changes), "
    "with the breaking changes that means for clients; exit 1 when it differs.",
)
@click.option(
    "--allow-external-refs",
    is_flag=True,
    help="Follow $refs to other files in SPEC's directory (never outside it, never a URL); "
    "refused by default.",
)
@click.option("--force", is_flag=True, help="Overwrite OUTPUT even if the import did not write it.")
def openapi(
    spec: str,
    output: Path,
    include_tags: tuple[str, ...],
    exclude_tags: tuple[str, ...],
    operations: tuple[str, ...],
    path_globs: tuple[str, ...],
    name_max_length: int,
    server_name: str | None,
    overlay: Path | None,
    check: bool,
    allow_external_refs: bool,
    force: bool,
) -> None:
    """Write a manifest from the OpenAPI 3.0 or 3.1 document SPEC (a file or an http(s) URL,
    YAML or JSON): one tool per selected operation, its parameters and JSON body as the
    inputSchema, its 2xx JSON response as the outputSchema, where each argument goes on the wire
    in x-mcpgen.http (never served). Review and curate the result, then `mcpgen check` it."""
    from mcpgen.openapi.convert import Selection, convert
    from mcpgen.openapi.load import load_openapi

    backup = False
    if not check:
        from mcpgen.outputs import guard_file

        spec_path = () if "://" in spec else (Path(spec),)
        backup = guard_file(
            output,
            "import openapi",
            lambda data: data.startswith(HEADER_START.encode()),
            force=force,
            inputs=(*spec_path, *((overlay,) if overlay else ())),
        )
    previous = _previous(output)
    sources = load_openapi(spec, allow_external_refs=allow_external_refs)
    doc = sources.main
    selection = Selection(
        include_tags=_names(include_tags),
        exclude_tags=_names(exclude_tags),
        operations=_names(operations),
        paths=tuple(path_globs),
    )

    if selection.include_tags:
        from mcpgen.openapi.selection import require_tags

        require_tags(doc.value, selection.include_tags)
    converted = convert(sources, selection, name_max_length)
    info: Any = doc.value.get("info") or {}
    manifest: dict[str, Any] = {"server": _server(info, server_name)}
    http, notes = _http(doc.value, spec)
    if http:
        manifest["server"]["http"] = http
    manifest["tools"] = converted.tools
    if converted.defs:
        manifest["$defs"] = converted.defs
    applied = _overlay(manifest, overlay)
    manifest = applied.manifest
    header = (
        f"{HEADER_START} from {spec}"
        + (f" with the overlay {overlay}" if overlay else "")
        + ".\n# Do not edit: curate in an --overlay file, which every re-import applies.\n"
        "# x-mcpgen.http records where each argument goes on the wire (never served).\n"
    )
    from mcpgen.manifest.dump import manifest_text

    text = manifest_text(manifest, output, header)
    for key in applied.stale:
        line, col = applied.stale_at.get(key, (1, 1))
        click.echo(
            f"{overlay}:{line}:{col}: warning: no operation {key} any more (stale curation)",
            err=True,
        )
    if check:
        _report_upstream(output, previous, text)
        return
    from mcpgen.outputs import write_file

    write_file(output, text.encode("utf-8"), backup=backup)
    removed = f" ({len(applied.removed)} removed by the overlay)" if applied.removed else ""
    n = len(manifest["tools"])
    click.echo(f"mcpgen: wrote {output}: {n} tool{'' if n == 1 else 's'}{removed}", err=True)
    for skipped in converted.skipped:
        where, line, col = sources.where(skipped.pointer)
        click.echo(f"{where}:{line}:{col}: skipped {skipped.operation}: {skipped.reason}", err=True)
    if converted.dropped_patterns:
        where, line, col = sources.where(converted.dropped_patterns[0])
        click.echo(
            f"{where}:{line}:{col}: {len(converted.dropped_patterns)} pattern(s) left out: not "
            "regular expressions mcpgen can check (e.g. \\p{L}); the API still checks them",
            err=True,
        )
    for pointer, message in converted.warnings:
        where, line, col = sources.where(pointer)
        click.echo(f"{where}:{line}:{col}: warning: {message}", err=True)
    for pointer, message in notes:
        where, line, col = sources.where(pointer)
        click.echo(f"{where}:{line}:{col}: warning: {message}", err=True)
    if converted.renamed:
        click.echo(
            f"mcpgen: {len(converted.renamed)} tool names differ from their operationId", err=True
        )
    if not converted.tools:
        click.echo("mcpgen: warning: no operation was selected", err=True)
    click.echo(f"next: mcpgen check {output}", err=True)


HEADER_START = "# Imported by `mcpgen import openapi`"


def _previous(output: Path) -> str | None:
    try:
        return output.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise McpgenError(f"cannot read: {exc}", path=str(output)) from None


def _overlay(manifest: dict[str, Any], overlay: Path | None) -> Any:
    from mcpgen.openapi.overlay import apply_overlay

    if overlay is None:
        return apply_overlay(manifest, None, "", None)
    from mcpgen.manifest.sourcemap import load_document

    doc = load_document(overlay)
    if doc.diagnostics:
        first = doc.diagnostics[0]
        raise McpgenError(first.message, path=str(overlay), line=first.line, col=first.col)
    return apply_overlay(manifest, doc.value, str(overlay), doc.source_map.locate)


def _report_upstream(output: Path, previous: str | None, text: str) -> None:
    """``--check``: the difference between OUTPUT and a fresh import, and what it breaks."""
    import difflib
    import sys

    from mcpgen.errors import EXIT_FINDINGS

    if previous is None:
        raise McpgenError(f"{output}: no such file to check against (import it first)")
    old_body = previous.split("\n", 3)[-1] if previous.startswith(HEADER_START) else previous
    new_body = text.split("\n", 3)[-1]
    if old_body == new_body:
        click.echo(f"mcpgen: {output} is up to date with the document", err=True)
        return
    sys.stdout.writelines(
        difflib.unified_diff(
            previous.splitlines(keepends=True),
            text.splitlines(keepends=True),
            fromfile=str(output),
            tofile=f"{output} (fresh import)",
        )
    )
    from mcpgen.check import catalog
    from mcpgen.check.breaking import compare
    from mcpgen.check.config import RuleConfig
    from mcpgen.check.runner import active_rules
    from mcpgen.diagnostics import Severity
    from mcpgen.manifest.load import load_manifest_text
    from mcpgen.manifest.model import KNOWN_REVISIONS
    from mcpgen.report import render

    catalog.load_all()
    old = load_manifest_text(previous, str(output), base_dir=output.parent).manifest
    new = load_manifest_text(text, str(output), base_dir=output.parent).manifest
    if old is not None and new is not None:
        active = active_rules(("breaking",), KNOWN_REVISIONS, RuleConfig())
        diags = [d for d in compare(old, new, active) if d.severity >= Severity.WARNING]
        if diags:
            click.echo(render(diags, "text"), err=True, nl=False)
        click.echo(
            f"mcpgen: {output} differs from a fresh import; {len(diags)} change(s) break "
            "clients (mcpgen breaking lists them with their rules)",
            err=True,
        )
    sys.exit(EXIT_FINDINGS)


def _http(doc: Any, spec: str) -> tuple[dict[str, Any], list[tuple[str, str]]]:
    """``server.http``: the first server URL (its variables at their defaults; a relative one
    resolved against an http(s) SPEC, else kept as ``basePath`` under
    ``$MCPGEN_HTTP_BASE_URL``) and the security schemes mcpgen can forward credentials for;
    and (pointer, message) warnings about the URL."""
    from urllib.parse import urljoin

    out: dict[str, Any] = {}
    notes: list[tuple[str, str]] = []
    servers = doc.get("servers")
    first = servers[0] if isinstance(servers, list) and servers else None
    first = first if isinstance(first, dict) else {}
    url = first.get("url")
    if isinstance(url, str) and "{" in url:
        url = _server_variables(url, first.get("variables"))
        if url is not None:
            notes.append(("/servers/0/url", f"server URL variables set to their defaults: {url}"))
        else:
            notes.append(
                (
                    "/servers/0/url",
                    "server URL has variables without defaults: set "
                    "$MCPGEN_HTTP_BASE_URL when running the server",
                )
            )
    if isinstance(url, str):
        if not url.startswith(("http://", "https://")):
            if spec.startswith(("http://", "https://")):
                resolved = urljoin(spec, url)
                notes.append(
                    (
                        "/servers/0/url",
                        f"relative server URL {url!r} resolved against the "
                        f"document's URL: {resolved}",
                    )
                )
                url = resolved
            elif url.strip("/") and not url.startswith("//"):
                out["basePath"] = "/" + url.strip("/")
                notes.append(
                    (
                        "/servers/0/url",
                        f"relative server URL {url!r}: set $MCPGEN_HTTP_BASE_URL to the API's "
                        f"origin; calls go to $MCPGEN_HTTP_BASE_URL{out['basePath']}/...",
                    )
                )
        if url.startswith(("http://", "https://")):
            out["baseUrl"] = url.rstrip("/")
    elif url is None and spec.startswith(("http://", "https://")):
        out["baseUrl"] = urljoin(spec, "/").rstrip("/")  # no servers: the document's own host
    from mcpgen.openapi.security import forwarded_schemes

    kept = forwarded_schemes(doc)
    if kept:
        out["securitySchemes"] = kept
    return out, notes


def _server_variables(url: str, variables: Any) -> str | None:
    """``url`` with each ``{name}`` replaced by its variable's default (None when one has
    none)."""
    values = variables if isinstance(variables, dict) else {}

    def default(m: re.Match[str]) -> str:
        var = values.get(m.group(1))
        value = var.get("default") if isinstance(var, dict) else None
        if not isinstance(value, str):
            raise KeyError(m.group(1))
        return value

    try:
        return re.sub(r"\{([^{}]*)\}", default, url)
    except KeyError:
        return None


def _server(info: Any, name: str | None) -> dict[str, Any]:
    title = info.get("title") if isinstance(info, dict) else None
    title = title if isinstance(title, str) and title.strip() else "api"
    slug = re.sub(r"[^a-z0-9]+", "-", title.lower()).strip("-") or "api"
    server: dict[str, Any] = {"name": name or slug, "title": title}
    version = info.get("version") if isinstance(info, dict) else None
    if isinstance(version, str) and version.strip():
        server["version"] = version
    desc = info.get("description") if isinstance(info, dict) else None
    if isinstance(desc, str) and desc.strip():
        server["description"] = desc.strip()
    return server
