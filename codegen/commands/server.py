"""``mcpgen server MANIFEST --out DIR --package NAME [--check]``: a typed, runnable MCP server.

Thin: parses flags, calls ``codegen.server.build.build_server_package``, prints. The no-op path
(nothing changed) imports no generator (jinja2, datamodel-code-generator, ruff, yaml).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from codegen.errors import EXIT_FINDINGS


def _echo(msg: str) -> None:
    click.echo(msg, err=True)


@click.command(name="server")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory that holds (or will hold) the package.",
)
@click.option(
    "--package", "package", required=True, help="Python package name, e.g. weather_server."
)
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing; print a diff and exit 1 if the generated files are out of date.",
)
def server(manifest: Path, out_dir: Path, package: str, check: bool) -> None:
    """Generate a typed MCP server package (on mcpgen-runtime and the official SDK) from MANIFEST.

    Writes OUT/PACKAGE/_generated/ (rewritten every run) and, once, OUT/PACKAGE/handlers.py,
    __main__.py and __init__.py (yours). Run it with `python -m PACKAGE` (stdio) or
    `python -m PACKAGE --http --port 8000` (Streamable HTTP on 127.0.0.1).
    """
    from codegen.server.build import build_server_package

    outcome = build_server_package(manifest, out_dir, package, check=check)
    owned = outcome.pkg_dir / "_generated"
    if check:
        if outcome.diff:
            sys.stdout.write(outcome.diff)
            _echo(
                f"mcpgen: {owned} is out of date; run: mcpgen server {manifest} --out {out_dir} "
                f"--package {package}"
            )
            sys.exit(EXIT_FINDINGS)
        _echo(f"mcpgen: {outcome.pkg_dir} is up to date")
        return
    if outcome.up_to_date:
        _echo(f"mcpgen: {outcome.pkg_dir} is up to date")
    else:
        _echo(f"mcpgen: wrote {owned} ({outcome.written} files)")
    for rel in outcome.created:
        _echo(f"mcpgen: created {outcome.pkg_dir / rel} (yours to edit; never overwritten)")
    for warning in outcome.warnings:
        _echo(f"mcpgen: warning: {warning}")
    if "__main__.py" in outcome.created and outcome.name is not None:
        from codegen.server.registration import registration_text

        _echo(registration_text(outcome.name, package, out_dir, sys.executable))
