"""What a server's Python packaging says, for its registry entry: ``[project]`` of its
``pyproject.toml`` (distribution name, version, URLs) and the README PyPI shows, each with the
place it was read from, so that a problem is reported where it can be fixed.

Reads files; decides nothing about the registry (``mcpgen.publish.server_json`` does).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, NamedTuple

from mcpgen.errors import McpgenError
from mcpgen.project import find_pyproject, read_pyproject

__all__ = [
    "Packaging",
    "find_server_pyproject",
    "manifest_registry_name",
    "read_packaging",
    "toml_key_position",
]


class Packaging(NamedTuple):
    pyproject: Path
    name: str
    """``[project].name`` as written (the PyPI identifier)."""
    version: str | None
    """``[project].version``; None when absent (or ``dynamic``)."""
    version_at: tuple[int, int]
    """Where ``version`` is written (else the ``[project]`` header)."""
    dynamic_version: bool
    readme: Path | None
    """The file ``[project].readme`` names (None: none, or inline text)."""
    readme_text: str | None
    """What PyPI shows as the long description (None: no readme at all)."""
    readme_at: tuple[int, int]
    urls: dict[str, str]
    """``[project.urls]``."""
    scripts: tuple[str, ...] = ()
    """``[project.scripts]`` names (a script named as the distribution: ``uvx NAME`` runs it)."""


def manifest_registry_name(raw: Any) -> str | None:
    """``server.registry`` of a loaded manifest document (None when unset)."""
    server = raw.get("server") if isinstance(raw, dict) else None
    name = server.get("registry") if isinstance(server, dict) else None
    return name if isinstance(name, str) and name else None


def find_server_pyproject(manifest: Path) -> Path | None:
    """The nearest ``pyproject.toml`` at or above the manifest's folder (relative to the
    working directory when it is under it, as messages show paths)."""
    found = find_pyproject(manifest.resolve().parent)
    if found is None:
        return None
    try:
        return found.relative_to(Path.cwd().resolve())
    except ValueError:
        return found


def toml_key_position(text: str, table: str, key: str) -> tuple[int, int] | None:
    """1-based (line, column) of ``key = ...`` directly in ``[table]`` (a line scan: enough for
    the keys of ``[project]``, which are never spread over dotted tables in practice); of the
    ``[table]`` header when the key is not there; None when neither is."""
    header: tuple[int, int] | None = None
    current = None
    key_re = re.compile(r"\s*(?:" + re.escape(key) + r'|"' + re.escape(key) + r'")\s*=')
    for n, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        m = re.match(r"\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$", stripped)
        if m and not stripped.startswith("[["):
            current = m.group(1).replace('"', "").replace(" ", "")
            if current == table and header is None:
                header = (n, line.index("[") + 1)
            continue
        if current == table and key_re.match(line):
            return n, len(line) - len(line.lstrip()) + 1
    return header


def read_packaging(pyproject: Path) -> Packaging:
    """``pyproject``'s facts; ``McpgenError`` (exit 2, located) when it cannot be read or has no
    ``[project].name``. A missing version is left to the caller (``version`` None)."""
    shown = str(pyproject)
    try:
        data = read_pyproject(pyproject)
        text = pyproject.read_text(encoding="utf-8")
    except OSError as exc:
        raise McpgenError(f"cannot read: {exc.strerror or exc}", path=shown) from None
    except ValueError as exc:
        raise McpgenError(f"not valid TOML: {exc}", path=shown) from None
    project = data.get("project")
    if not isinstance(project, dict):
        raise McpgenError(
            "has no [project] table: the registry entry needs the package's name and version",
            path=shown,
        )
    head = toml_key_position(text, "project", "name") or (1, 1)
    name = project.get("name")
    if not isinstance(name, str) or not name:
        raise McpgenError("[project] has no name (the PyPI package)", path=shown, line=head[0])
    version = project.get("version")
    dynamic = project.get("dynamic")
    version_at = toml_key_position(text, "project", "version") or head
    readme, readme_text = _readme(project.get("readme"), pyproject)
    readme_at = toml_key_position(text, "project", "readme") or head
    urls = project.get("urls")
    scripts = project.get("scripts")
    return Packaging(
        pyproject=pyproject,
        name=name,
        version=version if isinstance(version, str) and version else None,
        version_at=version_at,
        dynamic_version=isinstance(dynamic, list) and "version" in dynamic,
        readme=readme,
        readme_text=readme_text,
        readme_at=readme_at,
        urls={str(k): v for k, v in urls.items() if isinstance(v, str)}
        if isinstance(urls, dict)
        else {},
        scripts=tuple(sorted(scripts)) if isinstance(scripts, dict) else (),
    )


def _readme(value: Any, pyproject: Path) -> tuple[Path | None, str | None]:
    """The readme file and its text (PEP 621: a path, or a table with ``file`` or ``text``)."""
    if isinstance(value, dict):
        if isinstance(value.get("text"), str):
            return None, value["text"]
        value = value.get("file")
    if not isinstance(value, str) or not value:
        return None, None
    path = pyproject.parent / value
    try:
        return path, path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise McpgenError(
            f"cannot read the readme [project].readme names: {getattr(exc, 'strerror', exc)}",
            path=str(path),
        ) from None
