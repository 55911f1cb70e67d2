"""``mcpgen server MANIFEST --out DIR --package NAME [--check]``: a typed, runnable MCP server.

Thin: parses flags, calls ``mcpgen.server.build.build_server_package``, prints. The no-op path
(nothing changed) imports no generator (jinja2, datamodel-code-generator, ruff, yaml).
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from mcpgen.commands._package import echo, package_options, report


@click.command(name="server")
@package_options("weather_server")
@click.option(
    "--docs",
    "docs_dir",
    default=None,
    type=click.Path(path_type=Path),
    help="Also write the server's reference (README.md and index.html, as `mcpgen docs`) "
    "here, e.g. OUT/PACKAGE-docs.",
)
def server(
    manifest: Path, out_dir: Path, package: str, check: bool, force: bool, docs_dir: Path | None
) -> None:
    """Generate a typed MCP server package (on mcpgen-runtime and the official SDK) from MANIFEST.

    Writes OUT/PACKAGE/_generated/ (rewritten every run) and, once, OUT/PACKAGE/handlers.py,
    __main__.py and __init__.py (yours). Run it with `python -m PACKAGE` (stdio) or
    `python -m PACKAGE --http --port 8000` (Streamable HTTP on 127.0.0.1). With --docs DIR,
    also the server's reference for its users (see `mcpgen docs`).
    """
    from mcpgen.server.build import build_server_package

    outcome = build_server_package(manifest, out_dir, package, check=check, force=force)
    report(outcome, "server", manifest, out_dir, package, check)  # exits 1 on a stale --check
    if docs_dir is not None:
        from mcpgen.commands.docs import write_reference

        # check's warnings were printed above when the package was (re)generated
        write_reference(manifest, docs_dir, check, warn=outcome.up_to_date, force=force)
    if "__main__.py" in outcome.created and outcome.name is not None:
        from mcpgen.server.registration import launch_for, registration_text

        echo(registration_text(outcome.name, launch_for(package, out_dir, sys.executable)))
        import shlex

        echo(
            "  Or let mcpgen add it (claude-desktop, claude-code, cursor, vscode, gemini-cli):\n"
            f"    mcpgen install vscode {shlex.quote(str(manifest))} --out "
            f"{shlex.quote(str(out_dir))} --package {package}"
        )
