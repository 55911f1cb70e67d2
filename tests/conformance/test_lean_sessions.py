"""The official suite's 2025-11-25 server scenarios in sessions the lean engine serves.

``test_conformance`` runs the suite against ``examples/conformance`` started with
``--resumable`` (an event store, which the resumption scenarios need). With an event store the
handshake wire's sessions are the SDK's alone (``lean.http_sessions``), so this runs the same
leg against the example without ``--resumable``, once with each engine
(``MCPGEN_ENGINE=lean`` / ``=sdk``). Every check must have the same verdict on both, and no
scenario may fail that ``expected-failures.yml`` does not list (none at present: the
resumption scenario passes without an event store too).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import yaml

from tests.conformance.suite import EXAMPLE, HERE, Results, SuiteRuns, failing, read_results
from tests.interop.procs import HttpServer, free_port

WIRE = "2025-11-25"


def _leg(runs: SuiteRuns, engine: str, out: Path) -> Results:
    port = free_port()
    env = {
        "PYTHONPATH": str(EXAMPLE),
        "PATH": "/usr/bin:/bin",
        "PYTHONDONTWRITEBYTECODE": "1",
        "MCPGEN_ENGINE": engine,
    }
    cmd = [sys.executable, "-m", "conformance_server", "--http", "--port", str(port)]
    server = HttpServer(cmd=cmd, env=env, port=port)
    server.start()
    try:
        subprocess.run(
            [str(runs.tc.node), str(runs.cli), "server", "--url", server.url, "--suite", "all"]
            + ["--spec-version", WIRE, "--timeout", "30000", "-o", str(out)],
            env=runs.tc.env,
            capture_output=True,
            text=True,
            timeout=600,
        )
    finally:
        server.stop()
    return read_results(out)


def _verdicts(results: Results) -> dict[str, list[tuple[str, str]]]:
    return {n: sorted((c["id"], c["status"]) for c in checks) for n, checks in results.items()}


def test_handshake_sessions_on_the_lean_engine(suite_runs: SuiteRuns, tmp_path: Path) -> None:
    lean = _leg(suite_runs, "lean", tmp_path / "lean")
    sdk = _leg(suite_runs, "sdk", tmp_path / "sdk")
    assert len(lean) >= 30, sorted(lean)
    assert _verdicts(lean) == _verdicts(sdk)
    expected = yaml.safe_load((HERE / "expected-failures.yml").read_text())[WIRE]
    assert set(failing(lean)) <= set(expected), failing(lean)
