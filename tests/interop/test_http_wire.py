"""Per-revision wire validity over Streamable HTTP, with a raw JSON-RPC driver (httpx).

The same scenario as test_wire_revisions.py (every message validated against the revision's
schema.json, plus the content rules) against the shared HTTP instance of the generated server,
whose tools/list is paged (2 per page). Plus the HTTP-only rules: the legacy session id, the
2026-07-28 headers (Mcp-Method / Mcp-Name mismatch -> 400 + -32020), 404 for an unknown method,
405 for GET on the stateless wire.
"""

from __future__ import annotations

import httpx
import pytest

from .conftest import ServerUnderTest
from .procs import HttpServer
from .test_wire_revisions import RevisionWire, call_scenario, check_tools, list_all_tools
from .wire import CLIENT_INFO, MODERN_REVISION, HttpPeer, SpecSchemas

pytestmark = pytest.mark.interop


@pytest.mark.parametrize("rev", ("2025-03-26", "2025-06-18", "2025-11-25"))
def test_http_legacy_wire(
    rev: str, weather_server: ServerUnderTest, weather_http: HttpServer, spec_schemas: SpecSchemas
) -> None:
    peer = HttpPeer(weather_http.url, modern=False)
    try:
        w = RevisionWire(peer, spec_schemas, rev)
        init = w.result(
            w.request(
                "initialize",
                {"protocolVersion": rev, "capabilities": {}, "clientInfo": CLIENT_INFO},
            )
        )
        assert init["protocolVersion"] == rev
        assert peer.session_id, (
            "a stateful Streamable HTTP server issues Mcp-Session-Id on initialize"
        )
        peer.notify("notifications/initialized")
        served = list_all_tools(w)
        assert sum(1 for m in peer.received if "tools" in m.get("result", {})) > 1, (
            "the HTTP instance pages tools/list"
        )
        check_tools(w, served, weather_server)
        call_scenario(w, weather_server)
        w.check_everything_received()
        assert all(code == 200 for code in peer.status.values()), peer.status
    finally:
        peer.close()


def test_http_modern_wire(
    weather_server: ServerUnderTest, weather_http: HttpServer, spec_schemas: SpecSchemas
) -> None:
    peer = HttpPeer(weather_http.url, modern=True)
    try:
        w = RevisionWire(peer, spec_schemas, MODERN_REVISION)
        disc = w.result(w.request("server/discover"))
        assert MODERN_REVISION in disc["supportedVersions"]
        check_tools(w, list_all_tools(w), weather_server)
        call_scenario(w, weather_server)
        assert peer.session_id is None, "the stateless wire never mints a session id"
        unknown = next(rid for rid, m in w.methods.items() if m == "no/such_method")
        assert peer.status[unknown] == 404, (
            "an unknown method is 404 + -32601 on the 2026-07-28 HTTP wire"
        )

        ok = weather_server.ok_call
        params = {"name": ok.tool, "arguments": ok.arguments}
        resp = w.request("tools/call", params, headers={"Mcp-Method": "tools/list"})
        w.error(resp, -32020)
        assert peer.status[resp["id"]] == 400
        resp = w.request("tools/call", params, headers={"Mcp-Name": "report_outage"})
        w.error(resp, -32020)
        assert peer.status[resp["id"]] == 400
        w.check_everything_received()
    finally:
        peer.close()
    r = httpx.get(
        weather_http.url,
        headers={"Accept": "text/event-stream", "MCP-Protocol-Version": MODERN_REVISION},
    )
    assert r.status_code == 405, "2026-07-28 Streamable HTTP is POST only"
