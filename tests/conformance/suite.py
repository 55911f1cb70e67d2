"""Runs of the official conformance suite, shared by the tests of this folder: each leg and
selection runs once per test run (``SuiteRuns``), whichever test asks first on whichever
pytest-xdist worker (``tests.shared_once``: the modules here land on different workers, which
each ran the legs again), and every test reads the same results: ``test_conformance`` (the
server leg per wire), ``test_client_leg`` (the client leg per wire) and ``test_whole_suite``
(every scenario the suite lists, with the extension scenarios, as one table).

A run's results are ``{scenario: [check, ...]}`` read from the suite's ``checks.json`` files.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.interop.procs import HttpServer, NodeToolchain, ensure_js_peers, free_port
from tests.shared_once import once

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
JS = HERE / "js"
EXAMPLE = ROOT / "examples" / "conformance"
CLIENT = EXAMPLE / "client.py"
WIRES = ("2025-11-25", "2026-07-28")
BAD = ("FAILURE", "WARNING")

Results = dict[str, list[dict[str, Any]]]
TABLES: list[str] = []
"""Tables the tests of this folder report (``conftest`` prints them in the terminal summary)."""


def read_results(out: Path) -> Results:
    found: Results = {}
    for checks in sorted(out.rglob("checks.json")):
        name = checks.parent.relative_to(out).as_posix()
        name = re.sub(r"-\d{4}-\d{2}-\d{2}T[\d-]+Z?$", "", name)
        name = name.removeprefix("server-")
        found[name] = json.loads(checks.read_text())
    return found


def failing(results: Results, bad: tuple[str, ...] = ("FAILURE",)) -> dict[str, list[str]]:
    """Each scenario with a check in ``bad``: its failing checks, ``id: message``."""
    return {
        name: [
            f"{c['id']}: {c.get('errorMessage') or c.get('description')}"
            for c in checks
            if c["status"] in bad
        ]
        for name, checks in results.items()
        if any(c["status"] in bad for c in checks)
    }


@dataclass
class Run:
    results: Results
    proc: subprocess.CompletedProcess[str]


def listed(tc: NodeToolchain, cli: Path) -> dict[str, dict[str, list[str]]]:
    """``conformance list``: ``{"server": {name: tags}, "client": {...}}`` (tags: the
    revisions, or ``extension``)."""
    proc = subprocess.run(
        [str(tc.node), str(cli), "list"],
        env=tc.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    legs: dict[str, dict[str, list[str]]] = {"server": {}, "client": {}}
    leg: str | None = None
    for line in proc.stdout.splitlines():
        if line.startswith("Server scenarios"):
            leg = "server"
        elif line.startswith("Client scenarios"):
            leg = "client"
        elif not line.startswith(" "):
            leg = None  # authorization-server scenarios: not an MCP server or client
        m = re.match(r"\s+- (\S+) \[([^\]]*)\]", line)
        if m and leg:
            legs[leg][m.group(1)] = m.group(2).split(",")
    return legs


@dataclass
class SuiteRuns:
    """The suite's CLI and one cache of runs for the session."""

    tc: NodeToolchain
    cli: Path
    base: Path
    factory: pytest.TempPathFactory
    _runs: dict[tuple[str, ...], Run] = field(default_factory=dict)
    _server: HttpServer | None = None

    @classmethod
    def install(cls, base: Path, factory: pytest.TempPathFactory) -> SuiteRuns:
        tc = NodeToolchain.from_wheel()
        ensure_js_peers(tc, JS)
        cli = JS / "node_modules" / "@modelcontextprotocol" / "conformance" / "dist" / "index.js"
        assert cli.is_file(), cli
        return cls(tc, cli, base, factory)

    def requirements(self, wire: str) -> dict[str, list[str]]:
        import yaml

        text = (self.cli.parents[1] / "requirements" / f"{wire}.yaml").read_text(encoding="utf-8")
        loaded: dict[str, list[str]] = yaml.safe_load(text)
        return loaded

    def server(self) -> HttpServer:
        """``examples/conformance`` over Streamable HTTP (stateful sessions and resumable
        streams, as the 2025-11-25 scenarios need), started once."""
        if self._server is None:
            port = free_port()
            env = {
                "PYTHONPATH": str(EXAMPLE),
                "PATH": "/usr/bin:/bin",
                "PYTHONDONTWRITEBYTECODE": "1",
            }
            cmd = [sys.executable, "-m", "conformance_server", "--http", "--port", str(port)]
            self._server = HttpServer(cmd=[*cmd, "--resumable"], env=env, port=port)
            self._server.start()
        return self._server

    def stop(self) -> None:
        if self._server is not None:
            self._server.stop()
            self._server = None

    def _run(self, key: tuple[str, ...], make: Callable[[Path], list[str]], timeout: int) -> Run:
        """The run named ``key``: made by the first worker that asks (its output, exit code and
        streams kept in a folder of the run), read by every other."""
        if key not in self._runs:

            def build(folder: Path) -> None:
                argv = [str(self.tc.node), str(self.cli), *make(folder / "out")]
                proc = subprocess.run(
                    argv, env=self.tc.env, capture_output=True, text=True, timeout=timeout
                )
                kept = {"returncode": proc.returncode, "stdout": proc.stdout, "stderr": proc.stderr}
                (folder / "proc.json").write_text(json.dumps({"args": argv, **kept}))

            folder = once(self.factory, "conformance-" + "-".join(key), build)
            kept = json.loads((folder / "proc.json").read_text())
            proc = subprocess.CompletedProcess(
                kept["args"], kept["returncode"], kept["stdout"], kept["stderr"]
            )
            self._runs[key] = Run(read_results(folder / "out"), proc)
        return self._runs[key]

    def server_leg(self, wire: str) -> Run:
        """Every server scenario of the revision, pending ones included (``--suite all``)."""
        return self._run(  # the server starts only in the worker that makes the run
            ("server", wire),
            lambda out: (
                ["server", "--url", self.server().url, "--suite", "all", "--spec-version", wire]
                + ["--timeout", "30000", "-o", str(out)]
            ),
            600,
        )

    def server_scenario(self, scenario: str) -> Run:
        """One server scenario on its own (extension scenarios: no revision)."""
        return self._run(
            ("server", scenario.replace("/", "_")),
            lambda out: (
                ["server", "--url", self.server().url, "--scenario", scenario]
                + ["--timeout", "30000", "-o", str(out)]
            ),
            300,
        )

    def client_leg(self, wire: str) -> Run:
        """The revision's client requirement set and the extensions it runs unscored."""
        command = f"{sys.executable} {CLIENT}"
        return self._run(
            ("client", wire),
            lambda out: ["client", "--command", command, "--requirements", wire, "-o", str(out)],
            1200,
        )

    def client_scenario(self, scenario: str) -> Run:
        command = f"{sys.executable} {CLIENT}"
        return self._run(
            ("client", scenario.replace("/", "_")),
            lambda out: ["client", "--command", command, "--scenario", scenario] + ["-o", str(out)],
            300,
        )
