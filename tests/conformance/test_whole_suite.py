"""Every scenario the installed conformance suite lists, on both legs, extensions included.

The server leg runs ``examples/conformance`` per wire (``--suite all``: pending scenarios too)
and each extension scenario on its own; the client leg runs ``examples/conformance/client.py``
per wire (the revision's requirement set, with the extensions the suite runs unscored) and any
listed client scenario those runs did not reach on its own. The test fails when a listed
scenario never ran, and on any failing or warning check (the tasks scenarios are held to more
in ``test_tasks``, the skills scenarios, SEP-2640, to every check run and passed in
``test_skills``). The table it builds is printed at the end of the session
(``conftest.TABLES``)."""

from __future__ import annotations

import json

from tests.conformance.suite import BAD, TABLES, WIRES, SuiteRuns, failing, listed

OWN_ISSUES: tuple[str, ...] = ()
"""Scenario prefixes left to their own issues (none: the tasks scenarios are held to more in
``test_tasks``, the skills ones in ``test_skills``)."""


def _cell(results: dict[str, list[dict[str, object]]], name: str) -> str:
    """``pass 12`` (checks that succeeded; ``+3 skipped``/``+2 info`` for the rest), or
    ``FAIL 4 of 9``; empty where the run did not have the scenario."""
    checks = results.get(name)
    if checks is None:
        return ""
    count = {s: sum(c["status"] == s for c in checks) for s in ("SUCCESS", "SKIPPED", "INFO")}
    bad = sum(c["status"] in BAD for c in checks)
    if bad:
        return f"FAIL {bad} of {len(checks)}"
    rest = "".join(f" +{count[s]} {s.lower()}" for s in ("SKIPPED", "INFO") if count[s])
    return f"pass {count['SUCCESS']}{rest}"


def test_every_scenario_the_suite_lists(suite_runs: SuiteRuns) -> None:
    legs = listed(suite_runs.tc, suite_runs.cli)
    assert len(legs["server"]) >= 60 and len(legs["client"]) >= 45, legs
    columns: dict[str, dict[str, dict[str, list[dict[str, object]]]]] = {"server": {}, "client": {}}
    for wire in WIRES:
        columns["server"][wire] = suite_runs.server_leg(wire).results
        columns["client"][wire] = suite_runs.client_leg(wire).results
    for leg, scenarios in legs.items():
        alone: dict[str, list[dict[str, object]]] = {}
        for name in scenarios:
            if any(name in columns[leg][w] for w in WIRES):
                continue
            run = (
                suite_runs.server_scenario(name)
                if leg == "server"
                else suite_runs.client_scenario(name)
            )
            alone.update(run.results)
        columns[leg]["alone"] = alone
    # every listed scenario ran somewhere
    never = {
        leg: sorted(n for n in scenarios if not any(n in r for r in columns[leg].values()))
        for leg, scenarios in legs.items()
    }
    assert never == {"server": [], "client": []}, never
    # the table: one row per scenario, a column per run
    heads = [f"{leg} {col}" for leg in ("server", "client") for col in (*WIRES, "alone")]
    lines = ["| scenario | " + " | ".join(heads) + " |", "|---" * (len(heads) + 1) + "|"]
    for leg in ("server", "client"):
        for name in sorted(legs[leg]):
            cells = [
                _cell(columns[leg][col], name) if leg == want else ""
                for want in ("server", "client")
                for col in (*WIRES, "alone")
            ]
            lines.append(f"| {leg}: {name} | " + " | ".join(cells) + " |")
    table = "\n".join(lines)
    (suite_runs.base / "whole-suite.md").write_text(table + "\n")
    TABLES.append(table)
    # no failing or warning check outside the extensions with issues of their own
    bad = {
        f"{leg} {col}: {name}": checks
        for leg in columns
        for col, results in columns[leg].items()
        for name, checks in failing(results, BAD).items()
        if not name.startswith(OWN_ISSUES)
    }
    assert bad == {}, json.dumps(bad, indent=1)
