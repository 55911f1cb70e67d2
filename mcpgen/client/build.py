"""``mcpgen client``'s work between the command line and the pure generator: the package's
spec and generate function for ``mcpgen.packages`` (the same depfile scheme, one ruff pass,
atomic ``_generated/``, the package's ``__init__.py`` created once)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from mcpgen import packages
from mcpgen.client import layout
from mcpgen.packages import Generated, Outcome, PackageSpec, Rendered

if TYPE_CHECKING:
    from mcpgen.manifest.model import Manifest

__all__ = [
    "CLI_SPEC",
    "SPEC",
    "Outcome",
    "RenderedClient",
    "build_cli_package",
    "build_client_package",
    "render_cli",
    "render_client",
]

OWNED_DIR = packages.OWNED_DIR
USER_FILES = layout.USER_FILES
SPEC = PackageSpec(
    kind="client",
    templates=layout.TEMPLATES,
    user_files=layout.USER_FILES,
)

CLI_SPEC = PackageSpec(
    kind="cli",
    templates=layout.CLI_TEMPLATES,
    user_files=layout.CLI_USER_FILES,
)

RenderedClient = Rendered


def _generate(loaded: Manifest, package: str, manifest_name: str) -> Generated:
    from mcpgen.client.generate import generate_client
    from mcpgen.client.ir import build_client_ir

    files = generate_client(build_client_ir(loaded, package=package, manifest_name=manifest_name))
    return Generated(owned=dict(files.owned), user=files.user)


def _generate_cli(loaded: Manifest, package: str, manifest_name: str) -> Generated:
    from mcpgen.client.generate import generate_client
    from mcpgen.client.ir import build_client_ir

    ir = build_client_ir(loaded, package=package, manifest_name=manifest_name, cli=True)
    files = generate_client(ir)
    return Generated(owned=dict(files.owned), user=files.user)


def build_cli_package(
    manifest: Path, out_dir: Path, package: str, *, check: bool, force: bool = False
) -> Outcome:
    """``mcpgen cli``: the client package plus ``_generated/cli.py`` and, once, ``__main__.py``."""
    return packages.build(
        CLI_SPEC, manifest, out_dir, package, check=check, generate=_generate_cli, force=force
    )


def render_cli(manifest: Path, package: str) -> Rendered:
    """What ``mcpgen cli`` writes, in memory."""
    return packages.render(CLI_SPEC, manifest, package, _generate_cli)


def render_client(manifest: Path, package: str) -> Rendered:
    """Load, render and format a client package in memory (what ``mcpgen client`` writes)."""
    return packages.render(SPEC, manifest, package, _generate)


def build_client_package(
    manifest: Path, out_dir: Path, package: str, *, check: bool, force: bool = False
) -> Outcome:
    """Generate (or with ``check``, compare) ``out_dir/package``. Raises ``McpgenError`` on bad
    input, leaving the tree as it was."""
    return packages.build(
        SPEC, manifest, out_dir, package, check=check, generate=_generate, force=force
    )
