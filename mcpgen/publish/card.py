"""The Server Card (SEP-2127, Draft) of a manifest's server, for ``mcpgen export server-card``:
``mcpgen_runtime.server_card`` builds it (the running server's ``--server-card`` uses the same
builder), this module supplies the manifest's facts and locates each problem in the manifest.
Pure."""

from __future__ import annotations

from typing import Any

from mcpgen.manifest.model import Manifest
from mcpgen_runtime.revisions import REVISIONS
from mcpgen_runtime.server_card import CardError, server_card

__all__ = ["card_for", "registry_name"]


def registry_name(manifest: Manifest) -> str | None:
    """``server.registry``, the reverse-DNS name the registry and the card share."""
    server = manifest.raw.get("server") if isinstance(manifest.raw, dict) else None
    value = server.get("registry") if isinstance(server, dict) else None
    return value if isinstance(value, str) else None


_WHERE = {
    "name": "/server/registry",
    "version": "/server/version",
    "description": "/server/description",
    "title": "/server/title",
    "remotes": "",
}


def card_for(
    manifest: Manifest, name: str | None = None, remote: str | None = None
) -> tuple[dict[str, Any] | None, list[str]]:
    """The card, or the problems that keep it from being valid, one line each, located in the
    manifest as ``PATH:LINE:COL: error: ...``; a ``--name`` or ``--remote`` problem names the
    option instead (``--name 'x': error: ...``): it is not in the file."""
    s = manifest.server
    info = {
        "name": s.name,
        "version": s.version,
        "title": s.title,
        "description": s.description,
        "websiteUrl": s.website_url,
        "icons": list(s.icons),
    }
    chosen = name or registry_name(manifest) or s.name
    versions = [r for r in manifest.revisions if r in REVISIONS]
    try:
        return server_card(info, name=chosen, remote_url=remote, protocol_versions=versions), []
    except CardError as exc:
        out = []
        for problem in exc.problems:
            member = problem.split(" ", 1)[0].split("[", 1)[0]
            pointer = _WHERE.get(member, "")
            if member == "name" and name is None and registry_name(manifest) is None:
                pointer = "/server/name"
                problem += "; set server.registry (e.g. io.github.user/weather) or pass --name"
            if name is not None and member == "name":  # the command line's, not the file's
                out.append(f"--name {name!r}: error: Server Card: {problem}")
                continue
            if remote is not None and member == "remotes":
                out.append(f"--remote {remote!r}: error: Server Card: {problem}")
                continue
            line, col = manifest.source_map.locate(pointer)
            out.append(f"{manifest.path}:{line}:{col}: error: Server Card: {problem}")
        return None, out
