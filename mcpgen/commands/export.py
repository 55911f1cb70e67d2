"""``mcpgen export summary|server-json MANIFEST``: documents derived from the manifest for
other tools.

Thin: the manifest passes ``mcpgen check`` (as for ``server``/``client``), a pure module builds
the document (``mcpgen.summary``, ``mcpgen.publish.server_json``), and it is written to
``-o FILE`` (atomically) or printed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import click

from mcpgen.commands._package import force_option


def guard_output(
    output: Path | None, writer: str, mine: Callable[[bytes], bool], force: bool, manifest: Path
) -> bool:
    """Refuse (exit 2, before any work) an ``-o`` this export may not replace; True when
    ``--force`` replaces one (kept as ``.bak``)."""
    from mcpgen.outputs import guard_file

    if output is None:
        return False
    return guard_file(output, f"export {writer}", mine, force=force, inputs=(manifest,))


def write_output(output: Path | None, text: str, backup: bool) -> None:
    """Print ``text``, or write it to ``output`` whole (the old file kept as ``.bak`` when
    ``backup``)."""
    if output is None:
        click.echo(text, nl=False)
        return
    from mcpgen.outputs import write_file

    write_file(output, text.encode("utf-8"), backup=backup)
    click.echo(f"mcpgen: wrote {output}", err=True)


@click.group("export")
def export() -> None:
    """Documents derived from a manifest, for gateways, catalogues and registries."""


@export.command("summary")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),  # a directory: mcpgen.outputs refuses it, in one line
    default=None,
    help="Write here (default: standard output).",
)
@force_option("-o FILE")
def summary(manifest: Path, output: Path | None, force: bool) -> None:
    """The server's static capability summary as JSON: its identity and revisions, every tool,
    resource, resource template and prompt as the server lists them, its toolsets and the OAuth
    scopes each item needs. Refuses a manifest `mcpgen check` rejects (exit 2)."""
    from mcpgen.outputs import is_summary
    from mcpgen.packages import checked_manifest
    from mcpgen.summary import capability_summary

    backup = guard_output(output, "summary", is_summary, force, manifest)
    loaded, warnings = checked_manifest(manifest)
    if warnings:
        click.echo(warnings, err=True, nl=False)
    text = json.dumps(capability_summary(loaded), indent=2, ensure_ascii=False) + "\n"
    write_output(output, text, backup)


@export.command("server-json")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--pyproject",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The server's pyproject.toml (default: the nearest at or above the manifest).",
)
@click.option(
    "--remote",
    metavar="URL",
    default=None,
    help="Also list this deployment as a streamable-http remote.",
)
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),  # a directory: mcpgen.outputs refuses it, in one line
    default=None,
    help="Write here, e.g. server.json (default: standard output).",
)
@force_option("-o FILE")
def server_json(
    manifest: Path, pyproject: Path | None, remote: str | None, output: Path | None, force: bool
) -> None:
    """The server's MCP Registry entry (server.json): its name (server.registry), description
    and version, a pypi package (the distribution pyproject.toml names) with a stdio transport
    and the environment variables the server reads, and with --remote a streamable-http
    remote. Validated against the registry's pinned schema and its other rules (one version
    everywhere, no ranges or `latest`, a reverse-DNS name, `mcp-name: NAME` in the README
    PyPI shows) before anything is written: each problem is reported where it is, and nothing
    is written (exit 2). Refuses a manifest `mcpgen check` rejects (exit 2)."""
    from mcpgen.outputs import is_server_json
    from mcpgen.packages import checked_manifest
    from mcpgen.publish.registry_entry import build_server_json

    backup = guard_output(output, "server-json", is_server_json, force, manifest)
    if output is not None and pyproject is not None:
        guard_output(output, "server-json", is_server_json, force, pyproject)
    loaded, warnings = checked_manifest(manifest)
    # the versions are this command's own business (an error below, not a warning)
    warnings = "".join(
        line
        for line in warnings.splitlines(keepends=True)
        if " REGISTRY_VERSION_AGREEMENT " not in line
    )
    if warnings:
        click.echo(warnings, err=True, nl=False)
    doc, notes = build_server_json(loaded, manifest, pyproject, remote)
    for note in notes:
        click.echo(f"mcpgen: note: {note}", err=True)
    text = json.dumps(doc, indent=2, ensure_ascii=False) + "\n"
    write_output(output, text, backup)


export.add_command(__import__("mcpgen.commands.export_card", fromlist=["_"]).server_card)
