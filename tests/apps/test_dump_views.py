"""A ``tools/list`` dump whose tools open MCP Apps views (issue 51): it has no ``resources:``,
so a missing view is the warning ``APP_VIEW_UNDECLARED``, and both ``mcpgen server`` and
``mcpgen client`` generate; the server serves the tool as listed. In a manifest with
``resources:`` a missing view stays the error ``APP_VIEW_MISSING``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio

from mcpgen.check.config import RuleConfig
from mcpgen.check.runner import lint_loaded
from mcpgen.diagnostics import Severity
from mcpgen.manifest.load import load_manifest
from tests.client.helpers import write_client
from tests.server.helpers import RawClient, imported, write_package

VIEW = "ui://shop/cart"
DUMP = {
    "tools": [
        {
            "name": "show_cart",
            "description": "Show the cart.",
            "inputSchema": {"type": "object", "properties": {"id": {"type": "string"}}},
            "outputSchema": {"type": "object", "properties": {"items": {"type": "integer"}}},
            "_meta": {"ui": {"resourceUri": VIEW}},
        }
    ],
    "nextCursor": None,
}


def _findings(path: Path) -> list[tuple[str, Severity]]:
    return [(d.rule_id, d.severity) for d in lint_loaded(load_manifest(path), RuleConfig())]


def test_dump_with_views_warns_and_generates_a_server_and_a_client(tmp_path: Path) -> None:
    dump = tmp_path / "shop.json"
    dump.write_text(json.dumps({k: v for k, v in DUMP.items() if v is not None}))
    found = _findings(dump)
    assert ("APP_VIEW_UNDECLARED", Severity.WARNING) in found
    assert not [f for f in found if f[1] == Severity.ERROR], found
    write_client(dump, tmp_path / "client", "shop_client")
    assert (tmp_path / "client" / "shop_client" / "_generated").is_dir()
    write_package(dump, tmp_path / "server", "shop_server")

    async def listed() -> dict[str, Any]:
        with imported(tmp_path / "server", "shop_server") as handlers:
            gen = __import__("shop_server._generated", fromlist=["create_server"])
            server = gen.create_server(handlers.Handlers())
            async with RawClient(server, "2025-11-25") as client:
                return await client.request("tools/list")

    reply = anyio.run(listed)
    (tool,) = reply["result"]["tools"]
    assert tool["_meta"]["ui"]["resourceUri"] == VIEW


def test_manifest_with_resources_keeps_a_missing_view_an_error(tmp_path: Path) -> None:
    manifest = tmp_path / "shop.yaml"
    doc = {
        "server": {"name": "shop"},
        "tools": DUMP["tools"],
        "resources": [{"uri": "shop://notes", "name": "notes", "text": "x"}],
    }
    manifest.write_text(json.dumps(doc))
    assert ("APP_VIEW_MISSING", Severity.ERROR) in _findings(manifest)
    assert "APP_VIEW_UNDECLARED" not in {f[0] for f in _findings(manifest)}
