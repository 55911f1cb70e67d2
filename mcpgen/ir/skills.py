"""The generator's view of the ``skills:`` section: per skill its front matter (canonical JSON)
and per file its path, MIME type, digest and size, computed here once, at generation, by the
runtime's own ``file_mime`` (so the package and the server agree on every byte)."""

from __future__ import annotations

from typing import NamedTuple

from mcpgen.ir.tools import canonical_json
from mcpgen.manifest.model import Manifest, sha256_hex

__all__ = ["SkillFileIR", "SkillIR", "prepare_skills"]


class SkillFileIR(NamedTuple):
    path: str
    """In the skill's folder (POSIX)."""
    mime_type: str
    binary: bool
    digest: str
    """``sha256:<64 lowercase hex>`` of the raw bytes."""
    size: int
    data: bytes

    @property
    def row(self) -> tuple[str, str, bool, str, int]:
        """What the generated ``SkillBinding.files`` holds for this file."""
        return (self.path, self.mime_type, self.binary, self.digest, self.size)


class SkillIR(NamedTuple):
    name: str
    frontmatter_json: str
    files: tuple[SkillFileIR, ...]

    @property
    def package_dir(self) -> str:
        """The skill's folder, relative to ``_generated``."""
        return f"skills/{self.name}"


def prepare_skills(manifest: Manifest) -> tuple[SkillIR, ...]:
    from mcpgen_runtime.skills_facts import file_mime

    out = []
    for skill in manifest.skills:
        files = []
        for f in skill.files:
            mime, binary = file_mime(f.path, f.data)
            digest = "sha256:" + sha256_hex(f.data)
            files.append(SkillFileIR(f.path, mime, binary, digest, len(f.data), f.data))
        out.append(SkillIR(skill.name, canonical_json(skill.frontmatter), tuple(files)))
    return tuple(out)
