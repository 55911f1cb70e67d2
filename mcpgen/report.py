"""Diagnostics -> text: ``text``, ``json``, ``github`` (workflow commands) and ``sarif`` (2.1.0).

Pure functions from a sorted diagnostic list to one string; the CLI prints it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import PurePath
from typing import Any

from mcpgen import __version__
from mcpgen.diagnostics import Diagnostic, Location, Severity

FORMATS = ("text", "json", "github", "sarif")
_SARIF_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
_GITHUB_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def render(
    diags: Sequence[Diagnostic],
    fmt: str,
    *,
    rules: Mapping[str, Any] | None = None,
    related_label: str = "was at",
    collapse: bool = False,
) -> str:
    """``rules`` (id -> registry Rule) feeds SARIF's rule table; other formats ignore it.
    ``collapse`` (text only): repeated non-error findings of one rule in one file become one
    line (``collapsed_lines``); the machine formats always list every finding."""
    if fmt == "text":
        if collapse:
            return "".join(line + "\n" for line in collapsed_lines(diags, related_label))
        return "".join(text_line(d, related_label) + "\n" for d in diags)
    if fmt == "json":
        return json.dumps(as_json(diags), indent=2) + "\n"
    if fmt == "github":
        return "".join(github_line(d, related_label) + "\n" for d in diags)
    if fmt == "sarif":
        return json.dumps(as_sarif(diags, rules or {}), indent=2) + "\n"
    raise ValueError(f"unknown format {fmt!r}")


def text_line(d: Diagnostic, related_label: str = "was at") -> str:
    line = f"{d.location}: {d.severity.label} {d.rule_id} {d.message}"
    if d.related:
        line += " (" + "; ".join(f"{related_label} {loc}" for loc in d.related) + ")"
    return line


COLLAPSE_AT = 4
"""A rule that fires this many times (or more) in one file, below error, collapses to one line."""
SHOWN_LOCATIONS = 3
"""How many further locations a collapsed line names."""


def collapsed_lines(diags: Sequence[Diagnostic], related_label: str = "was at") -> list[str]:
    """Text lines, with each (file, rule, severity) group of at least ``COLLAPSE_AT`` warnings or
    infos collapsed into one line at its first finding, naming the count and the next
    locations. Errors are never collapsed: each gets its own line."""
    groups: dict[tuple[str, str, Severity], list[Diagnostic]] = {}
    for d in diags:
        if d.severity < Severity.ERROR:
            groups.setdefault((d.path, d.rule_id, d.severity), []).append(d)
    out: list[str] = []
    for d in diags:
        group = groups.get((d.path, d.rule_id, d.severity)) if d.severity < Severity.ERROR else None
        if group is None or len(group) < COLLAPSE_AT:
            out.append(text_line(d, related_label))
        elif group[0] is d:
            # each other place once (several findings of a rule can stand at one place)
            first = f"{d.line}:{d.col}"
            places = [p for p in dict.fromkeys(f"{o.line}:{o.col}" for o in group) if p != first]
            shown = ", ".join(places[:SHOWN_LOCATIONS])
            rest = ", ..." if len(places) > SHOWN_LOCATIONS else ""
            where = f"in this file, at {shown}{rest}" if places else "at this same place"
            out.append(
                f"{text_line(d, related_label)} [+{len(group) - 1} more {d.rule_id} "
                f"{where}; --verbose lists each]"
            )
    return out


def summary(
    diags: Sequence[Diagnostic],
    files: int,
    hidden_info: int = 0,
    tools: int | None = None,
    resources_and_prompts: Sequence[int] = (),
) -> str:
    """``mcpgen: 1 error, 2 warnings in 1 file (4 tools)``; ``hidden_info`` info findings not
    printed are counted, with the flag that shows them."""
    counts = {s: sum(1 for d in diags if d.severity == s) for s in Severity}
    parts = [
        f"{counts[s]} {s.label}{'s' if counts[s] != 1 else ''}"
        for s in reversed(Severity)
        if counts[s]
    ]
    line = f"mcpgen: {', '.join(parts) or 'no findings'} in {files} file{'s' if files != 1 else ''}"
    if tools is not None:
        counted = [f"{tools} tool{'s' if tools != 1 else ''}"]
        for n, what in zip(
            resources_and_prompts, ("resource", "resource template", "prompt"), strict=False
        ):
            if n:
                counted.append(f"{n} {what}{'s' if n != 1 else ''}")
        line += f" ({', '.join(counted)})"
    if hidden_info:
        line += (
            f"; {hidden_info} info finding{'s' if hidden_info != 1 else ''} hidden "
            "(--show-info lists them)"
        )
    return line


def statistics(diags: Sequence[Diagnostic], fmt: str = "text") -> str:
    """Counts per rule, most frequent first (ruff's ``--statistics``): text or json."""
    counts: dict[tuple[str, Severity], int] = {}
    for d in diags:
        counts[(d.rule_id, d.severity)] = counts.get((d.rule_id, d.severity), 0) + 1
    rows = sorted(counts.items(), key=lambda kv: (-kv[1], -kv[0][1], kv[0][0]))
    if fmt == "json":
        return (
            json.dumps(
                [{"rule_id": rid, "severity": sev.label, "count": n} for (rid, sev), n in rows],
                indent=2,
            )
            + "\n"
        )
    width = max((len(rid) for (rid, _), _ in rows), default=0)
    return "".join(f"{n:>5}  {rid:<{width}}  {sev.label}\n" for (rid, sev), n in rows)


def _loc_json(loc: Location) -> dict[str, Any]:
    return {"path": loc.path, "line": loc.line, "col": loc.col, "pointer": loc.pointer}


def as_json(diags: Sequence[Diagnostic]) -> dict[str, Any]:
    return {
        "version": 1,
        "tool": {"name": "mcpgen", "version": __version__},
        "diagnostics": [
            {
                "rule_id": d.rule_id,
                "severity": d.severity.label,
                **_loc_json(d.location),
                "message": d.message,
                "related": [_loc_json(r) for r in d.related],
            }
            for d in diags
        ],
        "summary": {s.label: sum(1 for d in diags if d.severity == s) for s in reversed(Severity)},
    }


def _gh_escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_escape_prop(s: str) -> str:
    return _gh_escape_data(s).replace(":", "%3A").replace(",", "%2C")


def github_line(d: Diagnostic, related_label: str = "was at") -> str:
    msg = d.message + ("".join(f" ({related_label} {r})" for r in d.related))
    props = (
        f"file={_gh_escape_prop(d.path)},line={d.line},col={d.col},"
        f"title={_gh_escape_prop(d.rule_id)}"
    )
    return f"::{_GITHUB_LEVEL[d.severity]} {props}::{_gh_escape_data(msg)}"


def _uri(path: str) -> str:
    p = PurePath(path)
    return p.as_posix() if not p.is_absolute() else p.as_uri()


def _physical(loc: Location) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": _uri(loc.path)},
            "region": {"startLine": loc.line, "startColumn": loc.col},
        }
    }


def as_sarif(diags: Sequence[Diagnostic], rules: Mapping[str, Any]) -> dict[str, Any]:
    used = sorted({d.rule_id for d in diags} | set(rules))
    index = {rid: i for i, rid in enumerate(used)}
    rule_objs = []
    for rid in used:
        r = rules.get(rid)
        obj: dict[str, Any] = {"id": rid}
        if r is not None:
            obj["shortDescription"] = {"text": r.purpose}
            obj["defaultConfiguration"] = {"level": _SARIF_LEVEL[r.severity]}
            obj["properties"] = {"category": r.category}
        rule_objs.append(obj)
    results = []
    for d in diags:
        res: dict[str, Any] = {
            "ruleId": d.rule_id,
            "ruleIndex": index[d.rule_id],
            "level": _SARIF_LEVEL[d.severity],
            "message": {"text": d.message},
            "locations": [_physical(d.location)],
        }
        if d.related:
            res["relatedLocations"] = [
                {"id": i, **_physical(r), "message": {"text": "previous location"}}
                for i, r in enumerate(d.related)
            ]
        results.append(res)
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "mcpgen",
                        "version": __version__,
                        "rules": rule_objs,
                    }
                },
                "columnKind": "unicodeCodePoints",
                "results": results,
            }
        ],
    }
