"""``mcpgen client``'s work between the command line and the pure generator: decide whether
anything changed (the same depfile scheme as ``codegen.server.build``), generate, format once
with ruff, write ``_generated/`` atomically (or diff it with ``check``), create the package's
``__init__.py`` once."""

from __future__ import annotations

import hashlib
import sys
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
USER_FILES = ("__init__.py",)
# Kept in step with codegen.client.generate.TEMPLATES (a test checks); listed here so the
# no-op path imports no generator.
_TEMPLATES = (
    "client/__init__.py.jinja",
    "client/client.py.jinja",
    "client/models.py.jinja",
    "client/package_init.py.jinja",
    "client/py.typed.jinja",
    "client/tools.py.jinja",
)


@dataclass
class Outcome:
    pkg_dir: Path
    up_to_date: bool = False
    diff: str = ""
    written: int = 0
    created: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class RenderedClient:
    owned: dict[str, str]
    user: dict[str, str]
    digest: str
    dependencies: dict[str, str]
    targets: dict[str, str]


def _dist_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "absent"


def _base_parts(manifest_path: Path, package: str) -> tuple[list[bytes | str], str]:
    from mcpgen_runtime import API_VERSION

    try:
        data = manifest_path.read_bytes()
    except OSError as exc:
        raise McpgenError(
            f"cannot read manifest: {exc.strerror or exc}", path=str(manifest_path)
        ) from None
    parts: list[bytes | str] = [
        "client",
        package,
        manifest_path.name,
        data,
        _dist_version("datamodel-code-generator"),
        _dist_version("ruff"),
        "runtime-api {}.{}".format(*API_VERSION),
        # the client parameters are read from the models with ast.unparse, whose output may
        # change between Python versions
        "python {}.{}".format(*sys.version_info[:2]),
    ]
    tdir = templates_dir()
    for name in _TEMPLATES:
        parts += [name, (tdir / name).read_bytes()]
    return parts, hashlib.sha256(data).hexdigest()


def _ref_parts(manifest_name: str, deps: dict[str, str]) -> list[bytes | str]:
    parts: list[bytes | str] = []
    for rel, sha in sorted(deps.items()):
        if rel != manifest_name:
            parts += ["ref", rel, sha]
    return parts


def render_client(manifest: Path, package: str) -> RenderedClient:
    """Load, render and format a client package in memory (what ``mcpgen client`` writes)."""
    base_parts, _ = _base_parts(manifest, package)
    return _render(manifest, package, base_parts)


def _render(manifest: Path, package: str, base_parts: list[bytes | str]) -> RenderedClient:
    from codegen.client.generate import generate_client
    from codegen.client.ir import build_client_ir
    from codegen.format import format_tree
    from codegen.manifest.load import require_manifest

    loaded = require_manifest(manifest)
    deps = {d.path: d.sha256 for d in loaded.dependencies if d.path != manifest.name}
    targets = {d.path: d.resolved for d in loaded.dependencies if d.resolved != d.path}
    digest = inputs_digest(*base_parts, *_ref_parts(manifest.name, deps))
    files = generate_client(build_client_ir(loaded, package=package, manifest_name=manifest.name))
    merged = {**{f"{OWNED_DIR}/{k}": v for k, v in files.owned.items()}, **files.user}
    formatted = format_tree(merged)
    return RenderedClient(
        owned={k: formatted[f"{OWNED_DIR}/{k}"] for k in files.owned},
        user={k: formatted[k] for k in files.user},
        digest=digest,
        dependencies=deps,
        targets=targets,
    )


def build_client_package(manifest: Path, out_dir: Path, package: str, *, check: bool) -> Outcome:
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
    outcome.created = result.created_user_files
    return outcome
