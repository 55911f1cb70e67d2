"""The generated CLI's compiled stdio path: one tool call without the official SDK's client.

A schema-first CLI knows every request it can send: the command table, the argument models
and the tool definitions are generated, so a ``--stdio`` call needs only a child process,
three JSON-RPC lines on the 2026-07-28 wire (``server/discover``, ``tools/list``,
``tools/call``, with the ``_meta`` the SDK client sends) and the same checks the typed client
runs (``ClientTool.arguments``, the output model). The server is started first, so it boots
while this process imports the models. Results and failures are the typed client's own
(``ToolCallError``, ``ProtocolError``, ``CallTimeoutError``...), printed by ``cli``.

``Handover`` sends the command to the SDK path (``cli._call``), which starts the server again:
whatever surprises the lean path *before* ``tools/call`` is sent (a server that does not start,
answers garbage or an error to ``server/discover``, speaks only the handshake wire) and an
``input_required`` answer (the SDK's multi-round loop retries the call; a 2026-07-28 server
re-runs a request that asked for input). Nothing else reaches the SDK.
"""

from __future__ import annotations

import importlib
import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import threading
import time
from typing import IO, Any, TextIO

from .errors import (
    ArgumentsError,
    CallTimeoutError,
    ConnectionLostError,
    InvalidResultError,
    ProtocolError,
    ToolCallError,
)

__all__ = ["Handover", "LeanCall", "call_tool"]

WIRE = "2026-07-28"
_META = {
    "io.modelcontextprotocol/protocolVersion": WIRE,
    "io.modelcontextprotocol/clientInfo": {"name": "mcp", "version": "0.1.0"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
"""What the SDK client (``mcp.Client``, auto mode, no callbacks) puts in every request."""
CONNECT_TIMEOUT = 30.0  # seconds: ToolClient's default connect_timeout
REQUEST_TIMEOUT, CONNECTION_CLOSED = -32001, -32000
_EOF = object()


class Handover(Exception):
    """The SDK path takes this command (nothing but reads was sent)."""


class LeanCall:
    """One tool command, as ``cli`` resolved it from the compiled table."""

    __slots__ = (
        "field_of",
        "floats",
        "given",
        "index",
        "input_model",
        "output_fields",
        "output_model",
        "package",
        "plain_input",
        "tool",
    )

    def __init__(
        self,
        package: str,
        tool: str,
        index: int,
        input_model: str,
        output_model: str | None,
        given: dict[str, Any],
    ) -> None:
        self.package, self.tool, self.index = package, tool, index
        self.input_model, self.output_model, self.given = input_model, output_model, given
        self.field_of: dict[str, str] = {}
        self.plain_input = False
        self.output_fields: tuple[tuple[str, str], ...] | None = None
        self.floats: frozenset[str] = frozenset()
        """Options of kind float (a method default such as ``3`` is sent as the model
        dumps it: ``3.0``)."""


class _Server:
    """A stdio server process, read by a thread into a queue (so a wait can time out and
    Ctrl-C interrupts it)."""

    def __init__(self, argv: list[str], errlog: TextIO | None) -> None:
        self.proc = subprocess.Popen(  # noqa: S603 - the user's own command line
            argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=errlog,
            env=dict(os.environ),
            start_new_session=True,  # as the SDK: Ctrl-C reaches this process, which stops it
        )
        self.lines: queue.Queue[Any] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        for line in out:
            self.lines.put(line)
        self.lines.put(_EOF)

    def send(self, message: dict[str, Any]) -> None:
        stdin: IO[bytes] | None = self.proc.stdin
        assert stdin is not None
        stdin.write(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        stdin.flush()

    def answer(self, rid: int, timeout: float | None) -> dict[str, Any]:
        """The response to request ``rid``; ``TimeoutError``, ``EOFError``, or ``ValueError``
        for a line that is not a JSON-RPC message."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise TimeoutError from None
            if line is _EOF:
                raise EOFError
            try:
                message = json.loads(line)
            except ValueError:
                raise ValueError("not JSON") from None
            if not isinstance(message, dict):
                raise ValueError("not a JSON-RPC message")
            if message.get("id") == rid and ("result" in message or "error" in message):
                return message
            if "method" in message and "id" in message:  # a server request: not on this wire
                self.send(
                    {
                        "jsonrpc": "2.0",
                        "id": message["id"],
                        "error": {"code": -32601, "message": "Method not found"},
                    }
                )

    def close(self) -> None:
        """As the SDK closes a stdio server: stdin closed, 2 s of grace, then the process
        group is terminated, then killed."""
        proc = self.proc
        try:
            if proc.stdin is not None:
                proc.stdin.close()
        except OSError:
            pass
        try:
            proc.wait(2.0)
            return
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self) -> None:
        proc = self.proc
        for sig, grace in ((signal.SIGTERM, 2.0), (signal.SIGKILL, 5.0)):
            try:
                os.killpg(proc.pid, sig)
            except OSError:
                return
            try:
                proc.wait(grace)
                return
            except subprocess.TimeoutExpired:
                continue


def _request(server: _Server, rid: int, method: str, params: dict[str, Any]) -> None:
    server.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})


def _arguments(call: LeanCall) -> tuple[Any, dict[str, Any]]:
    """(the ``ClientTool``, the arguments to send): checked as the typed client checks them
    (a plain input: the inputSchema alone, as the model would pass every value through)."""
    tool = importlib.import_module(".tools", call.package).TOOLS[call.index]
    if call.plain_input:
        given = {
            call.field_of[k]: float(v) if k in call.floats else v for k, v in call.given.items()
        }
        return tool, tool.plain_arguments(given)
    model = getattr(importlib.import_module(".models", call.package), call.input_model)
    if call.field_of:
        given = {call.field_of[k]: v for k, v in call.given.items()}
    else:  # a root model's method: the dict is the arguments
        given = dict(call.given.get("arguments") or {})
    return tool, tool.arguments(model, given)


def call_tool(command: str, call: LeanCall, timeout: float | None, errlog: TextIO | None) -> Any:
    """Run ``call`` against the stdio server ``command``: what the typed client's method
    returns (the output model, or the content as JSON), else its typed error, else
    ``Handover``. Ctrl-C stops the server and raises ``KeyboardInterrupt``."""
    argv = shlex.split(command)
    label = f"stdio server {shlex.join(argv)!r}"
    try:
        server = _Server(argv, errlog)
    except (OSError, ValueError):
        raise Handover from None  # the SDK says why, in its words
    try:
        return _run(server, call, label, timeout)
    except KeyboardInterrupt:
        server.kill()
        raise
    finally:
        if server.proc.poll() is None:
            server.close()


def _run(server: _Server, call: LeanCall, label: str, timeout: float | None) -> Any:
    try:
        _request(server, 1, "server/discover", {"_meta": _META})
    except OSError:  # the server is already gone (a broken pipe): the SDK says so, in its words
        raise Handover from None
    # the server boots meanwhile: the models and checks load now, the failure waits its turn
    try:
        tool, arguments = _arguments(call)
        refused: ArgumentsError | None = None
    except ArgumentsError as exc:
        tool, arguments, refused = None, {}, exc
    try:
        found = server.answer(1, CONNECT_TIMEOUT)
        versions = found.get("result", {}).get("supportedVersions")
        if not isinstance(versions, list) or WIRE not in versions:
            raise Handover
        _request(server, 2, "tools/list", {"_meta": _META})
        listed = server.answer(2, CONNECT_TIMEOUT)
        page = listed.get("result")
        if not (
            isinstance(page, dict)
            and isinstance(page.get("tools"), list)
            and isinstance(page.get("ttlMs"), int)
            and isinstance(page.get("cacheScope"), str)
        ):
            raise Handover  # the SDK refuses this listing (when it validates a result)
    except (TimeoutError, EOFError, ValueError, AttributeError, OSError):
        raise Handover from None
    if refused is not None:
        raise refused
    params = {"name": call.tool, "arguments": arguments, "_meta": _META}
    try:
        _request(server, 3, "tools/call", params)
        answer = server.answer(3, timeout)
    except TimeoutError:
        raise CallTimeoutError(
            REQUEST_TIMEOUT, "Request 'tools/call' timed out", tool=call.tool
        ) from None
    except (EOFError, OSError):
        message = f"{label}: Connection closed"
        raise ConnectionLostError(CONNECTION_CLOSED, message, tool=call.tool) from None
    except ValueError:
        raise Handover from None
    return _result(tool, call, answer, listed)


def _result(tool: Any, call: LeanCall, answer: dict[str, Any], listed: dict[str, Any]) -> Any:
    error = answer.get("error")
    if isinstance(error, dict):
        code, message = error.get("code"), error.get("message")
        if not isinstance(code, int) or not isinstance(message, str):
            raise InvalidResultError(call.tool, "the result is malformed")
        kind = {REQUEST_TIMEOUT: CallTimeoutError, CONNECTION_CLOSED: ConnectionLostError}
        raise kind.get(code, ProtocolError)(code, message, error.get("data"), tool=call.tool)
    result = answer.get("result")
    if not isinstance(result, dict) or result.get("resultType", "complete") != "complete":
        raise Handover  # input_required: the SDK's loop (or an answer only the SDK judges)
    content = result.get("content")
    if not isinstance(content, list) or not isinstance(result.get("isError", False), bool):
        raise Handover
    if result.get("isError"):
        from .results import decode_content

        raise ToolCallError(call.tool, decode_content(content), result.get("structuredContent"))
    _live_output_check(tool, result, listed)
    if call.output_model is None:
        out: dict[str, Any] = {"content": _blocks(content)}
        if result.get("structuredContent") is not None:
            out["structuredContent"] = result["structuredContent"]
        return out
    plain = _plain_output(tool, call, result.get("structuredContent"))
    if plain is not None:
        return plain
    model = getattr(importlib.import_module(".models", call.package), call.output_model)
    if "structuredContent" not in result:  # what the typed client says, from its own result
        from mcp_types import CallToolResult

        from .outputs import typed_output

        return typed_output(tool, CallToolResult.model_validate(result), model)
    from .outputs import typed_structured

    return typed_structured(tool, result["structuredContent"], model)


def _plain_output(tool: Any, call: LeanCall, structured: Any) -> dict[str, Any] | None:
    """A flat scalar output as its model dumps it (fields in the model's order, nulls left out,
    numbers as floats), when the outputSchema accepts it and it has no other keys; else None
    (the output model decides, and words any refusal)."""
    fields = call.output_fields
    if (
        fields is None
        or not isinstance(structured, dict)
        or not structured.keys() <= dict(fields).keys()
    ):
        return None
    check = tool.output_check
    try:
        if check is None or check.problems(structured):
            return None
    except Exception:  # noqa: BLE001 - an unusable schema: typed_structured says so
        return None
    out: dict[str, Any] = {}
    for name, kind in fields:
        value = structured.get(name)
        if value is None:
            continue
        if kind == "float" and isinstance(value, int) and not isinstance(value, bool):
            value = float(value)
        elif kind == "int" and isinstance(value, float):
            value = int(value)
        out[name] = value
    return out


def _blocks(content: list[Any]) -> list[Any]:
    """Content blocks as the typed client prints them (the wire models' JSON): a plain text
    block as it is, anything else through the wire models."""
    if all(
        isinstance(b, dict)
        and b.keys() == {"type", "text"}
        and b["type"] == "text"
        and isinstance(b["text"], str)
        for b in content
    ):
        return [{"text": b["text"], "type": "text"} for b in content]
    from .results import decode_content

    return [
        b.model_dump(mode="json", by_alias=True, exclude_none=True) for b in decode_content(content)
    ]


def _live_output_check(tool: Any, result: dict[str, Any], listed: dict[str, Any]) -> None:
    """The SDK client's own check of ``structuredContent`` against the outputSchema the server
    listed (``ClientSession.validate_tool_result``), with its words. Skipped (python-jsonschema
    not imported) when the server listed the manifest's outputSchema and jsonschema-rs accepts
    the result: the typed client's check then decides as the SDK's would."""
    name = tool.name
    found = listed.get("result", {})
    tools = found.get("tools") if isinstance(found, dict) else None
    live = [t for t in tools or () if isinstance(t, dict) and t.get("name") == name]
    if not live:  # the SDK's warning (its logger's last-resort handler: a bare line)
        sys.stderr.write(
            f"Tool {name} not listed by server, cannot validate any structured content\n"
        )
        return
    schema = live[-1].get("outputSchema")
    if not isinstance(schema, dict):
        return
    check = tool.output_check
    if "structuredContent" in result and schema == tool.definition.get("outputSchema"):
        try:
            if check is not None and not check.problems(result["structuredContent"]):
                return
        except Exception:  # noqa: BLE001, S110 - an unusable schema: the SDK's check says so
            pass
    if "structuredContent" not in result:
        raise InvalidResultError(
            name, f"Tool {name} has an output schema but did not return structured content"
        )
    from jsonschema import SchemaError, exceptions  # type: ignore[import-untyped]
    from jsonschema.validators import validator_for  # type: ignore[import-untyped]
    from referencing import Registry

    cls = validator_for(schema)
    try:
        cls.check_schema(schema)
    except SchemaError as exc:
        raise InvalidResultError(name, f"Invalid schema for tool {name}: {exc}") from None
    best = exceptions.best_match(
        cls(schema, registry=Registry()).iter_errors(result["structuredContent"])
    )
    if best is not None:
        raise InvalidResultError(
            name, f"Invalid structured content returned by tool {name}: {best}"
        )
