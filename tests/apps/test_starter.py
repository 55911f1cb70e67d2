"""``mcpgen init --view``: the starter MCP Apps view builds from its pinned lockfile into the
very file init wrote (esbuild is deterministic), the project checks clean and generates, and
the view loads in a real browser under ext-apps' AppBridge and calls the starter tool through
the host. The weather example's view is rebuilt the same way (its committed dist/ is current)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.apps.browser import artifacts_dir, console_errors, drive, host_page, node_toolchain
from tests.apps.browser import served as served_by
from tests.interop.procs import NodeToolchain

pytestmark = [pytest.mark.slow, pytest.mark.interop]

REPO = Path(__file__).resolve().parents[2]

GREET = {
    "ready": '!document.getElementById("greet").disabled',
    "steps": [["type", "#name", "Ada"], ["click", "#greet"]],
    "done": 'document.getElementById("greeting").textContent !== ""',
    "collect": '{ greeting: document.getElementById("greeting").textContent }',
}


@pytest.fixture(scope="module")
def node() -> NodeToolchain:
    return node_toolchain()


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("starter") / "hello"
    proc = subprocess.run(
        [sys.executable, "-m", "mcpgen", "init", str(root), "--view", "--no-wheels"],
        capture_output=True, text=True, cwd=REPO,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return root


def _rebuilt(node: NodeToolchain, view: Path, into: Path) -> bytes:
    """``npm ci && npm run build`` in a copy of ``view`` (its dist/ removed first)."""
    shutil.copytree(view, into, ignore=shutil.ignore_patterns("node_modules", "dist"))
    ci = node.npm("ci", "--no-audit", "--no-fund", "--loglevel=error", cwd=into)
    assert ci.returncode == 0, ci.stderr
    built = node.npm("run", "build", cwd=into)
    assert built.returncode == 0, built.stderr
    return (into / "dist" / "index.html").read_bytes()


def test_starter_checks_clean(project: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mcpgen", "check", "tools.yaml"],
        capture_output=True, text=True, cwd=project,
    )  # fmt: skip
    assert proc.returncode == 0 and "no findings" in proc.stderr, proc.stdout + proc.stderr
    assert 'resourceUri: "ui://hello_server/greeting"' in (project / "tools.yaml").read_text()


def test_starter_view_builds_to_what_init_wrote(
    node: NodeToolchain, project: Path, tmp_path: Path
) -> None:
    shipped = (project / "view" / "dist" / "index.html").read_bytes()
    assert _rebuilt(node, project / "view", tmp_path / "view") == shipped
    assert b"<script src=" not in shipped and b"<link " not in shipped  # one file, no CDN


def test_weather_view_is_current(node: NodeToolchain, tmp_path: Path) -> None:
    view = REPO / "examples" / "weather" / "view"
    assert _rebuilt(node, view, tmp_path / "view") == (view / "dist" / "index.html").read_bytes()


def test_starter_view_calls_greet_in_a_browser(
    node: NodeToolchain, project: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    host_dir = host_page(node, tmp_path_factory.mktemp("host"))
    shot = artifacts_dir(tmp_path_factory) / "starter-view.png"
    with served_by(project, "hello_server", host_dir, "greet") as (url, seen):
        result = drive(node, url, shot, GREET)
    assert result["host"]["errors"] == [] and result["host"]["initialized"] is True
    assert result["host"]["view"]["mimeType"] == "text/html;profile=mcp-app"
    assert result["view"]["greeting"] == "Hello, Ada!"
    calls = [m["params"] for m in seen if m["method"] == "tools/call"]
    assert [(c["name"], c["arguments"]) for c in calls] == [("greet", {"name": "Ada"})]
    assert result["view"]["scripts"] == ["inline"]
    assert console_errors(result) == [] and result["pageErrors"] == [], result
