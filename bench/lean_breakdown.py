#!/usr/bin/env python3
"""Where a ``tools/call add`` spends its time in the lean engine (stdio, 2026-07-28 wire):
each step of the path timed alone, in process, on the generated bench server, beside the
bare minimum (parse, jsonschema-rs, dump) and a pipe round trip. Not a test; the numbers go in
docs/lean-engine.md ("Where the time goes").

  .venv/bin/python bench/lean_breakdown.py [-n 20000]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peerset import HANDLERS_PY, generate  # noqa: E402

__all__ = ["HANDLERS_PY"]

META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
LINE = (
    json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 7,
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 2, "b": 3}, "_meta": META},
        }
    ).encode()
    + b"\n"
)


def per_call_us(fn: Callable[[], Any], n: int) -> float:
    for _ in range(min(n, 2000)):
        fn()
    t = time.perf_counter()
    for _ in range(n):
        fn()
    return (time.perf_counter() - t) / n * 1e6


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=20000)
    n = ap.parse_args().n
    with tempfile.TemporaryDirectory() as tmp:
        gen = generate(Path(tmp))
        sys.path.insert(0, gen.env["PYTHONPATH"].split(os.pathsep)[0])
        asyncio.run(measure(n))


async def measure(n: int) -> None:
    import jsonschema_rs
    from bench_add_server._generated import create_server
    from bench_add_server.handlers import Handlers

    from mcpgen_runtime.lean import jsonrpc
    from mcpgen_runtime.lean.context import LeanRequest, Params, log_floor
    from mcpgen_runtime.lean.engine import Engine
    from mcpgen_runtime.server.bindings import input_check, output_check
    from mcpgen_runtime.server.fastpath import validate
    from mcpgen_runtime.server.results import to_result
    from mcpgen_runtime.server.server_runtime import runtime_of

    server = create_server(Handlers())
    runtime = runtime_of(server)
    assert runtime is not None
    out: list[bytes] = []
    engine = Engine(runtime, runtime.discovery, out.append)
    tool = runtime.tools.tools[0]
    msg = jsonrpc.decode(LINE)
    params = msg["params"]
    args = params["arguments"]
    input_check(tool)
    check = input_check(tool)
    model = tool.binding.input_model
    handlers = Handlers()
    typed = validate(model, args)
    value = await handlers.add(typed, None)  # type: ignore[arg-type]
    answer: dict[str, Any] = {}

    def request() -> Any:
        channel = (engine.connection, {}, log_floor(META), None)
        return LeanRequest("tools/call", params, 7, META, "2026-07-28", channel)

    async def call() -> dict[str, Any]:
        return await runtime.tools.call_tool(request(), Params(params))  # type: ignore[arg-type]

    loop = asyncio.get_running_loop()

    async def nothing() -> None:
        return None

    def run_coro(coro: Any) -> Any:
        try:
            coro.send(None)
        except StopIteration as stop:
            return stop.value
        raise RuntimeError("suspended")

    answer = run_coro(call())
    result = {"jsonrpc": "2.0", "id": 7, "result": engine.discovery.stamp(dict(answer), False)}
    r, w = os.pipe()
    data = jsonrpc.encode(result)

    def pipe_round_trip() -> None:
        os.write(w, data)
        os.read(r, 65536)

    t_engine_total = await _engine_total(engine, n)
    bare_valid = jsonschema_rs.validator_for(tool.definition["inputSchema"]).is_valid
    rows = [
        ("json.loads of the request line", per_call_us(lambda: json.loads(LINE), n)),
        ("jsonrpc.decode (parse + JSON-RPC shape)", per_call_us(lambda: jsonrpc.decode(LINE), n)),
        (
            "envelope check + LeanRequest + LeanSession",
            per_call_us(lambda: (engine_check(params), request()), n),
        ),
        (
            "arguments: jsonschema-rs is_valid",
            per_call_us(lambda: check.validator.is_valid(args), n),
        ),
        ("arguments: pydantic input model", per_call_us(lambda: validate(model, args), n)),
        ("handler (add)", per_call_us(lambda: run_coro(handlers.add(typed, None)), n)),  # type: ignore[arg-type]
        (
            "result: to_result (output model, outputSchema, text block)",
            per_call_us(
                lambda: to_result(
                    "add", tool.binding.output_model, output_check(tool), value, "2026-07-28", "add"
                ),
                n,
            ),
        ),
        (
            "stamp (resultType, serverInfo _meta)",
            per_call_us(lambda: engine.discovery.stamp(dict(answer), False), n),
        ),
        ("jsonrpc.encode of the answer", per_call_us(lambda: jsonrpc.encode(result), n)),
        ("runtime.tools.call_tool, whole (no task)", per_call_us(lambda: run_coro(call()), n)),
        ("a task per request (create + run, empty)", await _task_cost(loop, nothing, n)),
        ("pipe write + read of the answer (2 syscalls)", per_call_us(pipe_round_trip, n)),
        ("Engine.receive .. answer written, whole", t_engine_total),
        (
            "bare loop: json.loads + is_valid + json.dumps",
            per_call_us(
                lambda: (
                    json.dumps({"result": {"sum": 5}})
                    if bare_valid(json.loads(LINE)["params"]["arguments"])
                    else None
                ),
                n,
            ),
        ),
    ]
    width = max(len(k) for k, _ in rows)
    print(f"tools/call add, 2026-07-28, in process, n={n}, python {sys.version.split()[0]}")
    for label, us in rows:
        print(f"  {label:<{width}}  {us:7.2f} µs")


def engine_check(params: dict[str, Any]) -> Any:
    from mcpgen_runtime.lean.envelope import envelope_refusal

    return envelope_refusal(params["_meta"])


async def _task_cost(loop: asyncio.AbstractEventLoop, make: Any, n: int) -> float:
    t = time.perf_counter()
    for _ in range(n):
        await loop.create_task(make())
    return (time.perf_counter() - t) / n * 1e6


async def _engine_total(engine: Any, n: int) -> float:
    """``Engine.receive`` of a request line until its answer is written (task included)."""
    done = asyncio.Event()
    write = engine._write
    answers: list[bytes] = []

    def written(data: bytes) -> None:
        answers.append(data)
        done.set()

    lines = [LINE.replace(b'"id": 7', b'"id": %d' % (i + 100)) for i in range(n)]
    engine._write = written
    t = time.perf_counter()
    for line in lines:
        done.clear()
        engine.receive(line)
        await done.wait()
    elapsed = time.perf_counter() - t
    engine._write = write
    assert all(b'"structuredContent"' in a for a in answers), answers[:1]
    return elapsed / n * 1e6


if __name__ == "__main__":
    main()
