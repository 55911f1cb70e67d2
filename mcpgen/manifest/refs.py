"""Bundle shared ``$defs`` and file ``$ref``s into each tool's own schemas.

Every schema a server serves must be self-contained, yet manifest authors want to share
definitions. For each tool's ``inputSchema``/``outputSchema``:

* a local ref the schema itself satisfies (``#/$defs/X`` with its own ``$defs.X``, ``#``,
  ``#/properties/a``, an ``$anchor``, an embedded ``$id``) stays exactly as written;
* ``#/$defs/X...`` that only the manifest's top-level ``$defs`` satisfies, and refs to files
  beside the manifest (``common.yaml#/Address``, ``./schemas/x.json``), are copied into the
  schema's own ``$defs`` under a deterministic name (the def's name, else the pointer's last
  token, else the file stem; clashes get the file stem as prefix, then ``_2``, ``_3``...) and the
  ref is rewritten to ``#/$defs/<name><rest>``. Refs inside copied schemas resolve against
  *their* document and are bundled the same way; every target is copied once, so recursive
  schemas stay recursive and bundling terminates.
* Nothing else changes: key order, values and untouched refs are kept as written.

Findings (errors): ``REF_NETWORK`` (any URI with a scheme, or ``//host``: never fetched; MCP
2026-07-28 forbids auto-fetching), ``REF_OUTSIDE_ROOT`` (a file ref leaving the manifest's
directory, symlinks resolved), ``REF_UNRESOLVED`` (missing file, unreadable file, pointer or
anchor that does not exist), ``REF_CYCLE`` (copied schemas, or the schema's own ``$defs``
(``refcycles``), that only refer to each other with no structure in between, e.g.
``A: {$ref: B}``, ``B: {$ref: A}``: representable, but no validator can ever finish).

Every file read is recorded (``reffiles.RefFiles``; ``Bundler.dependencies()`` ->
``Manifest.dependencies``) so that an up-to-date check can hash the inputs without loading
anything (see ``mcpgen server``).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote

from mcpgen.diagnostics import Diagnostic, Location, Severity
from mcpgen.errors import McpgenError
from mcpgen.manifest.jsonpos import escape
from mcpgen.manifest.model import Dependency
from mcpgen.manifest.refcycles import copied_cycles, own_def_cycles
from mcpgen.manifest.reffiles import RefFiles
from mcpgen.manifest.scopedcycles import mentions_key, scoped_ref_cycles
from mcpgen.manifest.sourcemap import Document
from mcpgen.schemascope import Scope, embedded_ids, find_anchor, has_embedded_ids, resolve_at
from mcpgen_runtime.jsonschema_facts import (
    COMBINATORS,
    LIST_KEYWORDS,
    MAP_KEYWORDS,
    SINGLE_KEYWORDS,
    has_ref_key,
    resolve_pointer,
    unescape_token,
)

# keywords whose value is a map of name -> schema / a list of schemas / a schema
_MAP_KW = frozenset(MAP_KEYWORDS)
_LIST_KW = frozenset(LIST_KEYWORDS)
_ONE_KW = frozenset((*SINGLE_KEYWORDS, "items"))
# applicators that apply to the *same* instance (a ref cycle through these never ends)
_INPLACE_KW = frozenset(COMBINATORS)
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//")
_UNIT = re.compile(r"/(?:\$defs|definitions)/[^/]+")
_NAME_OK = re.compile(r"[^A-Za-z0-9_.-]")

Target = tuple[str, str]  # (document key: "" for the manifest, else resolved path; unit pointer)


class _Ctx:
    """Where a schema node lives: its document, the key of that document, its directory."""

    __slots__ = ("doc", "key", "base_dir", "in_tool")

    def __init__(self, doc: Document, key: str, base_dir: Path, in_tool: bool) -> None:
        self.doc, self.key, self.base_dir, self.in_tool = doc, key, base_dir, in_tool


class Bundler:
    """Bundles the schemas of one manifest's tools; appends its findings to ``diags``."""

    def __init__(
        self,
        doc: Document,
        base_dir: Path,
        diags: list[Diagnostic],
        read_bytes: Callable[[Path], bytes] | None = None,
    ) -> None:
        """``read_bytes``: reads a referenced file (e.g. from a git ref) instead of the disk;
        raises ``McpgenError`` when it does not exist."""
        self.doc = doc
        self.root_dir = base_dir.resolve()
        self.diags = diags
        self._seen_diags: set[tuple[str, Location, str]] = set()
        self.files = RefFiles(self.root_dir, diags, read_bytes)
        self.manifest_ctx = _Ctx(doc, "", self.root_dir, False)

    # -------------------------------------------------------------- public

    def bundle_tool(self, tool: dict[str, Any], pointer: str) -> dict[str, Any]:
        out = tool
        for key in ("inputSchema", "outputSchema"):
            schema = tool.get(key)
            if isinstance(schema, dict) and (
                has_ref_key(schema) or mentions_key(schema, "$dynamicRef")
            ):
                new = _ToolBundle(self, schema, f"{pointer}/{key}").run()
                if new is not schema:
                    out = dict(out) if out is tool else out
                    out[key] = new
        return out

    def dependencies(self) -> tuple[Dependency, ...]:
        """The files loaded so far through file refs (``RefFiles.dependencies``)."""
        return self.files.dependencies()

    # -------------------------------------------------------------- helpers

    def report(self, rule: str, ctx: _Ctx, pointer: str, message: str) -> None:
        loc = ctx.doc.location(pointer)
        sig = (rule, loc, message)
        if sig not in self._seen_diags:
            self._seen_diags.add(sig)
            self.diags.append(Diagnostic(rule, Severity.ERROR, loc, message))


class _ToolBundle:
    def __init__(self, bundler: Bundler, schema: dict[str, Any], pointer: str) -> None:
        self.b = bundler
        self.schema = schema
        self.pointer = pointer
        own = schema.get("$defs")
        self.own_defs = own if isinstance(own, dict) else {}
        self._ids: set[str] | None = None
        self._scope: Scope | None = None
        self._flat = False  # no embedded resources: the plain rules suffice
        self.names: dict[Target, str] = {}
        self.new_defs: dict[str, Any] = {}
        self.queue: deque[tuple[Target, Any, _Ctx]] = deque()
        self.direct: dict[Target, list[tuple[Target, _Ctx, str]]] = {}  # in-place ref edges
        self.anchor: dict[Target, str] = {}  # target -> manifest pointer that locates its copy
        self.current: str | None = None  # anchor of the unit being copied (None: the tool itself)

    def ids(self) -> set[str]:
        if self._ids is None:
            self._ids = embedded_ids(self.schema)
        return self._ids

    def run(self) -> dict[str, Any]:
        tool_ctx = _Ctx(self.b.doc, "", self.b.root_dir, True)
        out = self._rewrite(self.schema, tool_ctx, self.pointer, None, True)
        self._check_own_cycles(tool_ctx)
        while self.queue:
            target, node, ctx = self.queue.popleft()
            self.current = self.anchor[target]
            self.new_defs[self.names[target]] = self._rewrite(node, ctx, target[1], target, True)
        if not self.new_defs:
            return out  # type: ignore[no-any-return]
        self._check_cycles()
        if "$defs" in out and not isinstance(out["$defs"], dict):
            self.b.report(
                "REF_UNRESOLVED",
                tool_ctx,
                f"{self.pointer}/$defs",
                "cannot bundle shared schemas: `$defs` here is not a mapping",
            )
            return out  # type: ignore[no-any-return]
        out = dict(out)
        out["$defs"] = {**(out.get("$defs") or {}), **self.new_defs}
        redirects = self.b.doc.source_map.redirects
        for target, name in self.names.items():
            redirects[f"{self.pointer}/$defs/{escape(name)}"] = self.anchor[target]
        return out

    # -------------------------------------------------------------- walking

    def _rewrite(self, node: Any, ctx: _Ctx, ptr: str, unit: Target | None, inplace: bool) -> Any:
        if not isinstance(node, dict):
            return node
        changed: dict[str, Any] | None = None
        for k, v in node.items():
            nv = v
            sub = f"{ptr}/{escape(k)}"
            if k == "$ref" and isinstance(v, str):
                nv = self._ref(v, ctx, sub, unit if inplace else None)
            elif k in _MAP_KW and isinstance(v, dict):
                nv = self._each(v, ctx, sub, unit, False)
            elif k in _LIST_KW and isinstance(v, list):
                nv = self._each(v, ctx, sub, unit, inplace and k in _INPLACE_KW)
            elif k in _ONE_KW:
                if isinstance(v, list):  # draft-07 tuple ``items``
                    nv = self._each(v, ctx, sub, unit, False)
                else:
                    nv = self._rewrite(v, ctx, sub, unit, inplace and k in _INPLACE_KW)
            elif k == "dependencies" and isinstance(v, dict):
                nv = self._each(v, ctx, sub, unit, False)
            if nv is not v:
                if changed is None:
                    changed = dict(node)
                changed[k] = nv
        return node if changed is None else changed

    def _each(self, container: Any, ctx: _Ctx, ptr: str, unit: Target | None, inplace: bool) -> Any:
        """Rewrite the schemas in a name->schema map or a list; the same object if unchanged."""
        pairs = list(container.items() if isinstance(container, dict) else enumerate(container))
        new = [
            (k, self._rewrite(v, ctx, f"{ptr}/{escape(str(k))}", unit, inplace)) for k, v in pairs
        ]
        if all(a[1] is b[1] for a, b in zip(pairs, new, strict=True)):
            return container
        return dict(new) if isinstance(container, dict) else [v for _, v in new]

    # -------------------------------------------------------------- one $ref

    def _ref(self, ref: str, ctx: _Ctx, ptr: str, unit: Target | None) -> str:
        if ctx.in_tool:
            found, absolute = self._in_scope(ref, ptr)
            if found:
                return ref  # resolved against the nearest $id: an embedded schema resource
            if absolute is not None:
                self.b.report(
                    "REF_NETWORK",
                    ctx,
                    ptr,
                    f"$ref {ref!r}"
                    + (
                        f" resolves to {absolute!r} (the `$id` it is under)"
                        if absolute != ref
                        else ""
                    )
                    + ", which no schema of this tool declares: mcpgen never fetches schemas over "
                    "the network; embed that schema with its `$id`, or copy it into `$defs`",
                )
                return ref
        base, _, frag = ref.partition("#")
        frag = unquote(frag)
        if base == "":
            return self._local(ref, frag, ctx, ptr, unit)
        if ctx.in_tool and base in self.ids():
            return ref  # an embedded schema resource of the tool's own schema
        if _SCHEME.match(base):
            self.b.report(
                "REF_NETWORK",
                ctx,
                ptr,
                f"$ref {ref!r} is not local: mcpgen never fetches schemas over the "
                "network (MCP 2026-07-28 forbids it); copy it into `$defs` or a file "
                "beside the manifest",
            )
            return ref
        name = unquote(base)
        try:
            path = (ctx.base_dir / name).resolve()
        except (ValueError, OSError, RuntimeError) as exc:  # NUL byte, name too long, link loop
            why = "a file name cannot hold a NUL character" if "\x00" in name else exc
            self.b.report("REF_UNRESOLVED", ctx, ptr, f"$ref {ref!r}: {why}")
            return ref
        if not path.is_relative_to(self.b.root_dir):
            self.b.report(
                "REF_OUTSIDE_ROOT",
                ctx,
                ptr,
                f"$ref {ref!r} points outside the manifest's directory "
                f"({self.b.root_dir}); only files beside the manifest may be referenced",
            )
            return ref
        shown = str(Path(ctx.doc.path).parent / name)
        doc = self.b.files.document(path, shown)
        if isinstance(doc, McpgenError):
            self.b.report(
                "REF_UNRESOLVED", ctx, ptr, f"$ref {ref!r}: cannot load {base}: {doc.message}"
            )
            return ref
        self.b.files.note_dependency(ctx.base_dir, name, path)
        file_ctx = _Ctx(doc, str(path), path.parent, False)
        return self._bundle(ref, frag, file_ctx, ctx, ptr, unit)

    def _in_scope(self, ref: str, ptr: str) -> tuple[bool, str | None]:
        """``schemascope.resolve_at`` for ``ref`` at the manifest pointer ``ptr``; only asked
        of a schema with embedded resources (else the plain rules below are the same)."""
        if self._scope is None and not self._flat:
            self._flat = not has_embedded_ids(self.schema)
            self._scope = None if self._flat else Scope.of_root(self.schema)
        if self._scope is None or not ptr.startswith(self.pointer + "/"):
            return False, None
        tokens = [unescape_token(t) for t in ptr[len(self.pointer) + 1 :].split("/")][:-1]
        return resolve_at(self._scope, self.schema, tokens, ref)

    def _local(self, ref: str, frag: str, ctx: _Ctx, ptr: str, unit: Target | None) -> str:
        if ctx.in_tool:
            if self._resolves(self.schema, frag):
                return ref
            m = _UNIT.match(frag)
            if not (
                m
                and m.group().startswith("/$defs/")
                and self._resolves(self.b.doc.value, frag)
                and isinstance(self.b.doc.value, dict)
            ):
                have = sorted(set(self.own_defs) | set(_manifest_defs(self.b.doc.value)))
                hint = f" (known: {', '.join(have[:12])})" if have and m else ""
                self.b.report(
                    "REF_UNRESOLVED",
                    ctx,
                    ptr,
                    f"$ref {ref!r} points nowhere: neither this schema nor the "
                    f"manifest's `$defs` has it{hint}",
                )
                return ref
            return self._bundle(ref, frag, self.b.manifest_ctx, ctx, ptr, unit)
        return self._bundle(ref, frag, ctx, ctx, ptr, unit)

    def _resolves(self, root: Any, frag: str) -> bool:
        if frag == "" or frag.startswith("/"):
            return resolve_pointer(root, frag)[0]
        return find_anchor(root, frag) is not None

    def _bundle(
        self, ref: str, frag: str, target_ctx: _Ctx, ctx: _Ctx, ptr: str, unit: Target | None
    ) -> str:
        root = target_ctx.doc.value
        if frag and not frag.startswith("/"):
            found = find_anchor(root, frag)
            if found is None:
                self.b.report("REF_UNRESOLVED", ctx, ptr, f"$ref {ref!r}: no `$anchor: {frag}`")
                return ref
            frag = found
        ok, _ = resolve_pointer(root, frag)
        if not ok:
            self.b.report(
                "REF_UNRESOLVED",
                ctx,
                ptr,
                f"$ref {ref!r}: {frag!r} does not exist in {target_ctx.doc.path}",
            )
            return ref
        m = _UNIT.match(frag)
        unit_ptr, rest = (m.group(), frag[m.end() :]) if m else (frag, "")
        target = (target_ctx.key, unit_ptr)
        if target not in self.names:
            self.names[target] = self._name(target_ctx, unit_ptr)
            self.new_defs[self.names[target]] = None  # reserve the name; filled from the queue
            if target_ctx.key == "":
                self.anchor[target] = unit_ptr  # the shared def itself, in the manifest
            else:  # a copy from another file: the $ref that pulled it in
                self.anchor[target] = ptr if ctx.key == "" else (self.current or self.pointer)
            node = resolve_pointer(root, unit_ptr)[1]
            self.queue.append((target, node, target_ctx))
        if unit is not None and rest == "":
            self.direct.setdefault(unit, []).append((target, ctx, ptr))
        return "#/$defs/" + escape(self.names[target]) + rest

    def _name(self, ctx: _Ctx, unit_ptr: str) -> str:
        stem = Path(ctx.key).stem if ctx.key else ""
        last = unescape_token(unit_ptr.rsplit("/", 1)[-1])
        base = _NAME_OK.sub("_", last or stem or "schema")
        taken = set(self.own_defs) | set(self.new_defs)
        candidates = [base] + ([_NAME_OK.sub("_", f"{stem}_{base}")] if stem and last else [])
        for cand in candidates:
            if cand not in taken:
                return cand
        n = 2
        while f"{candidates[-1]}_{n}" in taken:
            n += 1
        return f"{candidates[-1]}_{n}"

    def _check_cycles(self) -> None:
        """REF_CYCLE for copied schemas that reach themselves through in-place refs only."""
        for path, ctx, ptr in copied_cycles(self.direct):
            names = [self.names[n] for n in (*path, path[0])]
            self.b.report("REF_CYCLE", ctx, ptr, _cycle_message(names))

    def _check_own_cycles(self, ctx: _Ctx) -> None:
        """REF_CYCLE for the schema's own ``$defs`` that reach themselves through in-place
        refs only: refs the schema resolves itself stay as written, so ``direct`` never sees
        them."""
        for names, ptr in own_def_cycles(self.own_defs, self.pointer):
            self.b.report("REF_CYCLE", ctx, ptr, _cycle_message(names))
        if has_embedded_ids(self.schema) or mentions_key(self.schema, "$dynamicRef"):
            for ptr in scoped_ref_cycles(self.schema, self.pointer):
                self.b.report(
                    "REF_CYCLE",
                    ctx,
                    ptr,
                    "$ref cycle with no schema in between (resolved against the `$id` it is "
                    "under): no validator can finish; give the recursion a structure "
                    "(properties/items)",
                )


def _cycle_message(names: list[str]) -> str:
    return (
        f"$ref cycle with no schema in between ({' -> '.join(names)}): no validator can "
        "finish; give the recursion a structure (properties/items)"
    )


def _manifest_defs(value: Any) -> dict[str, Any]:
    d = value.get("$defs") if isinstance(value, dict) else None
    return d if isinstance(d, dict) else {}
