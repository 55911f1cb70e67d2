"""The files of the distributions a generated server needs, read from the environment mcpgen
runs in: what ``pip install --target lib mcpgen-runtime`` would put there, without a network
or a resolver, and byte for byte the same on every run in the same environment.

The closure starts at ``mcpgen-runtime`` (no extras) and follows each distribution's
``Requires-Dist`` whose marker holds on this interpreter. A regular install contributes the
files its ``RECORD`` lists under site-packages (no scripts, no bytecode); an editable install
(PEP 610 ``dir_info.editable``, as a checkout's ``pip install -e ./runtime``) contributes the
packages in the directories its ``.pth`` names, plus a minimal ``.dist-info`` so
``importlib.metadata`` still finds its version.

Compiled extensions (``pydantic-core``, ``jsonschema-rs``, ``cryptography``, ...) are for this
interpreter and platform only: ``platform_facts`` says which, and the bundle's manifest records
it in ``compatibility``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path
from typing import NamedTuple

from mcpgen.errors import McpgenError

__all__ = ["ROOT_DISTRIBUTION", "PlatformFacts", "platform_facts", "vendored_files"]

ROOT_DISTRIBUTION = "mcpgen-runtime"
_SKIP_PARTS = {"__pycache__"}
_SKIP_SUFFIXES = (".pyc", ".pyo")


class PlatformFacts(NamedTuple):
    """Where the vendored compiled code runs: an MCPB ``compatibility.platforms`` entry
    (``darwin``, ``win32``, ``linux``) and the Python minor version it was built for."""

    platform: str
    python: str
    """``3.11``."""
    has_binaries: bool


def platform_facts(files: dict[str, bytes]) -> PlatformFacts:
    plat = "win32" if sys.platform.startswith("win") else sys.platform
    plat = "linux" if plat.startswith("linux") else plat
    binary = any(p.endswith((".so", ".pyd", ".dylib")) for p in files)
    return PlatformFacts(plat, f"{sys.version_info[0]}.{sys.version_info[1]}", binary)


def _norm(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _closure(root: str) -> list[metadata.Distribution]:
    from packaging.requirements import Requirement  # black's dependency, so always there

    seen: dict[str, metadata.Distribution] = {}
    extras_done: set[tuple[str, str]] = set()
    todo: list[tuple[str, str]] = [(root, "")]
    while todo:
        name, extra = todo.pop()
        key = _norm(name)
        if (key, extra) in extras_done:
            continue
        extras_done.add((key, extra))
        try:
            dist = seen.get(key) or metadata.distribution(name)
        except metadata.PackageNotFoundError:
            raise McpgenError(
                f"{name} is not installed in this environment, so it cannot be vendored into "
                f"the bundle (install mcpgen-runtime's dependencies here, e.g. "
                f"pip install -e ./runtime)"
            ) from None
        seen[key] = dist
        for text in dist.requires or ():
            req = Requirement(text)
            env = {"extra": extra}
            if req.marker is not None and not req.marker.evaluate(env):
                continue
            todo.extend((req.name, e) for e in sorted(req.extras) or [""])
    return [seen[k] for k in sorted(seen)]


def _wanted(rel: str) -> bool:
    parts = rel.split("/")
    return not (parts[0] == ".." or _SKIP_PARTS.intersection(parts) or rel.endswith(_SKIP_SUFFIXES))


def _tree(base: Path, top: Path) -> Iterable[tuple[str, Path]]:
    if top.is_file():
        yield top.name, top
        return
    for path in sorted(top.rglob("*")):
        if path.is_file():
            rel = path.relative_to(base).as_posix()
            if _wanted(rel):
                yield rel, path


def _editable_roots(dist: metadata.Distribution) -> list[Path] | None:
    text = dist.read_text("direct_url.json")
    if not text or not json.loads(text).get("dir_info", {}).get("editable"):
        return None
    roots: list[Path] = []
    for f in dist.files or ():
        if f.suffix == ".pth":
            for line in Path(str(dist.locate_file(f))).read_text(encoding="utf-8").splitlines():
                if line.strip() and not line.startswith(("#", "import ")):
                    roots.append(Path(line.strip()))
    return roots


def _editable_files(dist: metadata.Distribution, roots: list[Path]) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for root in roots:
        for child in sorted(root.iterdir()):
            is_pkg = child.is_dir() and (child / "__init__.py").is_file()
            if is_pkg or (child.suffix == ".py" and child.name not in {"setup.py"}):
                if child.name.startswith(("hatch_", "_")) and not is_pkg:
                    continue
                for rel, path in _tree(root, child):
                    out[rel] = path.read_bytes()
    name, version = dist.metadata["Name"], dist.version
    info = f"{name.replace('-', '_')}-{version}.dist-info"
    out[f"{info}/METADATA"] = f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode()
    return out


def vendored_files(root: str = ROOT_DISTRIBUTION) -> dict[str, bytes]:
    """``{path under lib/: bytes}`` for ``root`` and everything it needs here."""
    out: dict[str, bytes] = {}
    for dist in _closure(root):
        roots = _editable_roots(dist)
        if roots is not None:
            out.update(_editable_files(dist, roots))
            continue
        for f in dist.files or ():
            rel = Path(str(f)).as_posix()
            if _wanted(rel):
                path = Path(str(dist.locate_file(f)))
                if path.is_file():
                    out[rel] = path.read_bytes()
    return dict(sorted(out.items()))
