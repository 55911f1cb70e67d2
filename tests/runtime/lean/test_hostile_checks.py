"""Issue 49, items 6 to 8: the lean engine's fast checks, its fast boot and its ``initialize``
refuse exactly what the SDK's engine refuses (``--engine sdk`` on the same package is the
referee): a ``progressToken`` that is an object, a float or null, ``requestState: 5`` on the
handshake wire, 2026-07-28 envelopes with capabilities ``5``, ``[]`` or ``null`` or an invalid
log level, a ``_meta`` that is not an object before the server is built, and ``initialize``
params the SDK's models refuse. Before the fix the engine served them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcpgen_runtime.lean.boot import _Reader
from tests.runtime.lean.driver import MODERN_META, handshake, line, request, transcript

WEATHER = (Path(__file__).resolve().parents[3] / "examples" / "weather", "weather_server")
CAPS = "io.modelcontextprotocol/clientCapabilities"
LEVEL = "io.modelcontextprotocol/logLevel"
CALL = {"name": "get_weather", "arguments": {"city": "Paris"}}


def _codes(engine: str, lines: list[bytes]) -> dict[Any, Any]:
    """Each request id's answer: its error code, or "ok" (several answers: all of them)."""
    out: dict[Any, Any] = {}
    for msg in transcript(*WEATHER, engine, lines):
        if "method" in msg or "id" not in msg:
            continue
        code = msg["error"]["code"] if "error" in msg else "ok"
        rid = json.dumps(msg["id"])
        out[rid] = code if rid not in out else [out[rid], code]
    return out


def _agree(lines: list[bytes]) -> dict[Any, Any]:
    lean, sdk = _codes("lean", lines), _codes("sdk", lines)
    assert lean == sdk
    return lean


def test_handshake_meta_and_request_state_are_checked_as_the_sdk_does() -> None:
    tokens = [{}, 1.5, None, [], "t", 7]
    lines = [*handshake()]
    for i, token in enumerate(tokens):
        lines.append(request(f"c{i}", "tools/call", {**CALL, "_meta": {"progressToken": token}}))
        lines.append(request(f"l{i}", "tools/list", {"_meta": {"progressToken": token}}))
    lines += [
        request("s5", "tools/call", {**CALL, "requestState": 5}),
        request("sx", "tools/call", {**CALL, "requestState": "x"}),
        request("p5", "ping", {"_meta": 5}),
        request("l5", "tools/list", {"_meta": 5}),
        request("pl", "prompts/list", {"_meta": []}),
    ]
    codes = _agree(lines)
    assert codes['"c0"'] == codes['"c2"'] == codes['"l2"'] == codes['"s5"'] == -32602
    assert codes['"c4"'] == codes['"c5"'] == codes['"sx"'] == "ok"


def test_envelopes_are_checked_as_the_sdk_does() -> None:
    bad = [
        {CAPS: 5},
        {CAPS: []},
        {CAPS: None},
        {CAPS: {"sampling": 5}},
        {LEVEL: "nope"},
        {LEVEL: 5},
        {"progressToken": 1.5},
    ]
    good = [{LEVEL: "info"}, {CAPS: {"sampling": {}, "roots": {"listChanged": True}}}]
    lines = []
    for i, extra in enumerate(bad + good):
        m = {"_meta": {**MODERN_META, **extra}}
        lines.append(
            line({"jsonrpc": "2.0", "id": f"c{i}", "method": "tools/call", "params": {**CALL, **m}})
        )
        lines.append(line({"jsonrpc": "2.0", "id": f"l{i}", "method": "tools/list", "params": m}))
        lines.append(
            line({"jsonrpc": "2.0", "id": f"d{i}", "method": "server/discover", "params": m})
        )
    codes = _agree(lines)
    for i in range(len(bad)):
        for kind in "cld":
            assert codes[f'"{kind}{i}"'] == -32602, (kind, bad[i])
    for i in range(len(bad), len(bad) + len(good)):
        assert codes[f'"c{i}"'] == "ok"


@pytest.mark.parametrize(
    "params",
    [
        {"capabilities": {"sampling": 5}},
        {"_meta": 5},
        {"clientInfo": {"name": "d", "version": "1", "icons": 5}},
        {"capabilities": {"elicitation": {"form": True}}},
    ],
    ids=["sampling-5", "meta-5", "icons-5", "form-true"],
)
def test_initialize_params_are_checked_as_the_sdk_does(params: dict[str, Any]) -> None:
    base: dict[str, Any] = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "d", "version": "1"},
    }
    first = {**base, **params}
    lines = [request("bad", "initialize", first), *handshake(), request("p", "ping")]
    codes = _agree(lines)
    assert codes['"bad"'] == -32602


class _Claim:
    in_fd = out_fd = -1


@pytest.mark.parametrize(
    "msg",
    [
        {"method": "ping", "params": {"_meta": 5}},
        {"method": "tools/list", "params": {"_meta": 5}},
        {"method": "prompts/list", "params": {"_meta": []}},
        {"method": "tools/list", "params": {"_meta": {"progressToken": None}}},
        {"method": "tools/list", "params": {"cursor": None, "x": 1}},
    ],
    ids=["ping-meta-5", "list-meta-5", "prompts-meta-list", "token-null", "extra-key"],
)
def test_the_fast_boot_leaves_what_it_cannot_check_to_the_engine(msg: dict[str, Any]) -> None:
    """The boot answers from its precomputed answers only what the SDK's models accept; the
    rest goes to the engine (``_answer`` returns False), which checks it with those models."""
    written: list[Any] = []
    reader = _Reader(
        _Claim(),
        {
            "initialize@2025-11-25": b"{}",
            "tools/list@2025-11-25": b"{}",
            "prompts/list@2025-11-25": b"{}",
        },
        -1,
    )
    reader._write = lambda rid, result: written.append(rid)  # type: ignore[method-assign]
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-11-25",
            "capabilities": {},
            "clientInfo": {"name": "d", "version": "1"},
        },
    }
    assert reader._answer(json.dumps(init).encode())
    assert not reader._answer(json.dumps({"jsonrpc": "2.0", "id": 1, **msg}).encode())
    assert written == [0]


@pytest.mark.parametrize(
    "params",
    [
        {"capabilities": {"sampling": 5}},
        {"_meta": 5},
        {"clientInfo": {"name": "d", "version": "1", "icons": 5}},
    ],
)
def test_the_fast_boot_leaves_an_initialize_it_cannot_check_to_the_engine(
    params: dict[str, Any],
) -> None:
    reader = _Reader(_Claim(), {"initialize@2025-11-25": b"{}"}, -1)
    reader._write = lambda rid, result: None  # type: ignore[method-assign]
    p = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "d", "version": "1"},
        **params,
    }
    msg = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": p}
    assert not reader._answer(json.dumps(msg).encode())


def test_the_fast_boot_answers_a_modern_discover_only_with_a_valid_envelope() -> None:
    reader = _Reader(_Claim(), {"server/discover": b"{}"}, -1)
    reader._write = lambda rid, result: None  # type: ignore[method-assign]
    for caps, answered in ((5, False), ([], False), ({"sampling": {}}, True)):
        meta = {**MODERN_META, CAPS: caps}
        msg = {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": meta}}
        assert reader._answer(json.dumps(msg).encode()) is answered, caps
