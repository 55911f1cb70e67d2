"""Breaking changes between two tool lists: the rules of ``mcpgen breaking``, ``mcpgen drift``
and a generated client's ``verify=True``, in one place (plain JSON values, standard library only,
so a deployed client needs no generator).

buf's design: tools (and, inside schemas, properties) are paired by name once, and each rule
only compares a pair. Every finding names a JSON pointer on the new side and one on the old
side (callers turn them into file positions, or ignore them). Local ``$ref``s are followed on
both sides; nested objects (``properties`` chains and array ``items``) are compared recursively.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .breaking_bounds import RULE_TEXTS as _BOUND_RULES
from .breaking_bounds import narrowings
from .schemawalk import LocalRefs, esc, get_pointer

__all__ = ["RULES", "Emit", "Rule", "ToolRef", "compare_tools"]


@dataclass(frozen=True)
class Rule:
    severity: str
    """Default: ``"error"`` (breaking) or ``"warning"`` (breaks only strict clients)."""
    summary: str
    why: str


RULES: dict[str, Rule] = {
    "TOOL_NO_DELETE": Rule(
        "error",
        "Tools are not removed or renamed (clients and prompts call them by name).",
        "Existing clients, prompts and agents call the old name and fail.",
    ),
    "INPUT_REQUIRED_NO_ADD": Rule(
        "error",
        "No input parameter becomes required (existing calls that omit it would be rejected).",
        "Existing calls omit the parameter and are rejected.",
    ),
    "INPUT_PROPERTY_NO_DELETE": Rule(
        "error",
        "Input parameters are not removed (existing calls send them).",
        "Existing calls still send it; closed schemas reject them, open ones silently drop it.",
    ),
    "INPUT_PROPERTY_SAME_TYPE": Rule(
        "error",
        "An input parameter's type is not narrowed (values valid before stay valid).",
        "Values existing callers send stop validating.",
    ),
    "ENUM_VALUE_NO_DELETE": Rule(
        "error",
        "Input enum values are not removed and no enum is imposed on a free parameter.",
        "Values existing callers send stop validating.",
    ),
    "INPUT_ADDITIONAL_PROPERTIES_NO_CLOSE": Rule(
        "error",
        "An input object that accepted unknown keys does not start rejecting them "
        "(additionalProperties: false).",
        "Existing calls with extra keys are rejected.",
    ),
    "OUTPUT_SCHEMA_NO_DELETE": Rule(
        "error",
        "A tool's outputSchema is not removed (clients validate structuredContent with it).",
        "Clients that read structuredContent lose it.",
    ),
    "OUTPUT_PROPERTY_NO_DELETE": Rule(
        "error",
        "Output properties are not removed (clients read them).",
        "Clients that read the property fail.",
    ),
    "OUTPUT_REQUIRED_NO_DELETE": Rule(
        "error",
        "A required output property stays required (clients rely on it being present).",
        "Clients that rely on the property being present fail when it is absent.",
    ),
    "OUTPUT_PROPERTY_SAME_TYPE": Rule(
        "error",
        "An output property's type is not widened or changed (clients parse the old type).",
        "Clients parse the old type and fail on the new one.",
    ),
    "OUTPUT_ENUM_VALUE_NO_ADD": Rule(
        "warning",
        "Output enums gain no values (strict clients reject unknown values).",
        "Only strict clients (exhaustive matches on the enum) fail; most pass unknown values "
        "through.",
    ),
    "ANNOTATION_SAFETY_NO_WEAKEN": Rule(
        "error",
        "Safety annotations are not weakened: readOnlyHint true->false, destructiveHint "
        "false->true, idempotentHint true->false, openWorldHint false->true (absent = "
        "false/true/false/true).",
        "Clients stop asking for confirmation of calls that now have side effects.",
    ),
    **{rid: Rule(*texts) for rid, texts in _BOUND_RULES.items()},
}


@dataclass(frozen=True)
class ToolRef:
    """One tool of one side: its name, its wire JSON and where it is (a JSON pointer)."""

    name: str
    raw: Mapping[str, Any]
    pointer: str

    @property
    def annotations(self) -> dict[str, Any]:
        ann = self.raw.get("annotations")
        return ann if isinstance(ann, dict) else {}


class Emit(Protocol):
    def __call__(
        self,
        rule_id: str,
        new_ptr: str,
        old_ptr: str,
        message: str,
        *,
        new_key: bool = False,
        old_key: bool = True,
    ) -> None:
        """One finding: ``new_ptr``/``old_ptr`` locate it on each side (``*_key``: point at
        the key rather than the value)."""


@dataclass
class Side:
    """One side of a paired schema node: the node (refs followed), its pointer, its document."""

    schema: Any
    pointer: str
    refs: LocalRefs
    root_pointer: str


def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"))


def _deref(side: Side, seen: frozenset[str] = frozenset()) -> Side:
    s = side
    for _ in range(32):
        if not isinstance(s.schema, dict):
            return s
        ref = s.schema.get("$ref")
        if not isinstance(ref, str) or s.pointer in seen:
            return s
        target = s.refs.resolve(ref)
        if target is None:
            return s
        found, val = get_pointer(s.refs.root, target)
        if not found:
            return s
        seen = seen | {s.pointer}
        s = Side(val, s.root_pointer + target, s.refs, s.root_pointer)
    return s


def _types(s: Any) -> frozenset[str] | None:
    if not isinstance(s, dict):
        return None
    t = s.get("type")
    if isinstance(t, str):
        return frozenset((t,))
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return frozenset(t)
    return None


def _covered(t: str, by: frozenset[str]) -> bool:
    return t in by or (t == "integer" and "number" in by)


def _props(s: Any) -> dict[str, Any]:
    p = s.get("properties") if isinstance(s, dict) else None
    return p if isinstance(p, dict) else {}


def _required(s: Any) -> list[str]:
    r = s.get("required") if isinstance(s, dict) else None
    return [x for x in r if isinstance(x, str)] if isinstance(r, list) else []


def _fmt(types: frozenset[str] | None) -> str:
    return "any" if types is None else "|".join(sorted(types))


def _label(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def pair_objects(
    old: Side, new: Side, path: str = "", depth: int = 0
) -> Iterator[tuple[Side, Side, str]]:
    """Paired schema nodes, root first: same-named properties, then array items, recursively."""
    old, new = _deref(old), _deref(new)
    yield old, new, path
    if depth > 32:
        return
    op, np_ = _props(old.schema), _props(new.schema)
    for name, osub in op.items():
        if name in np_:
            tok = "/properties/" + esc(name)
            yield from pair_objects(
                Side(osub, old.pointer + tok, old.refs, old.root_pointer),
                Side(np_[name], new.pointer + tok, new.refs, new.root_pointer),
                _label(path, name),
                depth + 1,
            )
    oi = old.schema.get("items") if isinstance(old.schema, dict) else None
    ni = new.schema.get("items") if isinstance(new.schema, dict) else None
    if isinstance(oi, dict) and isinstance(ni, dict):
        yield from pair_objects(
            Side(oi, old.pointer + "/items", old.refs, old.root_pointer),
            Side(ni, new.pointer + "/items", new.refs, new.root_pointer),
            (path or "") + "[]",
            depth + 1,
        )


def _side(tool: ToolRef, field: str) -> Side:
    schema = tool.raw.get(field)
    ptr = f"{tool.pointer}/{field}"
    return Side(schema, ptr, LocalRefs(schema), ptr)


def compare_input(em: Emit, tname: str, old: ToolRef, new: ToolRef) -> None:
    for o, n, path in pair_objects(_side(old, "inputSchema"), _side(new, "inputSchema")):
        where = f"tool {tname!r} input" + (f" {path!r}" if path else "")
        if path:  # the root's type is fixed (object)
            ot, nt = _types(o.schema), _types(n.schema)
            if nt is not None and (ot is None or any(not _covered(t, nt) for t in ot)):
                em(
                    "INPUT_PROPERTY_SAME_TYPE",
                    n.pointer + "/type",
                    o.pointer,
                    f"{where}: type narrowed from {_fmt(ot)} to {_fmt(nt)}",
                    old_key=False,
                )
        _compare_enum_input(em, where, o, n)
        for key, what, before, after in narrowings(o.schema, n.schema):
            em(
                "INPUT_BOUND_NO_NARROW",
                _parent(n, key),
                _parent(o, key),
                f"{where}: {what} narrowed from {before} to {after}; values valid before are "
                "now rejected",
                old_key=False,
            )
        oprops, nprops = _props(o.schema), _props(n.schema)
        for name in oprops:
            if name not in nprops:
                em(
                    "INPUT_PROPERTY_NO_DELETE",
                    _parent(n, "properties"),
                    f"{o.pointer}/properties/{esc(name)}",
                    f"tool {tname!r}: input parameter {_label(path, name)!r} was removed",
                    new_key=True,
                )
        oreq = set(_required(o.schema))
        for i, name in enumerate(_required(n.schema)):
            if name not in oreq:
                what = "is a new required parameter" if name not in oprops else "became required"
                em(
                    "INPUT_REQUIRED_NO_ADD",
                    f"{n.pointer}/required/{i}",
                    _parent(o, "required"),
                    f"tool {tname!r}: input parameter {_label(path, name)!r} {what}",
                )
        if (
            isinstance(n.schema, dict)
            and n.schema.get("additionalProperties") is False
            and isinstance(o.schema, dict)
            and o.schema.get("additionalProperties") is not False
            and ("properties" in o.schema or not path)
        ):
            em(
                "INPUT_ADDITIONAL_PROPERTIES_NO_CLOSE",
                n.pointer + "/additionalProperties",
                _parent(o, "additionalProperties"),
                f"{where}: additionalProperties closed (false); "
                "calls with extra keys are now rejected",
            )


def _parent(side: Side, key: str) -> str:
    return (
        side.pointer + "/" + key
        if isinstance(side.schema, dict) and key in side.schema
        else side.pointer
    )


def _compare_enum_input(em: Emit, where: str, o: Side, n: Side) -> None:
    oe = o.schema.get("enum") if isinstance(o.schema, dict) else None
    ne = n.schema.get("enum") if isinstance(n.schema, dict) else None
    if not isinstance(ne, list):
        return
    if not isinstance(oe, list):
        if "const" not in (o.schema or {}):
            em(
                "ENUM_VALUE_NO_DELETE",
                n.pointer + "/enum",
                o.pointer,
                f"{where}: an enum now restricts a parameter that accepted any value",
                old_key=False,
            )
        return
    nset = {_canon(v) for v in ne}
    for i, v in enumerate(oe):
        if _canon(v) not in nset:
            em(
                "ENUM_VALUE_NO_DELETE",
                n.pointer + "/enum",
                f"{o.pointer}/enum/{i}",
                f"{where}: enum value {v!r} was removed",
                old_key=False,
            )


def compare_output(em: Emit, tname: str, old: ToolRef, new: ToolRef) -> None:
    if not isinstance(old.raw.get("outputSchema"), dict):
        return
    if not isinstance(new.raw.get("outputSchema"), dict):
        em(
            "OUTPUT_SCHEMA_NO_DELETE",
            new.pointer + "/name",
            old.pointer + "/outputSchema",
            f"tool {tname!r}: outputSchema was removed",
        )
        return
    for o, n, path in pair_objects(_side(old, "outputSchema"), _side(new, "outputSchema")):
        where = f"tool {tname!r} output" + (f" {path!r}" if path else "")
        ot, nt = _types(o.schema), _types(n.schema)
        if ot is not None and (nt is None or any(not _covered(t, ot) for t in nt)):
            em(
                "OUTPUT_PROPERTY_SAME_TYPE",
                _parent(n, "type"),
                _parent(o, "type"),
                f"{where}: type changed from {_fmt(ot)} to {_fmt(nt)}",
                old_key=False,
            )
        oe = o.schema.get("enum") if isinstance(o.schema, dict) else None
        ne = n.schema.get("enum") if isinstance(n.schema, dict) else None
        if isinstance(oe, list) and isinstance(ne, list):
            oset = {_canon(v) for v in oe}
            for i, v in enumerate(ne):
                if _canon(v) not in oset:
                    em(
                        "OUTPUT_ENUM_VALUE_NO_ADD",
                        f"{n.pointer}/enum/{i}",
                        o.pointer + "/enum",
                        f"{where}: new enum value {v!r} may be rejected by clients",
                        old_key=False,
                    )
        # a widened output is the old output narrower than the new one
        for key, what, after, before in narrowings(n.schema, o.schema):
            em(
                "OUTPUT_BOUND_NO_WIDEN",
                _parent(n, key),
                _parent(o, key),
                f"{where}: {what} widened from {before} to {after}; clients built on the old "
                "schema reject the new values",
                old_key=False,
            )
        nprops = _props(n.schema)
        for name in _props(o.schema):
            if name not in nprops:
                em(
                    "OUTPUT_PROPERTY_NO_DELETE",
                    _parent(n, "properties"),
                    f"{o.pointer}/properties/{esc(name)}",
                    f"tool {tname!r}: output property {_label(path, name)!r} was removed",
                    new_key=True,
                )
        nreq = set(_required(n.schema))
        for i, name in enumerate(_required(o.schema)):
            if name not in nreq and name in nprops:
                em(
                    "OUTPUT_REQUIRED_NO_DELETE",
                    _parent(n, "required"),
                    f"{o.pointer}/required/{i}",
                    f"tool {tname!r}: output property {_label(path, name)!r} is no longer required",
                    old_key=False,
                )


def compare_annotations(em: Emit, tname: str, old: ToolRef, new: ToolRef) -> None:
    oa, na = old.annotations, new.annotations
    o_ro = oa.get("readOnlyHint", False) is True
    n_ro = na.get("readOnlyHint", False) is True
    nptr = new.pointer + ("/annotations" if "annotations" in new.raw else "/name")
    optr = old.pointer + ("/annotations" if "annotations" in old.raw else "/name")

    def at(m_ann: dict[str, Any], base: str, key: str) -> str:
        return f"{base}/{key}" if key in m_ann and base.endswith("/annotations") else base

    if o_ro and not n_ro:
        destructive = na.get("destructiveHint", True) is not False
        em(
            "ANNOTATION_SAFETY_NO_WEAKEN",
            at(na, nptr, "readOnlyHint"),
            at(oa, optr, "readOnlyHint"),
            f"tool {tname!r} is no longer read-only"
            + (" and is now (by default) destructive" if destructive else ""),
            old_key=False,
        )
        return
    if not o_ro and not n_ro:
        od = oa.get("destructiveHint", True) is not False
        nd = na.get("destructiveHint", True) is not False
        if not od and nd:
            em(
                "ANNOTATION_SAFETY_NO_WEAKEN",
                at(na, nptr, "destructiveHint"),
                at(oa, optr, "destructiveHint"),
                f"tool {tname!r} became destructive (destructiveHint false -> "
                f"{'absent (true)' if 'destructiveHint' not in na else 'true'})",
                old_key=False,
            )
        if oa.get("idempotentHint", False) is True and na.get("idempotentHint", False) is not True:
            em(
                "ANNOTATION_SAFETY_NO_WEAKEN",
                at(na, nptr, "idempotentHint"),
                at(oa, optr, "idempotentHint"),
                f"tool {tname!r} is no longer idempotent (clients may have retried it)",
                old_key=False,
            )
    if oa.get("openWorldHint", True) is False and na.get("openWorldHint", True) is not False:
        em(
            "ANNOTATION_SAFETY_NO_WEAKEN",
            at(na, nptr, "openWorldHint"),
            at(oa, optr, "openWorldHint"),
            f"tool {tname!r} now reaches an open world (openWorldHint false -> true)",
            old_key=False,
        )


PAIR_RULES: tuple[Callable[[Emit, str, ToolRef, ToolRef], None], ...] = (
    compare_input,
    compare_output,
    compare_annotations,
)


def _by_name(tools: Sequence[ToolRef]) -> dict[str, ToolRef]:
    out: dict[str, ToolRef] = {}
    for t in tools:
        out.setdefault(t.name, t)
    return out


def _signature(t: ToolRef) -> str:
    return _canon([t.raw.get("inputSchema"), t.raw.get("outputSchema")])


def compare_tools(
    old: Sequence[ToolRef], new: Sequence[ToolRef], emit: Emit, *, tools_pointer: str = ""
) -> None:
    """Report every breaking change from ``old`` to ``new`` through ``emit``.
    ``tools_pointer``: where the new side's tool list is (a removed tool points there)."""
    olds, news = _by_name(old), _by_name(new)
    added = [t for name, t in news.items() if name not in olds]
    for name, ot in olds.items():
        nt = news.get(name)
        if nt is None:
            twins = [t for t in added if _signature(t) == _signature(ot)]
            if twins:
                emit(
                    "TOOL_NO_DELETE",
                    twins[0].pointer + "/name",
                    ot.pointer + "/name",
                    f"tool {name!r} was removed (possibly renamed to {twins[0].name!r})",
                )
            else:
                emit(
                    "TOOL_NO_DELETE",
                    tools_pointer,
                    ot.pointer + "/name",
                    f"tool {name!r} was removed",
                    new_key=True,
                )
            continue
        for f in PAIR_RULES:
            f(emit, name, ot, nt)
