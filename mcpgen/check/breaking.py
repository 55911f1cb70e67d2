"""`mcpgen breaking`: changes between two manifests that make an existing client or model fail.

The rules themselves live in ``mcpgen_runtime.breaking`` (one place for ``mcpgen breaking``,
``mcpgen drift`` and a generated client's ``verify=True``; ``rules_breaking`` registers them with
the rule registry); this module runs them on two manifests and turns their JSON pointers into
file positions: every finding points at the new manifest and names the old location in ``related``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from mcpgen.check import rules_breaking  # noqa: F401  (the rules this module emits)
from mcpgen.diagnostics import Diagnostic, Location, Severity
from mcpgen.manifest.model import Manifest
from mcpgen_runtime.breaking.pairs import ToolRef
from mcpgen_runtime.breaking.skills import SkillSide, compare_skills
from mcpgen_runtime.breaking.surface import compare_surface
from mcpgen_runtime.breaking.tools import compare_tools


@dataclass
class Emitter:
    old: Manifest
    new: Manifest
    active: dict[str, Severity]

    def __post_init__(self) -> None:
        self.diagnostics: list[Diagnostic] = []

    def loc(self, m: Manifest, pointer: str, key: bool) -> Location:
        line, col = m.source_map.locate(pointer, key=key)
        return Location(m.path, line, col, pointer)

    def __call__(
        self,
        rule_id: str,
        new_ptr: str,
        old_ptr: str,
        message: str,
        *,
        new_key: bool = False,
        old_key: bool = True,
    ) -> None:
        sev = self.active.get(rule_id)
        if sev is None:
            return
        self.diagnostics.append(
            Diagnostic(
                rule_id,
                sev,
                self.loc(self.new, new_ptr, new_key),
                message,
                (self.loc(self.old, old_ptr, old_key),),
            )
        )


def _refs(m: Manifest) -> list[ToolRef]:
    return [ToolRef(t.name, t.raw, t.pointer) for t in m.tools]


def _sections(m: Manifest) -> dict[str, list[tuple[dict[str, Any], str]]]:
    return {
        "resources": [(r.raw, r.pointer) for r in m.resources],
        "resourceTemplates": [(t.raw, t.pointer) for t in m.templates],
        "prompts": [(p.raw, p.pointer) for p in m.prompts],
    }


def compare(
    old: Manifest,
    new: Manifest,
    active: dict[str, Severity],
    *,
    live: bool = False,
    live_skills: Sequence[SkillSide] = (),
) -> list[Diagnostic]:
    """Breaking changes from ``old`` to ``new``; ``live``: ``new`` is what a server lists (no
    completions, which a live server does not show; its skills are ``live_skills``, read
    from the server, not from folders)."""
    em = Emitter(old, new, active)
    raw = new.raw if isinstance(new.raw, dict) else {}
    tools_ptr = "/tools" if "tools" in raw else ""
    compare_tools(_refs(old), _refs(new), em, tools_pointer=tools_ptr)
    at = {k: f"/{k}" if k in raw else "" for k in ("resources", "resourceTemplates", "prompts")}
    compare_surface(em, _sections(old), _sections(new), at, completions=not live)
    if not live and (old.server.discovery or new.server.discovery):
        from mcpgen_runtime.breaking.discovery import compare_discovery

        server = raw.get("server")
        server = server if isinstance(server, dict) else {}
        where = "/server/discovery" if "discovery" in server else "/server" if server else ""
        compare_discovery(
            em, old.server.discovery, new.server.discovery, [t.raw for t in new.tools], where
        )
    if old.skills:

        def sides(m: Manifest) -> list[SkillSide]:
            return [SkillSide(s.name, s.pointer, s.paths) for s in m.skills]

        after = list(live_skills) if live else sides(new)
        compare_skills(em, sides(old), after, "/skills" if "skills" in raw else "")
    return em.diagnostics
