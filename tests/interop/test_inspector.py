"""The MCP Inspector CLI (@modelcontextprotocol/inspector 2.12.0 ``--cli``, pinned in
tests/interop/js/package-lock.json) against the generated server, over stdio and Streamable HTTP,
in both protocol eras (``--protocol-era legacy|modern``). Its state goes to a temp HOME."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .checks import assert_structured_ok, assert_tool_error, assert_tools_served_as_written
from .conftest import ServerUnderTest
from .procs import HttpServer, NodeToolchain

pytestmark = pytest.mark.interop

ERAS = ("legacy", "modern")


@pytest.fixture(scope="module")
def inspector(
    node_toolchain: NodeToolchain,
    js_peers: Path,
    weather_server: ServerUnderTest,
    tmp_path_factory: pytest.TempPathFactory,
) -> Any:
    home = tmp_path_factory.mktemp("inspector-home")
    env = dict(weather_server.env, HOME=str(home))
    cli = js_peers / "node_modules" / "@modelcontextprotocol" / "inspector" / "package.json"
    assert json.loads(cli.read_text())["version"] == "2.12.0"
    bin_js = js_peers / "node_modules" / ".bin" / "mcp-inspector"

    def run(target: list[str], era: str, *args: str) -> tuple[int, dict[str, Any]]:
        cmd = [
            str(node_toolchain.node),
            str(bin_js),
            "--cli",
            "--format",
            "json",
            "-q",
            "--protocol-era",
            era,
            *args,
            *target,
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=120, cwd=home)
        text = proc.stdout.strip() or proc.stderr.strip()
        try:
            doc = json.loads(text.splitlines()[-1]) if text else {}
        except ValueError:
            pytest.fail(
                f"inspector printed non-JSON (rc {proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
            )
        return proc.returncode, doc

    return run


def exercise(run: Any, target: list[str], era: str, sut: ServerUnderTest) -> None:
    rc, doc = run(target, era, "--method", "tools/list", "--strict")
    assert rc == 0, f"tools/list --strict exited {rc}: {doc}"  # exit 6 = schema portability errors
    assert_tools_served_as_written(doc["result"]["tools"], sut.tools)

    ok = sut.ok_call
    rc, doc = run(
        target,
        era,
        "--method",
        "tools/call",
        "--tool-name",
        ok.tool,
        "--tool-args-json",
        json.dumps(ok.arguments),
    )
    assert rc == 0, doc
    assert_structured_ok(doc["result"], sut.tool(ok.tool), ok.structured)

    err = sut.error_call
    rc, doc = run(
        target,
        era,
        "--method",
        "tools/call",
        "--tool-name",
        err.tool,
        "--tool-args-json",
        json.dumps(err.arguments),
    )
    assert "result" in doc, f"a tool error must come back as an isError result, got {doc} (rc {rc})"
    assert_tool_error(doc["result"], err.message)

    # The Inspector checks tool names against tools/list itself and never sends the call
    # (client-side "tool_not_found", exit 5): the server's -32602 is asserted by the SDK clients
    # and the raw wire tests. Here: the unknown name really is absent from what the server lists.
    rc, doc = run(
        target,
        era,
        "--method",
        "tools/call",
        "--tool-name",
        "no_such_tool_xyz",
        "--tool-args-json",
        "{}",
    )
    assert rc != 0 and doc.get("error", {}).get("code") == "tool_not_found", doc


@pytest.mark.parametrize("era", ERAS)
def test_inspector_stdio(inspector: Any, weather_server: ServerUnderTest, era: str) -> None:
    # The Inspector gives a stdio server only a default environment plus `-e` pairs.
    target = ["-e", f"PYTHONPATH={weather_server.env['PYTHONPATH']}", *weather_server.stdio_cmd]
    exercise(inspector, target, era, weather_server)


@pytest.mark.parametrize("era", ERAS)
def test_inspector_http(
    inspector: Any, weather_server: ServerUnderTest, weather_http: HttpServer, era: str
) -> None:
    exercise(
        inspector, ["--server-url", weather_http.url, "--transport", "http"], era, weather_server
    )
