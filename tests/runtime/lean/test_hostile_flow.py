"""Issue 49, items 2, 4 and 5: the lean engine's memory stays bounded under every flood on
stdio (docs/lean-engine.md, "Memory bounds").

- A handler that sends 100,000 progress notifications of 1 KB to a client that does not read
  waits for the client (before: every notification was buffered, 1,619 MiB for 200,000).
- 30,000 pipelined bridged requests: reading stops while the SDK serves ``MAX_SERVED`` of
  them, and every one is answered (before: a task each, 607 MiB for 100,000, and the answers
  still unwritten at end of input were lost).
- A line is assembled in time proportional to its length (before: the buffer was searched
  from its start on every read), and a line over the limit is answered ``-32600``.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.hostile_package import peak_rss, spawn, write

INIT = (
    b'{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":'
    b'"2025-11-25","capabilities":{},"clientInfo":{"name":"h","version":"1"}}}\n'
    b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'
)


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("hostile"))


def _read_until(
    proc: subprocess.Popen[bytes], rid: Any, timeout: float
) -> tuple[Any, list[dict[str, Any]]]:
    """(the answer to ``rid``, the messages before it and itself)."""
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    buf = b""
    seen: list[dict[str, Any]] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        while b"\n" in buf:
            line, buf = buf.split(b"\n", 1)
            msg = json.loads(line)
            seen.append(msg)
            if msg.get("id") == rid and "method" not in msg:
                return msg, seen
        ready, _, _ = select.select([fd], [], [], 1.0)
        if ready:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            buf += chunk
    return None, seen


FLOOD = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "tools/call",
    "params": {
        "name": "flood",
        "arguments": {"count": 100_000, "size": 1000},
        "_meta": {"progressToken": "p"},
    },
}
ADD = (
    b'{"jsonrpc":"2.0","id":"add","method":"tools/call",'
    b'"params":{"name":"add","arguments":{"a":1,"b":2}}}\n'
)


@pytest.mark.parametrize("when", ["while_booting", "once_running"])
def test_a_notifying_handler_waits_for_a_client_that_does_not_read(
    package: Path, when: str
) -> None:
    """``while_booting``: the call is written with ``initialize``, so the fast boot reads it
    and hands it to the engine with the connection (``Handover.pending``). On Python 3.12+ a
    request's task runs as it is received, and that line was received before the engine's
    flow control was wired: the handler never waited (834 MiB on 3.12.1; 46 MiB on 3.11,
    whose task ran later). ``once_running``: the engine has the wire (an ``add`` answered)."""
    proc = spawn(package, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None
    try:
        if when == "while_booting":
            proc.stdin.write(INIT + json.dumps(FLOOD).encode() + b"\n")
            proc.stdin.flush()
        else:
            proc.stdin.write(INIT + ADD)
            proc.stdin.flush()
            assert _read_until(proc, "add", 60)[0] is not None  # the engine has the wire
            proc.stdin.write(json.dumps(FLOOD).encode() + b"\n")
            proc.stdin.flush()
        time.sleep(3.0)  # the client does not read: the handler must wait for it
        peak = peak_rss(proc.pid)
        answer, seen = _read_until(proc, 1, 120)
        assert answer is not None and answer["result"]["content"][0]["text"] == "flooded"
        progress = [m for m in seen if m.get("method") == "notifications/progress"]
        assert len(progress) == 100_000  # every notification, then the answer
        assert seen[-1] is answer
        assert peak < 200, f"peak RSS {peak:.0f} MiB while the client did not read"
    finally:
        proc.kill()
        proc.wait()


def test_pipelined_bridged_requests_are_all_answered_in_bounded_memory(package: Path) -> None:
    count = 30_000
    proc = spawn(package, stderr=subprocess.DEVNULL)
    assert proc.stdin is not None and proc.stdout is not None
    peak = [0.0]

    def write() -> None:
        assert proc.stdin is not None
        proc.stdin.write(INIT)
        lines = [b'{"jsonrpc":"2.0","id":%d,"method":"custom/x"}\n' % i for i in range(count)]
        for start in range(0, count, 1000):
            proc.stdin.write(b"".join(lines[start : start + 1000]))
        proc.stdin.close()

    def sample() -> None:
        while proc.poll() is None:
            try:
                peak[0] = max(peak[0], peak_rss(proc.pid))
            except (OSError, AssertionError):
                return
            time.sleep(0.05)

    writer = threading.Thread(target=write)
    sampler = threading.Thread(target=sample, daemon=True)
    writer.start()
    sampler.start()
    codes: dict[Any, int] = {}
    try:
        for line in proc.stdout:
            msg = json.loads(line)
            if "method" not in msg:
                code = msg["error"]["code"] if "error" in msg else "ok"
                codes[code] = codes.get(code, 0) + 1
        writer.join(60)
        proc.wait(60)
    finally:
        proc.kill()
        proc.wait()
    assert codes == {"ok": 1, -32601: count}
    assert peak[0] < 160, f"peak RSS {peak[0]:.0f} MiB"


_ASSEMBLE = """
import asyncio, sys
from mcpgen_runtime.lean import stdio

stdio.LINE_LIMIT = {limit}

async def main():
    lines = stdio._Lines()
    got, written = [], []
    lines.attach(got.append, written.append)
    chunk = b"x" * {chunk}
    for _ in range({reads}):
        lines.data_received(chunk)
    lines.data_received(b"\\n" + b'{{"jsonrpc":"2.0","id":1,"method":"ping"}}\\n')
    print(len(got), [len(g) for g in got][:2], len(written))

asyncio.run(main())
"""


def _assemble(limit: int, chunk: int, reads: int) -> str:
    code = _ASSEMBLE.format(limit=limit, chunk=chunk, reads=reads)
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    return out.stdout.strip()


def test_a_long_line_is_assembled_in_linear_time() -> None:
    """64 MiB in reads of 1 KiB: 65,536 reads. Searching the whole buffer on each read (the
    code before) scans about 2 TiB (4 KiB reads, a quarter of that, took 60 s here) and does
    not finish within the timeout; searching only the new bytes takes well under a second."""
    assert _assemble(1 << 30, 1024, 65_536) == f"2 [{64 * 2**20 + 1}, 41] 0"


def test_a_line_over_the_limit_is_refused_once_and_the_next_line_served() -> None:
    """The limit lowered to 1 MiB, a line of 8 MiB: one ``-32600`` (id null) and the next
    line reaches the engine."""
    assert _assemble(1 << 20, 4096, 2048) == "1 [41] 1"


_LOWERED = (
    "import runpy, mcpgen_runtime.lean.stdio as s; s.LINE_LIMIT = 16 << 20; "
    "runpy.run_module('hostile_server', run_name='__main__', alter_sys=True)"
)


def test_a_server_with_a_lowered_line_limit_refuses_a_longer_line(package: Path) -> None:
    """The engine's limit (1 GiB) lowered to 16 MiB in a real server: a 40 MiB line is
    answered ``-32600`` (id null), and the request after it is served."""
    env = dict(os.environ, PYTHONPATH=str(package))
    proc = subprocess.Popen(
        [sys.executable, "-c", _LOWERED],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=package,
    )
    assert proc.stdin is not None
    try:
        proc.stdin.write(INIT)
        add = b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add",'
        proc.stdin.write(add + b'"arguments":{"a":1,"b":2}}}\n')
        proc.stdin.flush()
        assert _read_until(proc, 1, 60)[0] is not None  # the engine has the wire
        head = b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","x":"'
        proc.stdin.write(head + b"y" * (40 << 20) + b'"}}\n')
        proc.stdin.write(b'{"jsonrpc":"2.0","id":3,"method":"ping"}\n')
        proc.stdin.flush()
        answer, seen = _read_until(proc, 3, 60)
        assert answer == {"jsonrpc": "2.0", "id": 3, "result": {}}
        assert [m.get("id") for m in seen] == [None, 3]  # the refusal, then the ping's answer
        assert seen[0]["error"]["code"] == -32600
    finally:
        proc.kill()
        proc.wait()


_FEW_IN_FLIGHT = (
    "import runpy, mcpgen_runtime.lean.engine as e; e.MAX_IN_FLIGHT = 8; "
    "runpy.run_module('hostile_server', run_name='__main__', alter_sys=True)"
)


def test_reading_stops_while_max_in_flight_requests_run(package: Path) -> None:
    """``MAX_IN_FLIGHT`` lowered to 8: while 8 slow calls run, the next line is not read; it
    is read, and answered, once half of them are answered (before, it was read and answered
    at once, whatever ran)."""
    env = dict(os.environ, PYTHONPATH=str(package))
    proc = subprocess.Popen(
        [sys.executable, "-c", _FEW_IN_FLIGHT],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=package,
    )
    assert proc.stdin is not None
    call = (
        b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"%s","arguments":%s}}\n'
    )
    try:
        proc.stdin.write(INIT + call % (1000, b"add", b'{"a":1,"b":2}'))
        proc.stdin.flush()
        assert _read_until(proc, 1000, 60)[0] is not None  # the engine has the wire
        proc.stdin.write(b"".join(call % (i, b"slow", b'{"seconds":2}') for i in range(8)))
        proc.stdin.flush()
        time.sleep(0.5)
        proc.stdin.write(call % (99, b"add", b'{"a":1,"b":2}'))
        proc.stdin.flush()
        answer, seen = _read_until(proc, 99, 60)
        assert answer is not None
        assert len(seen) >= 5, seen  # at least half of the slow calls answered first
    finally:
        proc.kill()
        proc.wait()
