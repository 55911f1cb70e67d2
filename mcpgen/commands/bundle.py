"""``mcpgen bundle MANIFEST --out DIR --package NAME``: the generated server as an MCP Bundle
(``.mcpb``) for one-click install in desktop hosts.

Thin: reads the package ``mcpgen server`` generated and the distributions it needs
(``mcpgen.publish.vendor``), builds the files (``mcpgen.publish.bundle``, pure), starts the
result once as a host would (``mcpgen.publish.probe``) and only then writes the zip atomically.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import click

from mcpgen.errors import McpgenError

_HELP = """Write an MCP Bundle (.mcpb) of the server `mcpgen server` generated: give the same
MANIFEST, --out and --package. The bundle holds manifest.json (MCPB manifest 0.4: its tools,
prompts, and user_config for the credentials the server reads from its environment), the
package, and its dependencies vendored under server/lib for this platform and Python version.

\b
Before anything is written, the bundle is unpacked into a temporary directory and started as a
host starts it (manifest.json's command); it must answer an MCP initialize.
The file is byte-for-byte the same on every run with the same inputs.

\b
Exit codes: 0 written; 1 the manifest fails mcpgen check, or the bundled server does not start
(nothing written); 2 bad input (no such package, unreadable file, unwritable output).
"""


def _package_files(pkg_dir: Path) -> dict[str, bytes]:
    if not (pkg_dir / "__main__.py").is_file():
        raise McpgenError(
            "no generated server package here (no __main__.py); run mcpgen server first",
            path=str(pkg_dir),
        )
    out: dict[str, bytes] = {}
    for path in sorted(pkg_dir.rglob("*")):
        rel = path.relative_to(pkg_dir).as_posix()
        if path.is_file() and "__pycache__" not in rel.split("/") and path.suffix != ".pyc":
            out[rel] = path.read_bytes()
    return out


def write_bytes_atomic(path: Path, data: bytes) -> None:
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise McpgenError(
            f"cannot write: {exc.strerror or exc}", path=str(exc.filename or path)
        ) from None


@click.command("bundle", help=_HELP)
@click.argument("manifest", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "out_dir", required=True, type=click.Path(file_okay=False, path_type=Path))
@click.option("--package", required=True, help="The generated package, as given to mcpgen server.")
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The .mcpb to write (default: NAME-VERSION.mcpb in the current directory).",
)
@click.option("--author", default=None, help="manifest.json's author (default: the title).")
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
    no_start_check: bool,
) -> None:
    from mcpgen.packages import checked_manifest
    from mcpgen.publish.bundle import bundle_files
    from mcpgen.publish.probe import probe
    from mcpgen.publish.vendor import platform_facts, vendored_files
    from mcpgen.publish.zipdet import zip_bytes

    loaded, warnings = checked_manifest(manifest)
    if warnings:
        click.echo(warnings, err=True, nl=False)
    package_files = _package_files(out_dir / package)
    vendored = vendored_files()
    facts = platform_facts(vendored)
    files = bundle_files(loaded, package, package_files, vendored, facts, author)
    if not no_start_check:
        probe(files)
    data = zip_bytes(files)
    s = loaded.server
    target = output or Path(f"{s.name}-{s.version}.mcpb")
    write_bytes_atomic(target, data)
    click.echo(
        f"mcpgen: wrote {target} ({len(files)} files, {len(data) // 1024} KiB; "
        f"{facts.platform}, Python {facts.python})",
        err=True,
    )
