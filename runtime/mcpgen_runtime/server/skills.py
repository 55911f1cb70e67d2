"""The skills extension (``io.modelcontextprotocol/skills``, SEP-2640): ``skills/list``,
``skills/get``, ``resources/directory/read`` and a ``skill://<name>/<file>`` resource per file.

Generated code only declares: a ``SkillBinding`` per skill (its front matter as JSON text, its
folder in the package and, per file, its path, MIME type, sha256 digest and size, all computed
by ``mcpgen server``). Here they become:

* resources: every file is a ``ResourceBinding`` (a package file, read once), so
  ``resources/list`` lists it and ``resources/read`` serves it on both engines, with the
  revision's own errors; a ``SKILL.md`` is listed under its skill's name and description,
  ``text/markdown``, as the extension says it SHOULD be;
* the extension's methods, registered on the SDK ``Server`` (``install``); the lean engine has
  no table entry for them, so they reach the SDK through its bridge (stdio) or the SDK's app
  (HTTP) and are answered by the same handlers. This module is the SDK's side (it imports
  ``mcp``); the resources are made by ``build`` (from ``skills_facts``) without it;
* the capability: ``capabilities.extensions["io.modelcontextprotocol/skills"]`` with
  ``directoryRead: true`` (``EXTENSION``), beside the ``resources`` capability the extension
  requires (the skill files are resources, so a server with skills always has it).

``resources/directory/read`` (optional in the extension) is served because the skills are whole
folders known at generation: listing a folder costs a dict lookup, and it lets a host fetch a
skill's tree without trusting paths it derives itself. On 2026-07-28 the three results carry
``ttlMs``/``cacheScope`` (SEP-2549, as the extension requires there); before, they do not.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import mcp.types as types
from mcp.shared.exceptions import MCPError

from ..revisions import MODERN_REVISIONS
from ..skills_facts import (
    DIRECTORY_MIME,
    EXTENSION,
    SCHEME,
    SETTINGS,
    SkillBinding,
    file_mime,
    skill_entry,
    skill_resource_definitions,
)

if TYPE_CHECKING:
    from mcp.server.context import ServerRequestContext
    from mcp.server.lowlevel import Server

__all__ = [
    "DIRECTORY_MIME",
    "EXTENSION",
    "SETTINGS",
    "SkillBinding",
    "SkillsRuntime",
    "file_mime",
    "install",
    "skill_resource_definitions",
]


class SkillsListParams(types.RequestParams):
    cursor: str | None = None


class SkillGetParams(types.RequestParams):
    uri: str


class DirectoryReadParams(types.RequestParams):
    uri: str
    cursor: str | None = None


class SkillsRuntime:
    """The entries ``skills/list`` and ``skills/get`` answer with, and the folders
    ``resources/directory/read`` lists, computed once from the bindings."""

    def __init__(self, skills: Sequence[SkillBinding], cache: Mapping[str, Any]) -> None:
        self.cache = cache
        """``{"ttlMs", "cacheScope"}`` of the server's cacheable results (2026-07-28)."""
        self.entries: list[dict[str, Any]] = []
        self.by_uri: dict[str, dict[str, Any]] = {}
        self.folders: dict[str, list[dict[str, Any]]] = {}
        for skill in skills:
            self._add(skill)

    def _add(self, skill: SkillBinding) -> None:
        entry = skill_entry(skill)
        uri = entry["uri"]
        self.entries.append(entry)
        self.by_uri[uri] = entry
        root = f"{SCHEME}{skill.name}"
        self.folders.setdefault(root, [])
        for path, mime, _b, _d, _s in skill.files:
            parts = path.split("/")
            parent = root
            for depth, part in enumerate(parts):
                here = f"{parent}/{part}"
                children = self.folders.setdefault(parent, [])
                if depth == len(parts) - 1:
                    children.append({"uri": here, "name": part, "mimeType": mime})
                elif here not in self.folders:
                    children.append({"uri": here, "name": part, "mimeType": DIRECTORY_MIME})
                    self.folders[here] = []
                parent = here

    def _finish(self, result: dict[str, Any], version: str) -> dict[str, Any]:
        if version in MODERN_REVISIONS:
            return {**self.cache, **result, "resultType": "complete"}
        return result

    async def list_skills(
        self, ctx: ServerRequestContext[Any, Any], params: SkillsListParams
    ) -> dict[str, Any]:
        """Every skill on one page (each entry is atomic; a cursor is never handed out)."""
        if params.cursor is not None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Invalid cursor: {params.cursor!r}")
        return self._finish({"skills": self.entries}, ctx.protocol_version)

    async def get_skill(
        self, ctx: ServerRequestContext[Any, Any], params: SkillGetParams
    ) -> dict[str, Any]:
        entry = self.by_uri.get(params.uri)
        if entry is None:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"Unknown skill: {params.uri}",
                data={"uri": params.uri},
            )
        return self._finish({"skill": entry}, ctx.protocol_version)

    async def read_directory(
        self, ctx: ServerRequestContext[Any, Any], params: DirectoryReadParams
    ) -> dict[str, Any]:
        """The direct children of a skill folder (one page); a file or an unknown URI is
        ``-32602``."""
        uri = params.uri.rstrip("/") if params.uri != SCHEME else params.uri
        children = self.folders.get(uri)
        if children is None:
            raise MCPError(
                code=types.INVALID_PARAMS,
                message=f"Not a directory: {params.uri}",
                data={"uri": params.uri},
            )
        if params.cursor is not None:
            raise MCPError(code=types.INVALID_PARAMS, message=f"Invalid cursor: {params.cursor!r}")
        return self._finish({"resources": children}, ctx.protocol_version)


def install(server: Server[Any], skills: SkillsRuntime) -> None:
    """Declare the extension on ``server`` and register its methods there."""
    server.extensions[EXTENSION] = dict(SETTINGS)
    server.add_request_handler("skills/list", SkillsListParams, skills.list_skills)
    server.add_request_handler("skills/get", SkillGetParams, skills.get_skill)
    server.add_request_handler(
        "resources/directory/read", DirectoryReadParams, skills.read_directory
    )
