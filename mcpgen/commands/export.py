"""``mcpgen export summary MANIFEST``: documents derived from the manifest for other tools.

Thin: the manifest passes ``mcpgen check`` (as for ``server``/``client``), ``mcpgen.summary``
builds the document (pure), and it is written to ``-o FILE`` (atomically) or printed.
"""

from __future__ import annotations

import json
from pathlib import Path

import click


@click.group("export")
def export() -> None:
    """Documents derived from a manifest, for gateways, catalogues and registries."""


@export.command("summary")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Write here (default: standard output).",
)
def summary(manifest: Path, output: Path | None) -> None:
    """The server's static capability summary as JSON: its identity and revisions, every tool,
    resource, resource template and prompt as the server lists them, its toolsets and the OAuth
    scopes each item needs. Refuses a manifest `mcpgen check` rejects (exit 1)."""
    from mcpgen.packages import checked_manifest
    from mcpgen.summary import capability_summary

    loaded, warnings = checked_manifest(manifest)
    if warnings:
        click.echo(warnings, err=True, nl=False)
    text = json.dumps(capability_summary(loaded), indent=2, ensure_ascii=False) + "\n"
    if output is None:
        click.echo(text, nl=False)
        return
    from mcpgen.emit import write_text_atomic

    write_text_atomic(output, text)
    click.echo(f"mcpgen: wrote {output}", err=True)
