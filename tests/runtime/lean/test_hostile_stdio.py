"""Issue 49, items 1 and 9 to 11: the lean engine on stdio under a hostile client.

- An answer of the SDK the bridge cannot write (a lone surrogate echoed back) does not stop
  the bridge: that request is answered, and so is every later bridged request.
- End of input, SIGINT and a socket that is both stdin and stdout (half-closed by the client)
  leave no request unanswered: its answer, or ``-32000 Connection closed`` as the SDK's engine
  answers it; a handler waiting for the client's answer fails at once at end of input.
- A malformed ``notifications/cancelled`` raises nothing; a malformed response is not
  answered; a duplicate id in flight gets no second answer under that id; ``"3"`` cancels
  request ``3`` as in the SDK; bytes that are not UTF-8 read as U+FFFD as the SDK reads them.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import socket
import time
from pathlib import Path
from typing import Any

import pytest

from mcpgen_runtime.lean.bridge import Bridge
from tests.runtime.lean.driver import MODERN_META, handshake, transcript
from tests.runtime.lean.hostile_package import read_to_end, spawn, write

WEATHER = (Path(__file__).resolve().parents[3] / "examples" / "weather", "weather_server")
INIT = b"".join(line + b"\n" for line in handshake())


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write(tmp_path_factory.mktemp("hostile"))


def _call(rid: Any, name: str, arguments: dict[str, Any]) -> bytes:
    params = {"name": name, "arguments": arguments}
    msg = {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": params}
    return json.dumps(msg).encode() + b"\n"


def _messages(data: bytes) -> list[dict[str, Any]]:
    return [json.loads(line) for line in data.splitlines() if line.strip()]


def _answers(messages: list[dict[str, Any]]) -> dict[Any, list[Any]]:
    out: dict[Any, list[Any]] = {}
    for msg in messages:
        if "method" not in msg:
            code = msg["error"]["code"] if "error" in msg else "ok"
            out.setdefault(json.dumps(msg.get("id")), []).append(code)
    return out


def _run(package: Path, data: bytes, engine: str = "lean") -> tuple[list[dict[str, Any]], str]:
    proc = spawn(package, engine)
    out, err = proc.communicate(data, timeout=60)
    return _messages(out), err.decode("utf-8", "replace")


# -- item 1: the bridge -------------------------------------------------------------------


def test_an_answer_the_sdk_cannot_write_does_not_stop_the_bridge() -> None:
    surrogate = b'{"jsonrpc":"2.0","id":2,"method":"foo\\ud800"}'
    lines = [
        *handshake(),
        surrogate,
        b'{"jsonrpc":"2.0","id":3,"method":"skills/list"}',
        b'{"jsonrpc":"2.0","id":4,"method":"custom/x"}',
        surrogate.replace(b'"id":2', b'"id":5'),
        b'{"jsonrpc":"2.0","id":6,"method":"custom/y"}',
    ]
    answers = _answers(transcript(*WEATHER, "lean", lines))
    assert answers == {
        '"init"': ["ok"],
        "2": [-32601],
        "3": ["ok"],
        "4": [-32601],
        "5": [-32601],
        "6": [-32601],
    }


class _Unwritable:
    id = 9
    method = None

    def model_dump_json(self, **_: Any) -> str:
        raise ValueError("cannot")

    def model_dump(self, **_: Any) -> Any:
        return {"x": object()}


def test_an_answer_nothing_can_write_is_answered_internal_error_and_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    bridge = Bridge(lambda: None, lambda data: None)
    with caplog.at_level(logging.ERROR):
        first = json.loads(bridge._encode(_Unwritable(), 9))
        second = json.loads(bridge._encode(_Unwritable(), 10))
    assert first["error"]["code"] == second["error"]["code"] == -32603
    assert (first["id"], second["id"]) == (9, 10)
    assert len([r for r in caplog.records if "could not be written" in r.getMessage()]) == 1


# -- items 9 and 10: shutdown ---------------------------------------------------------------


def test_end_of_input_answers_a_call_still_running(package: Path) -> None:
    data = INIT + _call(1, "slow", {"seconds": 60}) + _call(2, "add", {"a": 1, "b": 2})
    messages, _ = _run(package, data)
    assert _answers(messages) == {'"init"': ["ok"], "1": [-32000], "2": ["ok"]}


def test_sigint_answers_a_call_still_running(package: Path) -> None:
    proc = spawn(package)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(INIT + _call(1, "slow", {"seconds": 60}) + _call(2, "add", {"a": 1, "b": 2}))
    proc.stdin.flush()
    got = b""
    while b'"id":2' not in got:
        got += os.read(proc.stdout.fileno(), 1 << 16)
    proc.send_signal(signal.SIGINT)
    rest, _ = proc.communicate(timeout=30)  # bounded: a server that ignores it fails, not hangs
    got += rest
    assert _answers(_messages(got)) == {'"init"': ["ok"], "1": [-32000], "2": ["ok"]}


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_end_of_input_during_an_elicitation_answers_the_call(package: Path, engine: str) -> None:
    """The question will never be answered: it fails ``-32000`` at end of input (the SDK
    engine: ``server.stdio_drain`` answers it on the client's behalf) and the call is
    answered once."""
    proc = spawn(package, engine)
    assert proc.stdin is not None and proc.stdout is not None
    init = INIT.replace(b'"capabilities":{}', b'"capabilities":{"elicitation":{}}')
    proc.stdin.write(init + _call(1, "ask", {}))
    proc.stdin.flush()
    got = b""
    while b"elicitation/create" not in got:
        got += os.read(proc.stdout.fileno(), 1 << 16)
    proc.stdin.close()  # the question will never be answered
    got += read_to_end(proc)
    proc.wait(30)
    answers = _answers(_messages(got))
    assert answers.keys() == {'"init"', "1"} and answers['"init"'] == ["ok"], answers
    assert len(answers["1"]) == 1, answers


@pytest.mark.parametrize("engine", ["lean", "sdk"])
def test_one_socket_for_stdin_and_stdout_answers_after_the_half_close(
    package: Path, engine: str
) -> None:
    """socat's ``EXEC:``, systemd's ``Accept=yes``, inetd: one socket is stdin and stdout, and
    the client half-closes after its requests. Before, the write transport took the
    half-close for the client's going away and closed: the answers in flight were lost."""
    ours, theirs = socket.socketpair()
    proc = spawn(package, engine, stdin=theirs, stdout=theirs)
    theirs.close()
    try:
        ours.sendall(INIT + _call(1, "slow", {"seconds": 1}) + _call(2, "add", {"a": 1, "b": 2}))
        ours.shutdown(socket.SHUT_WR)
        got = b""
        ours.settimeout(30)
        while chunk := ours.recv(1 << 16):
            got += chunk
    finally:
        ours.close()
        proc.kill()
        proc.wait()
    # both engines drain: the running call's own answer (the SDK's engine answered it
    # -32000 and dropped "2" before ``server.stdio_drain``)
    assert _answers(_messages(got)) == {'"init"': ["ok"], "1": ["ok"], "2": ["ok"]}


# -- item 11 --------------------------------------------------------------------------------


def test_a_malformed_cancel_raises_nothing(package: Path) -> None:
    """While the bridge serves a request (a ``subscriptions/listen``, which lasts), a
    ``notifications/cancelled`` whose ``requestId`` is an object went to it and raised there
    (an unhashable key) in a task nobody awaited: an ERROR traceback."""
    meta = {"_meta": MODERN_META}
    listen = {**meta, "notifications": {"toolsListChanged": True}}
    proc = spawn(package)
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    proc.stdin.write(_line("L", "subscriptions/listen", listen))
    proc.stdin.flush()
    got = b""
    while b"acknowledged" not in got:  # the bridge serves it
        got += os.read(proc.stdout.fileno(), 1 << 16)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled"}
    cancel["params"] = {**meta, "requestId": {}}
    proc.stdin.write(json.dumps(cancel).encode() + b"\n" + _line(2, "tools/list", meta))
    proc.stdin.close()
    got += read_to_end(proc)
    err = proc.stderr.read().decode("utf-8", "replace")
    proc.wait(30)
    assert _answers(_messages(got)) == {'"L"': [-32000], "2": ["ok"]}
    assert "Traceback" not in err and "ERROR" not in err, err


def _line(rid: Any, method: str, params: dict[str, Any]) -> bytes:
    msg = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
    return json.dumps(msg).encode() + b"\n"


def test_a_malformed_response_is_not_answered() -> None:
    lines = [
        *handshake(),
        b'{"jsonrpc":"1.0","id":4,"result":{}}',
        b'{"jsonrpc":"2.0","id":[1],"result":{}}',
        b'{"jsonrpc":"2.0","id":{},"error":{"code":1,"message":"x"}}',
        b'{"jsonrpc":"2.0","id":5,"method":"ping"}',
    ]
    for engine in ("lean", "sdk"):
        answers = _answers(transcript(*WEATHER, engine, lines, wait=0.5))
        assert answers == {'"init"': ["ok"], "5": ["ok"]}, engine


def test_a_duplicate_id_in_flight_gets_one_answer_under_it(package: Path) -> None:
    data = INIT + _call(7, "slow", {"seconds": 1}) + _call(7, "add", {"a": 1, "b": 2})
    messages, _ = _run(package, data)
    answers = _answers(messages)
    assert answers["7"] == ["ok"] and answers["null"] == [-32600]
    assert [m for m in messages if m.get("id") == 7][0]["result"]["content"][0]["text"] == "slept"


@pytest.mark.parametrize("spelling", ['"3"', "3"])
def test_a_cancel_names_the_id_as_the_sdk_correlates_it(package: Path, spelling: str) -> None:
    cancel = (
        b'{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s}}\n'
        % spelling.encode()
    )
    proc = spawn(package)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(INIT + _call(3, "slow", {"seconds": 2}))
    proc.stdin.flush()
    time.sleep(0.5)
    proc.stdin.write(cancel + b'{"jsonrpc":"2.0","id":4,"method":"ping"}\n')
    proc.stdin.close()
    out = read_to_end(proc)
    proc.wait(30)
    assert _answers(_messages(out)) == {'"init"': ["ok"], "4": ["ok"]}


def test_bytes_that_are_not_utf8_read_as_the_sdk_reads_them() -> None:
    """The SDK's stdio decodes lines with ``errors="replace"``: bytes that are not UTF-8,
    UTF-8-encoded surrogates among them, are U+FFFD and the request is served."""
    lines = [
        *handshake(),
        b'{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"get_weather",'
        b'"arguments":{"city":"Pa\xed\xa0\x80ris"}}}',
        b'{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"get_weather",'
        b'"arguments":{"city":"Pa\xffris"}}}',
    ]
    lean = [m for m in transcript(*WEATHER, "lean", lines) if m.get("id") in (1, 2)]
    sdk = [m for m in transcript(*WEATHER, "sdk", lines) if m.get("id") in (1, 2)]
    assert len(lean) == 2
    assert sorted(lean, key=lambda m: m["id"]) == sorted(sdk, key=lambda m: m["id"])
    assert "\ufffd" in json.dumps(lean, ensure_ascii=False)
