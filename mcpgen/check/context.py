"""What a checker function receives: the tool (or manifest) under check and a sink for findings.

Checkers report with ``ctx.emit(rule_id, pointer, message)``; the sink drops rules that are
disabled or do not apply to the manifest's revisions, applies the configured severity and turns
the JSON pointer into a file position. Checkers never see the config directly.
"""

from __future__ import annotations

import functools
from typing import Any, NamedTuple

from mcpgen.check.registry import RULES, revision_order
from mcpgen.diagnostics import Diagnostic, Location, Severity
from mcpgen.manifest.model import Manifest, SourceMap, ToolDef
from mcpgen_runtime.schemawalk import LocalRefs, Node, walk


class Options(NamedTuple):
    name_max_length: int = 128


class Sink:
    """Where findings go: only active rules are kept, each located in the manifest's file."""

    def __init__(self, path: str, source_map: SourceMap, active: dict[str, Severity]) -> None:
        self.path = path
        self.source_map = source_map
        self.active = active
        self.diagnostics: list[Diagnostic] = []

    def emit(
        self,
        rule_id: str,
        pointer: str,
        message: str,
        *,
        key: bool = False,
        related: tuple[Location, ...] = (),
    ) -> None:
        sev = self.active.get(rule_id)
        if sev is None:
            return
        line, col = self.source_map.locate(pointer, key=key)
        self.diagnostics.append(
            Diagnostic(rule_id, sev, Location(self.path, line, col, pointer), message, related)
        )

    def emit_at(
        self, rule_id: str, where: Location, message: str, related: tuple[Location, ...] = ()
    ) -> None:
        """A finding in another file than the manifest (``pyproject.toml``, ``server.json``)."""
        sev = self.active.get(rule_id)
        if sev is not None:
            self.diagnostics.append(Diagnostic(rule_id, sev, where, message, related))

    def location(self, pointer: str, *, key: bool = False) -> Location:
        line, col = self.source_map.locate(pointer, key=key)
        return Location(self.path, line, col, pointer)


class ManifestCtx:
    """What a manifest-scope checker sees (plain classes, not dataclasses: ``check`` runs in
    pre-commit, and each dataclass costs its import half a millisecond)."""

    def __init__(
        self, manifest: Manifest, revisions: tuple[str, ...], options: Options, sink: Sink
    ) -> None:
        self.manifest = manifest
        self.revisions = revisions
        self.options = options
        self.sink = sink

    def emit(self, rule_id: str, pointer: str, message: str, **kw: Any) -> None:
        self.sink.emit(rule_id, pointer, message, **kw)

    def active(self, rule_id: str) -> bool:
        return rule_id in self.sink.active

    def revs(self, rule_id: str) -> list[str]:
        """The targeted revisions this rule applies to, oldest first."""
        return revision_order(set(self.revisions) & RULES[rule_id].revisions)


class ToolCtx(ManifestCtx):
    """What a tool-scope checker sees: the manifest's context and one tool."""

    def __init__(
        self,
        manifest: Manifest,
        revisions: tuple[str, ...],
        options: Options,
        sink: Sink,
        tool: ToolDef,
    ) -> None:
        super().__init__(manifest, revisions, options, sink)
        self.tool = tool

    @property
    def raw(self) -> dict[str, Any]:
        return self.tool.raw

    def emit(self, rule_id: str, pointer: str, message: str, **kw: Any) -> None:
        """``pointer`` is relative to the tool ("" = the tool object itself)."""
        self.sink.emit(rule_id, self.tool.pointer + pointer, message, **kw)

    def name(self) -> str:
        n = self.raw.get("name")
        return n if isinstance(n, str) else "?"

    @functools.cached_property
    def input_nodes(self) -> list[Node]:
        return list(walk(self.raw.get("inputSchema")))

    @functools.cached_property
    def output_nodes(self) -> list[Node]:
        return list(walk(self.raw.get("outputSchema")))

    def refs(self, which: str) -> LocalRefs:
        cache = self.__dict__.setdefault("_refs", {})
        if which not in cache:
            nodes = self.input_nodes if which == "inputSchema" else self.output_nodes
            cache[which] = LocalRefs(self.raw.get(which), nodes)
        return cache[which]  # type: ignore[no-any-return]
