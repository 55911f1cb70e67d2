"""A typed client against a server in search or code mode (``server.discovery``): its
``tools/list`` shows meta-tools and a few tools, and every served tool stays callable by name,
so the generated methods call tools directly as always. What changes is what the client reads
of the list: ``drift`` (and ``verify=True``) fetch the unlisted tools' definitions with
``get_tool_schemas``, and ``search_tools`` asks the server's compiled search."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["SCHEMAS", "SEARCH", "search", "with_unlisted"]

SEARCH, SCHEMAS = "search_tools", "get_tool_schemas"
_BATCH = 20
"""``get_tool_schemas`` answers at most this many names at once."""


def _structured(result: Any) -> dict[str, Any]:
    data = getattr(result, "structured_content", None)
    if getattr(result, "is_error", False) or not isinstance(data, dict):
        text = " ".join(getattr(c, "text", "") for c in getattr(result, "content", ()) or ())
        from .errors import InvalidResultError

        raise InvalidResultError("tools/call", text or "no structured result")
    return data


async def with_unlisted(
    client: Any, live: list[dict[str, Any]], expected: Sequence[str]
) -> list[dict[str, Any]]:
    """``live`` plus the definitions of the ``expected`` tools it does not list, from
    ``get_tool_schemas`` when the server serves it (else ``live`` as it is). A tool the server
    does not serve (or this caller may not use) stays missing."""
    listed = {t.get("name") for t in live}
    missing = [n for n in expected if n not in listed]
    if not missing or SCHEMAS not in listed:
        return live
    out = list(live)
    for i in range(0, len(missing), _BATCH):
        result = await client.call_tool(SCHEMAS, {"names": missing[i : i + _BATCH]})
        out += [t for t in _structured(result).get("tools", []) if isinstance(t, dict)]
    return out


async def search(client: Any, query: str, limit: int | None = None) -> list[dict[str, Any]]:
    """The server's ``search_tools`` answer: ``[{name, description, ...}]``, best first."""
    arguments: dict[str, Any] = {"query": query}
    if limit is not None:
        arguments["limit"] = limit
    tools = _structured(await client.call_tool(SEARCH, arguments)).get("tools", [])
    return [t for t in tools if isinstance(t, dict)]
