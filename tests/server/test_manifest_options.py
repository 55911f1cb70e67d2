"""Manifest options for the runtime: ``server.capabilities.tools.listChanged``,
``server.limits`` and a tool's ``x-mcpgen.limits`` are accepted by ``mcpgen check``, rejected
when malformed, and reach the generated package only when set."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests import inprocess
from tests.server.helpers import render_package


def _manifest(tmp_path: Path, server: dict[str, Any], tool_ext: Any = None) -> Path:
    tool: dict[str, Any] = {
        "name": "t",
        "description": "A tool.",
        "inputSchema": {"type": "object", "properties": {}, "additionalProperties": False},
    }
    if tool_ext is not None:
        tool["x-mcpgen"] = tool_ext
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"server": {"name": "opts", **server}, "tools": [tool]}))
    return path


def _check(path: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen("check", str(path), cwd=Path(__file__).resolve().parents[2])


def test_valid_options_pass_check_and_reach_the_package(tmp_path: Path) -> None:
    path = _manifest(
        tmp_path,
        {
            "capabilities": {"tools": {"listChanged": True}},
            "limits": {"timeoutSeconds": 30, "rateLimit": {"perSecond": 5, "burst": 10}},
        },
        {"limits": {"maxArgumentBytes": 1000, "rateLimit": None}},
    )
    proc = _check(path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    server_py = render_package(path, "opts_server").owned["server.py"]
    assert "list_changed=True," in server_py
    assert 'limits=\'{"timeoutSeconds":30,"rateLimit":{"perSecond":5,"burst":10}}\'' in server_py
    tools_py = render_package(path, "opts_server").owned["tools.py"]
    assert '"x-mcpgen":{"limits":{"maxArgumentBytes":1000,"rateLimit":null}}' in tools_py


def test_options_absent_leave_the_package_unchanged(tmp_path: Path) -> None:
    server_py = render_package(_manifest(tmp_path, {}), "opts_server").owned["server.py"]
    assert "list_changed" not in server_py and "limits=" not in server_py


def test_malformed_options_are_errors(tmp_path: Path) -> None:
    cases = [
        ({"limits": {"timeoutSeconds": -1}}, None),
        ({"limits": {"timeout": 5}}, None),
        ({"capabilities": {"tools": {"listChanged": "yes"}}}, None),
        ({}, {"limits": {"rateLimit": {"burst": 2}}}),
        ({}, {"timeoutSeconds": 5}),
    ]
    for server, ext in cases:
        proc = _check(_manifest(tmp_path, server, ext))
        assert proc.returncode == 1, (server, ext, proc.stdout)
        assert "MANIFEST_SCHEMA" in proc.stdout or "error" in proc.stdout, proc.stdout
