"""The lean engine against the SDK's engine, answer for answer (issue 37's referee, beside the
conformance suite and the SDK/TypeScript clients).

Each script goes, line by line, to the same generated package twice: ``MCPGEN_ENGINE=lean``
(the default) and ``MCPGEN_ENGINE=sdk``. Every answer must be equal, except where the SDK is
wrong; each such case is listed in ``SDK_SILENT`` with the spec text that decides it. On the
lean engine every request gets exactly one answer.

Scripts: the discovery and call paths of both wires with valid and invalid params, and hostile
lines (not JSON, invalid UTF-8, batches, a request without ``method``, a lone surrogate, a
5,000-digit number, 300 levels of nesting); plus the seeded random messages of
``tests/interop/test_wire_fuzz.py``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from tests.interop.test_wire_fuzz import NOT_JSON_RPC, _meta, _params
from tests.runtime.lean.driver import handshake, line, request, transcript

EXAMPLES = Path(__file__).resolve().parents[3] / "examples"
WEATHER = (EXAMPLES / "weather", "weather_server")
CONFORMANCE = (EXAMPLES / "conformance", "conformance_server")

SDK_SILENT = {
    "request without method": (
        b'{"jsonrpc":"2.0","id":"no-method"}',
        "JSON-RPC 2.0 §5: a request that is not a valid Request object gets -32600; the SDK "
        "drops it and the client waits for its own timeout",
    ),
    "lone surrogate": (
        b'{"jsonrpc":"2.0","id":"surrogate","method":"tools/call","params":{"name":"get_weather",'
        b'"arguments":{"city":"\\ud800"}}}',
        "JSON-RPC 2.0 §4: the server MUST reply to a request with the same id; the SDK's "
        "pydantic decode refuses the line and nothing is answered",
    ),
    "5,000-digit number": (
        b'{"jsonrpc":"2.0","id":"huge","method":"tools/call","params":{"name":"get_weather",'
        b'"arguments":{"city":' + b"1" * 5000 + b"}}}",
        "JSON-RPC 2.0 §4 (as above): valid JSON with a valid id, dropped by the SDK",
    ),
    "300 levels of nesting": (
        b'{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"get_weather",'
        b'"arguments":{"city":' + b"[" * 300 + b"]" * 300 + b"}}}",
        "JSON-RPC 2.0 §4 (as above): dropped by the SDK",
    ),
}
NULL_ID_LINES = {
    b"not json": "JSON-RPC 2.0 §5.1: -32700 Parse error, id null",
    b"\xff\xfe": "JSON-RPC 2.0 §5.1 and RFC 8259 §8.1 (JSON text is UTF-8): -32700, id null",
    b"[]": "JSON-RPC 2.0 §6: an empty array is -32600 Invalid Request, id null",
    b'[{"jsonrpc":"2.0","id":99,"method":"ping"}]': (
        "MCP 2025-06-18 removed JSON-RPC batching: -32600 with id null rather than silence"
    ),
}


def _legacy_script() -> list[bytes]:
    return [
        *handshake(),
        request(1, "tools/list"),
        request(2, "tools/call", {"name": "get_weather", "arguments": {"city": "Paris"}}),
        request(3, "tools/call", {"name": "get_weather", "arguments": {"city": ""}}),
        request(4, "tools/call", {"name": "nope", "arguments": {}}),
        request(5, "tools/call", {"name": 5}),
        request(6, "resources/read", {"uri": "weather://stations"}),
        request(7, "resources/read", {"uri": "weather://forecast/Paris"}),
        request(
            8, "prompts/get", {"name": "plan-outing", "arguments": {"city": "P", "activity": "w"}}
        ),
        request(
            9,
            "completion/complete",
            {
                "ref": {"type": "ref/prompt", "name": "plan-outing"},
                "argument": {"name": "city", "value": "P"},
            },
        ),
        request(10, "logging/setLevel", {"level": "info"}),
        request(11, "server/discover"),
        request(12, "nope/method"),
        request(13, "ping"),
        request(14, "tools/list", {"cursor": "bogus"}),
        request(15, "resources/subscribe", {"uri": "weather://stations"}),
        request(
            16, "tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}
        ),
        request(
            17, "tools/call", {"name": "get_forecast", "arguments": {"location": {"city": "Paris"}}}
        ),
        request(18, "tools/call", {"name": "report_outage", "arguments": {}}),
        request(19, "tools/call", {"name": "get_weather", "arguments": "x"}),
    ]


def _modern_script() -> list[bytes]:
    return [
        request(1, "server/discover", modern=True),
        request(2, "tools/list", modern=True),
        request(
            3, "tools/call", {"name": "get_weather", "arguments": {"city": "Paris"}}, modern=True
        ),
        request(4, "tools/call", {"name": "nope", "arguments": {}}, modern=True),
        request(5, "ping", modern=True),
        request(6, "initialize", {"protocolVersion": "2025-11-25"}),
        request(
            7,
            "tools/list",
            {"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}},
            modern=True,
        ),
        request(8, "tools/list"),
        request(9, "resources/read", {"uri": "weather://stations"}, modern=True),
        request(
            10,
            "prompts/get",
            {"name": "plan-outing", "arguments": {"city": "P", "activity": "w"}},
            modern=True,
        ),
        request(
            11,
            "completion/complete",
            {
                "ref": {"type": "ref/prompt", "name": "plan-outing"},
                "argument": {"name": "city", "value": "P"},
            },
            modern=True,
        ),
        request(12, "logging/setLevel", {"level": "info"}, modern=True),
        request(13, "resources/subscribe", {"uri": "weather://stations"}, modern=True),
        request(14, "tools/call", {"name": "report_outage", "arguments": {}}, modern=True),
        request(15, "tools/list", {"cursor": 7}, modern=True),
        request(16, "tools/call", {"name": "get_weather", "arguments": {"city": 3}}, modern=True),
    ]


_INCIDENT = re.compile(r"incident [0-9a-f]{12}")


def _normal(msg: dict[str, Any]) -> str:
    return _INCIDENT.sub("incident ?", json.dumps(msg, sort_keys=True))


def _by_id(answers: list[dict[str, Any]]) -> tuple[dict[str, list[str]], list[str]]:
    """Answers to requests by id (each a list: exactly one expected), and the null-id ones."""
    by_id: dict[str, list[str]] = {}
    null: list[str] = []
    for msg in answers:
        if "method" in msg:
            continue  # a notification
        if msg.get("id") is None:
            null.append(_normal(msg))
        else:
            by_id.setdefault(json.dumps(msg["id"]), []).append(_normal(msg))
    return by_id, null


def _requests(lines: list[bytes]) -> set[str]:
    ids = set()
    for data in lines:
        try:
            msg = json.loads(data)
        except ValueError:
            continue
        if isinstance(msg, dict) and "method" in msg and "id" in msg:
            ids.add(json.dumps(msg["id"]))
    return ids


def _compare(
    where: tuple[Path, str], lines: list[bytes], silent: set[str]
) -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
    """(how many requests both engines answered alike, the lean and the SDK transcripts)."""
    lean = transcript(*where, "lean", lines)
    sdk = transcript(*where, "sdk", lines)
    lean_by_id, _ = _by_id(lean)
    sdk_by_id, _ = _by_id(sdk)
    for rid in _requests(lines):
        assert len(lean_by_id.get(rid, [])) == 1, (rid, lean_by_id.get(rid))
    differ = {
        rid
        for rid in lean_by_id.keys() | sdk_by_id.keys()
        if lean_by_id.get(rid) != sdk_by_id.get(rid)
    }
    for rid in differ:
        assert rid in silent and rid not in sdk_by_id, (
            rid,
            lean_by_id.get(rid),
            sdk_by_id.get(rid),
        )
    return len(lean_by_id) - len(differ), lean, sdk


@pytest.mark.parametrize("modern", [False, True], ids=["handshake", "2026-07-28"])
def test_scripted_answers_agree(modern: bool) -> None:
    lines = _modern_script() if modern else _legacy_script()
    agreed = _compare(WEATHER, lines, set())[0]
    assert agreed == len(_requests(lines))


def test_hostile_lines_get_one_answer_where_the_sdk_is_silent() -> None:
    hostile = [data for data, _ in SDK_SILENT.values()]
    lines = [*handshake(), *hostile, *NULL_ID_LINES, request(1, "ping")]
    silent = {json.dumps(json.loads(d.replace(b"1" * 5000, b"1"))["id"]) for d in hostile}
    _, lean, _ = _compare(WEATHER, lines, silent)
    lean_null = [m for m in lean if m.get("id") is None]
    codes = sorted(m["error"]["code"] for m in lean_null)
    assert codes == sorted([-32700, -32700, -32600, -32600]), lean_null
    for data in (d for d, _ in SDK_SILENT.values()):
        # each alone: every answer is read to the end of output, so no wait after the line
        answers = transcript(*WEATHER, "sdk", [*handshake(), data, request(1, "ping")], 0.0)
        rid = json.loads(data.replace(b"1" * 5000, b"1"))["id"]
        assert not [m for m in answers if m.get("id") == rid], (
            "the SDK answers now: update SDK_SILENT"
        )


def _fuzz_lines(
    seed: int, modern: bool, tools: list[dict[str, Any]], uris: list[str]
) -> list[bytes]:
    rnd = random.Random(seed)
    lines = [] if modern else handshake()
    for i in range(3, 153):
        if rnd.random() < 0.05:
            bad = rnd.choice(NOT_JSON_RPC)
            if bad != b'{"jsonrpc":"2.0","id":7}':  # the SDK is silent there (SDK_SILENT)
                lines.append(bad)
            continue
        method, params = _params(rnd, tools, uris)
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": i, "method": method}
        if modern:
            params = dict(params) if isinstance(params, dict) else {}
            params["_meta"] = _meta(rnd)
        if params is not None:
            msg["params"] = params
        lines.append(line(msg))
    return lines


@pytest.mark.parametrize(
    ("where", "seed", "modern"),
    [(WEATHER, 11, False), (CONFORMANCE, 12, False), (WEATHER, 13, True), (CONFORMANCE, 14, True)],
    ids=["weather-handshake", "conformance-handshake", "weather-2026", "conformance-2026"],
)
def test_random_messages_agree(where: tuple[Path, str], seed: int, modern: bool) -> None:
    probe = transcript(
        *where,
        "sdk",
        [
            *([] if modern else handshake()),
            request("t", "tools/list", modern=modern),
            request("r", "resources/list", modern=modern),
        ],
    )
    tools = next(m["result"]["tools"] for m in probe if m.get("id") == "t")
    res = next((m for m in probe if m.get("id") == "r"), {})
    uris = [r["uri"] for r in res.get("result", {}).get("resources", [])]
    lines = _fuzz_lines(seed, modern, tools, uris)
    agreed = _compare(where, lines, set())[0]
    assert agreed >= 100


@pytest.mark.parametrize("modern", [False, True], ids=["handshake", "2026-07-28"])
@pytest.mark.parametrize("where", [WEATHER, CONFORMANCE], ids=["weather", "conformance"])
def test_discovery_first_agrees(where: tuple[Path, str], modern: bool) -> None:
    """Every list before any call: the fast boot answers them from the package's precomputed
    answers (``_generated/discovery.py``), the SDK engine builds them."""
    lists = ["tools/list", "resources/list", "resources/templates/list", "prompts/list"]
    lines = [
        *([] if modern else handshake("2025-06-18")),
        *([request("d", "server/discover", modern=True)] if modern else [request("p", "ping")]),
        *[request(f"l{i}", m, modern=modern) for i, m in enumerate(lists)],
        *[request(f"again{i}", m, modern=modern) for i, m in enumerate(lists)],
        request("call", "tools/list", {"cursor": "nope"}, modern=modern),
    ]
    agreed = _compare(where, lines, set())[0]
    assert agreed == len(_requests(lines))


FIRST_CALLS = {
    "valid": {"name": "get_weather", "arguments": {"city": "Paris"}},
    "invalid arguments": {"name": "get_weather", "arguments": {"city": ""}},
    "missing argument": {"name": "get_weather", "arguments": {}},
    "unknown tool": {"name": "nope", "arguments": {}},
    "output model": {"name": "get_forecast", "arguments": {"location": {"city": "Paris"}}},
}


@pytest.mark.parametrize("modern", [False, True], ids=["handshake", "2026-07-28"])
@pytest.mark.parametrize("call", list(FIRST_CALLS), ids=list(FIRST_CALLS))
def test_first_call_of_a_fresh_process_agrees(call: str, modern: bool) -> None:
    """The first ``tools/call`` of a fresh process (issue 53: answered while the fast boot
    hands over), the first line after the handshake or the very first line on 2026-07-28:
    the same answer on both engines, validation included."""
    params = FIRST_CALLS[call]
    lines = [
        *([] if modern else handshake()),
        request("first", "tools/call", params, modern=modern),
    ]
    agreed, lean, _ = _compare(WEATHER, lines, set())
    assert agreed == len(_requests(lines))
    answer = [m for m in lean if m.get("id") == "first"]
    failed = "error" in answer[0] or answer[0]["result"].get("isError", False)
    assert failed == (call not in ("valid", "output model")), answer
