"""A raw JSON-RPC peer for MCP servers over stdio, and per-revision schema validation.

No MCP library sits between the tests and the bytes: requests are written as newline-delimited
JSON to the server's stdin, every line the server writes to stdout is parsed and kept (so the tests
can validate *every* message), and stderr goes to a file that failing assertions quote.

``SpecSchemas`` validates a value against one definition of a revision's official ``schema.json``
(draft-07 ``definitions`` up to 2025-06-18, 2020-12 ``$defs`` from 2025-11-25), the way the
upstream validator does it: the definition is compiled together with the whole definitions map.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import tempfile
import threading
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from jsonschema.validators import validator_for

LEGACY_REVISIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
MODERN_REVISION = "2026-07-28"
CLIENT_INFO = {"name": "mcpgen-interop-wire", "version": "0.1.0"}
TIMEOUT_S = 20.0


def modern_meta(version: str = MODERN_REVISION) -> dict[str, Any]:
    """The per-request ``_meta`` every 2026-07-28 request carries (spec-revisions §3.1)."""
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    }


class ServerProcessError(AssertionError):
    pass


class StdioPeer:
    """One server subprocess spoken to in newline-delimited JSON-RPC.

    ``received`` holds every message the server wrote, in order; ``request`` returns the response
    with the matching id (notifications arriving meanwhile are kept in ``received`` too).
    """

    def __init__(self, cmd: list[str], env: dict[str, str] | None = None) -> None:
        self._stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            cmd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            env=env,
            start_new_session=True,
        )
        self.received: list[Any] = []
        self.raw_lines: list[bytes] = []
        self._q: queue.Queue[Any] = queue.Queue()
        self._next_id = 0
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    # -------------------------------------------------------------- plumbing
    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.raw_lines.append(line)
            if not line.strip():
                continue
            try:
                msg = json.loads(line)
            except ValueError:
                msg = {"__unparseable__": line.decode("utf-8", "replace")}
            self._q.put(msg)
        self._q.put(None)

    def stderr_text(self) -> str:
        self._stderr.seek(0)
        return self._stderr.read().decode("utf-8", "replace")[-4000:]

    def send(self, msg: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        data = json.dumps(msg, separators=(",", ":")).encode() + b"\n"
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except BrokenPipeError as e:
            raise ServerProcessError(f"server closed stdin; stderr:\n{self.stderr_text()}") from e

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def send_raw(self, line: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.rstrip(b"\n") + b"\n")
        self.proc.stdin.flush()

    def request(
        self, method: str, params: dict[str, Any] | None = None, *, id_: Any = None
    ) -> dict[str, Any]:
        rid = self.new_id() if id_ is None else id_
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        return self.wait_for(rid)

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)

    def wait_for(self, rid: Any) -> dict[str, Any]:
        while True:
            try:
                msg = self._q.get(timeout=TIMEOUT_S)
            except queue.Empty:
                raise ServerProcessError(
                    f"no response to id {rid!r} within {TIMEOUT_S}s; stderr:\n{self.stderr_text()}"
                ) from None
            if msg is None:
                raise ServerProcessError(
                    f"server closed stdout before answering id {rid!r}; "
                    f"stderr:\n{self.stderr_text()}"
                )
            self.received.append(msg)
            if isinstance(msg, list):  # a JSON-RPC batch response (2025-03-26 only)
                continue
            if "__unparseable__" in msg:
                raise ServerProcessError(
                    f"server wrote a non-JSON line on stdout: {msg['__unparseable__']!r}"
                )
            if msg.get("id") == rid and ("result" in msg or "error" in msg):
                return msg

    def close(self) -> int | None:
        """Close stdin (the spec's shutdown), then escalate to SIGTERM/SIGKILL on the group."""
        try:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
        except OSError:
            pass
        try:
            return self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            kill_process_group(self.proc)
            return None
        finally:
            self._stderr.close()

    def __enter__(self) -> StdioPeer:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.proc.poll() is None:
            self.close()
        kill_process_group(self.proc)


def kill_process_group(proc: subprocess.Popen[Any]) -> None:
    if proc.poll() is not None:
        # the leader is gone; children may linger in the group
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait(timeout=5)


# ------------------------------------------------------------------ schema validation
class SpecSchemas:
    """Validate values against named definitions of each revision's official schema.json."""

    def __init__(self, spec_dir: Path) -> None:
        self.spec_dir = spec_dir

    @cache  # noqa: B019 - one instance per test session
    def _doc(self, rev: str) -> dict[str, Any]:
        return json.loads((self.spec_dir / rev / "schema.json").read_text(encoding="utf-8"))

    def definitions(self, rev: str) -> dict[str, Any]:
        doc = self._doc(rev)
        return doc.get("$defs") or doc["definitions"]

    def has(self, rev: str, name: str) -> bool:
        return name in self.definitions(rev)

    @cache  # noqa: B019
    def validator(self, rev: str, name: str) -> Any:
        doc = self._doc(rev)
        container = "$defs" if "$defs" in doc else "definitions"
        if name not in doc[container]:
            raise KeyError(f"{rev}/schema.json has no definition {name!r}")
        schema = {
            "$schema": doc["$schema"],
            container: doc[container],
            "$ref": f"#/{container}/{name}",
        }
        cls = validator_for(schema)
        cls.check_schema(schema)
        return cls(schema)

    def validate(self, rev: str, name: str, value: Any) -> None:
        errors = sorted(
            self.validator(rev, name).iter_errors(value), key=lambda e: list(e.absolute_path)
        )
        if errors:
            best = jsonschema.exceptions.best_match(errors)
            path = "/".join(str(p) for p in best.absolute_path)
            raise AssertionError(
                f"{rev} {name}: invalid at /{path}: {best.message}\n"
                f"value: {json.dumps(value)[:1500]}"
            )


class HttpPeer:
    """The same interface as ``StdioPeer`` over Streamable HTTP (one POST per message).

    Legacy wire: after ``initialize`` the session id and the negotiated version travel as
    ``Mcp-Session-Id`` / ``MCP-Protocol-Version``. Modern wire (``modern=True``): every POST
    carries ``MCP-Protocol-Version``, ``Mcp-Method`` and, for tools/call, ``Mcp-Name``. JSON and SSE
    response
    bodies are both accepted; every JSON-RPC message in them lands in ``received`` in order, and
    ``status[id]`` keeps the HTTP status of each response.
    """

    def __init__(self, url: str, *, modern: bool) -> None:
        import httpx

        self.url, self.modern = url, modern
        self.client = httpx.Client(timeout=TIMEOUT_S)
        self.received: list[Any] = []
        self.status: dict[Any, int] = {}
        self.session_id: str | None = None
        self.version: str | None = MODERN_REVISION if modern else None
        self._next_id = 0

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def headers(self, msg: dict[str, Any], extra: dict[str, str] | None = None) -> dict[str, str]:
        h = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
        if self.session_id:
            h["Mcp-Session-Id"] = self.session_id
        if self.version:
            h["MCP-Protocol-Version"] = self.version
        if self.modern and "method" in msg:
            h["Mcp-Method"] = msg["method"]
            name = (msg.get("params") or {}).get("name")
            if msg["method"] == "tools/call" and isinstance(name, str):
                h["Mcp-Name"] = name
        h.update(extra or {})
        return h

    def post(self, msg: dict[str, Any], extra_headers: dict[str, str] | None = None) -> Any:
        r = self.client.post(
            self.url, content=json.dumps(msg), headers=self.headers(msg, extra_headers)
        )
        if r.headers.get("mcp-session-id"):
            self.session_id = r.headers["mcp-session-id"]
        return r

    def request(
        self,
        method: str,
        params: dict[str, Any] | None = None,
        *,
        id_: Any = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        rid = self.new_id() if id_ is None else id_
        msg: dict[str, Any] = {"jsonrpc": "2.0", "id": rid, "method": method}
        if params is not None:
            msg["params"] = params
        r = self.post(msg, headers)
        messages: list[Any]
        if r.headers.get("content-type", "").startswith("text/event-stream"):
            messages = [
                json.loads(line[5:])
                for line in r.text.splitlines()
                if line.startswith("data:") and line[5:].strip()
            ]
        else:
            try:
                messages = [r.json()]
            except ValueError:
                raise ServerProcessError(
                    f"HTTP {r.status_code} without a JSON-RPC body for {method}: {r.text[:300]}"
                ) from None
        self.received.extend(messages)
        for m in messages:
            if isinstance(m, dict) and m.get("id") == rid and ("result" in m or "error" in m):
                self.status[rid] = r.status_code
                if method == "initialize" and "result" in m:
                    self.version = m["result"].get("protocolVersion")
                return m
        raise ServerProcessError(
            f"no response to {method} #{rid} in HTTP {r.status_code} body: {r.text[:300]}"
        )

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        r = self.post(msg)
        if r.status_code != 202:
            raise ServerProcessError(
                f"notification {method}: HTTP {r.status_code} (expected 202): {r.text[:300]}"
            )

    def close(self) -> None:
        if self.session_id and not self.modern:
            self.client.delete(
                self.url,
                headers={
                    "Mcp-Session-Id": self.session_id,
                    "MCP-Protocol-Version": self.version or "",
                },
            )
        self.client.close()
