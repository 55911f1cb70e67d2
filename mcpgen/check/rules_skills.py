"""Rules for the ``skills:`` section (the skills extension, SEP-2640). The loader emits them
(``mcpgen.manifest.skills``) while it reads each skill folder, so ``mcpgen server`` refuses
exactly what ``check`` reports; front-matter findings point inside ``SKILL.md``."""

from __future__ import annotations

from mcpgen.check.registry import LOAD, E, W, rule

_EXT = "The skills extension (SEP-2640) and the Agent Skills format require it"

rule(
    "SKILL_FOLDER",
    LOAD,
    E,
    "A skill's `path` is a folder inside the manifest's directory with a SKILL.md; every file "
    "in it is a regular file inside the folder (no symlink out), at most 16 MiB, named without "
    "#, ?, %, \\, spaces or control characters, and a skill holds at most 512 files and 16 MiB.",
    why="The folder is copied into the generated package byte for byte: a file outside the "
    "project or a huge one is never what a server should ship, and hosts refuse larger skills.",
)
rule(
    "SKILL_FRONTMATTER",
    LOAD,
    E,
    "SKILL.md begins with YAML front matter (`---` lines) that is a mapping with a `name` and "
    "a non-empty `description`.",
    why=_EXT + "; `skills/list` carries the front matter as the skill's entry, and hosts "
    "compare it with the file before loading the skill.",
)
rule(
    "SKILL_NAME",
    LOAD,
    E,
    "A skill's name is 1-64 lowercase letters, digits and single inner hyphens, and equals its "
    "folder's name.",
    why=_EXT + "; the name is the last segment of the skill:// URI, and clients check both.",
)
rule(
    "SKILL_DESCRIPTION",
    LOAD,
    E,
    "A skill's description is at most 1024 characters.",
    why=_EXT + "; hosts put every description in the model's context.",
)
rule(
    "SKILL_NAME_UNIQUE",
    LOAD,
    E,
    "No two skills have the same name.",
    why="Both would be served at the same skill:// URI: only one could be read.",
)
rule(
    "SKILL_METADATA_RESERVED",
    LOAD,
    W,
    "Front matter `metadata` keys do not use the reserved `io.modelcontextprotocol/` prefix.",
    why="The prefix is reserved for metadata MCP extensions define; none is defined yet.",
)
rule(
    "SKILL_URI_TAKEN",
    LOAD,
    E,
    "No declared resource has a URI inside a skill's `skill://<name>/`.",
    why="The skill serves its files there: one of the two could never be read.",
)
