"""What a checker function receives: the tool (or manifest) under check and a sink for findings.

Checkers report with ``ctx.emit(rule_id, pointer, message)``; the sink drops rules that are
disabled or do not apply to the manifest's revisions, applies the configured severity and turns
the JSON pointer into a file position. Checkers never see the config directly.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from codegen.check.registry import RULES, revision_order
from codegen.diagnostics import Diagnostic, Location, Severity
from codegen.manifest.model import Manifest, SourceMap, ToolDef
from mcpgen_runtime.schemawalk import LocalRefs, Node, walk


@dataclass(frozen=True)
class Options:
    name_max_length: int = 128


@dataclass
class Sink:
    path: str
    source_map: SourceMap
    active: dict[str, Severity]
    diagnostics: list[Diagnostic] = field(default_factory=list)

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

    def location(self, pointer: str, *, key: bool = False) -> Location:
        line, col = self.source_map.locate(pointer, key=key)
        return Location(self.path, line, col, pointer)


@dataclass
class ManifestCtx:
    manifest: Manifest
    revisions: tuple[str, ...]
    options: Options
    sink: Sink

    def emit(self, rule_id: str, pointer: str, message: str, **kw: Any) -> None:
        self.sink.emit(rule_id, pointer, message, **kw)

    def active(self, rule_id: str) -> bool:
        return rule_id in self.sink.active

    def revs(self, rule_id: str) -> list[str]:
        """The targeted revisions this rule applies to, oldest first."""
        return revision_order(set(self.revisions) & RULES[rule_id].revisions)


@dataclass
class ToolCtx(ManifestCtx):
    tool: ToolDef = field(default=None)  # type: ignore[assignment]

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
