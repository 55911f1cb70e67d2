"""The tasks extension (SEP-2663): the suite's ten ``tasks-*`` server scenarios against
``examples/conformance``, each run on its own as the project runs extension scenarios (no
``--spec-version``: ``suite.server_scenario``).

Every check must succeed: no failure, no warning, nothing skipped or merely informational, and
no expected failures. One exception is the suite's, not the server's: in
@modelcontextprotocol/conformance 0.2.0-alpha.12 (the newest release) ``tasks-status-
notifications`` is a placeholder whose only check is always SKIPPED ("pending subscriptions/
listen rewrite"); the test pins that, so a release with real checks fails it until they are
held to SUCCESS here. The notifications themselves are tested against a real server in
``tests/runtime/tasks``.
"""

from __future__ import annotations

import pytest

from tests.conformance.suite import SuiteRuns

SCENARIOS = (
    "tasks-lifecycle",
    "tasks-capability-negotiation",
    "tasks-wire-fields",
    "tasks-request-state-removal",
    "tasks-mrtr-input",
    "tasks-request-headers",
    "tasks-dispatch-and-envelope",
    "tasks-status-notifications",
    "tasks-required-task-error",
    "tasks-mrtr-composition",
)

PLACEHOLDER = {"tasks-status-notifications": ["tasks-status-notifications"]}
"""Scenarios the suite ships as a single always-SKIPPED placeholder check (by check id)."""


def test_the_suite_lists_exactly_these(suite_runs: SuiteRuns) -> None:
    from tests.conformance.suite import listed

    tasks = sorted(n for n in listed(suite_runs.tc, suite_runs.cli)["server"] if "tasks-" in n)
    assert tasks == sorted(SCENARIOS)


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_scenario_passes_every_check(suite_runs: SuiteRuns, scenario: str) -> None:
    run = suite_runs.server_scenario(scenario)
    checks = run.results.get(scenario)
    assert checks, (scenario, run.proc.stdout[-2000:], run.proc.stderr[-2000:])
    statuses = {c["id"]: c["status"] for c in checks}
    if scenario in PLACEHOLDER:
        assert statuses == {i: "SKIPPED" for i in PLACEHOLDER[scenario]}, statuses
        return
    not_ok = {
        c["id"]: f"{c['status']}: {c.get('errorMessage') or c.get('description')}"
        for c in checks
        if c["status"] != "SUCCESS"
    }
    assert not_ok == {}, not_ok
    assert len(checks) >= 2, statuses  # the scenario's own checks and the wire-schema check
