"""Writing generated trees: the only place (with the CLI) that touches the file system for output.

Rules:
* A generated tree is one *owned directory* (``mcp_wire/``, ``<pkg>/_generated/``) that mcpgen
  rewrites as a whole. It is written into a staging directory beside it and swapped in with
  renames, so a failure leaves the previous tree untouched. The owned directory carries a
  ``.mcpgen.json`` marker; mcpgen refuses to replace a non-empty directory without it (it may
  hold code a person wrote).
* *User files* (``handlers.py``, ``__main__.py``) are created once and never overwritten.
* ``--check`` compares in memory and renders a unified diff; nothing is written.
* The marker may also record the generation's *dependencies* (a depfile, as build systems keep
  one): every input file read, relative to the manifest's directory, with its sha256, and
  (``dependency_targets``, only when some differ) the file each one resolved to. A no-op check
  hashes exactly those files again (``current_dependencies``), stdlib only.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mcpgen import __version__
from mcpgen.outputs import (  # re-exported: their home is mcpgen.outputs
    MARKER,
    guard_tree,
    move_to_backup,
    read_marker,
    write_bytes_atomic,
)

__all__ = [
    "MARKER",
    "EmitResult",
    "create_user_files",
    "current_dependencies",
    "diff_owned_tree",
    "file_sha256",
    "inputs_digest",
    "is_up_to_date",
    "marker_text",
    "read_marker",
    "write_bytes_atomic",
    "write_owned_tree",
    "write_text_atomic",
]


def inputs_digest(*parts: bytes | str) -> str:
    """A sha256 over the generation inputs (sources, generator version, options)."""
    h = hashlib.sha256()
    h.update(f"mcpgen {__version__}\0".encode())
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


@dataclass
class EmitResult:
    written: list[str] = field(default_factory=list)
    created_user_files: list[str] = field(default_factory=list)
    kept_user_files: list[str] = field(default_factory=list)


def file_sha256(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def current_dependencies(marker: dict[str, object] | None, base_dir: Path) -> dict[str, str] | None:
    """The dependencies the marker records (relative path -> sha256) if every one of them still
    exists under ``base_dir`` with that sha256 and resolves to the same file; else None (also
    for a marker that records none)."""
    deps = (marker or {}).get("dependencies")
    if not isinstance(deps, dict):
        return None
    for rel, sha in deps.items():
        if not isinstance(rel, str) or not isinstance(sha, str) or Path(rel).is_absolute():
            return None
        if file_sha256(base_dir / rel) != sha:
            return None
    targets = (marker or {}).get("dependency_targets", {})
    if not isinstance(targets, dict):
        return None
    if targets:
        root = os.path.realpath(base_dir)
        for rel, target in targets.items():
            if rel not in deps or not isinstance(target, str):
                return None
            real = os.path.realpath(base_dir / rel)
            if Path(os.path.relpath(real, root)).as_posix() != target:
                return None
    return dict(deps)


def is_up_to_date(owned: Path, digest: str, marker: dict[str, object] | None = None) -> bool:
    """Cheap no-op test: the marker records the inputs digest of the last generation, and
    every file it lists still exists unchanged (by sha256). ``marker``: already read."""
    marker = marker if marker is not None else read_marker(owned)
    if not marker or marker.get("inputs_sha256") != digest:
        return False
    files = marker.get("files")
    if not isinstance(files, dict):
        return False
    for rel, sha in files.items():
        try:
            data = (owned / rel).read_bytes()
        except OSError:
            return False
        if hashlib.sha256(data).hexdigest() != sha:
            return False
    return True


def _bytes(content: str | bytes) -> bytes:
    return content.encode("utf-8") if isinstance(content, str) else content


def marker_text(
    files: Mapping[str, str | bytes],
    digest: str,
    dependencies: Mapping[str, str] | None = None,
    dependency_targets: Mapping[str, str] | None = None,
    facts: Mapping[str, object] | None = None,
    writer: str | None = None,
) -> str:
    listing = {rel: hashlib.sha256(_bytes(text)).hexdigest() for rel, text in sorted(files.items())}
    body: dict[str, object] = {
        "generator": f"mcpgen {__version__}",
        "inputs_sha256": digest,
        "files": listing,
    }
    if dependencies is not None:
        body["dependencies"] = dict(sorted(dependencies.items()))
    if dependency_targets:
        body["dependency_targets"] = dict(sorted(dependency_targets.items()))
    if facts:
        body["facts"] = dict(facts)
    if writer is not None:
        body["writer"] = writer
    return json.dumps(body, indent=2, sort_keys=True) + "\n"


def write_owned_tree(
    owned: Path,
    files: Mapping[str, str | bytes],
    digest: str,
    *,
    dependencies: Mapping[str, str] | None = None,
    dependency_targets: Mapping[str, str] | None = None,
    facts: Mapping[str, object] | None = None,
    writer: str,
    force: bool = False,
    inputs: Sequence[Path] = (),
) -> list[str]:
    """Replace directory ``owned`` with exactly ``files`` (relative POSIX paths -> text, or
    bytes for package data),
    atomically with respect to failures during writing. ``dependencies`` (input file relative
    to the manifest's directory -> sha256) and ``dependency_targets`` (input file -> the file it
    resolved to, where different) go into the marker for ``current_dependencies``; ``facts``
    (what the generator decided, as data) go into it for later runs' reports. ``writer``: the
    command (recorded in the marker; a tree another command wrote is refused, as
    ``mcpgen.outputs.guard_tree`` says, unless ``force``, which keeps it as ``owned.bak``);
    ``inputs``: the manifest and the files it reads, never replaced."""
    forced = guard_tree(owned, writer, force=force, inputs=inputs)
    owned.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{owned.name}.staging-", dir=owned.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(staging, 0o777 & ~umask)
    backup: Path | None = None
    try:
        for rel, text in sorted(files.items()):
            target = staging / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(text, bytes):
                target.write_bytes(text)
            else:
                with open(target, "w", encoding="utf-8", newline="\n") as fh:
                    fh.write(text)
        marker = marker_text(files, digest, dependencies, dependency_targets, facts, writer)
        (staging / MARKER).write_text(marker, encoding="utf-8")
        if forced:
            move_to_backup(owned)
        if owned.exists():
            backup = owned.parent / f".{owned.name}.old-{os.getpid()}"
            if backup.exists():
                shutil.rmtree(backup)
            os.replace(owned, backup)
        os.replace(staging, owned)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        if backup is not None and backup.exists() and not owned.exists():
            os.replace(backup, owned)
        raise
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)
    return sorted(files)


def write_text_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """Write one text file whole or not at all, as UTF-8 with its newlines as they are
    (``write_bytes_atomic``); ``McpgenError`` when it cannot be written."""
    write_bytes_atomic(path, text.encode("utf-8"), mode)


def create_user_files(root: Path, files: dict[str, str], result: EmitResult) -> None:
    """Create each file only if it does not exist yet; never touch an existing one."""
    for rel, text in sorted(files.items()):
        target = root / rel
        if target.exists():
            result.kept_user_files.append(rel)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "x", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        result.created_user_files.append(rel)


def diff_owned_tree(
    owned: Path,
    files: Mapping[str, str | bytes],
    *,
    label: str | None = None,
    marker: str | None = None,
) -> str:
    """Unified diff from what is on disk under ``owned`` to ``files``; "" when identical.
    Files on disk that would be removed show as deletions; package data (bytes) that differs
    shows as one line. ``marker``: the marker text a write would put beside them
    (``marker_text``), compared too, so that ``--check`` calls a tree up to date exactly when
    writing it would change no byte (a stale inputs digest is a difference)."""
    label = label or str(owned)
    on_disk: dict[str, str | bytes] = {}
    if owned.is_dir():
        for p in sorted(owned.rglob("*")):
            if p.is_file() and "__pycache__" not in p.parts and p.name != MARKER:
                rel = p.relative_to(owned).as_posix()
                try:
                    data = p.read_bytes()
                except OSError:
                    on_disk[rel] = "<unreadable>\n"
                    continue
                if isinstance(files.get(rel), bytes):
                    on_disk[rel] = data
                else:
                    try:
                        on_disk[rel] = data.decode("utf-8")
                    except UnicodeDecodeError:
                        on_disk[rel] = "<unreadable>\n"
    if marker is not None:
        files = {**files, MARKER: marker}
        try:
            on_disk[MARKER] = (owned / MARKER).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            pass
    chunks: list[str] = []
    for rel in sorted(set(on_disk) | set(files)):
        old = on_disk.get(rel)
        new = files.get(rel)
        if old == new:
            continue
        if isinstance(old, bytes) or isinstance(new, bytes):
            old, new = _as_text(old), _as_text(new)
            if isinstance(old, bytes) or isinstance(new, bytes):  # not UTF-8 text
                chunks.append(f"Binary file {label}/{rel} differs (package data)\n")
                continue
        chunks.extend(
            difflib.unified_diff(
                [] if old is None else old.splitlines(keepends=True),
                [] if new is None else new.splitlines(keepends=True),
                fromfile=f"{label}/{rel}" if old is not None else "/dev/null",
                tofile=f"{label}/{rel} (regenerated)" if new is not None else "/dev/null",
            )
        )
    return "".join(c if c.endswith("\n") else c + "\n" for c in chunks)


def _as_text(data: str | bytes | None) -> str | bytes | None:
    """Package data (a skill's Markdown, a view's HTML) as text when it is UTF-8, so a change
    shows as a diff; bytes when it is not."""
    if not isinstance(data, bytes):
        return data
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data
