"""``mcpgen server MANIFEST --out DIR --package NAME [--check]``: a typed, runnable MCP server.

Thin edge: short-circuits when nothing changed (before importing any generator: jinja2,
datamodel-code-generator, black, yaml), otherwise loads the manifest, builds the IR, renders
the files in memory and writes them (staging dir + swap for ``_generated/``, create-once for
the user files). ``--check`` writes nothing and exits 1 on drift.

Up-to-date check (a depfile, as build systems keep one): the inputs digest covers the manifest
bytes, the package name, generator versions, templates, the embedded wire sources *and* every
file the manifest reaches through file ``$ref``s (relative path + sha256). Those files are only
known after loading, so generation records them, with the manifest, in
``_generated/.mcpgen.json`` (``dependencies``). A re-run hashes the recorded files again
(stdlib only), recomputes the digest from them and skips generation only if it matches. Any
change that could change the set of files (a new ``$ref``) changes a recorded file first.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import TYPE_CHECKING

import click

from codegen.errors import EXIT_FINDINGS, McpgenError

if TYPE_CHECKING:
    from codegen.generate_server import ServerFiles


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def _base_parts(manifest_path: Path, package: str, page_options: str) -> tuple[list[bytes | str], str]:
    """The digest inputs other than ``$ref``-reached files, and the manifest's sha256."""
    import hashlib

    from codegen.resources import templates_dir
    from codegen.wire_embed import wire_sources

    try:
        manifest_bytes = manifest_path.read_bytes()
    except OSError as exc:
        raise McpgenError(f"cannot read manifest: {exc.strerror or exc}", path=str(manifest_path))
    parts: list[bytes | str] = [
        "server",
        package,
        manifest_path.name,
        manifest_bytes,
        _dist_version("datamodel-code-generator"),
        _dist_version("black"),
        page_options,
    ]
    tdir = templates_dir() / "server"
    for tpl in sorted(tdir.glob("*.jinja")):
        parts += [tpl.name, tpl.read_bytes()]
    parts += list(wire_sources())
    return parts, hashlib.sha256(manifest_bytes).hexdigest()


def _ref_parts(manifest_name: str, dependencies: Mapping[str, str]) -> list[bytes | str]:
    """Digest inputs for the files reached through ``$ref`` (not the manifest itself, whose
    bytes are already in): nothing when there are none, so such digests are unchanged."""
    parts: list[bytes | str] = []
    for rel, sha in sorted(dependencies.items()):
        if rel != manifest_name:
            parts += ["ref", rel, sha]
    return parts


def compute_digest(
    manifest_path: Path,
    package: str,
    page_options: str = "",
    dependencies: Mapping[str, str] | None = None,
) -> str:
    """sha256 over everything the output depends on (stdlib only; no generator import).

    ``dependencies``: the files reached through ``$ref`` (path relative to the manifest's
    directory -> sha256), e.g. from ``Manifest.dependencies``; None or {} if there are none.
    """
    from codegen.emit import inputs_digest

    parts, _ = _base_parts(manifest_path, package, page_options)
    return inputs_digest(*parts, *_ref_parts(manifest_path.name, dependencies or {}))


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
@click.option("--package", "package", required=True, help="Python package name, e.g. weather_server.")
@click.option(
    "--check",
    is_flag=True,
    help="Write nothing; print a diff and exit 1 if the generated files are out of date.",
)
def server(manifest: Path, out_dir: Path, package: str, check: bool) -> None:
    """Generate a typed MCP server package (official Python SDK runtime) from MANIFEST.

    Writes OUT/PACKAGE/_generated/ (rewritten every run) and, once, OUT/PACKAGE/handlers.py,
    __main__.py and __init__.py (yours). Run it with `python -m PACKAGE` (stdio) or
    `python -m PACKAGE --http --port 8000` (Streamable HTTP on 127.0.0.1).
    """
    from codegen.emit import current_dependencies, inputs_digest, is_up_to_date, read_marker
    from codegen.naming import package_name_problem

    problem = package_name_problem(package)
    if problem is not None:
        raise McpgenError(f"--package {package!r} {problem}")
    pkg_dir = out_dir / package
    owned = pkg_dir / "_generated"
    base_parts, manifest_sha = _base_parts(manifest, package, "")
    user_files = ("__init__.py", "handlers.py", "__main__.py")

    marker = read_marker(owned)
    recorded = current_dependencies(marker, manifest.parent)
    if (
        recorded is not None
        and recorded.get(manifest.name) == manifest_sha
        and is_up_to_date(
            owned, inputs_digest(*base_parts, *_ref_parts(manifest.name, recorded)), marker
        )
        and (check or all((pkg_dir / f).exists() for f in user_files))
    ):
        if not check:
            _report_handlers(pkg_dir, (owned / "base.py").read_text(encoding="utf-8"))
            _echo(f"mcpgen: {pkg_dir} is up to date")
        return

    files, digest, deps, targets = _generate(manifest, package, base_parts)
    if check:
        from codegen.emit import diff_owned_tree

        diff = diff_owned_tree(owned, files.owned)
        if diff:
            sys.stdout.write(diff)
            _echo(f"mcpgen: {owned} is out of date; run: mcpgen server {manifest} --out {out_dir} --package {package}")
            sys.exit(EXIT_FINDINGS)
        _echo(f"mcpgen: {pkg_dir} is up to date")
        return

    from codegen.emit import EmitResult, create_user_files, write_owned_tree

    write_owned_tree(
        owned,
        files.owned,
        digest,
        dependencies={**deps, manifest.name: manifest_sha},
        dependency_targets=targets,
    )
    result = EmitResult()
    create_user_files(pkg_dir, files.user, result)
    _echo(f"mcpgen: wrote {owned} ({len(files.owned)} files)")
    for rel in result.created_user_files:
        _echo(f"mcpgen: created {pkg_dir / rel} (yours to edit; never overwritten)")
    _report_handlers(pkg_dir, files.owned["base.py"])


def _generate(
    manifest: Path, package: str, base_parts: list[bytes | str]
) -> tuple[ServerFiles, str, dict[str, str], dict[str, str]]:
    """Load and render. Returns the files, the inputs digest (including every ``$ref``-reached
    file the loader read), those files (relative path -> sha256) and, for the ones that
    resolved to another path (symlinks), where they resolved to."""
    from codegen.emit import inputs_digest
    from codegen.generate_server import generate_server
    from codegen.ir import build_server_ir
    from codegen.manifest.load import require_manifest
    from codegen.wire_embed import wire_sources

    loaded = require_manifest(manifest)
    deps = {d.path: d.sha256 for d in loaded.dependencies if d.path != manifest.name}
    targets = {d.path: d.resolved for d in loaded.dependencies if d.resolved != d.path}
    digest = inputs_digest(*base_parts, *_ref_parts(manifest.name, deps))
    ir = build_server_ir(loaded, package=package, manifest_name=manifest.name)
    schemas = [(t.input_schema, t.output_schema) for t in loaded.tools]
    files = generate_server(ir, schemas, digest=digest, wire_source=wire_sources())
    return files, digest, deps, targets


def _report_handlers(pkg_dir: Path, base_source: str) -> None:
    """Name tools missing from handlers.py and methods whose tool is gone (stderr; not a failure)."""
    from codegen.handlers_check import handlers_report, tool_methods_from_base

    path = pkg_dir / "handlers.py"
    try:
        source = path.read_text(encoding="utf-8")
    except OSError:
        return
    report = handlers_report(source, tool_methods_from_base(base_source))
    if report.problem:
        _echo(f"mcpgen: warning: {path}: {report.problem}")
        return
    for tool, method in report.missing:
        _echo(
            f"mcpgen: warning: {path}: tool {tool!r} has no method; add "
            f"`async def {method}(self, args, ctx)` to Handlers (until then it answers "
            "'not implemented')"
        )
    for method in report.stale:
        _echo(f"mcpgen: warning: {path}: method {method!r} matches no tool in the manifest (removed or renamed?)")
