"""The fast boot hands the wire to the lean engine while a client is writing: every request gets
its one answer even when the handover falls in the middle of a line (a client that writes a
message in two pieces). Spawns the weather example over stdio; the requests span the boot's
answers from ``ANSWERS``, the handover and the engine."""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
WEATHER = REPO / "examples" / "weather"


def _messages() -> list[bytes]:
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "split-writer", "version": "1"},
        },
    }
    out = [json.dumps(init), '{"jsonrpc":"2.0","method":"notifications/initialized"}']
    for i in range(1, 150):
        method = ("ping", "tools/list", "resources/list", "tools/call")[i % 4]
        msg: dict[str, object] = {"jsonrpc": "2.0", "id": i, "method": method}
        if method == "tools/call":
            msg["params"] = {"name": "get_weather", "arguments": {"city": f"City {i}"}}
        out.append(json.dumps(msg))
    return [m.encode() + b"\n" for m in out]


def _run_once() -> list[int]:
    env = {**os.environ, "PYTHONPATH": str(WEATHER), "PYTHONDONTWRITEBYTECODE": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "weather_server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    messages = _messages()
    stdin = proc.stdin.fileno()

    def write() -> None:
        for data in messages:  # each message in two writes, a moment apart
            half = len(data) // 2
            os.write(stdin, data[:half])
            time.sleep(0.003)
            os.write(stdin, data[half:])

    writer = threading.Thread(target=write)
    writer.start()
    want = set(range(150))
    got: list[int] = []
    buf = b""
    deadline = time.monotonic() + 60
    try:
        while set(got) != want and time.monotonic() < deadline:
            ready, _, _ = select.select([proc.stdout], [], [], 0.5)
            if not ready:
                continue
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            if not chunk:
                break
            buf += chunk
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                answer = json.loads(line)
                assert "error" not in answer, answer
                got.append(answer["id"])
    finally:
        writer.join()
        proc.kill()
        proc.wait()
    assert len(got) == len(set(got)), "an id answered twice"
    return sorted(want - set(got))


def test_no_request_is_lost_when_the_handover_splits_a_line() -> None:
    for _ in range(3):
        assert _run_once() == []
