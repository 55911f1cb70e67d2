"""``mcpgen init [DIR]``: scaffold a new MCP server project and generate its package.

Thin: ``mcpgen.scaffold`` renders the project, this writes each file only if it does not exist
yet (never overwriting), then runs ``mcpgen server``'s own build on the starter manifest.
"""

from __future__ import annotations

from pathlib import Path

import click


def view_note(directory: Path, package: str) -> str:
    """What to add to a manifest that was there before ``init --view``: the view is written,
    but nothing serves it until a tool names it and a resource holds it."""
    from mcpgen.scaffold import MANIFEST

    uri = f"ui://{package}/greeting"
    return (
        f"mcpgen: note: {directory / MANIFEST} was there before, so nothing uses the view "
        f"init added in {directory / 'view'}; connect it: under the tool that shows it, add\n"
        f'    _meta: {{ui: {{resourceUri: "{uri}"}}}}\n'
        "  and under resources:\n"
        f'    - uri: "{uri}"\n'
        "      name: greeting-view\n"
        "      mimeType: text/html;profile=mcp-app\n"
        "      file: view/dist\n"
        "  then build it (cd view && npm ci && npm run build) and run mcpgen server"
    )


def _echo(msg: str) -> None:
    click.echo(msg, err=True)


@click.command(name="init")
@click.argument(
    "directory", required=False, default=".", type=click.Path(file_okay=False, path_type=Path)
)
@click.option("--package", default=None, help="Python package name (default: DIR name + _server).")
@click.option("--name", default=None, help="serverInfo.name (default: the directory name).")
@click.option(
    "--no-wheels",
    is_flag=True,
    help="Install mcpgen and mcpgen-runtime from a package index (yours, or once they are "
    "published) even though this mcpgen came from a checkout or a local wheel.",
)
@click.option(
    "--view",
    is_flag=True,
    help="Also add an MCP Apps view (io.modelcontextprotocol/ui) of the starter tool: view/ "
    "holds its source (ext-apps' App class), pinned npm dependencies and its built one-file "
    "HTML, which tools.yaml serves as ui://PACKAGE/greeting.",
)
def init(
    directory: Path, package: str | None, name: str | None, no_wheels: bool, view: bool
) -> None:
    """Scaffold a new MCP server project in DIRECTORY (default: here).

    Writes tools.yaml (a starter manifest with one tool), pyproject.toml (depends on
    mcpgen-runtime), README.md, .gitignore, PACKAGE/handlers.py (the tool implemented), tests/
    (calls the tool through mcp.Client), then generates PACKAGE/_generated/. Existing files are
    kept. When this mcpgen was installed from a checkout or a local wheel (mcpgen and
    mcpgen-runtime are then not on the package index), their wheels go into wheels/ and the
    printed next step installs from there.
    """
    from mcpgen import wheelhouse
    from mcpgen.errors import McpgenError
    from mcpgen.scaffold import MANIFEST, next_step, scaffold
    from mcpgen.server.build import build_server_package
    from mcpgen.server.registration import launch_for, registration_text

    if directory.exists() and not directory.is_dir():
        raise McpgenError(f"{directory} exists and is not a directory")
    found = wheelhouse.sources()
    local = wheelhouse.needs_wheels(found) and not no_wheels
    project = scaffold(directory, package=package, name=name, wheels=local, view=view)
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
    if "pyproject.toml" in kept:
        _echo(
            f"mcpgen: note: {directory / 'pyproject.toml'} was there before: make sure it "
            f"depends on mcpgen-runtime and packages {project.package}"
        )
    if view and MANIFEST in kept:
        _echo(view_note(directory, project.package))
    outcome = build_server_package(directory / MANIFEST, directory, project.package, check=False)
    for rel in outcome.created:
        _echo(f"mcpgen: created {outcome.pkg_dir / rel}")
    for warning in outcome.warnings:
        _echo(f"mcpgen: warning: {warning}")
    _echo(f"mcpgen: generated {outcome.pkg_dir / '_generated'}")
    if local:
        for wheel in wheelhouse.put_wheels(found, directory):
            _echo(f"mcpgen: wheel {wheel} (mcpgen came from a checkout or a local wheel)")
    elif no_wheels and wheelhouse.needs_wheels(found):
        _echo(
            "mcpgen: note: --no-wheels: the next step installs mcpgen and mcpgen-runtime from "
            "your package index, and they are not on PyPI yet; without --no-wheels, init puts "
            f"their wheels in {directory / wheelhouse.WHEELS_DIR} and the next step installs "
            "from there"
        )
    _echo(registration_text(project.server_name, launch_for(project.package, directory)))
    _echo(
        f"Next: {next_step(directory, wheels=local)}\n"
        f"  (then edit {MANIFEST} and run: mcpgen server {MANIFEST} --out . "
        f"--package {project.package})"
    )
