"""``mcpgen bundle MANIFEST --out DIR --package NAME``: the generated server as an MCP Bundle
(``.mcpb``) for one-click install in desktop hosts.

Thin: reads the package ``mcpgen server`` generated and the distributions it needs
(``mcpgen.publish.vendor``), builds the files (``mcpgen.publish.bundle``, pure), starts the
result once as a host would (``mcpgen.publish.probe``) and only then writes the zip atomically.
"""

from __future__ import annotations

from pathlib import Path

import click

from mcpgen.commands._package import force_option
from mcpgen.errors import McpgenError

_HELP = """Write an MCP Bundle (.mcpb) of the server `mcpgen server` generated: give the same
MANIFEST, --out and --package. The bundle holds manifest.json (MCPB manifest 0.4: its tools,
prompts, and user_config for the credentials the server reads from its environment), the
package, and its dependencies vendored under server/lib for this platform and Python version.

\b
The package must be what `mcpgen server` generates from MANIFEST now (else: run it first). Of
the package, the bundle carries its Python sources, py.typed and _generated/ (with the skills'
files and the views), nothing else: no dotfiles (.env), no __pycache__, no build output, no
earlier .mcpb; --include GLOB adds more.

\b
Before anything is written, the bundle is unpacked into a temporary directory and started as a
host starts it (manifest.json's command); it must answer an MCP initialize, and its tools/list
must name exactly the tools manifest.json lists.
The file is byte-for-byte the same on every run with the same inputs; its zip comment records
that mcpgen bundle wrote it: an -o file it did not write is refused (exit 2) unless --force.
"""


def _require_current(manifest: Path, out_dir: Path, package: str) -> None:
    """Refuse (exit 2) a package ``mcpgen server --check`` calls out of date: a bundle of it
    would list tools its server does not have."""
    from mcpgen.server.build import build_server_package

    if not (out_dir / package / "__main__.py").is_file():
        return  # package_files says so, in its words
    if build_server_package(manifest, out_dir, package, check=True).diff:
        raise McpgenError(
            f"the package is out of date with {manifest} (mcpgen server --check differs); run: "
            f"mcpgen server {manifest} --out {out_dir} --package {package}",
            path=str(out_dir / package),
        )


@click.command("bundle", help=_HELP)
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--package", required=True, help="The generated package, as given to mcpgen server.")
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),  # a directory: mcpgen.outputs refuses it, in one line
    default=None,
    help="The .mcpb to write (default: NAME-VERSION.mcpb in the current directory).",
)
@click.option("--author", default=None, help="manifest.json's author (default: the title).")
@click.option(
    "--include",
    "includes",
    multiple=True,
    metavar="GLOB",
    help="Also pack the package's files this glob matches (relative to the package; "
    "repeatable), e.g. 'data/*.csv'.",
)
@force_option("-o FILE")
@click.option(
    "--no-start-check",
    is_flag=True,
    help="Do not start the bundled server before writing (e.g. when cross-building).",
)
def bundle(
    manifest: Path,
    out_dir: Path,
    package: str,
    output: Path | None,
    author: str | None,
    includes: tuple[str, ...],
    force: bool,
    no_start_check: bool,
) -> None:
    from mcpgen.outputs import BUNDLE_COMMENT, guard_file, is_bundle, write_file
    from mcpgen.packages import checked_manifest
    from mcpgen.publish.bundle import bundle_files
    from mcpgen.publish.package_files import package_files
    from mcpgen.publish.probe import probe
    from mcpgen.publish.vendor import platform_facts, vendored_files
    from mcpgen.publish.zipdet import zip_bytes

    pkg_dir = out_dir / package
    if output is not None:
        guard_file(output, "bundle", is_bundle, force=force, inputs=(manifest,), inside=pkg_dir)
    loaded, warnings = checked_manifest(manifest)
    if warnings:
        click.echo(warnings, err=True, nl=False)
    s = loaded.server
    target = output or Path(f"{s.name}-{s.version}.mcpb")
    inputs = (manifest, *(manifest.parent / d.path for d in loaded.dependencies))
    backup = guard_file(target, "bundle", is_bundle, force=force, inputs=inputs, inside=pkg_dir)
    _require_current(manifest, out_dir, package)
    vendored = vendored_files()
    facts = platform_facts(vendored)
    files = bundle_files(loaded, package, package_files(pkg_dir, includes), vendored, facts, author)
    if not no_start_check:
        probe(files)
    data = zip_bytes(files, BUNDLE_COMMENT)
    write_file(target, data, backup=backup)
    click.echo(
        f"mcpgen: wrote {target} ({len(files)} files, {len(data) // 1024} KiB; "
        f"{facts.platform}, Python {facts.python})",
        err=True,
    )
