"""The skills extension (SEP-2640) against the official suite: the three server scenarios run
on ``examples/conformance`` (extension scenarios: no ``--spec-version``, so the suite speaks
2026-07-28 over Streamable HTTP) with every check run and passed, none skipped; the four client
scenarios run ``examples/conformance/client.py`` against the suite's own skills servers."""

from __future__ import annotations

import json

import pytest

from tests.conformance.suite import TABLES, SuiteRuns

SERVER = (
    "sep-2640-skills-directory",
    "sep-2640-skills-enumeration",
    "sep-2640-skills-manifest",
)
CLIENT = (
    "sep-2640-client-no-prefetch",
    "sep-2640-client-verify-digest",
    "sep-2640-client-verify-size",
    "sep-2640-client-verify-frontmatter",
)
COUNTS: dict[str, dict[str, int]] = {}


def _counts(checks: list[dict[str, object]]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in checks:
        status = str(c["status"])
        out[status] = out.get(status, 0) + 1
    return out


def _only(results: dict[str, list[dict[str, object]]], scenario: str) -> list[dict[str, object]]:
    found = [checks for name, checks in results.items() if name.startswith(scenario)]
    assert len(found) == 1, sorted(results)
    return found[0]


@pytest.mark.parametrize("scenario", SERVER)
def test_server_scenario(suite_runs: SuiteRuns, scenario: str) -> None:
    run = suite_runs.server_scenario(scenario)
    checks = _only(run.results, scenario)
    COUNTS[scenario] = _counts(checks)
    print(scenario, COUNTS[scenario], sorted({str(c["id"]) for c in checks}))
    not_passed = [c for c in checks if c["status"] != "SUCCESS"]
    assert checks and not not_passed, json.dumps(not_passed, indent=1) + run.proc.stdout[-2000:]
    assert sum(str(c["id"]).startswith("sep-2640-") for c in checks) >= 5


@pytest.mark.parametrize("scenario", CLIENT)
def test_client_scenario(suite_runs: SuiteRuns, scenario: str) -> None:
    run = suite_runs.client_scenario(scenario)
    checks = _only(run.results, scenario)
    COUNTS[scenario] = _counts(checks)
    own = [c for c in checks if str(c["id"]).startswith("sep-2640-")]
    assert own, json.dumps(checks, indent=1)
    bad = [c for c in checks if c["status"] not in ("SUCCESS", "INFO")]
    assert not bad, json.dumps(bad, indent=1) + run.proc.stdout[-2000:] + run.proc.stderr[-2000:]
    if len(COUNTS) == len(SERVER) + len(CLIENT):
        TABLES.append("\n".join(f"{name}: {counts}" for name, counts in sorted(COUNTS.items())))
