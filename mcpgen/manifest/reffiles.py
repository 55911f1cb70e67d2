"""The files a manifest's ``$ref``s name: each read once (from disk, or through ``read_bytes``,
e.g. from a git ref), hashed before it is parsed, and recorded as a dependency under the path
the ref spelled, so that an up-to-date check can hash the inputs without loading anything."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from mcpgen.diagnostics import Diagnostic
from mcpgen.errors import McpgenError
from mcpgen.manifest.model import Dependency, sha256_hex
from mcpgen.manifest.sourcemap import MAX_BYTES, Document, decode, parse_text, read_file

__all__ = ["RefFiles"]


class RefFiles:
    def __init__(
        self,
        root_dir: Path,
        diags: list[Diagnostic],
        read_bytes: Callable[[Path], bytes] | None = None,
    ) -> None:
        self.root_dir = root_dir
        self.diags = diags
        self.read_bytes = read_bytes
        self._files: dict[str, Document | McpgenError] = {}
        self._sha: dict[str, str] = {}  # resolved path -> sha256 of the bytes read before parsing
        self._deps: dict[str, str] = {}  # path as spelled (relative to the root) -> resolved path
        self._spelled: dict[tuple[Path, str], str] = {}

    def dependencies(self) -> tuple[Dependency, ...]:
        """The files loaded so far through file refs, sorted by spelled path (see
        ``Dependency``)."""
        out = []
        for spelled, key in sorted(self._deps.items()):
            if isinstance(self._files.get(key), Document):
                resolved = Path(key).relative_to(self.root_dir).as_posix()
                out.append(Dependency(spelled, self._sha.get(key, ""), resolved))
        return tuple(out)

    def note_dependency(self, base_dir: Path, ref_path: str, path: Path) -> None:
        """Record that ``ref_path`` (relative to ``base_dir``) named the file ``path``. The
        spelling keeps symlinks as written (a retargeted link is a changed input); ``..`` is
        folded only when the folded path still names the same file."""
        cache_key = (base_dir, ref_path)
        spelled = self._spelled.get(cache_key)
        if spelled is None:
            raw = base_dir / ref_path
            chosen = path  # an absolute ref through a link outside the root: the file opened
            for cand in (Path(os.path.normpath(raw)), raw):
                if cand.is_relative_to(self.root_dir) and (cand == raw or cand.resolve() == path):
                    chosen = cand
                    break
            spelled = self._spelled[cache_key] = chosen.relative_to(self.root_dir).as_posix()
        self._deps.setdefault(spelled, str(path))

    def document(self, path: Path, shown: str) -> Document | McpgenError:
        """The parsed file at ``path`` (``shown`` in messages), read and hashed once; a file
        that cannot be used is its error (reported by the caller where the ref is)."""
        key = str(path)
        if key not in self._files and self.read_bytes is not None:
            try:
                data = self.read_bytes(path)
                if len(data) > MAX_BYTES:
                    raise McpgenError(
                        f"file is larger than {MAX_BYTES // (1024 * 1024)} MiB; "
                        "refusing to load it",
                        path=shown,
                    )
                self._sha[key] = sha256_hex(data)
                doc = parse_text(decode(data, shown), shown)
            except McpgenError as exc:
                self._files[key] = exc
            else:
                self._files[key] = doc
                self.diags.extend(doc.diagnostics)
        if key not in self._files:
            try:  # read once: the bytes hashed are the bytes parsed
                data = read_file(path, regular_only=True)
                self._sha[key] = sha256_hex(data)
                doc = parse_text(decode(data, str(path)), str(path))
            except McpgenError as exc:
                self._files[key] = exc
            else:
                doc = Document(shown, doc.value, doc.source_map, doc.diagnostics)
                self._files[key] = doc
                self.diags.extend(doc.diagnostics)
        return self._files[key]
