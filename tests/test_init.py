"""``mcpgen init``: scaffold, then check, server and a real call through ``mcp.Client``; the
scaffolded project's own test passes; nothing is overwritten; hostile names stay data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import pytest
import tomllib
import yaml

from mcpgen_runtime import __version__ as runtime_version

REPO = Path(__file__).resolve().parent.parent


def mcpgen(*args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "codegen", *map(str, args)], capture_output=True, text=True, cwd=cwd
    )


def _call_greet(project: Path, package: str, name: str) -> object:
    from mcp import Client, StdioServerParameters

    async def go() -> object:
        env = {**os.environ, "PYTHONPATH": str(project)}
        params = StdioServerParameters(
            command=sys.executable, args=["-m", package], cwd=str(project), env=env
        )
        async with Client(params) as client:
            return (await client.call_tool("greet", {"name": name})).structured_content

    return anyio.run(go)


def test_init_check_server_call(tmp_path: Path) -> None:
    project = tmp_path / "my-weather"
    made = mcpgen("init", project)
    assert made.returncode == 0, made.stderr
    package = "my_weather_server"
    for rel in (
        "tools.yaml",
        "pyproject.toml",
        "README.md",
        "tests/test_server.py",
        f"{package}/handlers.py",
        f"{package}/__main__.py",
        f"{package}/_generated/models.py",
    ):
        assert (project / rel).is_file(), rel
    # registration snippets, in each client's own format
    err = made.stderr
    lines = err.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  Claude Desktop")) + 1
    end = lines.index("  Claude Code:")
    desktop = json.loads("\n".join(line[4:] for line in lines[start:end]))
    assert desktop["mcpServers"]["my-weather"]["args"] == ["-m", package]
    assert f"claude mcp add my-weather --env PYTHONPATH={project} -- " in err

    checked = mcpgen("check", project / "tools.yaml")
    assert checked.returncode == 0 and checked.stdout == "", checked.stdout + checked.stderr
    again = mcpgen("server", project / "tools.yaml", "--out", project, "--package", package)
    assert again.returncode == 0 and "up to date" in again.stderr, again.stderr

    assert _call_greet(project, package, "Ada") == {"greeting": "Hello, Ada!"}
    # the scaffolded project's own test, as its user runs it
    own = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert own.returncode == 0, own.stdout + own.stderr
    assert "1 passed" in own.stdout

    meta = tomllib.loads((project / "pyproject.toml").read_text())
    assert meta["project"]["dependencies"] == [f"mcpgen-runtime=={runtime_version}"]
    assert meta["project"]["scripts"] == {"my-weather-server": f"{package}.__main__:main"}
    first = (project / "tools.yaml").read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    schema = (project / first.split("$schema=", 1)[1]).resolve()
    assert schema.is_file() and json.loads(schema.read_text())["$schema"].endswith("2020-12/schema")

    typed = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "-p", package],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert typed.returncode == 0, typed.stdout


def test_init_never_overwrites(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert mcpgen("init", project, "--package", "p_server").returncode == 0
    handlers = project / "p_server" / "handlers.py"
    edited = handlers.read_text().replace("Hello, ", "Hi, ")
    handlers.write_text(edited)
    manifest = project / "tools.yaml"
    manifest.write_text(manifest.read_text().replace("Say hello", "Say hi"))
    again = mcpgen("init", project, "--package", "p_server")
    assert again.returncode == 0, again.stderr
    assert "kept" in again.stderr and handlers.read_text() == edited
    assert "Say hi" in manifest.read_text()
    assert _call_greet(project, "p_server", "Bo") == {"greeting": "Hi, Bo!"}


@pytest.mark.parametrize("name", ["we\"ird 'name' \\ # {x}: [y]", "天气 server", "--", "a\nb"])
def test_hostile_names_stay_data(tmp_path: Path, name: str) -> None:
    project = tmp_path / "proj"
    made = mcpgen("init", project, "--name", name, "--package", "hostile_server")
    assert made.returncode == 0, made.stderr
    doc = yaml.safe_load((project / "tools.yaml").read_text())
    assert doc["server"]["name"] == name
    assert (
        tomllib.loads((project / "pyproject.toml").read_text())["project"]["name"]
        == "hostile-server"
    )
    assert _call_greet(project, "hostile_server", "Cy") == {"greeting": "Hello, Cy!"}


def test_init_bad_input(tmp_path: Path) -> None:
    a_file = tmp_path / "file"
    a_file.write_text("x")
    res = mcpgen("init", a_file)
    assert res.returncode == 2 and "is a file" in res.stderr and "Traceback" not in res.stderr
    res = mcpgen("init", tmp_path / "q", "--package", "class")
    assert (
        res.returncode == 2 and "--package 'class'" in res.stderr and "Traceback" not in res.stderr
    )
    assert not (tmp_path / "q").exists()


def test_server_prints_registration_once(tmp_path: Path) -> None:
    weather = REPO / "examples" / "weather" / "tools.yaml"
    first = mcpgen("server", weather, "--out", tmp_path, "--package", "wx")
    assert first.returncode == 0, first.stderr
    assert '"mcpServers": {' in first.stderr and '"weather": {' in first.stderr
    assert f"claude mcp add weather --env PYTHONPATH={tmp_path} -- " in first.stderr
    vscode = next(line for line in first.stderr.splitlines() if '"servers"' in line)
    assert json.loads(vscode)["servers"]["weather"]["type"] == "stdio"
    again = mcpgen("server", weather, "--out", tmp_path, "--package", "wx")
    assert "mcpServers" not in again.stderr
