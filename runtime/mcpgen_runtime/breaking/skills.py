"""Breaking changes in skills (the skills extension, SEP-2640): a skill removed, and a file
removed from a skill that stays. Skills are paired by name; each side is a list of ``SkillSide``
(the file list is None where it is not known, e.g. a manifest read from a git ref whose folder
could not be listed: then files are not compared)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .pairs import Emit

__all__ = ["SkillSide", "compare_skills"]


class SkillSide(NamedTuple):
    name: str
    pointer: str
    """Where the skill's entry is (``/skills/<i>``)."""
    paths: tuple[str, ...] | None


def compare_skills(emit: Emit, old: Sequence[SkillSide], new: Sequence[SkillSide], at: str) -> None:
    """``at``: the pointer of the new side's ``skills`` list ("" when it has none)."""
    new_by = {s.name: s for s in new}
    for before in old:
        after = new_by.get(before.name)
        if after is None:
            emit(
                "SKILL_NO_DELETE",
                at,
                before.pointer + "/path",
                f"skill {before.name!r} was removed",
                new_key=True,
            )
            continue
        if before.paths is None or after.paths is None:
            continue
        gone = sorted(set(before.paths) - set(after.paths))
        for path in gone:
            emit(
                "SKILL_FILE_NO_DELETE",
                after.pointer + "/path",
                before.pointer + "/path",
                f"skill {before.name!r}: file {path!r} was removed (skill://{before.name}/{path})",
                old_key=False,
            )
