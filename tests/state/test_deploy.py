"""examples/deploy: the compose file uses only options and variables the runtime takes (containers
cannot run here), and its HAProxy configuration routes the sessions of real replicas (run when
``haproxy`` is installed: Debian's 2.6 package was used; a plain CI machine skips that part)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from mcpgen_runtime.server import build, flags, sealed
from mcpgen_runtime.server.auth import config as auth_config
from mcpgen_runtime.server.state import STATE_ENV, open_state
from tests.interop.procs import HttpServer, free_port
from tests.interop.wire import kill_process_group, modern_meta
from tests.state.conftest import RedisServer
from tests.state.test_replicas import handshake_session, package, replica  # noqa: F401

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "examples" / "deploy"
RUNTIME_ENV = {
    STATE_ENV,
    sealed.KEY_ENV,
    sealed.PREVIOUS_KEY_ENV,
    sealed.KEY_FILE_ENV,
    flags.AUTH_ENV,
    build.TRACING_ENV,
    *auth_config.ENV.values(),
}


def compose() -> dict[str, Any]:
    return dict(yaml.safe_load((DEPLOY / "compose.yaml").read_text()))


def replicas_of(doc: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {n: s for n, s in doc["services"].items() if n.startswith("replica")}


def test_compose_uses_only_what_the_runtime_takes() -> None:
    doc = compose()
    services = replicas_of(doc)
    assert len(services) == 3
    for name, svc in services.items():
        cmd = [str(c) for c in svc["command"]]
        assert cmd[:2] == ["python", "-m"], name
        module = cmd[2]
        assert (ROOT / "examples" / "weather" / module / "__main__.py").is_file()
        opts = flags.parser(f"python -m {module}").parse_args(cmd[3:])  # exits on a bad one
        assert opts.http and opts.resumable and opts.port == 8000
        open_state(opts.state)  # a URL the runtime takes (no connection made here)
        for var in svc.get("environment") or {}:
            assert var in RUNTIME_ENV, f"{name}: {var} is not read by the runtime"
        assert set(svc.get("secrets") or ()) <= set(doc["secrets"])
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    assert "mcpgen-runtime[server,redis]" in dockerfile
    cfg = (DEPLOY / "haproxy.cfg").read_text()
    for name in services:
        assert f"server {name} {name}:8000" in cfg
    assert "stick on req.hdr(mcp-session-id)" in cfg
    assert "stick store-response res.hdr(mcp-session-id)" in cfg


@pytest.fixture
def behind_haproxy(
    package: Path,  # noqa: F811
    redis_server: RedisServer,
) -> Iterator[tuple[str, list[HttpServer]]]:
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pytest.skip("haproxy is not installed (apt-get install haproxy): the config was checked")
    servers = [replica(package, "--state", redis_server.url) for _ in range(3)]
    front = free_port()
    cfg = (DEPLOY / "haproxy.cfg").read_text().replace("bind :8080", f"bind 127.0.0.1:{front}")
    for i, s in enumerate(servers, 1):
        cfg = cfg.replace(f"replica{i}:8000", f"127.0.0.1:{s.port}")
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as fh:
        fh.write(cfg)
    proc = None
    try:
        for s in servers:
            s.start()
        proc = subprocess.Popen(
            [haproxy, "-db", "-f", fh.name],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        url = f"http://127.0.0.1:{front}/mcp"
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{front}/", timeout=1)
                break
            except httpx.HTTPError:
                assert proc.poll() is None, f"haproxy exited with {proc.returncode}"
                assert time.monotonic() < deadline, "haproxy did not listen"
                time.sleep(0.1)
        yield url, servers
    finally:
        if proc is not None:
            kill_process_group(proc)
        for s in servers:
            s.stop()
        Path(fh.name).unlink()


def answer(resp: httpx.Response) -> Any:
    """The JSON-RPC answer of a POST: a JSON body, or the data of an SSE event."""
    if resp.headers.get("content-type", "").startswith("application/json"):
        return resp.json()
    return yaml.safe_load(next(x[5:] for x in resp.text.splitlines() if x.startswith("data:")))


def echo(client: httpx.Client, url: str, session: str, rid: int, text: str) -> str:
    resp = client.post(
        url,
        json={
            "jsonrpc": "2.0",
            "id": rid,
            "method": "tools/call",
            "params": {"name": "echo", "arguments": {"text": text}},
        },
        headers={
            "Accept": "application/json, text/event-stream",
            "Mcp-Session-Id": session,
            "MCP-Protocol-Version": "2025-11-25",
        },
    )
    assert resp.status_code == 200, (resp.status_code, resp.text[:200])
    msg = answer(resp)
    text_out: str = msg["result"]["content"][0]["text"]
    assert text_out.startswith(text + " ")
    return text_out.split("pid=")[1]


def test_haproxy_keeps_each_session_on_its_replica(
    behind_haproxy: tuple[str, list[HttpServer]],
) -> None:
    url, servers = behind_haproxy
    pids = {str(s.proc.pid) for s in servers if s.proc is not None}
    homes: dict[str, set[str]] = {}
    with httpx.Client(timeout=30) as client:
        sessions = [handshake_session(client, url) for _ in range(6)]
        for rid in range(1, 6):
            for session in sessions:
                homes.setdefault(session, set()).add(echo(client, url, session, rid, f"s{rid}"))
        # the stateless 2026-07-28 wire: any replica, round-robin
        modern = set()
        for rid in range(6):
            resp = client.post(
                url,
                json={
                    "jsonrpc": "2.0",
                    "id": rid,
                    "method": "tools/call",
                    "params": {"name": "echo", "arguments": {"text": "m"}, "_meta": modern_meta()},
                },
                headers={
                    "Accept": "application/json, text/event-stream",
                    "MCP-Protocol-Version": "2026-07-28",
                    "Mcp-Method": "tools/call",
                    "Mcp-Name": "echo",
                },
            )
            modern.add(answer(resp)["result"]["content"][0]["text"].split("pid=")[1])
    assert all(len(h) == 1 for h in homes.values()), homes  # every call on its session's replica
    assert len({next(iter(h)) for h in homes.values()}) >= 2  # sessions spread over replicas
    assert {next(iter(h)) for h in homes.values()} <= pids
    assert len(modern) >= 2, modern


def test_without_stickiness_the_sessions_break(
    package: Path,  # noqa: F811
    redis_server: RedisServer,
) -> None:
    """The control: the same round-robin without the stick rules loses sessions (404)."""
    haproxy = shutil.which("haproxy")
    if haproxy is None:
        pytest.skip("haproxy is not installed")
    servers = [replica(package, "--state", redis_server.url) for _ in range(2)]
    front = free_port()
    cfg = (
        "\n".join(
            line
            for line in (DEPLOY / "haproxy.cfg").read_text().splitlines()
            if not line.strip().startswith("stick") and "replica3" not in line
        ).replace("bind :8080", f"bind 127.0.0.1:{front}")
        + "\n"
    )
    for i, s in enumerate(servers, 1):
        cfg = cfg.replace(f"replica{i}:8000", f"127.0.0.1:{s.port}")
    with tempfile.NamedTemporaryFile("w", suffix=".cfg", delete=False) as fh:
        fh.write(cfg)
    proc = None
    try:
        for s in servers:
            s.start()
        proc = subprocess.Popen(
            [haproxy, "-db", "-f", fh.name],
            start_new_session=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"http://127.0.0.1:{front}/", timeout=1)
                break
            except httpx.HTTPError:
                assert proc.poll() is None and time.monotonic() < deadline, "no haproxy"
                time.sleep(0.1)
        url = f"http://127.0.0.1:{front}/mcp"
        with httpx.Client(timeout=30) as client:
            init = client.post(
                url,
                json={
                    "jsonrpc": "2.0",
                    "id": 0,
                    "method": "initialize",
                    "params": {
                        "protocolVersion": "2025-11-25",
                        "capabilities": {},
                        "clientInfo": {"name": "no-stick", "version": "1"},
                    },
                },
                headers={"Accept": "application/json, text/event-stream"},
            )
            session = init.headers["mcp-session-id"]
            codes = set()
            for rid in range(1, 5):
                resp = client.post(
                    url,
                    json={"jsonrpc": "2.0", "id": rid, "method": "tools/list"},
                    headers={
                        "Accept": "application/json, text/event-stream",
                        "Mcp-Session-Id": session,
                        "MCP-Protocol-Version": "2025-11-25",
                    },
                )
                codes.add(resp.status_code)
        assert 404 in codes, codes
    finally:
        if proc is not None:
            kill_process_group(proc)
        for s in servers:
            s.stop()
        Path(fh.name).unlink()


if sys.platform == "win32":  # pragma: no cover
    pytestmark = pytest.mark.skip("POSIX process groups")
