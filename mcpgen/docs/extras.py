"""What the reference page says beyond the lists (issue 50), as plain data: each tool's task
support and what a client without the tasks extension gets, the view a tool shows (its
``ui://`` resource, CSP and permissions), the skills the server serves (names, descriptions,
files), and the protocol revisions the server actually serves. Pure."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from mcpgen.manifest.model import Manifest
from mcpgen_runtime.revisions import REVISIONS
from mcpgen_runtime.tasks.settings import MISSING_CAPABILITY, task_support

__all__ = ["Skill", "View", "served_revisions", "skills_of", "task_note", "view_of"]


@dataclass(frozen=True)
class View:
    uri: str
    csp: tuple[tuple[str, str], ...]
    """``(directive, origins)`` of the view's ``_meta.ui.csp``."""
    permissions: tuple[str, ...]
    """What the view asks the host for (``_meta.ui.permissions``)."""


@dataclass(frozen=True)
class Skill:
    name: str
    uri: str
    description: str | None
    files: tuple[str, ...]


def served_revisions(manifest: Manifest) -> tuple[str, ...]:
    """The manifest's revisions the generated server serves (never ``draft``)."""
    return tuple(r for r in manifest.revisions if r in REVISIONS)


def task_note(raw: Mapping[str, Any]) -> str | None:
    """How a tool runs as a task, or None for a plain tool."""
    support = task_support(raw)
    if support == "required":
        return (
            "required: the tool runs only as a task (a client polls `tasks/get` for the "
            "result); a request that does not declare the tasks extension gets "
            f"{MISSING_CAPABILITY} (Missing Required Client Capability)"
        )
    if support == "optional":
        return (
            "optional: a client that declares the tasks extension gets a task to poll; "
            "others get a plain result"
        )
    return None


def _ui(raw: Mapping[str, Any]) -> Mapping[str, Any]:
    meta = raw.get("_meta")
    ui = meta.get("ui") if isinstance(meta, Mapping) else None
    return ui if isinstance(ui, Mapping) else {}


def view_of(manifest: Manifest, raw: Mapping[str, Any]) -> View | None:
    """The view (MCP Apps) the tool ``raw`` names, with its resource's sandbox settings."""
    uri = _ui(raw).get("resourceUri")
    if not isinstance(uri, str) or not uri:
        return None
    resource = next((r.raw for r in manifest.resources if r.raw.get("uri") == uri), {})
    ui = _ui(resource)
    csp_raw = ui.get("csp")
    csp = tuple(
        (str(k), ", ".join(str(v) for v in entries) if isinstance(entries, list) else str(entries))
        for k, entries in (csp_raw.items() if isinstance(csp_raw, Mapping) else ())
    )
    perms = ui.get("permissions")
    permissions = tuple(str(p) for p in (perms if isinstance(perms, (list, Mapping)) else ()))
    return View(uri=uri, csp=csp, permissions=permissions)


def skills_of(manifest: Manifest) -> tuple[Skill, ...]:
    out = []
    for skill in manifest.skills:
        description = skill.frontmatter.get("description")
        paths = skill.paths if skill.paths is not None else tuple(f.path for f in skill.files)
        out.append(
            Skill(
                name=skill.name,
                uri=f"skill://{skill.name}/SKILL.md",
                description=description if isinstance(description, str) else None,
                files=tuple(paths),
            )
        )
    return tuple(out)
