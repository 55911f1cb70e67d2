"""Value bounds in ``mcpgen breaking`` (buf's "values valid before stay valid"): an input's
bounds must not narrow (``minimum``/``maximum`` and their exclusive forms, ``minLength``/
``maxLength``, ``minItems``/``maxItems``, ``minProperties``/``maxProperties``, ``multipleOf``,
a new or changed ``pattern`` or ``const``); an output's must not widen (clients validate what
they receive against what they were built with). Plain JSON values, standard library only.

``narrowings(old, new)`` compares one paired schema node and returns ``(keyword, what, old
value, new value)`` for each bound that narrowed; outputs call it with the sides swapped (a
widening of the output is the old output narrower than the new one)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

__all__ = ["narrowings"]

_LOWER_COUNTS = ("minLength", "minItems", "minProperties")
_UPPER_COUNTS = ("maxLength", "maxItems", "maxProperties")


def _num(v: Any) -> float | None:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def _lower(s: Mapping[str, Any]) -> tuple[float, bool]:
    """The effective lower bound ``(value, exclusive)``; ``-inf`` when there is none."""
    best: tuple[float, bool] = (-math.inf, False)
    m, x = _num(s.get("minimum")), s.get("exclusiveMinimum")
    if m is not None:
        best = (m, x is True)  # draft-04/07: exclusiveMinimum: true makes minimum exclusive
    xn = _num(x)
    if xn is not None and (xn > best[0] or (xn == best[0] and not best[1])):
        best = (xn, True)
    return best


def _upper(s: Mapping[str, Any]) -> tuple[float, bool]:
    best: tuple[float, bool] = (math.inf, False)
    m, x = _num(s.get("maximum")), s.get("exclusiveMaximum")
    if m is not None:
        best = (m, x is True)
    xn = _num(x)
    if xn is not None and (xn < best[0] or (xn == best[0] and not best[1])):
        best = (xn, True)
    return best


def _fmt(bound: tuple[float, bool]) -> str:
    value, exclusive = bound
    if math.isinf(value):
        return "none"
    return f"{value:g} (exclusive)" if exclusive else f"{value:g}"


def narrowings(old: Any, new: Any) -> list[tuple[str, str, str, str]]:
    """``(keyword on the new side, what, old value, new value)`` for each bound of ``new``
    that accepts less than ``old`` did (values shown as text; ``none`` for no bound)."""
    if not isinstance(old, Mapping) or not isinstance(new, Mapping):
        return []
    out: list[tuple[str, str, str, str]] = []
    ol, nl = _lower(old), _lower(new)
    if nl[0] > ol[0] or (nl[0] == ol[0] and nl[1] and not ol[1]):
        key = "exclusiveMinimum" if nl[1] and "exclusiveMinimum" in new else "minimum"
        out.append((key, "lower bound", _fmt(ol), _fmt(nl)))
    ou, nu = _upper(old), _upper(new)
    if nu[0] < ou[0] or (nu[0] == ou[0] and nu[1] and not ou[1]):
        key = "exclusiveMaximum" if nu[1] and "exclusiveMaximum" in new else "maximum"
        out.append((key, "upper bound", _fmt(ou), _fmt(nu)))
    for key in _LOWER_COUNTS:
        o, n = _num(old.get(key)) or 0.0, _num(new.get(key)) or 0.0
        if n > o:
            out.append((key, key, f"{o:g}", f"{n:g}"))
    for key in _UPPER_COUNTS:
        o_raw, n_raw = _num(old.get(key)), _num(new.get(key))
        o = math.inf if o_raw is None else o_raw
        n = math.inf if n_raw is None else n_raw
        if n < o:
            out.append((key, key, "none" if math.isinf(o) else f"{o:g}", f"{n:g}"))
    om, nm = _num(old.get("multipleOf")), _num(new.get("multipleOf"))
    if nm is not None and nm > 0 and (om is None or not _divides(nm, om)):
        out.append(("multipleOf", "multipleOf", "none" if om is None else f"{om:g}", f"{nm:g}"))
    op, np_ = old.get("pattern"), new.get("pattern")
    if isinstance(np_, str) and np_ != op:
        out.append(("pattern", "pattern", "none" if op is None else repr(op), repr(np_)))
    if "const" in new and ("const" not in old or old["const"] != new["const"]):
        before = repr(old["const"]) if "const" in old else "none"
        out.append(("const", "const", before, repr(new["const"])))
    return out


def _divides(new: float, old: float) -> bool:
    """Every multiple of ``old`` is a multiple of ``new`` (``old`` is a multiple of ``new``)."""
    q = old / new
    return abs(q - round(q)) < 1e-9
