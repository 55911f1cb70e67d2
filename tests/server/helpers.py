"""Helpers for the server-generator tests: generate packages, import them, talk raw JSON-RPC.

Nothing here mocks the SDK: ``RawClient`` drives the generated server's real
``Server.run`` loop over in-memory streams, exactly as stdio would, with hand-written
JSON-RPC so that any protocol revision (including 2024-11-05) can be negotiated.
"""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import anyio
import jsonschema
from mcp.shared.message import SessionMessage
from mcp_types import jsonrpc_message_adapter

from mcpgen.emit import EmitResult, create_user_files, write_owned_tree
from mcpgen.server.build import RenderedPackage
from mcpgen.server.build import render_package as _render_package

if TYPE_CHECKING:
    import pytest

REPO = Path(__file__).resolve().parents[2]


def runtime_wheel_venv(root: Path) -> Path:
    """The ``mcpgen-runtime`` wheel built from this checkout, installed alone (dependencies
    from the package index) into a fresh venv under ``root``; its python."""
    import subprocess
    import venv

    wheels = root / "wheels"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(wheels)]
        + [str(REPO / "runtime")],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("mcpgen_runtime-*.whl")
    env_dir = root / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    py = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(py), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert install.returncode == 0, install.stdout + install.stderr
    return py


def shared_runtime_wheel_python(factory: pytest.TempPathFactory) -> Path:
    """``runtime_wheel_venv``'s python, built once per test run and shared by every test (and
    xdist worker) that only runs code in it (``tests.shared_once``)."""
    from tests.shared_once import once

    return once(factory, "runtime-wheel-venv", runtime_wheel_venv) / "venv" / "bin" / "python"


WEATHER = REPO / "examples" / "weather" / "tools.yaml"
WEATHER_HANDLERS = REPO / "examples" / "weather" / "weather_server" / "handlers.py"
DATA = Path(__file__).resolve().parent / "data"


def render_package(manifest: Path, package: str) -> RenderedPackage:
    """Exactly what ``mcpgen server`` writes, in memory (formatted)."""
    return _render_package(manifest, package)


def write_package(manifest: Path, out: Path, package: str, handlers: str | None = None) -> Path:
    files = render_package(manifest, package)
    pkg = out / package
    write_owned_tree(
        pkg / "_generated",
        files.owned,
        files.digest,
        dependencies={**files.dependencies, manifest.name: _sha256(manifest)},
        facts=files.facts,
        writer="server",
    )
    user = dict(files.user)
    if handlers is not None:
        user["handlers.py"] = handlers
    create_user_files(pkg, user, EmitResult())
    return pkg


def _sha256(path: Path) -> str:
    import hashlib

    return hashlib.sha256(path.read_bytes()).hexdigest()


@contextmanager
def imported(out: Path, package: str) -> Iterator[ModuleType]:
    """Import ``<package>.handlers`` from ``out``; undo the import afterwards."""
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(f"{package}.handlers")
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]


def spec_validator(spec_dir: Path, revision: str, type_name: str) -> Any:
    schema = json.loads((spec_dir / revision / "schema.json").read_text())
    key = "$defs" if "$defs" in schema else "definitions"
    root = {**schema, "$ref": f"#/{key}/{type_name}"}
    cls = jsonschema.validators.validator_for(schema)
    return cls(root)


class RawClient:
    """A hand-written JSON-RPC peer for ``server.run`` over memory streams."""

    def __init__(self, server: Any, version: str) -> None:
        self.server = server
        self.version = version
        self.modern = version == "2026-07-28"
        self._next_id = 0
        self.notifications: list[dict[str, Any]] = []

    async def __aenter__(self) -> RawClient:
        self._send, recv_in = anyio.create_memory_object_stream[SessionMessage | Exception](100)
        send_out, self._recv = anyio.create_memory_object_stream[SessionMessage](100)
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        self._tg.start_soon(
            self.server.run, recv_in, send_out, self.server.create_initialization_options()
        )
        if not self.modern:
            init = await self.request(
                "initialize",
                {
                    "protocolVersion": self.version,
                    "capabilities": {},
                    "clientInfo": {"name": "raw-test-client", "version": "0"},
                },
            )
            assert init["result"]["protocolVersion"] == self.version, init
            await self.notify("notifications/initialized")
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self._send.aclose()
        self._tg.cancel_scope.cancel()
        await self._tg.__aexit__(None, None, None)

    async def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        msg: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        await self._send.send(SessionMessage(jsonrpc_message_adapter.validate_python(msg)))

    async def request(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        """Send a request; return the raw response object (``result`` or ``error``)."""
        self._next_id += 1
        rid = self._next_id
        params = dict(params or {})
        if self.modern:
            meta = dict(params.get("_meta") or {})
            meta.setdefault("io.modelcontextprotocol/protocolVersion", self.version)
            meta.setdefault("io.modelcontextprotocol/clientCapabilities", {})
            params["_meta"] = meta
        msg = {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}
        await self._send.send(SessionMessage(jsonrpc_message_adapter.validate_python(msg)))
        with anyio.fail_after(10):
            while True:
                out = await self._recv.receive()
                data = json.loads(out.message.model_dump_json(by_alias=True, exclude_unset=True))
                if data.get("id") == rid:
                    return data
                self.notifications.append(data)


SHOP_METHODS = """\
class Handlers(ToolsBase):
    async def list_items(self, args: m.ListItemsInput, ctx: ToolContext) -> str:
        return "items"

    async def place_order(self, args: m.PlaceOrderInput, ctx: ToolContext) -> str:
        return "placed " + args.item

    async def refund(self, args: m.RefundInput, ctx: ToolContext) -> str:
        return "refunded " + args.order

    async def wipe(self, args: m.WipeInput, ctx: ToolContext) -> str:
        return "wiped"
"""


def shop_handlers(more: str, imports: str = "") -> str:
    """The ``handlers.py`` of the ``shop`` manifests (test_toolsets.py, test_discovery_modes.py):
    list_items, place_order, refund and wipe, then ``more`` (methods, then module code)."""
    return (
        "from __future__ import annotations\n\n"
        + imports
        + "from mcpgen_runtime import ToolContext\n\n"
        + "from ._generated import ToolsBase\n"
        + "from ._generated import models as m\n\n\n"
        + SHOP_METHODS
        + more
    )


def shop_package(factory: pytest.TempPathFactory, manifest: str, handlers: str) -> Path:
    """A directory holding the package ``shop`` generated from ``manifest``."""
    out = factory.mktemp("shop")
    path = out / "shop.yaml"
    path.write_text(manifest)
    write_package(path, out, "shop", handlers=handlers)
    return out


def stdio_answers(
    root: Path, package: str, engine: str, requests: list[tuple[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """What a fresh ``python -m <package> --engine <engine>`` (importable from ``root``)
    answers on stdio to ``initialize`` (2025-11-25), ``notifications/initialized`` and then
    each ``(method, params)`` of ``requests`` (ids 1, 2, ...): the answers in that order,
    ``initialize``'s left out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MCPGEN_", "COVERAGE"))}
    env["PYTHONPATH"] = os.pathsep.join([str(root), env.get("PYTHONPATH", "")])
    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    }
    lines: list[dict[str, Any]] = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
    ]
    lines += [
        {"jsonrpc": "2.0", "id": i, "method": method, "params": params}
        for i, (method, params) in enumerate(requests, start=1)
    ]
    proc = subprocess.run(
        [sys.executable, "-m", package, "--engine", engine],
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    answers = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    assert len(answers) == 1 + len(requests), proc.stdout + proc.stderr
    return sorted(answers, key=lambda a: a["id"])[1:]
