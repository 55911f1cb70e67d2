"""The skills extension's facts the generator and the server share, without the SDK: its
identifier and settings, the MIME table of skill files, ``SkillBinding`` (what a generated
package declares) and the ``Resource`` each skill file is listed as."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, NamedTuple

__all__ = [
    "DIRECTORY_MIME",
    "EXTENSION",
    "SCHEME",
    "SETTINGS",
    "SkillBinding",
    "file_mime",
    "skill_resource_definitions",
]

EXTENSION = "io.modelcontextprotocol/skills"
SETTINGS: Mapping[str, Any] = {"directoryRead": True}
"""What the server declares under ``capabilities.extensions[EXTENSION]``."""
DIRECTORY_MIME = "inode/directory"
SCHEME = "skill://"

_TEXT_TYPES = {
    ".md": "text/markdown",
    ".markdown": "text/markdown",
    ".txt": "text/plain",
    ".py": "text/x-python",
    ".sh": "text/x-shellscript",
    ".json": "application/json",
    ".yaml": "application/yaml",
    ".yml": "application/yaml",
    ".csv": "text/csv",
    ".html": "text/html",
    ".xml": "application/xml",
    ".js": "text/javascript",
    ".ts": "text/x-typescript",
    ".toml": "application/toml",
}
_BINARY_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
    ".pdf": "application/pdf",
    ".zip": "application/zip",
}


def file_mime(path: str, data: bytes) -> tuple[str, bool]:
    """(MIME type, served as a blob) of a skill file: a fixed table by extension (not the
    system's, so generation is the same everywhere); UTF-8 text is ``text/plain`` by default,
    anything else ``application/octet-stream``."""
    ext = os.path.splitext(path)[1].lower()
    try:
        data.decode("utf-8")
        text = True
    except UnicodeDecodeError:
        text = False
    if ext in _BINARY_TYPES and ext != ".svg":
        return _BINARY_TYPES[ext], True
    if not text:
        return _BINARY_TYPES.get(ext, "application/octet-stream"), True
    return _TEXT_TYPES.get(ext, _BINARY_TYPES.get(ext, "text/plain")), False


class SkillBinding(NamedTuple):
    """One skill as the generated package declares it."""

    name: str
    frontmatter_json: str
    """The SKILL.md front matter as a JSON object (text)."""
    folder: str | os.PathLike[str]
    """The skill's folder inside the generated package."""
    files: tuple[tuple[str, str, bool, str, int], ...]
    """Per file, sorted by path: (path in the folder, MIME type, blob, ``sha256:<hex>``, size)."""


def skill_resource_definitions(skill: SkillBinding) -> list[dict[str, Any]]:
    """The ``Resource`` each file of ``skill`` is listed as, in the skill's file order."""
    fm = json.loads(skill.frontmatter_json)
    out = []
    for path, mime, _blob, _digest, _size in skill.files:
        definition: dict[str, Any] = {"uri": f"{SCHEME}{skill.name}/{path}"}
        if path == "SKILL.md":
            definition["name"] = fm.get("name", skill.name)
            if isinstance(fm.get("description"), str):
                definition["description"] = fm["description"]
        else:
            definition["name"] = f"{skill.name}/{path}"
        definition["mimeType"] = mime
        out.append(definition)
    return out
