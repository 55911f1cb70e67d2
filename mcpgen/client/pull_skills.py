"""``mcpgen pull`` for skills (SEP-2640): a live server's skills become folders beside the pulled
manifest and a ``skills:`` section naming them, so the manifest generates a server that serves
the same skills byte for byte.

Each file is read with the runtime's verified reader (``client.skills.read``: size, sha256
digest, and the ``SKILL.md`` front matter against the entry); a file that fails verification
fails the pull. Only what mcpgen can serve is pulled: a skill at ``skill://<name>/SKILL.md``
whose name follows the naming rule, with a file manifest (``dynamic`` skills have none), whose
file paths are plain relative paths inside it. Anything else is left out with a warning: a
server's names never become paths outside ``skills/<name>/``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcpgen.errors import McpgenError

__all__ = ["PulledSkill", "read_skills", "write_skill_folders"]

_NAME = re.compile(r"^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
_SEGMENT = re.compile(r"^[^/\\\x00]+$")
EXTENSION = "io.modelcontextprotocol/skills"


@dataclass(frozen=True)
class PulledSkill:
    name: str
    files: tuple[tuple[str, bytes], ...]
    """(path inside the folder, bytes), verified, sorted by path."""


def _safe_path(rel: str) -> bool:
    parts = rel.split("/")
    return all(_SEGMENT.match(p) and p not in (".", "..") and not p.startswith(".") for p in parts)


class _Connected:
    """What ``SkillsNamespace`` needs of a client: the SDK client and a label."""

    def __init__(self, client: Any, label: str) -> None:
        self.mcp = client
        self._label = label


async def read_skills(client: Any, label: str, warnings: list[str]) -> list[PulledSkill]:
    """Every skill of the server ``client`` (an ``mcp.Client``) is connected to that mcpgen
    can serve, read and verified; what is left out is said in ``warnings``. A server that
    does not declare the extension is asked only on the handshake wire, where the capability
    cannot be declared (no ``-32601`` there is an error)."""
    from mcp.shared.exceptions import MCPError

    from mcpgen_runtime.client.skills import SkillsNamespace, SkillVerificationError

    caps = client.server_capabilities
    declared = caps is not None and EXTENSION in (caps.extensions or {})
    if not declared and client.protocol_version >= "2026":
        return []
    skills = SkillsNamespace(_Connected(client, label))
    try:
        listed = await skills.list()
    except Exception as exc:  # noqa: BLE001 - undeclared: any refusal means "no skills"
        cause = exc.__cause__
        if not declared and isinstance(cause, MCPError):
            return []
        raise McpgenError(f"{label}: skills/list failed: {exc}") from None
    out: list[PulledSkill] = []
    for skill in listed:
        name = skill.name
        if skill.uri != f"skill://{name}/SKILL.md" or not _NAME.match(name):
            warnings.append(f"skill {skill.uri!r} left out: mcpgen serves skill://<name>/SKILL.md")
            continue
        if skill.files is None:
            warnings.append(f"skill {name!r} left out: it is dynamic (no file manifest)")
            continue
        prefix = f"skill://{name}/"
        rels = [f.uri[len(prefix) :] for f in skill.files if f.uri.startswith(prefix)]
        if len(rels) != len(skill.files) or not all(_safe_path(r) for r in rels):
            warnings.append(f"skill {name!r} left out: a file path mcpgen cannot write safely")
            continue
        files = []
        for rel in sorted(rels):
            try:
                files.append((rel, await skills.read(skill, rel)))
            except SkillVerificationError as exc:
                raise McpgenError(f"{label}: {exc}") from None
        out.append(PulledSkill(name, tuple(files)))
    return out


def write_skill_folders(skills: list[PulledSkill], manifest: Path) -> list[str]:
    """Write each skill into ``skills/<name>/`` beside ``manifest``; its ``skills:`` entries.
    An existing folder is refused unless it holds exactly the pulled files (a re-pull), so
    nothing of the user's is overwritten or left to be bundled by mistake."""
    entries = []
    for skill in skills:
        folder = manifest.parent / "skills" / skill.name
        wanted = {rel for rel, _ in skill.files}
        if folder.exists():
            present = {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
            if present - wanted:
                extra = sorted(present - wanted)[0]
                raise McpgenError(
                    f"{folder}: holds {extra}, which the server's skill {skill.name!r} does "
                    "not; move the folder away to pull it"
                )
        for rel, data in skill.files:
            target = folder / rel
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(data)
            except OSError as exc:
                raise McpgenError(
                    f"cannot write: {exc.strerror or exc}", path=str(target)
                ) from None
        entries.append(f"skills/{skill.name}")
    return entries
