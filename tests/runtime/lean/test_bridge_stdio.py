"""Methods the lean engine bridges to the SDK on stdio, on the weather example: the first
starts the SDK (imported then) and is answered as the SDK engine answers it, and a bridged
request written before the client closes its end is answered too."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.driver import MODERN_META
from tests.runtime.lean.stdio_session import Session, initialize

REPO = Path(__file__).resolve().parents[3]
WEATHER = REPO / "examples" / "weather"


@pytest.mark.parametrize("wire", ["handshake", "2026-07-28"])
def test_a_bridged_method_starts_the_sdk_and_is_answered(wire: str) -> None:
    """skills/list (the skills extension: registered on the SDK's server, bridged by the lean
    engine) on the weather example: the SDK is imported when it comes, not before, and it is
    answered as the SDK engine answers it."""
    answers = {}
    for engine in ("lean", "sdk"):
        s = Session(WEATHER, "weather_server", engine=engine)
        try:
            meta: dict[str, Any] | None = None
            if wire == "handshake":
                initialize(s)
            else:
                meta = {
                    **MODERN_META,
                    "io.modelcontextprotocol/clientCapabilities": {
                        "extensions": {"io.modelcontextprotocol/skills": {}}
                    },
                }
            params: dict[str, Any] = {"name": "get_weather", "arguments": {"city": "Paris"}}
            if meta is not None:
                params["_meta"] = meta
            assert "result" in s.call(1, "tools/call", params)
            listed = s.call(2, "skills/list", {"_meta": meta} if meta is not None else {})
            answers[engine] = listed
            again = s.call(3, "skills/list", {"_meta": meta} if meta is not None else {})
            assert again == {**listed, "id": 3}
        finally:
            s.close()
    assert answers["lean"] == answers["sdk"]
    assert "result" in answers["lean"], answers["lean"]
    assert "reading-forecasts" in json.dumps(answers["lean"]["result"]["skills"])


def test_a_bridged_request_written_before_end_of_input_is_answered() -> None:
    """A client that writes its requests and closes its end gets every answer, the bridged
    ones too (the bridge waits for them before it stops the SDK, as the engine waits for its
    own; before, the SDK was stopped with the request unanswered)."""
    lines = [
        {
            "jsonrpc": "2.0",
            "id": 0,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-11-25",
                "capabilities": {},
                "clientInfo": {"name": "lazy-test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "skills/list", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "ping"},
    ]
    env = dict(os.environ, PYTHONPATH=str(WEATHER), MCPGEN_ENGINE="lean")
    out = subprocess.run(
        [sys.executable, "-m", "weather_server"],
        input=b"".join(json.dumps(m).encode() + b"\n" for m in lines),
        capture_output=True,
        env=env,
        cwd=WEATHER,
        timeout=60,
        check=True,
    )
    answered = {json.loads(line)["id"] for line in out.stdout.splitlines()}
    assert answered == {0, 1, 2}
