"""``mcpgen export server-json``'s work between reading and writing: find and read the
packaging, check the registry's rules on the inputs, build the entry and validate it against
the pinned schema. Every problem is located (in the manifest, ``pyproject.toml``, the README or
the document); any problem stops it before anything is written (``McpgenError``, exit 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from mcpgen.errors import EXIT_USAGE, FindingsError, McpgenError
from mcpgen.manifest.model import Manifest
from mcpgen.publish.packaging import Packaging, find_server_pyproject, read_packaging
from mcpgen.publish.registry_schema import Problem, validate_server_json
from mcpgen.publish.server_json import InputProblem, input_problems, server_json

__all__ = ["Refused", "build_server_json", "refuse"]


class Refused(FindingsError):
    """More than one problem: each on its own located line, then one error line (exit 2)."""

    exit_code = EXIT_USAGE


def refuse(lines: list[tuple[str, int | None, int | None, str]], what: str) -> None:
    """Raise for ``(path, line, col, message)`` problems: one ``McpgenError`` for one, else
    ``Refused`` listing them all. Returns only when there are none."""
    if not lines:
        return
    if len(lines) == 1:
        path, line, col, message = lines[0]
        raise McpgenError(f"{message}; {what}", path=path, line=line, col=col)
    text = "".join(
        f"{path}{f':{line}:{col}' if line is not None else ''}: {message}\n"
        for path, line, col, message in lines
    )
    raise Refused(f"{len(lines)} problems; {what}", text)


def _input_line(
    p: InputProblem, manifest: Manifest, packaging: Packaging
) -> tuple[str, int | None, int | None, str]:
    if p.file == "manifest":
        line, col = manifest.source_map.locate(p.pointer)
        return manifest.path, line, col, p.message
    if p.file == "readme" and packaging.readme is not None:
        return str(packaging.readme), p.line, p.col, p.message
    return str(packaging.pyproject), p.line, p.col, p.message


def _schema_line(p: Problem, shown: str) -> tuple[str, int | None, int | None, str]:
    return f"{shown} {p.pointer or '/'}", p.line, p.col, p.message


def build_server_json(
    manifest: Manifest, manifest_path: Path, pyproject: Path | None, remote: str | None
) -> tuple[dict[str, Any], list[str]]:
    """The validated registry entry and notes for the user, or ``McpgenError`` (exit 2)."""
    what = "server.json not written"
    if pyproject is None:
        pyproject = find_server_pyproject(manifest_path)
        if pyproject is None:
            raise McpgenError(
                f"no pyproject.toml at or above {manifest_path.parent}: the registry entry "
                "names the PyPI package it describes (pass --pyproject FILE)",
                path=str(manifest_path),
            )
    packaging = read_packaging(pyproject)
    refuse([_input_line(p, manifest, packaging) for p in input_problems(manifest, packaging)], what)
    if remote is not None and not remote.startswith(("https://", "http://")):
        raise McpgenError(f"--remote {remote!r}: give the server's https:// URL")
    doc, notes = server_json(manifest, packaging, remote)
    refuse([_schema_line(p, "server.json") for p in validate_server_json(doc)], what)
    return doc, notes
