"""The ``skills:`` section: skill folders next to the manifest (the skills extension,
``io.modelcontextprotocol/skills``, SEP-2640), read by the loader like ``file:`` resources.

Each entry names a folder (``path``) inside the manifest's directory. Its ``SKILL.md`` opens with
YAML front matter (the Agent Skills format): ``name`` (1-64 characters, lowercase letters, digits
and single inner hyphens, equal to the folder's name) and ``description`` (1-1024 characters).
Every regular file of the folder is bundled byte for byte; names starting with ``.`` (and the
folders they name) are left out. The same limits as ``file:`` resources hold per file (16 MiB),
and per skill at most 512 files and 16 MiB in all (the extension's own ceilings).

Findings are ``Diagnostic``s with positions: the folder's problems at the manifest entry
(``SKILL_FOLDER``), the front matter's inside ``SKILL.md`` itself (``SKILL_FRONTMATTER``,
``SKILL_NAME``, ``SKILL_DESCRIPTION``, ``SKILL_METADATA_RESERVED``), a name used twice at the
second entry (``SKILL_NAME_UNIQUE``). The front matter is parsed by the manifest's own YAML
reader (YAML 1.2 scalars, the ones the extension's JSON carries, libyaml underneath).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from mcpgen.diagnostics import Diagnostic, Location, Severity
from mcpgen.manifest.model import Dependency, sha256_hex
from mcpgen.manifest.resource_files import MAX_RESOURCE_FILE_BYTES

__all__ = [
    "MAX_SKILL_BYTES",
    "MAX_SKILL_FILES",
    "NAME_PATTERN",
    "SkillDef",
    "SkillFile",
    "load_skills",
    "split_front_matter",
    "taken_uris",
]

MAX_SKILL_FILES = 512
"""Files per skill, ``SKILL.md`` included (the extension: servers SHOULD NOT serve more)."""
MAX_SKILL_BYTES = 16 * 1024 * 1024
"""Bytes per skill, summed over its files (the extension: servers SHOULD NOT serve more)."""
NAME_PATTERN = re.compile(r"^(?!.*--)[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$")
"""The Agent Skills naming rule: 1-64 characters, lowercase alphanumerics and hyphens, no
leading, trailing or consecutive hyphen."""
MAX_DESCRIPTION = 1024
RESERVED_PREFIX = "io.modelcontextprotocol/"
_FENCE = re.compile(r"^---[ \t]*\r?\n(.*?)(?:\r?\n)?^---[ \t]*(?:\r?\n|\Z)", re.S | re.M)


class SkillFile(NamedTuple):
    path: str
    """Relative to the skill's folder, POSIX separators (``SKILL.md``, ``references/a.md``)."""
    data: bytes


class SkillDef(NamedTuple):
    """One entry of ``skills:`` as loaded."""

    name: str
    """The front matter's ``name`` (equal to the folder's last segment when valid)."""
    folder: str
    """The folder as written, normalized (POSIX, relative to the manifest)."""
    pointer: str
    frontmatter: dict[str, Any]
    """The front matter as a JSON object, exactly as ``skills/list`` carries it."""
    files: tuple[SkillFile, ...]
    """Every file, sorted by path (``SKILL.md`` among them); empty when the manifest was read
    from a git ref (only ``SKILL.md`` is read there)."""
    raw: dict[str, Any]
    paths: tuple[str, ...] | None = None
    """Every file's path, sorted (also from a git ref, when the reader can list a folder:
    ``read_bytes.list_files``); None when unknown."""


Report = Callable[[Diagnostic], None]


def split_front_matter(text: str) -> tuple[str, int] | None:
    """(the YAML between the opening and closing ``---`` lines, the 1-based line it starts
    on), or None when the text does not begin with a front matter block."""
    body = text[1:] if text.startswith("\ufeff") else text
    m = _FENCE.match(body)
    if m is None:
        return None
    return m.group(1), 2


def load_skills(
    entries: Any,
    base_dir: Path,
    locate: Callable[[str], Location],
    report: Report,
    deps: list[Dependency],
    read_bytes: Callable[[Path], bytes] | None = None,
) -> tuple[SkillDef, ...]:
    """The skills ``entries`` (the manifest's ``skills`` value) name; problems go to
    ``report``. ``read_bytes``: the manifest comes from a git ref (only ``SKILL.md`` is read,
    through it)."""
    if not isinstance(entries, list):
        return ()
    out: list[SkillDef] = []
    seen: dict[str, str] = {}
    for i, entry in enumerate(entries):
        pointer = f"/skills/{i}"
        spelled = entry.get("path") if isinstance(entry, dict) else None
        if not isinstance(spelled, str) or not spelled:
            continue  # the structure check reports it
        here = locate(pointer + "/path")

        def bad(message: str, rule: str = "SKILL_FOLDER", at: Location = here) -> None:
            report(Diagnostic(rule, Severity.ERROR, at, message))

        skill = _load_one(spelled, pointer, entry, base_dir, bad, report, deps, read_bytes)
        if skill is None:
            continue
        if skill.name in seen:
            bad(
                f"skill name {skill.name!r} is already served by {seen[skill.name]!r}; "
                "a host keys skills by name",
                "SKILL_NAME_UNIQUE",
            )
            continue
        seen[skill.name] = skill.folder
        out.append(skill)
    return tuple(out)


def _load_one(
    spelled: str,
    pointer: str,
    entry: dict[str, Any],
    base_dir: Path,
    bad: Callable[..., None],
    report: Report,
    deps: list[Dependency],
    read_bytes: Callable[[Path], bytes] | None,
) -> SkillDef | None:
    if "\x00" in spelled or Path(spelled).is_absolute() or spelled.startswith(("/", "\\")):
        bad(f"skill folder {spelled!r} must be a relative path beside the manifest")
        return None
    folder = Path(os.path.normpath(spelled)).as_posix()
    if read_bytes is not None:  # a git ref: the front matter only
        try:
            data = read_bytes(base_dir / folder / "SKILL.md")
        except (OSError, KeyError, ValueError):
            bad(f"skill folder {spelled!r} has no SKILL.md at that ref")
            return None
        fm = _front_matter(
            data, (base_dir / folder / "SKILL.md").as_posix(), Path(folder).name, report
        )
        if fm is None:
            return None
        lister = getattr(read_bytes, "list_files", None)
        listed = lister(base_dir / folder) if callable(lister) else None
        paths = tuple(sorted(p for p in listed if not _hidden(p))) if listed is not None else None
        return SkillDef(fm["name"], folder, pointer, fm, (), entry, paths)
    root = base_dir.resolve()
    try:
        where = (base_dir / spelled).resolve(strict=True)
    except FileNotFoundError:
        bad(f"skill folder {spelled!r} does not exist")
        return None
    except (OSError, RuntimeError) as exc:
        bad(f"skill folder {spelled!r} cannot be resolved: {getattr(exc, 'strerror', None) or exc}")
        return None
    if not where.is_relative_to(root):
        bad(f"skill folder {spelled!r} is outside the manifest's directory ({root})")
        return None
    if not where.is_dir():
        bad(f"skill folder {spelled!r} is not a directory")
        return None
    files = _walk(where, spelled, bad)
    if files is None:
        return None
    if "SKILL.md" not in {f.path for f in files}:
        bad(f"skill folder {spelled!r} has no SKILL.md at its root")
        return None
    shown = (base_dir / folder / "SKILL.md").as_posix()
    data = next(f.data for f in files if f.path == "SKILL.md")
    fm = _front_matter(data, shown, where.name, report)
    if fm is None:
        return None
    for f in files:
        rel = f"{folder}/{f.path}"
        deps.append(Dependency(rel, sha256_hex(f.data), rel))
    return SkillDef(fm["name"], folder, pointer, fm, files, entry, tuple(f.path for f in files))


def _unservable(rel: str) -> str | None:
    """What in a skill file's path a ``skill://`` URI cannot carry as it is: ``#`` (a
    fragment), ``?`` (a query), ``%`` (an escape), ``\\``, white space or a control character;
    None when there is nothing."""
    for ch in rel:
        if ch in "#?%\\":
            return repr(ch)
        if ch.isspace() or ord(ch) < 32 or ord(ch) == 127:
            return "a space" if ch == " " else f"the character {ch!r}"
    return None


def _hidden(path: str) -> bool:
    return any(part.startswith(".") for part in path.split("/"))


def _walk(where: Path, spelled: str, bad: Callable[..., None]) -> tuple[SkillFile, ...] | None:
    """Every regular file under ``where`` (dot-names left out), sorted; None after reporting
    the first file that cannot be bundled."""
    found: list[SkillFile] = []
    total = 0
    for dirpath, dirnames, filenames in os.walk(where, followlinks=False):
        here = Path(dirpath)
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for d in dirnames:
            if (here / d).is_symlink():
                rel = (here / d).relative_to(where).as_posix()
                target = (here / d).resolve()
                why = "points outside it" if not target.is_relative_to(where) else "is a symlink"
                bad(f"{spelled}/{rel}: a folder in a skill that {why}; skills hold real files")
                return None
        for name in sorted(n for n in filenames if not n.startswith(".")):
            path = here / name
            rel = path.relative_to(where).as_posix()
            odd = _unservable(rel)
            if odd is not None:
                bad(
                    f"{spelled}/{rel!r}: a skill file name with {odd} cannot be served as "
                    "skill://NAME/PATH (a URI would read it otherwise, and mcpgen pull "
                    "refuses it); rename it"
                )
                return None
            try:
                real = path.resolve(strict=True)
            except (OSError, RuntimeError):
                bad(f"{spelled}/{rel} cannot be resolved (a dangling symlink?)")
                return None
            if not real.is_relative_to(where):
                bad(f"{spelled}/{rel} is a symlink out of the skill folder (to {real})")
                return None
            if not real.is_file():
                bad(f"{spelled}/{rel} is not a regular file")
                return None
            size = real.stat().st_size
            if size > MAX_RESOURCE_FILE_BYTES:
                bad(
                    f"{spelled}/{rel} is {size} bytes; the limit is {MAX_RESOURCE_FILE_BYTES} "
                    "(16 MiB) per file"
                )
                return None
            try:
                data = real.read_bytes()
            except OSError as exc:
                bad(f"{spelled}/{rel} cannot be read: {exc.strerror or exc}")
                return None
            total += len(data)
            found.append(SkillFile(rel, data))
    if len(found) > MAX_SKILL_FILES:
        bad(f"skill folder {spelled!r} holds {len(found)} files; the limit is {MAX_SKILL_FILES}")
        return None
    if total > MAX_SKILL_BYTES:
        bad(
            f"skill folder {spelled!r} holds {total} bytes; the limit is {MAX_SKILL_BYTES} (16 MiB)"
        )
        return None
    return tuple(sorted(found, key=lambda f: f.path))


def _front_matter(
    data: bytes, shown: str, folder_name: str, report: Report
) -> dict[str, Any] | None:
    """The front matter of ``SKILL.md`` as a JSON object, or None after reporting why not."""
    from mcpgen.errors import McpgenError
    from mcpgen.manifest.sourcemap import decode, parse_text

    def at(line: int = 1, col: int = 1, pointer: str = "") -> Location:
        return Location(shown, line, col, pointer)

    def fail(rule: str, message: str, where: Location | None = None) -> None:
        report(Diagnostic(rule, Severity.ERROR, where or at(), message))

    try:
        text = decode(data, shown)
    except McpgenError as exc:
        fail("SKILL_FRONTMATTER", exc.message, at(exc.line or 1, exc.col or 1))
        return None
    split = split_front_matter(text)
    if split is None:
        fail(
            "SKILL_FRONTMATTER",
            "SKILL.md must begin with YAML front matter: a `---` line, `name:` and "
            "`description:`, and a closing `---` line",
        )
        return None
    yaml_text, first = split
    try:
        doc = parse_text("\n" * (first - 1) + yaml_text, shown + ".yaml")
    except McpgenError as exc:
        fail("SKILL_FRONTMATTER", exc.message, at(exc.line or first, exc.col or 1))
        return None
    smap = doc.source_map
    for d in doc.diagnostics:  # YAML_IMPLICIT_TYPE, YAML_TIMESTAMP, DUPLICATE_KEY
        report(d._replace(location=d.location._replace(path=shown)))

    def loc(pointer: str, key: bool = False) -> Location:
        line, col = smap.locate(pointer, key=key)
        return at(line, col, pointer)

    fm = doc.value
    if not isinstance(fm, dict):
        fail(
            "SKILL_FRONTMATTER",
            "the front matter must be a mapping (`name:`, `description:`)",
            at(first),
        )
        return None
    ok = True
    name = fm.get("name")
    if not isinstance(name, str) or not name:
        fail("SKILL_FRONTMATTER", "the front matter has no `name` string", loc("/name"))
        ok = False
    elif not NAME_PATTERN.match(name):
        fail(
            "SKILL_NAME",
            f"skill name {name!r}: 1-64 characters, lowercase letters, digits and hyphens, "
            "no leading, trailing or doubled hyphen",
            loc("/name"),
        )
        ok = False
    elif name != folder_name:
        fail(
            "SKILL_NAME",
            f"skill name {name!r} differs from its folder's name {folder_name!r}; the "
            "skill:// URI ends in the folder and clients check that it is the name",
            loc("/name"),
        )
        ok = False
    desc = fm.get("description")
    if not isinstance(desc, str) or not desc.strip():
        fail(
            "SKILL_FRONTMATTER",
            "the front matter has no non-empty `description` string",
            loc("/description"),
        )
        ok = False
    elif len(desc) > MAX_DESCRIPTION:
        fail(
            "SKILL_DESCRIPTION",
            f"the description is {len(desc)} characters; the limit is {MAX_DESCRIPTION}",
            loc("/description"),
        )
        ok = False
    meta = fm.get("metadata")
    if isinstance(meta, dict):
        for key in meta:
            if isinstance(key, str) and key.startswith(RESERVED_PREFIX):
                report(
                    Diagnostic(
                        "SKILL_METADATA_RESERVED",
                        Severity.WARNING,
                        loc(f"/metadata/{key.replace('~', '~0').replace('/', '~1')}", key=True),
                        f"metadata key {key!r}: keys under {RESERVED_PREFIX} are reserved for "
                        "MCP extensions, which define none",
                    )
                )
    return fm if ok else None


def taken_uris(
    skills: tuple[SkillDef, ...],
    resources: Any,
    locate: Callable[[str], Location],
    report: Report,
) -> None:
    """``SKILL_URI_TAKEN`` for each declared resource whose URI is in a skill's
    ``skill://<name>/`` space (one of the two could not be read)."""
    spaces = {f"skill://{s.name}/": s for s in skills}
    for item in resources:
        uri = item.raw.get("uri")
        if not isinstance(uri, str):
            continue
        for space, skill in spaces.items():
            if uri.startswith(space) or uri == space.rstrip("/"):
                report(
                    Diagnostic(
                        "SKILL_URI_TAKEN",
                        Severity.ERROR,
                        locate(item.pointer + "/uri"),
                        f"resource URI {uri!r} is inside skill {skill.name!r} "
                        f"({space}...), whose files the server serves there",
                    )
                )
