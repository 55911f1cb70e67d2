"""Who wrote an output, and whether a command may replace it: the one guard every writing
command passes before it touches the file system.

Every output records the command that wrote it:

* a generated tree (``<pkg>/_generated/``, ``mcp_wire/``, a docs directory) in its
  ``.mcpgen.json`` marker, as ``"writer": "server"`` (``client``, ``cli``, ``docs``,
  ``protocol``); a marker from before this key is read by the files it lists;
* a single file in the file itself, as generated source carries its ``DO NOT EDIT`` header, so
  the output stays byte-stable and needs no sidecar: a bundle in its zip archive comment
  (``mcpgen bundle``), ``export summary`` by its ``format`` (``mcpgen.capabilities/v1``),
  ``export server-json`` in ``_meta["io.modelcontextprotocol.registry/publisher-provided"]``
  (``"tool": "mcpgen export server-json"``, the place the registry's schema gives publishers'
  tools), ``export server-card`` by its canonical form (exactly what mcpgen writes for the
  card's own members: a card edited by hand, or with members mcpgen never writes, is not
  mcpgen's).

A command refuses (``OutputRefused``, exit 2, one line, nothing changed) to replace a path it
did not write itself: another command's output, a file or directory a person wrote (the
package's ``handlers.py``, notes), a read-only file, a symlink. ``--force`` replaces it and
keeps the old one as ``PATH.bak``. Never, even with ``--force``: the manifest (or a file it
reads), a directory where a file goes, a path inside the package a bundle packs.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from mcpgen.errors import McpgenError

__all__ = [
    "BUNDLE_COMMENT",
    "MARKER",
    "OutputRefused",
    "PUBLISHER_META",
    "SERVER_JSON_TOOL",
    "backup_path",
    "guard_file",
    "guard_tree",
    "is_bundle",
    "is_server_card",
    "is_server_json",
    "is_summary",
    "move_to_backup",
    "read_marker",
    "tree_writer",
    "write_bytes_atomic",
    "write_file",
]

MARKER = ".mcpgen.json"
BUNDLE_COMMENT = b"written by mcpgen bundle"
SERVER_JSON_TOOL = "mcpgen export server-json"
PUBLISHER_META = "io.modelcontextprotocol.registry/publisher-provided"
_FORCE = "refusing to replace it (--force replaces it and keeps the old one as {bak})"


class OutputRefused(McpgenError):
    """An output path a command may not replace (exit 2)."""


def read_marker(owned: Path) -> dict[str, object] | None:
    """The ``.mcpgen.json`` marker of a generated tree, or None (absent, unreadable)."""
    try:
        data = json.loads((owned / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def write_bytes_atomic(path: Path, data: bytes, mode: int = 0o644) -> None:
    """Write one file whole or not at all (a temporary file in the same folder, fsynced,
    renamed over ``path``); folders are created. ``McpgenError`` when it cannot be written."""
    tmp: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp is not None:
            Path(tmp).unlink(missing_ok=True)
        raise McpgenError(
            f"cannot write: {exc.strerror or exc}", path=str(exc.filename or path)
        ) from None


def backup_path(path: Path) -> Path:
    return path.with_name(path.name + ".bak")


def _same(a: Path, b: Path) -> bool:
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except OSError:
        return False


def _inside(path: Path, folder: Path) -> bool:
    real, root = os.path.realpath(path), os.path.realpath(folder)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _legacy_writer(files: object) -> str | None:
    """The writer of a marker written before markers named it, from the files it lists."""
    if not isinstance(files, dict) or not files:
        return None
    names = {str(k) for k in files}
    if names <= {"README.md", "index.html"}:
        return "docs"
    if "_base.py" in names:
        return "protocol"
    if "server.py" in names or "discovery.py" in names:
        return "server"
    if "cli.py" in names:
        return "cli"
    if "client.py" in names:
        return "client"
    return None


def tree_writer(marker: dict[str, object] | None) -> str | None:
    """The command that wrote a tree, from its marker (None: unknown)."""
    if marker is None:
        return None
    writer = marker.get("writer")
    if isinstance(writer, str):
        return writer
    return _legacy_writer(marker.get("files"))


def _user_file_note(path: Path) -> str:
    """Why a file is a person's, when it is one of a generated package's own files."""
    if (path.parent / "_generated" / MARKER).is_file() and path.suffix == ".py":
        return f" (a file of the package {path.parent.name} that mcpgen never overwrites)"
    return ""


def _refuse_inputs(path: Path, inputs: Iterable[Path], what: str) -> None:
    for src in inputs:
        if src.exists() and (_same(path, src) or (path.is_dir() and _inside(src, path))):
            role = "is the manifest" if _same(path, src) else f"holds the manifest {src}"
            raise OutputRefused(
                f"{role} this command reads; refusing to write {what} there (give another path)",
                path=str(path),
            )


def guard_file(
    path: Path,
    writer: str,
    mine: Callable[[bytes], bool],
    *,
    force: bool,
    inputs: Iterable[Path] = (),
    inside: Path | None = None,
) -> bool:
    """Refuse to write the single-file output ``path`` unless ``writer`` (``bundle``,
    ``export server-json``, ...) may replace what is there: nothing, or a regular, writable
    file ``mine(bytes)`` recognises. ``inputs``: the manifest and the files it reads, never
    replaced; ``inside``: a directory no output may go into (the package a bundle packs).
    Returns True when ``--force`` lets it replace a path it would refuse: ``write_file`` keeps
    the old one as ``PATH.bak``. No side effect."""
    what = f"the output of mcpgen {writer}"
    _refuse_inputs(path, inputs, what)
    if inside is not None and _inside(path, inside):
        raise OutputRefused(
            f"is inside the package being bundled ({inside}); a bundle is written outside it",
            path=str(path),
        )
    if path.is_dir() and not path.is_symlink():
        raise OutputRefused(
            f"is a directory; give the file to write, e.g. {path}/NAME", path=str(path)
        )
    if not path.exists() and not path.is_symlink():
        return False
    how = _FORCE.format(bak=backup_path(path).name)
    if path.is_symlink():
        reason = f"is a symlink (to {os.readlink(path)}); mcpgen writes regular files only"
    else:
        try:
            data = path.read_bytes()
        except OSError as exc:
            raise OutputRefused(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
        if not mine(data):
            reason = f"was not written by mcpgen {writer}{_user_file_note(path)}"
        elif not path.stat().st_mode & 0o222:  # by its mode (root may write anything)
            reason = "is read-only"
        else:
            return False
    if not force:
        raise OutputRefused(f"{reason}; {how}", path=str(path))
    return True


def write_file(path: Path, data: bytes, *, backup: bool) -> None:
    """Write ``data`` to ``path`` whole or not at all (mode 0644); with ``backup`` (what
    ``guard_file`` returned) the old path is first moved to ``PATH.bak``."""
    if backup:
        bak = backup_path(path)
        if bak.is_dir() and not bak.is_symlink():
            raise OutputRefused(f"{bak} is a directory; cannot keep the old file there")
        os.replace(path, bak)
    write_bytes_atomic(path, data)


def guard_tree(owned: Path, writer: str, *, force: bool, inputs: Iterable[Path] = ()) -> bool:
    """Refuse to replace the generated tree ``owned`` unless ``writer`` wrote it (or it is
    absent, or an empty directory). Returns True when ``--force`` lets it replace a tree it
    would refuse (``move_to_backup`` moves it to ``owned.bak`` before the new tree goes in).
    No side effect."""
    _refuse_inputs(owned, inputs, f"the output of mcpgen {writer}")
    if not owned.exists() and not owned.is_symlink():
        return False
    how = _FORCE.format(bak=backup_path(owned).name)
    if owned.is_symlink():
        reason = f"is a symlink (to {os.readlink(owned)}); mcpgen writes a real directory"
    elif not owned.is_dir():
        reason = f"is a file, not a directory mcpgen {writer} wrote{_user_file_note(owned)}"
    else:
        marker = read_marker(owned)
        found = tree_writer(marker)
        if marker is None:
            if not any(p.name != "__pycache__" for p in owned.iterdir()):
                return False
            reason = f"is not empty and was not written by mcpgen (no {MARKER})"
        elif found != writer:
            by = f"mcpgen {found}" if found else "another mcpgen command"
            reason = f"was written by {by}, not mcpgen {writer}"
        else:
            return False
    if not force:
        raise OutputRefused(f"{reason}; {how}", path=str(owned))
    return True


def move_to_backup(owned: Path) -> None:
    """Move ``owned`` (a tree, file or link ``--force`` replaces) to ``owned.bak``."""
    bak = backup_path(owned)
    if bak.is_dir() and not bak.is_symlink():
        shutil.rmtree(bak)
    elif bak.exists() or bak.is_symlink():
        bak.unlink()
    os.replace(owned, bak)


def is_bundle(data: bytes) -> bool:
    return data.startswith(b"PK") and data.endswith(BUNDLE_COMMENT)


def is_summary(data: bytes) -> bool:
    from mcpgen.summary import FORMAT

    doc = _json(data)
    return isinstance(doc, dict) and doc.get("format") == FORMAT


def is_server_json(data: bytes) -> bool:
    doc = _json(data)
    meta = doc.get("_meta") if isinstance(doc, dict) else None
    provided = meta.get(PUBLISHER_META) if isinstance(meta, dict) else None
    return isinstance(provided, dict) and provided.get("tool") == SERVER_JSON_TOOL


def is_server_card(data: bytes) -> bool:
    from mcpgen_runtime.server_card import CARD_SCHEMA, CardError, server_card

    doc = _json(data)
    if not isinstance(doc, dict) or doc.get("$schema") != CARD_SCHEMA:
        return False
    remotes = doc.get("remotes") or [{}]
    remote = remotes[0] if isinstance(remotes, list) and isinstance(remotes[0], dict) else {}
    try:
        again = server_card(
            doc,
            name=doc.get("name"),
            remote_url=remote.get("url"),
            protocol_versions=remote.get("supportedProtocolVersions") or (),
        )
    except (CardError, TypeError, AttributeError):
        return False
    return card_text(again).encode() == data


def card_text(card: object) -> str:
    return json.dumps(card, indent=2, ensure_ascii=False) + "\n"


def _json(data: bytes) -> object:
    try:
        return json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
