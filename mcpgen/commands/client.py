"""``mcpgen client MANIFEST --out DIR --package NAME [--check]``: a typed MCP client package.

Thin: parses flags, calls ``mcpgen.client.build.build_client_package``, prints. The no-op path
imports no generator.
"""

from __future__ import annotations

from pathlib import Path

import click

from mcpgen.commands._package import package_options, report


@click.command(name="client")
@package_options("weather_client")
def client(manifest: Path, out_dir: Path, package: str, check: bool, force: bool) -> None:
    """Generate a typed MCP client package (on mcpgen-runtime and the official SDK's
    mcp.Client) from MANIFEST: one async method per tool.

    Writes OUT/PACKAGE/_generated/ (rewritten every run) and, once, OUT/PACKAGE/__init__.py.
    Use it as `async with WeatherClient.stdio(["python", "-m", "weather_server"]) as c:` or
    `WeatherClient.http(url)`.
    """
    from mcpgen.client.build import build_client_package

    outcome = build_client_package(manifest, out_dir, package, check=check, force=force)
    report(outcome, "client", manifest, out_dir, package, check)


@click.command(name="cli")
@package_options("weather_cli")
def cli(manifest: Path, out_dir: Path, package: str, check: bool, force: bool) -> None:
    """Generate a command line for MANIFEST's tools: the typed client package plus a click CLI,
    one subcommand per tool with options typed from its inputSchema (required as required,
    enums as choices, defaults shown), results as JSON.

    Writes OUT/PACKAGE/_generated/ (rewritten every run) and, once, OUT/PACKAGE/__init__.py and
    __main__.py. Run it: `python -m PACKAGE --stdio "python -m weather_server" get-weather
    --city Paris`, or `--url http://127.0.0.1:8000/mcp`.
    """
    from mcpgen.client.build import build_cli_package

    outcome = build_cli_package(manifest, out_dir, package, check=check, force=force)
    report(outcome, "cli", manifest, out_dir, package, check)
