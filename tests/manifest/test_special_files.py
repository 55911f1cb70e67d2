"""A ``$ref`` (manifest or OpenAPI) to a FIFO, a socket or a device: one located "not a
regular file" error, never a hang. A FIFO nobody writes to blocks ``open()`` forever, so a
pre-commit job on an untrusted pull request could be stalled by one; each run here has a
timeout that fails the test instead of hanging the suite."""

from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

MANIFEST = (
    "server: {name: s, version: 1.0.0}\n"
    "tools:\n"
    "  - name: t\n"
    "    description: A tool.\n"
    "    inputSchema: {$ref: '%s'}\n"
)


def _mcpgen(*args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).with_name("mcpgen")
    cmd = [str(script)] if script.is_file() else [sys.executable, "-m", "mcpgen"]
    return subprocess.run(
        [*cmd, *args], capture_output=True, text=True, timeout=60, stdin=subprocess.DEVNULL
    )


@pytest.fixture(params=["fifo", "socket", "device"])
def special(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    name = f"schema.{request.param}"
    path = tmp_path / name
    if request.param == "fifo":
        os.mkfifo(path)
        yield name
    elif request.param == "socket":
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(str(path))
            yield name
    else:
        try:
            os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # like /dev/null
        except PermissionError:
            pytest.skip("creating a device node needs CAP_MKNOD")
        yield name


def test_a_manifest_ref_to_a_special_file(tmp_path: Path, special: str) -> None:
    manifest = tmp_path / "tools.yaml"
    manifest.write_text(MANIFEST % special)
    done = _mcpgen("check", str(manifest), "--format", "json")
    assert done.returncode == 1, done.stderr
    diags = json.loads(done.stdout)["diagnostics"]
    (finding,) = [d for d in diags if "not a regular file" in d["message"]]
    assert finding["severity"] == "error" and finding["rule_id"] == "REF_UNRESOLVED"
    assert (finding["path"], finding["line"], finding["col"]) == (str(manifest), 5, 25)
    assert "Traceback" not in done.stderr
    made = _mcpgen("server", str(manifest), "--out", str(tmp_path), "--package", "p")
    assert made.returncode == 2 and "run mcpgen check" in made.stderr, made.stderr
    assert "Traceback" not in made.stderr
    assert not (tmp_path / "p").exists()


def test_an_openapi_ref_to_a_special_file(tmp_path: Path, special: str) -> None:
    doc = {
        "openapi": "3.1.0",
        "info": {"title": "t", "version": "1"},
        "paths": {
            "/x": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "ok",
                            "content": {"application/json": {"schema": {"$ref": special}}},
                        }
                    }
                }
            }
        },
    }
    spec = tmp_path / "api.json"
    spec.write_text(json.dumps(doc, indent=1))
    out = tmp_path / "out.yaml"
    done = _mcpgen("import", "openapi", str(spec), "-o", str(out), "--allow-external-refs")
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.strip().splitlines()
    assert line.startswith(f"mcpgen: error: {spec}:") and "not a regular file" in line, line
    assert not out.exists()
