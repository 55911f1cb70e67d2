"""Issue 49's hostile differential fuzzer: seeded scripts (``hostile_fuzz.script``: mutated
envelopes, ids and params, lone surrogates, bytes that are not UTF-8, split writes, floods,
bridged methods, cancels by either spelling of an id, duplicate ids in flight, malformed
cancels and responses, and a half-close with calls still running) driven into both engines
over stdio, and the same request bodies POSTed to both over HTTP (2026-07-28, with a lowered
body limit and bodies over it).

It asserts one answer per request with the right id, the same error code as the SDK engine
(or a difference listed in docs/lean-engine.md's referee table: the SDK is silent), no second
answer under a duplicate id, nothing for what is cancelled or not a request, and the lean
server's peak RSS under 150 MiB. Budget: 3 stdio scripts of 120 lines and 80 POSTs, about
40 s on this machine (most of it the SDK engine's start and the 5 s drain at end of input).
Deterministic: fixed seeds (the same bytes every run; only the split points' timing varies).
"""

from __future__ import annotations

import http.client
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.runtime.lean.hostile_fuzz import Line, Run, run_stdio, script
from tests.runtime.lean.hostile_package import write

WEATHER = Path(__file__).resolve().parents[3] / "examples" / "weather"


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("fuzz"))


def _code(msg: dict[str, Any]) -> Any:
    return msg["error"]["code"] if "error" in msg else "ok"


def _judge(lines: list[Line], lean: Run, sdk: Run) -> list[str]:
    """Every way the lean engine's answers break the rules (empty: none)."""
    problems = []
    for line in lines:
        if line.rid is None:
            continue
        key = json.dumps(line.rid)
        mine = [_code(m) for m in lean.answers.get(key, [])]
        theirs = [_code(m) for m in sdk.answers.get(key, [])]
        what = f"{line.kind} {line.data[:160]!r}: lean {mine}, sdk {theirs}"
        if line.kind == "dup":
            continue  # judged with its first request (below)
        dup = any(x.kind == "dup" and x.rid == line.rid for x in lines)
        # refused before it ran, as the SDK engine refuses it; twice where a duplicate of it
        # came after the first refusal was sent (Python 3.12+ answers a refusal before the
        # next line is read, so the duplicate is a new request there, on both engines)
        refused_alike = (
            bool(mine)
            and all(code != "ok" for code in mine)
            and (len(mine) == 1 or dup)
            and mine == theirs[: len(mine)]
        )
        if line.kind == "none":  # cancelled while it runs (unless refused before it ran)
            if mine and not refused_alike:
                problems.append("answered: " + what)
        elif line.kind == "closed":
            if len(mine) != 1 or (mine[0] not in ("ok", -32000) and not refused_alike):
                problems.append("not answered once at the half-close: " + what)
        elif len(mine) != 1:
            problems.append("not answered once: " + what)
        elif line.kind == "same" and not dup and theirs and mine != theirs[:1]:
            problems.append("a different code: " + what)
        elif line.kind == "same" and not theirs:
            problems.append("the SDK is silent (list it in the referee table): " + what)
    return problems


@pytest.mark.parametrize(("seed", "modern"), [(4901, False), (4902, True), (4903, False)], ids=str)
def test_both_engines_answer_a_hostile_script_alike(package: Path, seed: int, modern: bool) -> None:
    lines = script(seed, modern)
    lean = run_stdio(package, "lean", lines, seed)
    sdk = run_stdio(package, "sdk", lines, seed)
    problems = _judge(lines, lean, sdk)
    assert not problems, "\n".join(problems)
    assert lean.peak_mib < 150, lean.peak_mib
    assert "Traceback" not in lean.stderr, lean.stderr[-2000:]


# -- HTTP ---------------------------------------------------------------------------------

LIMIT = 4000


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _bodies(seed: int) -> list[bytes]:
    rnd = random.Random(seed)
    bodies = []
    for line in script(seed, True, size=160):
        if line.rid is None or b'"slow"' in line.data:
            continue
        data = line.data
        if rnd.random() < 0.15:  # over (or just at) the body limit, with trailing whitespace
            data += b" " * (LIMIT + rnd.choice([-len(data), 1 - len(data), 1, 500]))
        bodies.append(data)
    return bodies[:80]


def _post_all(engine: str, bodies: list[bytes]) -> list[tuple[int, Any]]:
    port = _port()
    env = dict(os.environ, PYTHONPATH=str(WEATHER), MCPGEN_ENGINE=engine)
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "weather_server",
            "--http",
            "--port",
            str(port),
            "--max-body-bytes",
            str(LIMIT),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.05)
        out = []
        for body in bodies:
            try:
                method = json.loads(body).get("method", "tools/list")
            except ValueError:
                method = "tools/list"
            headers = {
                "Content-Type": "application/json",
                "Accept": "application/json, text/event-stream",
                "MCP-Protocol-Version": "2026-07-28",
                "Mcp-Method": method if isinstance(method, str) and method.isascii() else "x",
            }
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            conn.request("POST", "/mcp", body, headers)
            r = conn.getresponse()
            data = r.read()
            conn.close()
            code: Any = None
            if r.getheader("content-type") == "application/json" and data:
                msg = json.loads(data)
                code = _code(msg) if isinstance(msg, dict) and "id" in msg else None
            out.append((r.status, code))
        return out
    finally:
        proc.terminate()
        proc.wait(30)


def test_both_engines_answer_hostile_posts_alike() -> None:
    bodies = _bodies(4904)
    lean, sdk = _post_all("lean", bodies), _post_all("sdk", bodies)
    differ = [(b[:120], a, s) for b, a, s in zip(bodies, lean, sdk, strict=True) if a != s]
    assert not differ, differ
    assert any(status == 413 for status, _ in lean)
