"""The official conformance suite's client leg against ``examples/conformance/client.py`` (a
client on mcpgen's runtime: ``ToolClient.http`` and ``mcpgen_runtime.oauth``), on both wires.

``conformance client --requirements REV`` runs the revision's frozen client requirement set
(18 scenarios for 2025-11-25, 16 of them ``auth/*``; 32 for 2026-07-28), bringing its own
servers and authorization servers, plus the extension scenarios it runs without scoring.
Every scored scenario must pass with no failed or warning check; a failing unscored one must
be listed in ``client-expected-failures.yml`` with its reason (and a listed one that passes
is a stale entry).
"""

from __future__ import annotations

import json

import pytest
import yaml

from tests.conformance.suite import BAD, HERE, WIRES, SuiteRuns


@pytest.mark.parametrize("wire", WIRES)
def test_client_leg(wire: str, suite_runs: SuiteRuns) -> None:
    expected: dict[str, str] = yaml.safe_load((HERE / "client-expected-failures.yml").read_text())[
        wire
    ]
    scored: list[str] = suite_runs.requirements(wire)["client"]
    assert len(scored) == {"2025-11-25": 18, "2026-07-28": 32}[wire]
    run = suite_runs.client_leg(wire)
    proc = run.proc
    results = run.results
    missing = [n for n in scored if n not in results]
    assert not missing, f"scored scenarios that did not run: {missing}\n{proc.stderr[-3000:]}"
    failing = {
        name: [
            f"{c['id']}: {c.get('errorMessage') or c.get('description')}"
            for c in checks
            if c["status"] in BAD
        ]
        for name, checks in results.items()
        if any(c["status"] in BAD for c in checks)
    }
    # every scored scenario passed, and really exercised the client
    assert {n: failing[n] for n in scored if n in failing} == {}
    for name in scored:
        assert any(c["status"] == "SUCCESS" for c in results[name]), name
    # the expected-failures file: reasons given, never a scored scenario, nothing stale
    assert all(isinstance(r, str) and r.strip() for r in expected.values())
    assert not set(expected) & set(scored)
    unexpected = {n: f for n, f in failing.items() if n not in expected}
    assert not unexpected, json.dumps(unexpected, indent=1)
    stale = sorted(n for n in expected if n in results and n not in failing)
    assert not stale, f"listed as expected failures but pass now: {stale}"
    # the suite's own verdict agrees: scored scenarios decide the exit code
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
