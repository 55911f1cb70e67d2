"""The files resources name with ``file:``: read by the loader (the generator stays pure), each
checked to be a regular file inside the manifest's directory (symlinks resolved) and at most
``MAX_RESOURCE_FILE_BYTES``; recorded as a dependency so an up-to-date check sees a change."""

from __future__ import annotations

import os
from pathlib import Path

from mcpgen.manifest.model import Dependency, sha256_hex

__all__ = ["MAX_RESOURCE_FILE_BYTES", "read_resource_file"]

MAX_RESOURCE_FILE_BYTES = 16 * 1024 * 1024
"""The largest file a resource may ship (16 MiB): it is copied into the package and held in
memory by the server."""


def read_resource_file(base_dir: Path, spelled: str) -> tuple[bytes, Dependency] | str:
    """The bytes of ``spelled`` (relative to ``base_dir``) and its dependency record, or why it
    cannot be used."""
    if "\x00" in spelled:
        return f"file {spelled!r}: a file name cannot hold a NUL character"
    if Path(spelled).is_absolute() or spelled.startswith(("/", "\\")):
        return f"file {spelled!r} is an absolute path; name a file beside the manifest"
    root = base_dir.resolve()
    raw = base_dir / spelled
    try:
        path = raw.resolve(strict=True)
    except FileNotFoundError:
        return f"file {spelled!r} does not exist"
    except (OSError, RuntimeError) as exc:  # a symlink loop, a name too long
        return f"file {spelled!r} cannot be resolved: {getattr(exc, 'strerror', None) or exc}"
    if not path.is_relative_to(root):
        return f"file {spelled!r} is outside the manifest's directory ({root})"
    if not path.is_file():
        return f"file {spelled!r} is not a regular file"
    try:
        size = path.stat().st_size
        if size > MAX_RESOURCE_FILE_BYTES:
            return (
                f"file {spelled!r} is {size} bytes; the limit is {MAX_RESOURCE_FILE_BYTES} "
                "(16 MiB): serve larger contents from a handler"
            )
        with open(path, "rb") as fh:
            data = fh.read(MAX_RESOURCE_FILE_BYTES + 1)
    except OSError as exc:
        return f"file {spelled!r} cannot be read: {exc.strerror or exc}"
    if len(data) > MAX_RESOURCE_FILE_BYTES:
        return f"file {spelled!r} grew past the limit of {MAX_RESOURCE_FILE_BYTES} bytes"
    shown = Path(os.path.normpath(spelled)).as_posix()
    resolved = path.relative_to(root).as_posix()
    return data, Dependency(shown, sha256_hex(data), resolved)
