"""YAML -> plain JSON data with positions, built from libyaml's event stream.

Building the tree from events (instead of ``yaml.safe_load``) gives us: YAML 1.2 scalar
resolution with warnings for YAML 1.1 traps (``mcpgen.manifest.yamlscalars``), positions
for every value and key, duplicate-key detection, a depth limit checked as events arrive (no
recursion at all), and bounded alias expansion (the "billion laughs" document is refused after
``max_alias_nodes`` copied nodes instead of exhausting memory).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import yaml  # type: ignore[import-untyped]

from mcpgen.diagnostics import Diagnostic, Location, Severity
from mcpgen.errors import McpgenError
from mcpgen.manifest.jsonpos import escape
from mcpgen.manifest.yamlscalars import TAG, YAML11_BOOL_KEYS, YAML11_BOOLS, resolve_scalar

_Parser = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

_MERGE = object()


@dataclass
class YamlParse:
    value: Any = None
    positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[str, tuple[int, int]] = field(default_factory=dict)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    # character ranges of scalars mentioning "mcpgen:" (ignore comments inside them are text)
    comment_free_spans: list[tuple[int, int]] = field(default_factory=list)


class _Frame:
    __slots__ = (
        "value",
        "ptr",
        "is_map",
        "key",
        "kptr",
        "seen",
        "anchor",
        "start",
        "depth",
        "merges",
    )

    def __init__(self, value: Any, ptr: str, is_map: bool, anchor: str | None, start: int) -> None:
        self.value = value
        self.ptr = ptr
        self.is_map = is_map
        self.key: Any = None
        self.kptr = ""
        self.seen: dict[str, Any] = {}
        self.anchor = anchor
        self.start = start  # node counter when the collection started
        self.depth = 0  # deepest child nesting below this collection
        self.merges: list[tuple[dict[str, Any], Any]] = []


def _pos(mark: Any) -> tuple[int, int]:
    return (mark.line + 1, mark.column + 1)


def parse_yaml(text: str, path: str, max_depth: int, max_alias_nodes: int) -> YamlParse:
    try:
        return _parse(_Parser, text, path, max_depth, max_alias_nodes)
    except _LibyamlTooDeep:
        # libyaml >= 0.2.6 (PyYAML 6.0.4) stops at its own nesting limit while scanning ahead,
        # before our (lower) limit sees the events. Its limit is deeper than ours, so the document
        # is too deep either way: the pure-Python parser (no such look-ahead limit) finds the
        # exact place where ours is crossed, with the same message on every libyaml version.
        return _parse(yaml.SafeLoader, text, path, max_depth, max_alias_nodes)


class _LibyamlTooDeep(Exception):
    pass


def _parse(loader: Any, text: str, path: str, max_depth: int, max_alias_nodes: int) -> YamlParse:
    out = YamlParse()
    parser = loader(text)
    try:
        return _build(parser, out, path, max_depth, max_alias_nodes)
    except yaml.MarkedYAMLError as exc:
        if loader is not yaml.SafeLoader and "maximum nesting depth" in str(exc.problem):
            raise _LibyamlTooDeep from None
        mark = exc.problem_mark or exc.context_mark
        msg = str(exc.problem or "syntax error")
        if exc.context:
            msg += f" ({exc.context})"
        line, col = _pos(mark) if mark is not None else (None, None)
        raise McpgenError(f"invalid YAML: {msg}", path=path, line=line, col=col) from None
    except yaml.reader.ReaderError as exc:
        idx = exc.position
        line = text.count("\n", 0, idx) + 1
        col = idx - (text.rfind("\n", 0, idx) + 1) + 1
        ch = exc.character
        what = f"U+{ch:04X}" if isinstance(ch, int) else repr(ch)
        raise McpgenError(
            f"invalid YAML: special character {what} is not allowed", path=path, line=line, col=col
        ) from None
    except yaml.YAMLError as exc:
        raise McpgenError(f"invalid YAML: {exc}", path=path) from None
    finally:
        parser.dispose()


def _build(parser: Any, out: YamlParse, path: str, max_depth: int, max_alias: int) -> YamlParse:
    E = yaml.events
    get = parser.get_event
    pos, kpos, diags = out.positions, out.key_positions, out.diagnostics
    anchors: dict[str, tuple[Any, int, int]] = {}  # name -> (value, node count, depth)
    open_anchors: set[str] = set()
    nodes = 0
    expanded = 0
    stack: list[_Frame] = []

    def warn(rule: str, mark: Any, ptr: str, msg: str) -> None:
        diags.append(Diagnostic(rule, Severity.WARNING, Location(path, *_pos(mark), ptr), msg))

    def fail(mark: Any, msg: str) -> McpgenError:
        return McpgenError(msg, path=path, line=mark.line + 1, col=mark.column + 1)

    Scalar, Alias = E.ScalarEvent, E.AliasEvent
    MapStart, MapEnd, SeqStart, SeqEnd = (
        E.MappingStartEvent,
        E.MappingEndEvent,
        E.SequenceStartEvent,
        E.SequenceEndEvent,
    )
    get()  # StreamStart
    ev = get()
    if isinstance(ev, E.StreamEndEvent):  # empty file or only comments
        out.positions[""] = (1, 1)
        return out
    ev = get()  # first event of the document's root node
    while True:
        cls = type(ev)
        top = stack[-1] if stack else None
        # ---- a mapping key?
        if top is not None and top.is_map and top.key is None:
            if cls is MapEnd:
                pass  # handled below
            elif cls is Scalar or cls is Alias:
                if cls is Alias:
                    if ev.anchor not in anchors or not isinstance(anchors[ev.anchor][0], str):
                        raise fail(
                            ev.start_mark, "an alias used as a mapping key must name a string"
                        )
                    key = anchors[ev.anchor][0]
                else:
                    key = ev.value
                    if ev.anchor:
                        anchors[ev.anchor] = (key, 1, 0)
                kptr = top.ptr + "/" + (escape(key) if "~" in key or "/" in key else key)
                mark = ev.start_mark
                if cls is Scalar and key == "<<" and not ev.style and ev.tag is None:
                    top.key = _MERGE
                    top.seen.setdefault("<<", mark)
                    kpos.setdefault(kptr, (mark.line + 1, mark.column + 1))
                    ev = get()
                    continue
                if key in top.seen:
                    first = top.seen[key]
                    diags.append(
                        Diagnostic(
                            "DUPLICATE_KEY",
                            Severity.ERROR,
                            Location(path, *_pos(mark), kptr),
                            f"duplicate key {key!r}; the last value wins",
                            (Location(path, *_pos(first), kptr),),
                        )
                    )
                elif cls is Scalar and not ev.style and key in YAML11_BOOL_KEYS:
                    warn(
                        "YAML_IMPLICIT_TYPE",
                        mark,
                        kptr,
                        f"unquoted key {key!r} is the string {key!r} here (YAML 1.2), but YAML 1.1 "
                        f"tools read it as the boolean {str(YAML11_BOOLS[key]).lower()}; quote it",
                    )
                top.seen[key] = mark
                top.key = key
                top.kptr = kptr
                kpos[kptr] = (mark.line + 1, mark.column + 1)
                ev = get()
                continue
            else:
                raise fail(
                    ev.start_mark,
                    "mapping keys must be strings (found a "
                    + ("mapping" if cls is MapStart else "sequence")
                    + " as a key)",
                )
        # ---- pointer of a node that starts here
        if top is None or cls is MapEnd or cls is SeqEnd or cls is E.DocumentEndEvent:
            ptr = ""
        elif top.is_map:
            ptr = top.ptr + "/<<" if top.key is _MERGE else top.kptr
        else:
            ptr = f"{top.ptr}/{len(top.value)}"
        depth_here = 0
        if cls is Scalar:
            val = ev.value if ev.style and ev.tag is None else resolve_scalar(ev, ptr, warn, fail)
            nodes += 1
            mark = ev.start_mark
            pos[ptr] = (mark.line + 1, mark.column + 1)
            if ev.anchor:
                anchors[ev.anchor] = (val, 1, 0)
            if ev.value and "mcpgen:" in ev.value:
                out.comment_free_spans.append((ev.start_mark.index, ev.end_mark.index))
        elif cls is MapStart or cls is SeqStart:
            if len(stack) >= max_depth:
                raise fail(ev.start_mark, f"nested more than {max_depth} levels deep")
            is_map = cls is MapStart
            ok_tags = (None, "!", TAG + ("map" if is_map else "seq"))
            if ev.tag not in ok_tags:
                raise fail(ev.start_mark, f"unsupported YAML tag {ev.tag}")
            pos[ptr] = _pos(ev.start_mark)
            stack.append(_Frame({} if is_map else [], ptr, is_map, ev.anchor, nodes))
            if ev.anchor:
                open_anchors.add(ev.anchor)
            nodes += 1
            ev = get()
            continue
        elif cls is MapEnd or cls is SeqEnd:
            frame = stack.pop()
            val = frame.value
            if frame.merges:
                val = _apply_merges(val, frame, pos, kpos)
            depth_here = frame.depth + 1
            if frame.anchor:
                open_anchors.discard(frame.anchor)
                anchors[frame.anchor] = (val, nodes - frame.start, depth_here)
            ptr = frame.ptr
            top = stack[-1] if stack else None
        elif cls is Alias:
            name = ev.anchor
            if name not in anchors:
                what = "recursive" if name in open_anchors else "undefined"
                raise fail(ev.start_mark, f"{what} alias *{name}")
            src, size, depth_here = anchors[name]
            expanded += size
            if expanded > max_alias:
                raise fail(
                    ev.start_mark,
                    f"aliases expand to more than {max_alias} nodes "
                    "(an alias bomb?); refusing to load",
                )
            if len(stack) + depth_here > max_depth:
                raise fail(ev.start_mark, f"nested more than {max_depth} levels deep (via *{name})")
            nodes += size
            val = src if size == 1 else json.loads(json.dumps(src))
            pos[ptr] = _pos(ev.start_mark)
        elif cls is E.DocumentEndEvent:
            nxt = get()
            if isinstance(nxt, E.DocumentStartEvent):
                raise fail(
                    nxt.start_mark,
                    "more than one YAML document (---) in the file; "
                    "a manifest is a single document",
                )
            return out
        else:  # pragma: no cover - libyaml emits nothing else here
            raise fail(ev.start_mark, f"unexpected YAML event {cls.__name__}")
        # ---- attach the finished node
        if top is None:
            out.value = val
        else:
            if depth_here > top.depth:
                top.depth = depth_here
            if top.is_map:
                if top.key is _MERGE:
                    _add_merge(top, val, ev, fail)
                else:
                    top.value[top.key] = val
                top.key = None
            else:
                top.value.append(val)
        ev = get()


def _add_merge(frame: _Frame, val: Any, ev: Any, fail: Any) -> None:
    sources = val if isinstance(val, list) else [val]
    for src in sources:
        if not isinstance(src, dict):
            raise fail(ev.start_mark, "a merge key (<<) needs a mapping or a list of mappings")
        frame.merges.append((src, frame.seen["<<"]))


def _apply_merges(
    own: dict[str, Any], frame: _Frame, pos: dict[str, Any], kpos: dict[str, Any]
) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for src, mark in frame.merges:
        for k, v in src.items():
            if k not in own and k not in merged:
                merged[k] = v
                p = frame.ptr + "/" + escape(k)
                pos.setdefault(p, _pos(mark))
                kpos.setdefault(p, _pos(mark))
    merged.update(own)
    return merged
