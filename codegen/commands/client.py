"""``mcpgen client MANIFEST --out DIR --package NAME [--check]``: a typed MCP client package.

Thin: parses flags, calls ``codegen.client.build.build_client_package``, prints. The no-op path
imports no generator.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from codegen.errors import EXIT_FINDINGS


def _echo(msg: str) -> None:
    click.echo(msg, err=True)


@click.command(name="client")
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(file_okay=False, path_type=Path),
    help="Directory that holds (or will hold) the package.",
)
@click.option(
    "--package", "package", required=True, help="Python package name, e.g. weather_client."
)
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing; print a diff and exit 1 if the generated files are out of date.",
)
def client(manifest: Path, out_dir: Path, package: str, check: bool) -> None:
    """Generate a typed MCP client package (on mcpgen-runtime and the official SDK's
    mcp.Client) from MANIFEST: one async method per tool.

    Writes OUT/PACKAGE/_generated/ (rewritten every run) and, once, OUT/PACKAGE/__init__.py.
    Use it as `async with WeatherClient.stdio(["python", "-m", "weather_server"]) as c:` or
    `WeatherClient.http(url)`.
    """
    from codegen.client.build import build_client_package

    outcome = build_client_package(manifest, out_dir, package, check=check)
    owned = outcome.pkg_dir / "_generated"
    if check:
        if outcome.diff:
            sys.stdout.write(outcome.diff)
            _echo(
                f"mcpgen: {owned} is out of date; run: mcpgen client {manifest} --out {out_dir} "
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
