"""Breaking drift between the tools a client was generated from and a server's live tools.

The rules are ``mcpgen breaking``'s (``codegen/check/breaking.py``), on plain tool dicts, so a
deployed client needs no generator: tools paired by name; inputs: no new required parameter,
no removed parameter, no narrowed type, no removed enum value, additionalProperties not closed;
outputs: outputSchema not removed, no removed or retyped property, required stays required;
safety annotations not weakened. Nested properties and array items are compared recursively,
local ``$ref``s are followed. ``tests/client/test_drift.py`` checks that this and
``mcpgen drift`` report the same rule ids.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Change", "breaking_changes"]

_MAX_DEPTH = 32


@dataclass(frozen=True)
class Change:
    rule: str
    """The ``mcpgen breaking`` rule id (e.g. ``TOOL_NO_DELETE``)."""
    tool: str
    message: str
    severity: str = "error"
    """``error`` (breaking) or ``warning`` (breaks only strict clients)."""


def _canon(v: Any) -> str:
    return json.dumps(v, sort_keys=True, separators=(",", ":"), default=str)


def _resolve(root: Any, ref: str) -> Any:
    if not ref.startswith("#"):
        return None
    node = root
    for token in [t for t in ref[1:].split("/") if t]:
        token = token.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return node


def _deref(node: Any, root: Any) -> Any:
    for _ in range(_MAX_DEPTH):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if not isinstance(ref, str):
            return node
        target = _resolve(root, ref)
        if target is None:
            return node
        node = target
    return node


def _types(s: Any) -> frozenset[str] | None:
    t = s.get("type") if isinstance(s, dict) else None
    if isinstance(t, str):
        return frozenset((t,))
    if isinstance(t, list) and all(isinstance(x, str) for x in t):
        return frozenset(t)
    return None


def _covered(t: str, by: frozenset[str]) -> bool:
    return t in by or (t == "integer" and "number" in by)


def _fmt(types: frozenset[str] | None) -> str:
    return "any" if types is None else "|".join(sorted(types))


def _props(s: Any) -> dict[str, Any]:
    p = s.get("properties") if isinstance(s, dict) else None
    return p if isinstance(p, dict) else {}


def _required(s: Any) -> list[str]:
    r = s.get("required") if isinstance(s, dict) else None
    return [x for x in r if isinstance(x, str)] if isinstance(r, list) else []


def _label(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _pairs(
    old: Any, new: Any, oroot: Any, nroot: Any, path: str = "", depth: int = 0
) -> Iterator[tuple[Any, Any, str]]:
    old, new = _deref(old, oroot), _deref(new, nroot)
    yield old, new, path
    if depth > _MAX_DEPTH:
        return
    np_ = _props(new)
    for name, osub in _props(old).items():
        if name in np_:
            yield from _pairs(osub, np_[name], oroot, nroot, _label(path, name), depth + 1)
    oi = old.get("items") if isinstance(old, dict) else None
    ni = new.get("items") if isinstance(new, dict) else None
    if isinstance(oi, dict) and isinstance(ni, dict):
        yield from _pairs(oi, ni, oroot, nroot, path + "[]", depth + 1)


def _input(tname: str, old: Any, new: Any, out: list[Change]) -> None:
    for o, n, path in _pairs(old, new, old, new):
        where = f"tool {tname!r} input" + (f" {path!r}" if path else "")
        if path:
            ot, nt = _types(o), _types(n)
            if nt is not None and (ot is None or any(not _covered(t, nt) for t in ot)):
                out.append(
                    Change(
                        "INPUT_PROPERTY_SAME_TYPE",
                        tname,
                        f"{where}: type narrowed from {_fmt(ot)} to {_fmt(nt)}",
                    )
                )
        oe = o.get("enum") if isinstance(o, dict) else None
        ne = n.get("enum") if isinstance(n, dict) else None
        if isinstance(ne, list):
            if not isinstance(oe, list):
                if not (isinstance(o, dict) and "const" in o):
                    out.append(
                        Change(
                            "ENUM_VALUE_NO_DELETE",
                            tname,
                            f"{where}: an enum now restricts a parameter that accepted any value",
                        )
                    )
            else:
                nset = {_canon(v) for v in ne}
                for v in oe:
                    if _canon(v) not in nset:
                        out.append(
                            Change(
                                "ENUM_VALUE_NO_DELETE",
                                tname,
                                f"{where}: enum value {v!r} was removed",
                            )
                        )
        oprops, nprops = _props(o), _props(n)
        for name in oprops:
            if name not in nprops:
                out.append(
                    Change(
                        "INPUT_PROPERTY_NO_DELETE",
                        tname,
                        f"tool {tname!r}: input parameter {_label(path, name)!r} was removed",
                    )
                )
        oreq = set(_required(o))
        for name in _required(n):
            if name not in oreq:
                what = "is a new required parameter" if name not in oprops else "became required"
                out.append(
                    Change(
                        "INPUT_REQUIRED_NO_ADD",
                        tname,
                        f"tool {tname!r}: input parameter {_label(path, name)!r} {what}",
                    )
                )
        if (
            isinstance(n, dict)
            and n.get("additionalProperties") is False
            and isinstance(o, dict)
            and o.get("additionalProperties") is not False
            and ("properties" in o or not path)
        ):
            out.append(
                Change(
                    "INPUT_ADDITIONAL_PROPERTIES_NO_CLOSE",
                    tname,
                    f"{where}: additionalProperties closed (false); "
                    "calls with extra keys are now rejected",
                )
            )


def _output(tname: str, old: Any, new: Any, out: list[Change]) -> None:
    if not isinstance(old, dict):
        return
    if not isinstance(new, dict):
        out.append(
            Change("OUTPUT_SCHEMA_NO_DELETE", tname, f"tool {tname!r}: outputSchema was removed")
        )
        return
    for o, n, path in _pairs(old, new, old, new):
        where = f"tool {tname!r} output" + (f" {path!r}" if path else "")
        ot, nt = _types(o), _types(n)
        if ot is not None and (nt is None or any(not _covered(t, ot) for t in nt)):
            out.append(
                Change(
                    "OUTPUT_PROPERTY_SAME_TYPE",
                    tname,
                    f"{where}: type changed from {_fmt(ot)} to {_fmt(nt)}",
                )
            )
        oe = o.get("enum") if isinstance(o, dict) else None
        ne = n.get("enum") if isinstance(n, dict) else None
        if isinstance(oe, list) and isinstance(ne, list):
            oset = {_canon(v) for v in oe}
            for v in ne:
                if _canon(v) not in oset:
                    out.append(
                        Change(
                            "OUTPUT_ENUM_VALUE_NO_ADD",
                            tname,
                            f"{where}: new enum value {v!r} may be rejected by clients",
                            "warning",
                        )
                    )
        nprops = _props(n)
        for name in _props(o):
            if name not in nprops:
                out.append(
                    Change(
                        "OUTPUT_PROPERTY_NO_DELETE",
                        tname,
                        f"tool {tname!r}: output property {_label(path, name)!r} was removed",
                    )
                )
        nreq = set(_required(n))
        for name in _required(o):
            if name not in nreq and name in nprops:
                out.append(
                    Change(
                        "OUTPUT_REQUIRED_NO_DELETE",
                        tname,
                        f"tool {tname!r}: output property {_label(path, name)!r} "
                        "is no longer required",
                    )
                )


def _annotations(
    tname: str, oa: Mapping[str, Any], na: Mapping[str, Any], out: list[Change]
) -> None:
    rule = "ANNOTATION_SAFETY_NO_WEAKEN"
    o_ro = oa.get("readOnlyHint", False) is True
    n_ro = na.get("readOnlyHint", False) is True
    if o_ro and not n_ro:
        out.append(Change(rule, tname, f"tool {tname!r} is no longer read-only"))
        return
    if not o_ro and not n_ro:
        if (
            oa.get("destructiveHint", True) is False
            and na.get("destructiveHint", True) is not False
        ):
            out.append(Change(rule, tname, f"tool {tname!r} became destructive"))
        if oa.get("idempotentHint", False) is True and na.get("idempotentHint", False) is not True:
            out.append(Change(rule, tname, f"tool {tname!r} is no longer idempotent"))
    if oa.get("openWorldHint", True) is False and na.get("openWorldHint", True) is not False:
        out.append(Change(rule, tname, f"tool {tname!r} now reaches an open world"))


def _dict(v: Any) -> dict[str, Any]:
    return v if isinstance(v, dict) else {}


def breaking_changes(
    expected: Sequence[Mapping[str, Any]],
    live: Sequence[Mapping[str, Any]],
    names: Sequence[str] | None = None,
) -> list[Change]:
    """Changes from ``expected`` (the manifest's tools) to ``live`` (a server's tools/list) that
    break a client built from ``expected``. ``names``: compare only these tools (default all)."""
    news: dict[str, Mapping[str, Any]] = {}
    for t in live:
        if isinstance(t, Mapping) and isinstance(t.get("name"), str):
            news.setdefault(t["name"], t)
    out: list[Change] = []
    for ot in expected:
        name = ot["name"]
        if names is not None and name not in names:
            continue
        nt = news.get(name)
        if nt is None:
            out.append(Change("TOOL_NO_DELETE", name, f"tool {name!r} was removed"))
            continue
        _input(name, ot.get("inputSchema"), nt.get("inputSchema"), out)
        _output(name, ot.get("outputSchema"), nt.get("outputSchema"), out)
        _annotations(name, _dict(ot.get("annotations")), _dict(nt.get("annotations")), out)
    return out
