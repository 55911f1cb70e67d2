"""``mcpgen init [DIR]``: scaffold a new MCP server project and generate its package.

Thin: ``codegen.scaffold`` renders the project, this writes each file only if it does not exist
yet (never overwriting), then runs ``mcpgen server``'s own build on the starter manifest.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click


def _echo(msg: str) -> None:
    click.echo(msg, err=True)


@click.command(name="init")
@click.argument(
    "directory", required=False, default=".", type=click.Path(file_okay=False, path_type=Path)
)
@click.option("--package", default=None, help="Python package name (default: DIR name + _server).")
@click.option("--name", default=None, help="serverInfo.name (default: the directory name).")
def init(directory: Path, package: str | None, name: str | None) -> None:
    """Scaffold a new MCP server project in DIRECTORY (default: here).

    Writes tools.yaml (a starter manifest with one tool), pyproject.toml (depends on
    mcpgen-runtime), README.md, PACKAGE/handlers.py (the tool implemented), tests/ (calls the
    tool through mcp.Client), then generates PACKAGE/_generated/. Existing files are kept.
    """
    from codegen.errors import McpgenError
    from codegen.scaffold import MANIFEST, scaffold
    from codegen.server.build import build_server_package
    from codegen.server.registration import registration_text

    if directory.exists() and not directory.is_dir():
        raise McpgenError(f"{directory} exists and is not a directory")
    project = scaffold(directory, package=package, name=name)
    created, kept = [], []
    for rel, text in sorted(project.files.items()):
        target = directory / rel
        if target.exists():
            kept.append(rel)
            continue
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target, "x", encoding="utf-8", newline="\n") as fh:
                fh.write(text)
        except OSError as exc:
            raise McpgenError(f"cannot write {target}: {exc.strerror or exc}") from exc
        created.append(rel)
    for rel in created:
        _echo(f"mcpgen: created {directory / rel}")
    for rel in kept:
        _echo(f"mcpgen: kept {directory / rel} (exists; not overwritten)")
    outcome = build_server_package(directory / MANIFEST, directory, project.package, check=False)
    for rel in outcome.created:
        _echo(f"mcpgen: created {outcome.pkg_dir / rel}")
    for warning in outcome.warnings:
        _echo(f"mcpgen: warning: {warning}")
    _echo(f"mcpgen: generated {outcome.pkg_dir / '_generated'}")
    _echo(registration_text(project.server_name, project.package, directory, sys.executable))
    _echo(
        f"Next: cd {directory} && pip install -e '.[dev]' && pytest   "
        f"(edit {MANIFEST}, then: mcpgen server {MANIFEST} --out . --package {project.package})"
    )
