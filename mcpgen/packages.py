"""The edge shared by every generated package (server, client): decide whether anything
changed, render, format once, write ``_generated/`` atomically (or diff it), create the user's
files once. ``mcpgen.server.build`` and ``mcpgen.client.build`` describe their package with a
``PackageSpec`` and a pure ``generate`` function; everything else is here.

Up-to-date check (a depfile, as build systems keep one): the inputs digest covers the manifest
bytes, the package name, the pinned generator and formatter versions, the package's templates,
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
from typing import TYPE_CHECKING, Any

from mcpgen.emit import (
    EmitResult,
    create_user_files,
    current_dependencies,
    diff_owned_tree,
    inputs_digest,
    is_up_to_date,
    marker_text,
    read_marker,
    write_owned_tree,
)
from mcpgen.errors import FindingsError, McpgenError
from mcpgen.naming import package_name_problem
from mcpgen.resources import templates_dir

if TYPE_CHECKING:
    from mcpgen.manifest.model import Manifest

OWNED_DIR = "_generated"

Notes = Callable[[Path, "Mapping[str, Any]"], list[str]]
"""``(package dir, generator facts) -> warnings about the user's files``."""


@dataclass(frozen=True)
class Generated:
    owned: dict[str, str | bytes]
    """``_generated/`` files: source text, or bytes for package data (resource files)."""
    user: dict[str, str]
    name: str | None = None
    """``serverInfo.name`` of the manifest (shown to the user after generation)."""
    facts: Mapping[str, Any] = field(default_factory=dict)
    """What the generator decided that later runs report on (from the IR: each tool's method
    and model names, the names each ``_generated`` module defines), kept as data in
    ``_generated/.mcpgen.json``, never read back from code."""


Generate = Callable[["Manifest", str, str], Generated]
"""``(loaded manifest, package, manifest file name) -> unformatted files``: pure."""


@dataclass(frozen=True)
class PackageSpec:
    kind: str
    """``server`` or ``client`` (part of the digest)."""
    templates: tuple[str, ...]
    """Every template the package is rendered from (their bytes are part of the digest);
    listed by the caller so the no-op path never imports the renderer."""
    user_files: tuple[str, ...]
    """Files created once in the package (never overwritten)."""
    runtime_sources: tuple[str, ...] = ()
    """``mcpgen_runtime`` modules (paths in the package) whose code computes part of the
    output at build time (the precomputed discovery answers): their bytes are part of the
    digest, so a runtime change regenerates what they computed."""


@dataclass(frozen=True)
class Rendered:
    owned: dict[str, str | bytes]
    """``_generated/`` files, formatted (paths relative to it)."""
    user: dict[str, str]
    """The create-once files, formatted (paths relative to the package)."""
    digest: str
    """The inputs digest, including every ``$ref``-reached file the loader read."""
    dependencies: dict[str, str]
    """Those files: relative path -> sha256 (the manifest itself not included)."""
    targets: dict[str, str]
    """For dependencies that resolved to another path (symlinks): where they went."""
    name: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class Outcome:
    """What one run did, for the command to print."""

    pkg_dir: Path
    up_to_date: bool = False
    diff: str = ""
    """``--check``: the unified diff of ``_generated/`` (empty when up to date)."""
    written: int = 0
    created: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    findings: str = ""
    """``mcpgen check``'s warnings about the manifest (text format), printed as they are."""
    name: str | None = None
    """``serverInfo.name`` (known when the package was generated in this run)."""


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def base_parts(
    spec: PackageSpec, manifest_path: Path, package: str
) -> tuple[list[bytes | str], str]:
    """The digest inputs other than ``$ref``-reached files, and the manifest's sha256."""
    from mcpgen_runtime import API_VERSION

    try:
        manifest_bytes = manifest_path.read_bytes()
    except OSError as exc:
        raise McpgenError(
            f"cannot read manifest: {exc.strerror or exc}", path=str(manifest_path)
        ) from None
    parts: list[bytes | str] = [
        spec.kind,
        package,
        manifest_path.name,
        manifest_bytes,
        _dist_version("datamodel-code-generator"),
        _dist_version("ruff"),
        f"runtime-api {API_VERSION[0]}.{API_VERSION[1]}",
    ]
    tdir = templates_dir()
    for name in spec.templates:
        parts += [name, (tdir / name).read_bytes()]
    if spec.runtime_sources:
        import mcpgen_runtime

        rdir = Path(mcpgen_runtime.__file__).parent
        for name in spec.runtime_sources:
            parts += [f"runtime/{name}", (rdir / name).read_bytes()]
    return parts, hashlib.sha256(manifest_bytes).hexdigest()


def ref_parts(manifest_name: str, dependencies: Mapping[str, str]) -> list[bytes | str]:
    """Digest inputs for the files reached through ``$ref`` (not the manifest itself, whose
    bytes are already in): nothing when there are none."""
    parts: list[bytes | str] = []
    for rel, sha in sorted(dependencies.items()):
        if rel != manifest_name:
            parts += ["ref", rel, sha]
    return parts


def compute_digest(
    spec: PackageSpec,
    manifest_path: Path,
    package: str,
    dependencies: Mapping[str, str] | None = None,
) -> str:
    """sha256 over everything the output depends on (stdlib only; no generator import)."""
    parts, _ = base_parts(spec, manifest_path, package)
    return inputs_digest(*parts, *ref_parts(manifest_path.name, dependencies or {}))


def checked_manifest(manifest: Path) -> tuple[Manifest, str]:
    """The loaded manifest and ``mcpgen check``'s warnings about it (text format, collapsed as
    check collapses them), when check finds no error; else ``FindingsError`` listing the errors
    (exit 2, nothing generated). Same rules, config (``[tool.mcpgen.check]``) and inline
    ignores as ``mcpgen check``."""
    from mcpgen.check import catalog
    from mcpgen.check.config import load_config
    from mcpgen.check.runner import lint_loaded
    from mcpgen.diagnostics import Severity
    from mcpgen.manifest.load import load_manifest, usable
    from mcpgen.report import render as render_findings

    result = load_manifest(manifest)
    loaded = usable(result, manifest)  # unreadable input (bad YAML, a missing $ref file): exit 2
    diags = lint_loaded(result, load_config(catalog.load_all()).check)
    errors = [d for d in diags if d.severity >= Severity.ERROR]
    if errors:
        n = len(errors)
        raise FindingsError(
            f"{manifest}: mcpgen check found {n} error{'s' if n != 1 else ''}; nothing was "
            "generated (fix them, or silence a rule with `# mcpgen: ignore RULE` or "
            "[tool.mcpgen.check])",
            render_findings(errors, "text", related_label="see"),
        )
    warnings = [d for d in diags if d.severity == Severity.WARNING]
    return loaded, render_findings(warnings, "text", related_label="see", collapse=True)


def render(
    spec: PackageSpec,
    manifest: Path,
    package: str,
    generate: Generate,
    parts: list[bytes | str] | None = None,
    loaded: Manifest | None = None,
) -> Rendered:
    """Load (unless ``loaded`` is given), generate and format a package in memory (what the
    command writes)."""
    from mcpgen.format import format_tree
    from mcpgen.manifest.load import require_manifest

    if parts is None:
        parts, _ = base_parts(spec, manifest, package)
    if loaded is None:
        loaded = require_manifest(manifest)
    deps = {d.path: d.sha256 for d in loaded.dependencies if d.path != manifest.name}
    targets = {d.path: d.resolved for d in loaded.dependencies if d.resolved != d.path}
    digest = inputs_digest(*parts, *ref_parts(manifest.name, deps))
    files = generate(loaded, package, manifest.name)
    # One formatter run over both trees (user files are formatted too, then created once).
    merged = {**{f"{OWNED_DIR}/{k}": v for k, v in files.owned.items()}, **files.user}
    formatted = format_tree(merged)
    return Rendered(
        owned={k: formatted[f"{OWNED_DIR}/{k}"] for k in files.owned},
        user={k: _source(formatted[k]) for k in files.user},
        digest=digest,
        dependencies=deps,
        targets=targets,
        name=files.name,
        facts=files.facts,
    )


def _source(content: str | bytes) -> str:
    assert isinstance(content, str)  # user files are always source text
    return content


def build(
    spec: PackageSpec,
    manifest: Path,
    out_dir: Path,
    package: str,
    *,
    check: bool,
    generate: Generate,
    warnings: Notes | None = None,
    force: bool = False,
) -> Outcome:
    """Generate (or with ``check``, compare) ``out_dir/package``. Raises ``McpgenError`` on bad
    input, leaving the tree as it was. ``warnings(pkg_dir, facts)``: notes about the
    user's files, after writing (or on a no-op run). A ``_generated/`` another command wrote
    (a server's, for ``client``) is refused (exit 2) unless ``force`` (kept as ``.bak``)."""
    problem = package_name_problem(package)
    if problem is not None:
        raise McpgenError(f"--package {package!r} {problem}")
    pkg_dir = out_dir / package
    owned = pkg_dir / OWNED_DIR
    outcome = Outcome(pkg_dir=pkg_dir)
    if not check:
        from mcpgen.outputs import guard_tree

        guard_tree(owned, spec.kind, force=force, inputs=(manifest,))
    parts, manifest_sha = base_parts(spec, manifest, package)

    marker = read_marker(owned)
    recorded = current_dependencies(marker, manifest.parent)
    if (
        recorded is not None
        and recorded.get(manifest.name) == manifest_sha
        and is_up_to_date(owned, inputs_digest(*parts, *ref_parts(manifest.name, recorded)), marker)
        and (check or all((pkg_dir / f).exists() for f in spec.user_files))
    ):
        outcome.up_to_date = True
        if not check and warnings is not None:
            facts = (marker or {}).get("facts")
            outcome.warnings = warnings(pkg_dir, facts if isinstance(facts, dict) else {})
        return outcome

    loaded, outcome.findings = checked_manifest(manifest)
    rendered = render(spec, manifest, package, generate, parts, loaded)
    if check:
        outcome.diff = diff_owned_tree(
            owned,
            rendered.owned,
            marker=marker_text(
                rendered.owned,
                rendered.digest,
                {**rendered.dependencies, manifest.name: manifest_sha},
                rendered.targets,
                rendered.facts,
                spec.kind,
            ),
        )
        outcome.up_to_date = not outcome.diff
        return outcome
    write_owned_tree(
        owned,
        rendered.owned,
        rendered.digest,
        dependencies={**rendered.dependencies, manifest.name: manifest_sha},
        dependency_targets=rendered.targets,
        facts=rendered.facts,
        writer=spec.kind,
        force=force,
        inputs=(manifest,),
    )
    result = EmitResult()
    create_user_files(pkg_dir, rendered.user, result)
    outcome.written = len(rendered.owned)
    outcome.name = rendered.name
    outcome.created = result.created_user_files
    if warnings is not None:
        outcome.warnings = warnings(pkg_dir, rendered.facts)
    return outcome
