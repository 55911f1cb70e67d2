"""Checks of what an import selects and curates, before anything is written (pure): an
``--include-tags`` name no operation carries (a typo that would import nothing), and two tools
the overlay gives one name."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from mcpgen.errors import McpgenError

__all__ = ["document_tags", "require_tags", "require_unique_names"]

_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


def document_tags(doc: Mapping[str, Any]) -> set[str]:
    """Every tag an operation of ``doc`` carries (path items written inline)."""
    tags: set[str] = set()
    paths = doc.get("paths")
    for item in paths.values() if isinstance(paths, Mapping) else ():
        for method in _METHODS:
            op = item.get(method) if isinstance(item, Mapping) else None
            if isinstance(op, Mapping):
                tags.update(t for t in op.get("tags") or () if isinstance(t, str))
    return tags


def require_tags(doc: Mapping[str, Any], include: Iterable[str]) -> None:
    """``McpgenError`` (exit 2) for an ``--include-tags`` name no operation carries."""
    known = document_tags(doc)
    missing = sorted(set(include) - known)
    if missing:
        import difflib

        hints = [difflib.get_close_matches(t, sorted(known), n=1) for t in missing]
        close = [h[0] for h in hints if h]
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        listed = ", ".join(sorted(known)) or "none"
        raise McpgenError(
            f"--include-tags {', '.join(missing)}: no operation has this tag{hint}; the "
            f"document's tags: {listed}"
        )


def require_unique_names(
    tools: list[tuple[str, str]],
    renamed: Mapping[str, str],
    path: str,
    locate: Callable[..., tuple[int, int]],
) -> None:
    """``McpgenError`` at the overlay's line when it names a tool as another is named.
    ``tools``: (operation key, name) of each tool after the overlay; ``renamed``: operation
    key -> the name the overlay gives it."""
    seen: dict[str, str] = {}
    for key, name in tools:
        if name in seen:
            by_overlay = key if renamed.get(key) == name else seen[name]
            other = seen[name] if by_overlay == key else key
            ptr = "/tools/" + by_overlay.replace("~", "~0").replace("/", "~1") + "/name"
            line, col = locate(ptr)
            raise McpgenError(
                f"{by_overlay}: the overlay names this tool {name!r}, the name of {other} too; "
                "tool names are unique (choose another)",
                path=path,
                line=line,
                col=col,
            )
        seen[name] = key
