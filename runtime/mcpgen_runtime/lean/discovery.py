"""The discovery answers of a server that do not depend on the caller, as plain data:
``initialize`` (per handshake revision) and ``server/discover`` results, from the server's
identity and which kinds it serves.

One place for these facts: the generator calls ``Discovery.answers`` at build time and writes
the result into the package (``_generated/discovery.py``, read by ``boot``), and the lean
engine calls the same code at run time. The capabilities follow the SDK's derivation (its
``Server.get_capabilities``); tests/runtime/lean compares both engines' answers for every
golden manifest on every revision.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

__all__ = [
    "HANDSHAKE_REVISIONS",
    "LATEST_HANDSHAKE",
    "MODERN",
    "SERVER_INFO_KEY",
    "Discovery",
]

SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"


def _revisions() -> tuple[tuple[str, ...], tuple[str, ...]]:
    from ..revisions import MODERN_REVISIONS, REVISIONS

    handshake = tuple(r for r in REVISIONS if r not in MODERN_REVISIONS)
    modern = tuple(r for r in REVISIONS if r in MODERN_REVISIONS)
    return handshake, modern


HANDSHAKE_REVISIONS, MODERN = _revisions()
LATEST_HANDSHAKE = HANDSHAKE_REVISIONS[-1]


class Discovery:
    """What ``initialize`` and ``server/discover`` say about one server.

    A plain class (all arguments by keyword but ``name`` and ``version``): as a frozen
    dataclass it cost every server about 7M instructions at start. Treat it as immutable.
    """

    def __init__(
        self,
        name: str,
        version: str,
        *,
        title: str | None = None,
        description: str | None = None,
        instructions: str | None = None,
        website_url: str | None = None,
        tools_list_changed: bool = False,
        resources: bool = False,
        prompts: bool = False,
        completions: bool = False,
        cache: Mapping[str, Any] | None = None,
        extensions: Mapping[str, Mapping[str, Any]] | None = None,
    ) -> None:
        self.name = name
        self.version = version
        self.title = title
        self.description = description
        self.instructions = instructions
        self.website_url = website_url
        self.tools_list_changed = tools_list_changed
        """The manifest's ``server.capabilities.tools.listChanged`` (handshake revisions)."""
        self.resources = resources
        """Serves resources or resource templates (and ``resources/subscribe``)."""
        self.prompts = prompts
        self.completions = completions
        self.cache: Mapping[str, Any] = {} if cache is None else cache
        """``{"ttlMs": .., "cacheScope": ..}`` of cacheable results (2026-07-28)."""
        self.extensions: Mapping[str, Mapping[str, Any]] = {} if extensions is None else extensions
        """``capabilities.extensions``: identifier -> settings (the skills extension; MCP Apps,
        ``mcpgen_runtime.apps``)."""

    def identity(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "version": self.version}
        for key, value in (
            ("title", self.title),
            ("description", self.description),
            ("websiteUrl", self.website_url),
        ):
            if value is not None:
                out[key] = value
        return out

    def capabilities(self, modern: bool) -> dict[str, Any]:
        """The SDK's derivation: on 2026-07-28 every ``listChanged`` and ``subscribe`` says
        that ``subscriptions/listen`` is served (always, here)."""
        caps: dict[str, Any] = {}
        if self.completions:
            caps["completions"] = {}
        caps["logging"] = {}
        if self.prompts:
            caps["prompts"] = {"listChanged": modern}
        if self.resources:
            caps["resources"] = {"listChanged": modern, "subscribe": True}
        caps["tools"] = {"listChanged": True if modern else self.tools_list_changed}
        if self.extensions and modern:  # 2026-07-28's field (the SDK drops it before)
            caps["extensions"] = {k: dict(v) for k, v in sorted(self.extensions.items())}
            caps = dict(sorted(caps.items()))  # the SDK's order (sorted keys)
        return caps

    def initialize_result(self, revision: str) -> dict[str, Any]:
        """The ``initialize`` result on handshake ``revision``. Like the SDK's, it is the same
        on every revision but for ``protocolVersion``: fields an older revision's schema does
        not name (``title``, ``completions``) are extra members of open objects, which clients
        of that revision ignore."""
        result: dict[str, Any] = {
            "capabilities": self.capabilities(False),
            "protocolVersion": revision,
            "serverInfo": self.identity(),
        }
        if self.instructions is not None:
            result["instructions"] = self.instructions
        return result

    def discover_result(self) -> dict[str, Any]:
        """The ``server/discover`` result (2026-07-28), stamped as every modern result is."""
        result: dict[str, Any] = {**self.cache, "capabilities": self.capabilities(True)}
        if self.instructions is not None:
            result["instructions"] = self.instructions
        result["resultType"] = "complete"
        result["supportedVersions"] = list(MODERN)
        result["_meta"] = {SERVER_INFO_KEY: self.identity()}
        return result

    def stamp(self, result: dict[str, Any], cacheable: bool) -> dict[str, Any]:
        """What the SDK adds to a 2026-07-28 result: the cache hints of a cacheable method
        (the handler's own keys win; never on ``input_required``), ``resultType``, the
        ``serverInfo`` stamp (a handler's own wins)."""
        if cacheable and result.get("resultType") != "input_required":
            result = {**self.cache, **result}
        if result.get("resultType") is None:
            result["resultType"] = "complete"
        meta = result.get("_meta")
        if meta is None:
            result["_meta"] = self._stamp
        elif type(meta) is dict and meta.get(SERVER_INFO_KEY) is None:
            result["_meta"] = {**meta, SERVER_INFO_KEY: self.identity()}
        return result

    @cached_property
    def _stamp(self) -> dict[str, Any]:
        """``{serverInfo key: identity}``, made once: results are serialized as soon as they
        are stamped and never changed after, so they may share it."""
        return {SERVER_INFO_KEY: self.identity()}

    def precomputed(
        self,
        tools: Sequence[Mapping[str, Any]],
        resources: Sequence[Mapping[str, Any]] = (),
        templates: Sequence[Mapping[str, Any]] = (),
        prompts: Sequence[Mapping[str, Any]] = (),
    ) -> dict[str, str]:
        """The answers the fast boot sends before the runtime is imported, as JSON text:
        ``initialize@REV``, ``server/discover``, and the lists of every revision
        (``tools/list@REV``; ``resources/list@REV`` and ``resources/templates/list@REV`` on a
        server with resources; ``prompts/list@REV`` on one with prompts), each the whole list
        on one page, for the definitions the server lists by default, in order. The lean
        engine's own answers are built by the same functions (``shape_tool``,
        ``listing.first_page``, ``stamp``)."""
        from ..server.listing import first_page
        from ..server.shaping import shape_tool

        out: dict[str, str] = {}
        for key, value in self.answers().items():
            out[key] = _text(value)
        lists: dict[str, Sequence[Mapping[str, Any]]] = {}
        if self.resources:
            lists["resources/list"] = resources
            lists["resources/templates/list"] = templates
        if self.prompts:
            lists["prompts/list"] = prompts
        for rev in (*HANDSHAKE_REVISIONS, *MODERN):
            modern = rev in MODERN
            listed: dict[str, Any] = {"tools": [shape_tool(t, rev) for t in tools]}
            if modern:
                listed["resultType"] = "complete"
            out[f"tools/list@{rev}"] = _text(self.stamp(listed, True) if modern else listed)
            for method, definitions in lists.items():
                page = first_page(method, definitions, rev)
                out[f"{method}@{rev}"] = _text(self.stamp(page, True) if modern else page)
        return out

    def answers(self) -> dict[str, dict[str, Any]]:
        """Every answer above, by method and revision (``initialize@2025-11-25``,
        ``server/discover``)."""
        out = {f"initialize@{r}": self.initialize_result(r) for r in HANDSHAKE_REVISIONS}
        out["server/discover"] = self.discover_result()
        return out


def _text(value: Any) -> str:
    from .jsonrpc import dumps

    return dumps(value)
