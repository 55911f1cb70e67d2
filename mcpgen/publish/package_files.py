"""What a bundle carries of the generated package: exactly the package and nothing a folder
happens to hold beside it.

* ``_generated/`` whole (the server, its precomputed answers, the skills' files and the views'
  HTML, which ``mcpgen server`` copies there), without its ``.mcpgen.json`` marker;
* everywhere else in the package, Python sources (``*.py``, ``*.pyi``) and ``py.typed``;
* never a dotfile or anything in a dot-folder (``.env``, ``.venv``), ``__pycache__`` or
  ``*.pyc``, build output (``build/``, ``dist/``, ``*.egg-info``), an earlier bundle
  (``*.mcpb``) or any other file;
* plus what ``--include GLOB`` names (relative to the package; a glob that matches nothing is
  a usage error), still never ``__pycache__``, ``*.pyc`` or a bundle.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from mcpgen.errors import McpgenError

__all__ = ["package_files"]

_BUILD_DIRS = frozenset({"build", "dist", "node_modules"})
_SOURCES = frozenset({".py", ".pyi"})


def _never(parts: tuple[str, ...]) -> bool:
    return "__pycache__" in parts or parts[-1].endswith((".pyc", ".mcpb"))


def _packed(parts: tuple[str, ...]) -> bool:
    if _never(parts) or any(p.startswith(".") for p in parts):
        return False
    if any(p in _BUILD_DIRS or p.endswith(".egg-info") for p in parts[:-1]):
        return False
    if parts[0] == "_generated":
        return True
    return Path(parts[-1]).suffix in _SOURCES or parts[-1] == "py.typed"


def package_files(pkg_dir: Path, include: Iterable[str] = ()) -> dict[str, bytes]:
    """The package's files the bundle carries, by path relative to ``pkg_dir`` (sorted)."""
    if not (pkg_dir / "__main__.py").is_file():
        raise McpgenError(
            "no generated server package here (no __main__.py); run mcpgen server first",
            path=str(pkg_dir),
        )
    chosen: set[Path] = set()
    for path in pkg_dir.rglob("*"):
        if path.is_file() and _packed(path.relative_to(pkg_dir).parts):
            chosen.add(path)
    for pattern in include:
        if Path(pattern).is_absolute() or ".." in Path(pattern).parts:
            raise McpgenError(f"--include {pattern!r} must be a glob inside the package {pkg_dir}")
        matched = [
            p
            for p in pkg_dir.glob(pattern)
            if p.is_file() and not _never(p.relative_to(pkg_dir).parts)
        ]
        if not matched:
            raise McpgenError(f"--include {pattern!r} matches no file in {pkg_dir}")
        chosen.update(matched)
    out: dict[str, bytes] = {}
    for path in sorted(chosen, key=lambda p: p.relative_to(pkg_dir).as_posix()):
        try:
            out[path.relative_to(pkg_dir).as_posix()] = path.read_bytes()
        except OSError as exc:
            raise McpgenError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    return out
