"""The lean engine's JSON layer reads and writes with orjson when it is installed, and must then
answer exactly as the standard library does: the same value for every line ``json.loads``
accepts, the same error answer for every line it refuses, and answers that parse back to the
same message. Each case runs with orjson and with the standard library alone."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcpgen_runtime.lean import jsonrpc

orjson = pytest.importorskip("orjson")

LINES = [
    b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":2}}}',
    # integers past 64 bits stay exact (orjson alone would read them as floats)
    b'{"jsonrpc":"2.0","id":2,"method":"x","params":{"n":123456789012345678901234567890}}',
    b'{"jsonrpc":"2.0","id":3,"method":"x","params":{"n":-9223372036854775809}}',
    b'{"jsonrpc":"2.0","id":4,"method":"x","params":{"n":18446744073709551615}}',
    # what orjson refuses and json.loads accepts: lone surrogates, NaN, out-of-range floats
    b'{"jsonrpc":"2.0","id":5,"method":"x","params":{"s":"\\ud800"}}',
    b'{"jsonrpc":"2.0","id":6,"method":"x","params":{"f":NaN}}',
    b'{"jsonrpc":"2.0","id":7,"method":"x","params":{"f":1e400}}',
    b'{"jsonrpc":"2.0","id":8,"method":"x","params":{"k":1,"k":2}}',
    '{"jsonrpc":"2.0","id":9,"method":"x","params":{"s":"caf\u00e9 \u2603"}}'.encode(),
    # refused by both: the same error answer
    b'{"jsonrpc":"2.0","id":10,"method":"x"',
    b"[]",
    b'[{"jsonrpc":"2.0","id":1,"method":"ping"}]',
    b"\xff\xfe",
    b"[" * 5000 + b"]" * 5000,
    b'{"jsonrpc":"2.0","id":11,"method":"x","params":{"n":' + b"9" * 5000 + b"}}",
]

ANSWERS: list[dict[str, Any]] = [
    {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "5"}]}},
    {"jsonrpc": "2.0", "id": 2, "result": {"n": 2**70, "f": 1.5, "t": "caf\u00e9"}},
    {"jsonrpc": "2.0", "id": 3, "result": {"s": "lone \ud800 surrogate"}},
    {"jsonrpc": "2.0", "id": 4, "result": {1: "int key"}},
    {"jsonrpc": "2.0", "id": 5, "result": {"f": float("inf")}},
]


def _decoded(line: bytes) -> tuple[str, Any]:
    try:
        return "ok", jsonrpc.decode(line)
    except jsonrpc.Invalid as exc:
        return "invalid", exc.answer


@pytest.fixture(params=["orjson", "stdlib"])
def engine_json(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    if request.param == "stdlib":
        monkeypatch.setattr(jsonrpc, "_fast_loads", None)
        monkeypatch.setattr(jsonrpc, "_fast_dumps", None)
    else:
        assert jsonrpc._fast_loads is orjson.loads
    return str(request.param)


@pytest.mark.parametrize("line", LINES, ids=range(len(LINES)))
def test_decode_agrees_with_the_standard_library(engine_json: str, line: bytes) -> None:
    got = _decoded(line)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(jsonrpc, "_fast_loads", None)
        want = _decoded(line)
    # repr: NaN != NaN, and 1 == 1.0 would hide an int read as a float
    assert repr(got) == repr(want)


def test_huge_integers_stay_integers(engine_json: str) -> None:
    kind, msg = _decoded(LINES[1])
    assert kind == "ok" and msg["params"]["n"] == 123456789012345678901234567890
    assert type(msg["params"]["n"]) is int


@pytest.mark.parametrize("answer", ANSWERS, ids=range(len(ANSWERS)))
def test_encode_is_one_line_that_reads_back(engine_json: str, answer: dict[str, Any]) -> None:
    data = jsonrpc.encode(answer)
    assert data.endswith(b"\n") and data.count(b"\n") == 1
    back = json.loads(data, parse_constant=pytest.fail)  # NaN/Infinity are not JSON
    want = json.loads(json.dumps(answer).replace("Infinity", "null"))
    assert repr(back) == repr(want)


def test_encode_writes_utf8_with_orjson_and_ascii_without(monkeypatch: pytest.MonkeyPatch) -> None:
    answer = {"jsonrpc": "2.0", "id": 1, "result": {"t": "caf\u00e9"}}
    assert "caf\u00e9".encode() in jsonrpc.encode(answer)
    monkeypatch.setattr(jsonrpc, "_fast_dumps", None)
    assert b"caf\\u00e9" in jsonrpc.encode(answer)
