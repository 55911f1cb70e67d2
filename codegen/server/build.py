"""``mcpgen server``'s work, between the command line and the pure generator: decide whether
anything changed, generate, format, write (or diff), and report on the user's files.

Up-to-date check (a depfile, as build systems keep one): the inputs digest covers the manifest
bytes, the package name, the pinned generator and formatter versions, the server templates,
the runtime API *and* every file the manifest reaches through file ``$ref``s (relative path +
sha256). Those files are only known after loading, so generation records them, with the
manifest, in ``_generated/.mcpgen.json`` (``dependencies``). A re-run hashes the recorded files
again (stdlib only: no generator is imported), recomputes the digest and skips generation only
if it matches. Any change that could change the set of files (a new ``$ref``) changes a
recorded file first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

from codegen.emit import (
    EmitResult,
    create_user_files,
    current_dependencies,
    diff_owned_tree,
    inputs_digest,
    is_up_to_date,
    read_marker,
    write_owned_tree,
)
from codegen.errors import McpgenError
from codegen.naming import package_name_problem
from codegen.resources import templates_dir

OWNED_DIR = "_generated"
USER_FILES = ("__init__.py", "handlers.py", "__main__.py")
# Kept in step with codegen.server.generate.TEMPLATES (a test checks); listed here so the no-op
# path does not import the renderer.
_TEMPLATES = (
    "server/__init__.py.jinja",
    "server/__main__.py.jinja",
    "server/base.py.jinja",
    "server/handlers.py.jinja",
    "server/models.py.jinja",
    "server/package_init.py.jinja",
    "server/py.typed.jinja",
    "server/server.py.jinja",
    "server/tools.py.jinja",
)


@dataclass
class Outcome:
    """What one ``mcpgen server`` run did, for the command to print."""

    pkg_dir: Path
    up_to_date: bool = False
    diff: str = ""
    """``--check``: the unified diff of ``_generated/`` (empty when up to date)."""
    written: int = 0
    created: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    server_name: str | None = None
    """``serverInfo.name`` (known when the package was generated in this run)."""


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def _base_parts(manifest_path: Path, package: str) -> tuple[list[bytes | str], str]:
    """The digest inputs other than ``$ref``-reached files, and the manifest's sha256."""
    from mcpgen_runtime import API_VERSION

    try:
        manifest_bytes = manifest_path.read_bytes()
    except OSError as exc:
        raise McpgenError(
            f"cannot read manifest: {exc.strerror or exc}", path=str(manifest_path)
        ) from None
    parts: list[bytes | str] = [
        "server",
        package,
        manifest_path.name,
        manifest_bytes,
        _dist_version("datamodel-code-generator"),
        _dist_version("ruff"),
        f"runtime-api {API_VERSION[0]}.{API_VERSION[1]}",
    ]
    tdir = templates_dir()
    for name in _TEMPLATES:
        parts += [name, (tdir / name).read_bytes()]
    return parts, hashlib.sha256(manifest_bytes).hexdigest()


def _ref_parts(manifest_name: str, dependencies: Mapping[str, str]) -> list[bytes | str]:
    """Digest inputs for the files reached through ``$ref`` (not the manifest itself, whose
    bytes are already in): nothing when there are none."""
    parts: list[bytes | str] = []
    for rel, sha in sorted(dependencies.items()):
        if rel != manifest_name:
            parts += ["ref", rel, sha]
    return parts


def compute_digest(
    manifest_path: Path, package: str, dependencies: Mapping[str, str] | None = None
) -> str:
    """sha256 over everything the output depends on (stdlib only; no generator import).
    ``dependencies``: files reached through ``$ref`` (path relative to the manifest's
    directory -> sha256); None or {} if there are none."""
    parts, _ = _base_parts(manifest_path, package)
    return inputs_digest(*parts, *_ref_parts(manifest_path.name, dependencies or {}))


def build_server_package(manifest: Path, out_dir: Path, package: str, *, check: bool) -> Outcome:
    """Generate (or with ``check``, compare) ``out_dir/package``. Raises ``McpgenError`` on bad
    input, leaving the tree as it was."""
    problem = package_name_problem(package)
    if problem is not None:
        raise McpgenError(f"--package {package!r} {problem}")
    pkg_dir = out_dir / package
    owned = pkg_dir / OWNED_DIR
    outcome = Outcome(pkg_dir=pkg_dir)
    base_parts, manifest_sha = _base_parts(manifest, package)

    marker = read_marker(owned)
    recorded = current_dependencies(marker, manifest.parent)
    if (
        recorded is not None
        and recorded.get(manifest.name) == manifest_sha
        and is_up_to_date(
            owned, inputs_digest(*base_parts, *_ref_parts(manifest.name, recorded)), marker
        )
        and (check or all((pkg_dir / f).exists() for f in USER_FILES))
    ):
        outcome.up_to_date = True
        if not check:
            outcome.warnings = user_file_warnings(pkg_dir, package, _disk_reader(owned))
        return outcome

    rendered = _render(manifest, package, base_parts)
    if check:
        outcome.diff = diff_owned_tree(owned, rendered.owned)
        outcome.up_to_date = not outcome.diff
        return outcome
    write_owned_tree(
        owned,
        rendered.owned,
        rendered.digest,
        dependencies={**rendered.dependencies, manifest.name: manifest_sha},
        dependency_targets=rendered.targets,
    )
    result = EmitResult()
    create_user_files(pkg_dir, rendered.user, result)
    outcome.written = len(rendered.owned)
    outcome.server_name = rendered.server_name
    outcome.created = result.created_user_files
    outcome.warnings = user_file_warnings(pkg_dir, package, rendered.owned.get)
    return outcome


@dataclass(frozen=True)
class RenderedPackage:
    owned: dict[str, str]
    """``_generated/`` files, formatted (paths relative to it)."""
    user: dict[str, str]
    """The create-once files, formatted (paths relative to the package)."""
    digest: str
    """The inputs digest, including every ``$ref``-reached file the loader read."""
    server_name: str
    dependencies: dict[str, str]
    """Those files: relative path -> sha256 (the manifest itself not included)."""
    targets: dict[str, str]
    """For dependencies that resolved to another path (symlinks): where they went."""


def render_package(manifest: Path, package: str) -> RenderedPackage:
    """Load, render and format a server package in memory (what ``mcpgen server`` writes)."""
    base_parts, _ = _base_parts(manifest, package)
    return _render(manifest, package, base_parts)


def _render(manifest: Path, package: str, base_parts: list[bytes | str]) -> RenderedPackage:
    from codegen.format import format_tree
    from codegen.manifest.load import require_manifest
    from codegen.server.generate import generate_server
    from codegen.server.ir import build_server_ir

    loaded = require_manifest(manifest)
    deps = {d.path: d.sha256 for d in loaded.dependencies if d.path != manifest.name}
    targets = {d.path: d.resolved for d in loaded.dependencies if d.resolved != d.path}
    digest = inputs_digest(*base_parts, *_ref_parts(manifest.name, deps))
    ir = build_server_ir(loaded, package=package, manifest_name=manifest.name)
    files = generate_server(ir)
    # One formatter run over both trees (user files are formatted too, then created once).
    merged = {**{f"{OWNED_DIR}/{k}": v for k, v in files.owned.items()}, **files.user}
    formatted = format_tree(merged)
    return RenderedPackage(
        owned={k: formatted[f"{OWNED_DIR}/{k}"] for k in files.owned},
        user={k: formatted[k] for k in files.user},
        digest=digest,
        server_name=ir.server_name,
        dependencies=deps,
        targets=targets,
    )


Reader = Callable[[str], "str | None"]


def _disk_reader(owned: Path) -> Reader:
    def read(rel: str) -> str | None:
        try:
            return (owned / rel).read_text(encoding="utf-8")
        except OSError:
            return None

    return read


def user_file_warnings(pkg_dir: Path, package: str, generated: Reader) -> list[str]:
    """Warnings about the user's files: tools without a method in ``handlers.py``, methods
    whose tool is gone, and imports of ``_generated`` modules or names that no longer exist
    (with the import to use instead). ``generated(rel) -> text | None`` reads ``_generated``."""
    from codegen.server.handlers_report import (
        broken_imports,
        handlers_report,
        tool_methods_from_base,
        top_level_names,
    )

    warnings: list[str] = []
    cache: dict[str, set[str] | None] = {}

    def names_of(sub: str) -> set[str] | None:
        if sub not in cache:
            rel = "__init__.py" if not sub else sub.replace(".", "/") + ".py"
            text = generated(rel)
            try:
                cache[sub] = top_level_names(text) if isinstance(text, str) else None
            except SyntaxError:
                cache[sub] = None
        return cache[sub]

    runtime_names = _runtime_public_names()
    for rel in USER_FILES:
        path = pkg_dir / rel
        try:
            source = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        if "_generated" not in source:
            continue
        for b in broken_imports(source, package, names_of, runtime_names):
            warnings.append(
                f"{path}:{b.line}:{b.col}: `{b.statement}` no longer resolves "
                f"(the runtime is the mcpgen-runtime package now); use: {b.replacement}"
            )
    base = generated("base.py")
    handlers = pkg_dir / "handlers.py"
    try:
        source = handlers.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return warnings
    if not isinstance(base, str):
        return warnings
    report = handlers_report(source, tool_methods_from_base(base))
    if report.problem:
        warnings.append(f"{handlers}: {report.problem}")
        return warnings
    for tool, method in report.missing:
        warnings.append(
            f"{handlers}: tool {tool!r} has no method; add `async def {method}(self, args, ctx)` "
            "to Handlers (until then it answers 'not implemented')"
        )
    for method in report.stale:
        warnings.append(
            f"{handlers}: method {method!r} matches no tool in the manifest (removed or renamed?)"
        )
    return warnings


def _runtime_public_names() -> set[str]:
    import mcpgen_runtime

    return set(mcpgen_runtime.__all__)
