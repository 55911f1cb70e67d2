"""``mcpgen init``: scaffold, then check, server and a real call through ``mcp.Client``; the
scaffolded project's own test passes; nothing is overwritten; hostile names stay data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # the oldest declared Python
    import tomli as tomllib

import anyio
import pytest
import yaml

from mcpgen_runtime import __version__ as runtime_version
from tests.mypy_cache import strict_args

REPO = Path(__file__).resolve().parent.parent


def mcpgen(*args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mcpgen", *map(str, args)], capture_output=True, text=True, cwd=cwd
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


def test_init_check_server_call(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    project = tmp_path / "my-weather"
    made = mcpgen("init", project, "--no-wheels")
    assert made.returncode == 0, made.stderr
    assert not (project / "wheels").exists()
    # this mcpgen came from a checkout: the next step needs an index that has it, and init says so
    assert "mcpgen: note: --no-wheels: the next step installs mcpgen and mcpgen-runtime" in (
        made.stderr
    )
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
    # the project's own console script, in the venv its install step creates
    script = project.resolve() / ".venv" / "bin" / "my-weather-server"
    assert desktop["mcpServers"]["my-weather"] == {"command": str(script), "args": []}
    assert f"claude mcp add my-weather -- {script}" in err

    checked = mcpgen("check", project / "tools.yaml")
    assert checked.returncode == 0 and checked.stdout == "", checked.stdout + checked.stderr
    assert checked.stderr == "mcpgen: no findings in 1 file (1 tool, 1 resource, 1 prompt)\n"
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
    assert "2 passed" in own.stdout

    meta = tomllib.loads((project / "pyproject.toml").read_text())
    assert meta["project"]["dependencies"] == [f"mcpgen-runtime=={runtime_version}"]
    assert meta["project"]["scripts"] == {"my-weather-server": f"{package}.__main__:main"}
    first = (project / "tools.yaml").read_text().splitlines()[0]
    assert first.startswith("# yaml-language-server: $schema=")
    schema = (project / first.split("$schema=", 1)[1]).resolve()
    assert schema.is_file() and json.loads(schema.read_text())["$schema"].endswith("2020-12/schema")

    typed = subprocess.run(
        [sys.executable, *strict_args(tmp_path_factory, tmp_path / "mypy"), "-p", package],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert typed.returncode == 0, typed.stdout


def test_init_never_overwrites(tmp_path: Path) -> None:
    project = tmp_path / "p"
    assert mcpgen("init", project, "--package", "p_server", "--no-wheels").returncode == 0
    handlers = project / "p_server" / "handlers.py"
    edited = handlers.read_text().replace("Hello, ", "Hi, ")
    handlers.write_text(edited)
    manifest = project / "tools.yaml"
    manifest.write_text(manifest.read_text().replace("Say hello", "Say hi"))
    again = mcpgen("init", project, "--package", "p_server", "--no-wheels")
    assert again.returncode == 0, again.stderr
    assert "kept" in again.stderr and handlers.read_text() == edited
    assert "Say hi" in manifest.read_text()
    assert _call_greet(project, "p_server", "Bo") == {"greeting": "Hi, Bo!"}


@pytest.mark.parametrize("name", ["we\"ird 'name' \\ # {x}: [y]", "天气 server", "--", "a\nb"])
def test_hostile_names_stay_data(tmp_path: Path, name: str) -> None:
    project = tmp_path / "proj"
    made = mcpgen("init", project, "--name", name, "--package", "hostile_server", "--no-wheels")
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
    # no pyproject.toml above the package: this Python with PYTHONPATH, said so; it runs
    assert "no pyproject.toml found above the package" in first.stderr
    lines = first.stderr.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  Claude Desktop")) + 1
    end = lines.index("  Claude Code:")
    entry = json.loads("\n".join(line[4:] for line in lines[start:end]))["mcpServers"]["weather"]

    from mcp import Client, StdioServerParameters

    async def go() -> list[str]:
        env = {**os.environ, **entry["env"]}
        params = StdioServerParameters(command=entry["command"], args=entry["args"], env=env)
        async with Client(params) as client:
            return [t.name for t in (await client.list_tools()).tools]

    assert anyio.run(go) == ["get_weather", "get_forecast", "weather-map", "report_outage"]


def test_printed_next_step_runs_as_printed_and_registration_works(tmp_path: Path) -> None:
    """A new user's first hour: init, then the printed next step exactly as printed (a fresh
    venv; mcpgen and mcpgen-runtime from the wheels init put into wheels/, since this mcpgen
    came from a checkout), then the registered command started by a real MCP client."""
    project = tmp_path / "notes"
    made = mcpgen("init", project)
    assert made.returncode == 0, made.stderr
    lines = made.stderr.splitlines()
    step = next(line for line in lines if line.startswith("Next: "))[len("Next: ") :]
    assert step == (
        f"cd {project} && python3 -m venv .venv && .venv/bin/pip install --find-links wheels "
        "-e '.[dev]' && .venv/bin/pytest"
    )
    assert sorted(p.name.split("-")[0] for p in (project / "wheels").glob("*.whl")) == [
        "mcpgen",
        "mcpgen_runtime",
    ]
    readme = (project / "README.md").read_text()
    assert "--find-links wheels" in readme and "not on the package index yet" in readme
    ran = subprocess.run(step, shell=True, cwd=tmp_path, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    assert "2 passed" in ran.stdout
    # the project's own mcpgen, as its README says
    venv_bin = project / ".venv" / "bin"
    checked = subprocess.run(
        [str(venv_bin / "mcpgen"), "check", "tools.yaml"],
        cwd=project,
        capture_output=True,
        text=True,
    )
    assert checked.returncode == 0, checked.stderr
    # the Claude Desktop snippet, parsed and run by a real MCP client (from another directory)
    start = next(i for i, line in enumerate(lines) if line.startswith("  Claude Desktop")) + 1
    end = lines.index("  Claude Code:")
    entry = json.loads("\n".join(line[4:] for line in lines[start:end]))["mcpServers"]["notes"]
    assert Path(entry["command"]).is_file()

    from mcp import Client, StdioServerParameters

    async def go() -> object:
        params = StdioServerParameters(
            command=entry["command"], args=entry["args"], env=entry.get("env"), cwd=str(tmp_path)
        )
        async with Client(params) as client:
            return (await client.call_tool("greet", {"name": "Ada"})).structured_content

    assert anyio.run(go) == {"greeting": "Hello, Ada!"}


def test_index_path_is_designed_and_said(tmp_path: Path) -> None:
    """Once mcpgen and mcpgen-runtime are on the index: no wheels/, no --find-links."""
    from mcpgen.scaffold import next_step, scaffold

    project = scaffold(tmp_path / "p", wheels=False)
    assert "--find-links" not in project.files["README.md"]
    assert "come from the package index" in project.files["README.md"]
    assert next_step(tmp_path / "p", wheels=False) == (
        f"cd {tmp_path / 'p'} && python3 -m venv .venv && .venv/bin/pip install -e '.[dev]' "
        "&& .venv/bin/pytest"
    )


def test_init_into_a_directory_with_its_own_pyproject(tmp_path: Path) -> None:
    project = tmp_path / "existing"
    project.mkdir()
    (project / "pyproject.toml").write_text('[project]\nname = "mine"\nversion = "1"\n')
    made = mcpgen("init", project, "--package", "mine_server", "--no-wheels")
    assert made.returncode == 0, made.stderr
    assert "kept" in made.stderr and "was there before" in made.stderr
    assert "Traceback" not in made.stderr
    assert (project / "pyproject.toml").read_text().startswith('[project]\nname = "mine"')
