"""Never a lost or late answer on stdio, with either engine, on either wire (the weather
example, a real process).

- **Split writes.** A request written in pieces at arbitrary byte boundaries, with pauses
  between them (inside a multi-byte UTF-8 character, between ``\\r`` and ``\\n``, one 12 KB
  line cut 1,000 + the rest), is answered while stdin stays open: no reader may wait for
  more input when it holds a whole line, or lose the tail of a line at a read boundary.
  Once as the connection's first line (the lean engine's fast boot reads it) and once later
  (the engine's own reader).
- **End of input.** Requests written together and followed at once by the end of input,
  bridged ones (``skills/list``, ``custom/x``: the lean engine hands them to the SDK, whose
  server starts only then) among the engine's own, are each answered exactly once before
  the process exits. Before, the SDK engine never answered the last request read before end
  of input (``JSONRPCDispatcher.run`` cancels the handler task it has just spawned, before it
  starts; ``server.stdio_drain``).
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.driver import MODERN_META, handshake

WEATHER = Path(__file__).resolve().parents[3] / "examples" / "weather"
SKILLS = {"extensions": {"io.modelcontextprotocol/skills": {}}}
CITY = "Zürich 東京 🌧 Ünïcødé"


def _spawn(engine: str) -> subprocess.Popen[bytes]:
    env = dict(os.environ, PYTHONPATH=str(WEATHER), MCPGEN_ENGINE=engine)
    return subprocess.Popen(
        [sys.executable, "-m", "weather_server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=WEATHER,
    )


def _request(rid: Any, method: str, params: dict[str, Any], modern: bool) -> bytes:
    if modern:
        meta = {**MODERN_META, "io.modelcontextprotocol/clientCapabilities": SKILLS}
        params = {**params, "_meta": meta}
    msg = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
    return json.dumps(msg, ensure_ascii=False).encode()


class _Reader:
    """The server's answers by id, read as they come."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        self.fd = proc.stdout.fileno()
        self.buf = b""
        self.answers: dict[str, list[dict[str, Any]]] = {}
        self.ended = False

    def until(self, rid: Any, timeout: float) -> dict[str, Any] | None:
        """The answer to ``rid`` (None: none within ``timeout`` s, or the output ended)."""
        key = json.dumps(rid)
        deadline = time.monotonic() + timeout
        while key not in self.answers and not self.ended:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if select.select([self.fd], [], [], left)[0]:
                self._take(os.read(self.fd, 1 << 16))
        return self.answers[key][0] if key in self.answers else None

    def to_end(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not self.ended and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.5)[0]:
                self._take(os.read(self.fd, 1 << 16))
        assert self.ended, "the server did not close its output"

    def _take(self, chunk: bytes) -> None:
        if not chunk:
            self.ended = True
            return
        self.buf += chunk
        while b"\n" in self.buf:
            raw, self.buf = self.buf.split(b"\n", 1)
            msg = json.loads(raw)
            if "method" not in msg:
                self.answers.setdefault(json.dumps(msg.get("id")), []).append(msg)


def _pieces(data: bytes, cuts: list[int]) -> list[bytes]:
    bounds = [0, *sorted(c for c in set(cuts) if 0 < c < len(data)), len(data)]
    return [data[a:b] for a, b in zip(bounds, bounds[1:], strict=False)]


def _cuts(line: bytes, every: bool) -> list[list[int]]:
    """Ways to cut ``line`` (which ends ``\\r\\n``): 1,000 bytes in (a 12 KB line); with
    ``every``, also inside multi-byte characters, between ``\\r`` and ``\\n``, and every 7
    bytes (the id's digits do not move a cut: ids stay one digit long)."""
    if not every:
        return [[1000]]
    inside = [i for i in range(1, len(line)) if 0x80 <= line[i] < 0xC0]  # continuation bytes
    crlf = len(line) - 1
    return [inside[::3] + [crlf], [crlf], list(range(7, len(line), 7))[:60] + [crlf]]


@pytest.mark.parametrize("engine", ["lean", "sdk"])
@pytest.mark.parametrize("wire", ["2025-11-25", "2026-07-28"])
@pytest.mark.parametrize("first", [True, False], ids=["first-line", "later"])
def test_a_request_written_in_pieces_is_answered_before_more_input(
    engine: str, wire: str, first: bool
) -> None:
    modern = wire == "2026-07-28"
    proc = _spawn(engine)
    reader = _Reader(proc)
    assert proc.stdin is not None
    try:
        if not modern:
            for line in handshake():
                proc.stdin.write(line + b"\n")
            proc.stdin.flush()
            assert reader.until("init", 60) is not None
        if not first:
            proc.stdin.write(_request(0, "tools/list", {}, modern) + b"\n")
            proc.stdin.flush()
            assert reader.until(0, 60) is not None
        rid = 1
        for city in (CITY, CITY + " " + "x" * 12_000):
            params = {"name": "get_weather", "arguments": {"city": city}}
            for cuts in _cuts(_request(0, "tools/call", params, modern) + b"\r\n", city == CITY):
                line = _request(rid, "tools/call", params, modern) + b"\r\n"
                for piece in _pieces(line, cuts):
                    proc.stdin.write(piece)
                    proc.stdin.flush()
                    time.sleep(0.002 if len(cuts) > 20 else 0.05)
                answer = reader.until(rid, 30)
                assert answer is not None, f"no answer to a line cut at {cuts[:8]}..."
                assert answer["result"]["structuredContent"]["city"] == city, answer
                rid += 1
        proc.stdin.close()
        reader.to_end()
        assert all(len(v) == 1 for v in reader.answers.values()), reader.answers
    finally:
        proc.kill()
        proc.wait()


BRIDGED = ["skills/list", "custom/x"]


def _script(modern: bool, n: int) -> tuple[list[bytes], list[Any]]:
    lines = [] if modern else list(handshake())
    ids: list[Any] = [] if modern else ["init"]
    for i in range(n):
        method = (BRIDGED + ["tools/call"])[i % 3]
        params = (
            {"name": "get_weather", "arguments": {"city": CITY}} if method == "tools/call" else {}
        )
        lines.append(_request(i, method, params, modern))
        ids.append(i)
    lines.append(_request(n, BRIDGED[n % 2], {}, modern))  # a bridged request is the last line
    ids.append(n)
    return lines, ids


@pytest.mark.parametrize("engine", ["lean", "sdk"])
@pytest.mark.parametrize("wire", ["2025-11-25", "2026-07-28"])
@pytest.mark.parametrize("n", [0, 1, 7])
def test_requests_written_just_before_end_of_input_are_each_answered_once(
    engine: str, wire: str, n: int
) -> None:
    lines, ids = _script(wire == "2026-07-28", n)
    proc = _spawn(engine)
    out, _ = proc.communicate(b"".join(line + b"\n" for line in lines), timeout=120)
    got: dict[str, list[Any]] = {}
    for raw in out.splitlines():
        msg = json.loads(raw)
        if "method" not in msg:
            code = msg["error"]["code"] if "error" in msg else "ok"
            got.setdefault(json.dumps(msg.get("id")), []).append(code)
    assert got.keys() == {json.dumps(i) for i in ids}, got
    assert all(len(codes) == 1 for codes in got.values()), got
    assert got[json.dumps(n)] == ["ok" if BRIDGED[n % 2] == "skills/list" else -32601], got


SLOW_SDK = """\
import runpy, time
import mcpgen_runtime.server.cli as cli
made = cli._sdk
def slow(server):  # the SDK's import and server at load 40 (8 s were seen)
    time.sleep({seconds})
    return made(server)
cli._sdk = slow
runpy.run_module("weather_server", run_name="__main__")
"""


@pytest.mark.parametrize("wire", ["2025-11-25", "2026-07-28"])
def test_bridged_requests_wait_for_a_slow_sdk_start_at_end_of_input(wire: str) -> None:
    """The lean engine's bridge starting slower than the 5 s drain: the requests waiting for it
    are served by the SDK, not answered -32000 (the drain counts from the end of the start),
    and a second bridged request is sent after the whole replayed handshake."""
    lines, ids = _script(wire == "2026-07-28", 4)
    env = dict(os.environ, PYTHONPATH=str(WEATHER), MCPGEN_ENGINE="lean")
    proc = subprocess.Popen(
        [sys.executable, "-c", SLOW_SDK.format(seconds=6.5)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        cwd=WEATHER,
    )
    out, _ = proc.communicate(b"".join(line + b"\n" for line in lines), timeout=120)
    got: dict[str, list[Any]] = {}
    for raw in out.splitlines():
        msg = json.loads(raw)
        if "method" not in msg:
            code = msg["error"]["code"] if "error" in msg else "ok"
            got.setdefault(json.dumps(msg.get("id")), []).append(code)
    want = {
        json.dumps(i): ["ok" if m == "skills/list" else -32601 if m == "custom/x" else "ok"]
        for i, m in zip(ids, _methods(wire == "2026-07-28", 4), strict=True)
    }
    assert got == want


def _methods(modern: bool, n: int) -> list[str]:
    names = [] if modern else ["initialize"]
    names += [(BRIDGED + ["tools/call"])[i % 3] for i in range(n)]
    return [*names, BRIDGED[n % 2]]


BROKEN_SDK = """\
import runpy
import mcpgen_runtime.server.cli as cli
def broken(server):
    raise RuntimeError("no SDK server today")
cli._sdk = broken
runpy.run_module("weather_server", run_name="__main__")
"""


def test_a_bridge_that_cannot_start_answers_each_bridged_request() -> None:
    """The SDK's server cannot be made: the start is logged once and each bridged request is
    answered ``-32603`` (before, its task ended in the exception without an answer); the
    engine's own requests are served as usual."""
    lines, ids = _script(False, 4)
    env = dict(os.environ, PYTHONPATH=str(WEATHER), MCPGEN_ENGINE="lean")
    proc = subprocess.run(
        [sys.executable, "-c", BROKEN_SDK],
        input=b"".join(line + b"\n" for line in lines),
        capture_output=True,
        env=env,
        cwd=WEATHER,
        timeout=120,
    )
    got: dict[str, list[Any]] = {}
    for raw in proc.stdout.splitlines():
        msg = json.loads(raw)
        if "method" not in msg:
            code = msg["error"]["code"] if "error" in msg else "ok"
            got.setdefault(json.dumps(msg.get("id")), []).append(code)
    methods = _methods(False, 4)
    assert got == {
        json.dumps(i): [-32603 if m in BRIDGED else "ok"] for i, m in zip(ids, methods, strict=True)
    }
    assert proc.stderr.decode().count("did not start") == 1, proc.stderr.decode()[-2000:]
