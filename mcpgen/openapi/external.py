"""The files an OpenAPI document's external ``$ref``s point to (``--allow-external-refs``).

Without the option an external ``$ref`` is refused at its place. With it, every ``$ref`` to
another file is followed, transitively, before anything is validated: each file must lie inside
the main document's directory (symlinks resolved), is read with positions like the main
document, and is never fetched from the network (a URL ``$ref`` is refused, as is any ``$ref``
of a document given by URL).

Pointers into another file are written ``FILE#/pointer`` (FILE relative to the main document's
directory, POSIX); pointers into the main document stay plain (``/paths/...``), so the converter
passes one string around and ``Sources`` knows which document it means.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote

from mcpgen.errors import McpgenError
from mcpgen.manifest.sourcemap import Document, load_document
from mcpgen_runtime.jsonschema_facts import escape_token, resolve_pointer

__all__ = ["Sources", "collect"]

MAX_FILES = 1000


@dataclass
class Sources:
    main: Document
    spec: str
    root: Path | None
    """The main document's directory (None for a URL: no file is ever read)."""
    docs: dict[str, Document] = field(default_factory=dict)
    """Other files, by their POSIX path relative to ``root``."""

    @staticmethod
    def split(pointer: str) -> tuple[str | None, str]:
        if pointer == "" or pointer.startswith("/"):
            return None, pointer
        key, _, ptr = pointer.partition("#")
        return key, ptr

    def document(self, key: str | None) -> Document:
        return self.main if key is None else self.docs[key]

    def value(self, pointer: str) -> tuple[bool, Any]:
        key, ptr = self.split(pointer)
        return resolve_pointer(self.document(key).value, ptr)

    def where(self, pointer: str) -> tuple[str, int, int]:
        """(file as shown, line, col) of ``pointer``."""
        key, ptr = self.split(pointer)
        doc = self.document(key)
        line, col = doc.source_map.locate(ptr)
        return (self.spec if key is None else self.shown(key)), line, col

    def shown(self, key: str) -> str:
        """Another file's path as the user would write it: beside the document as given."""
        return str(Path(self.spec).parent / key)

    def fail(self, message: str, pointer: str) -> McpgenError:
        path, line, col = self.where(pointer)
        return McpgenError(message, path=path, line=line, col=col)

    def target(self, ref: str, at: str) -> str:
        """The pointer ``ref`` (found at ``at``) lands on, in ``FILE#/ptr`` form for another
        file; the file must have been collected."""
        here, _ = self.split(at)
        if ref.startswith("#"):
            ptr = unquote(ref[1:])
            return ptr if here is None else f"{here}#{ptr}"
        file_part, _, frag = ref.partition("#")
        key = self.key_of(here, file_part)
        if key is None or key not in self.docs:
            raise self.fail(f"external $ref {ref!r} is not supported here", at)
        return f"{key}#{unquote(frag)}"

    def chase(self, ref: str, at: str) -> None:
        """Follow a chain of ``$ref``-only objects from ``ref``; a chain that comes back is a
        cycle, refused at ``at`` (the validator would only recurse until it gives up)."""
        seen: set[str] = set()
        while True:
            try:
                target = self.target(ref, at)
            except McpgenError:
                return  # the converter reports refs that do not land
            if target in seen:
                raise self.fail(f"$ref cycle through {ref!r}", at)
            seen.add(target)
            ok, value = self.value(target)
            if not (ok and isinstance(value, dict) and isinstance(value.get("$ref"), str)):
                return
            ref, at = value["$ref"], target

    def key_of(self, here: str | None, file_part: str) -> str | None:
        """The key of the file ``file_part`` names from the file ``here``, or None when it is
        a URL or lies outside the document's directory."""
        if self.root is None or "://" in file_part or file_part.startswith("//"):
            return None
        base = self.root / (PurePosixPath(here).parent if here else PurePosixPath("."))
        try:
            resolved = (base / unquote(file_part)).resolve()
            rel = resolved.relative_to(self.root)  # resolved by collect
        except (ValueError, OSError):
            return None
        key = rel.as_posix()
        return None if key == "." else key


_ROOT_REFS = ("#", "#/")


def ref_sites(value: Any, pointer: str = "") -> Iterator[tuple[str, str]]:
    """(``$ref`` text, pointer of the ``$ref`` key) of every ``$ref`` in ``value``, in
    document order; ``pointer`` prefixes each (``FILE#`` for another file)."""
    stack = [(value, pointer)]
    while stack:
        node, ptr = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str):
                yield ref, f"{ptr}/$ref"
            stack.extend((v, f"{ptr}/{escape_token(str(k))}") for k, v in reversed(node.items()))
        elif isinstance(node, list):
            stack.extend((v, f"{ptr}/{i}") for i, v in reversed(list(enumerate(node))))


def find_ref(value: Any, wanted: str) -> str | None:
    """The pointer of the first ``$ref`` whose text is ``wanted`` or points at the pointer
    ``wanted`` (to place a validator's unlocated complaint), else None."""
    for ref, at in ref_sites(value):
        frag = ref.partition("#")[2]
        if wanted in (ref, frag, unquote(frag)):
            return at
    return None


def collect(main: Document, spec: str, allow: bool) -> Sources:
    """Every file the document's external ``$ref``s reach (when ``allow``), or the first such
    ``$ref`` refused at its place."""
    is_url = spec.startswith(("http://", "https://"))
    root = None if is_url else Path(spec).resolve().parent
    src = Sources(main, spec, root)
    todo: list[tuple[str | None, Any]] = [(None, main.value)]
    sites: list[tuple[str, str]] = []
    while todo:
        key, value = todo.pop()
        for ref, at_ptr in ref_sites(value, "" if key is None else f"{key}#"):
            if ref.startswith("#") and ref not in _ROOT_REFS:
                continue  # within this file: the validator and the converter follow it
            if ref in _ROOT_REFS:
                raise src.fail(f"$ref {ref!r} points at the whole document, not a schema", at_ptr)
            sites.append((ref, at_ptr))
            if not allow:
                raise src.fail(
                    f"external $ref {ref!r} is refused: pass --allow-external-refs to read "
                    "files in the document's directory",
                    at_ptr,
                )
            if is_url or "://" in ref.partition("#")[0]:
                raise src.fail(f"$ref {ref!r}: mcpgen never fetches a $ref from a URL", at_ptr)
            file_part = ref.partition("#")[0]
            if "\x00" in unquote(file_part):
                raise src.fail(f"$ref {ref!r}: a file name cannot hold a NUL character", at_ptr)
            new = src.key_of(key, file_part)
            if new is None:
                raise src.fail(
                    f"$ref {ref!r} leaves the document's directory ({root}): refused", at_ptr
                )
            if new in src.docs:
                continue
            if len(src.docs) >= MAX_FILES:
                raise src.fail(f"more than {MAX_FILES} files referenced", at_ptr)
            try:
                doc = load_document(src.shown(new), regular_only=True)
            except McpgenError as exc:
                path, line, col = src.where(at_ptr)
                if exc.line is None:
                    raise McpgenError(
                        f"$ref {ref!r}: {exc.message}", path=path, line=line, col=col
                    ) from None
                exc.message += f" (reached by $ref {ref!r} at {path}:{line}:{col})"
                raise
            if doc.diagnostics:
                first = doc.diagnostics[0]
                raise McpgenError(first.message, path=doc.path, line=first.line, col=first.col)
            src.docs[new] = doc
            todo.append((new, doc.value))
    for ref, at in sites:
        src.chase(ref, at)
    return src
