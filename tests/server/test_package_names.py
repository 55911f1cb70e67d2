"""A generated package must not take the import name of the runtime, of a dependency or of a
standard library module (issue 36): ``--package mcpgen_runtime`` (or ``os``) used to be
accepted, and the server it generated then said the runtime "is not installed". ``server``,
``client``, ``cli`` and ``init`` refuse such a name with one ``mcpgen: error:`` line, exit 2,
and write nothing."""

from __future__ import annotations

import re
import subprocess
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from mcpgen.naming import RUNTIME_IMPORTS, package_name_problem
from tests import inprocess

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather" / "tools.yaml"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("mcpgen_runtime", "generated code imports"),
        ("mcp_wire", "generated code imports"),
        ("jsonschema_rs", "generated code imports"),
        ("jwt", "generated code imports"),
        ("httpx2", "generated code imports"),
        ("pydantic_core", "generated code imports"),
        ("uvicorn", "generated code imports"),
        ("os", "standard library"),
        ("asyncio", "standard library"),
        ("json", "standard library"),
        ("typing", "standard library"),
    ],
)
def test_names_that_shadow_what_generated_code_imports_are_refused(name: str, why: str) -> None:
    problem = package_name_problem(name)
    assert problem is not None and why in problem


@pytest.mark.parametrize("name", ["weather_server", "os_tools", "mcp_server", "json_api"])
def test_names_beside_them_are_fine(name: str) -> None:
    assert package_name_problem(name) is None


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_the_list_covers_the_runtime_and_everything_it_needs() -> None:
    """Every top-level module of mcpgen-runtime's installed dependency tree (and of its extras
    that are installed here) is refused; a new dependency fails this test until it is listed."""
    modules: dict[str, set[str]] = {}
    for module, dists in metadata.packages_distributions().items():
        for dist in dists:
            modules.setdefault(_norm(dist), set()).add(module)
    runtime = metadata.distribution("mcpgen-runtime")
    todo = [Requirement(r).name for r in runtime.requires or []]
    seen: set[str] = set()
    while todo:
        name = _norm(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = metadata.distribution(name).requires or []
        except metadata.PackageNotFoundError:
            continue  # an extra's or another platform's dependency, not installed here
        todo.extend(
            Requirement(r).name
            for r in requires
            if Requirement(r).marker is None or Requirement(r).marker.evaluate({"extra": ""})  # type: ignore[union-attr]
        )
    needed = {m for dist in seen for m in modules.get(dist, ()) if m.isidentifier() and m[0] != "_"}
    assert needed, "no dependency found: is mcpgen-runtime installed?"
    assert sorted(needed - RUNTIME_IMPORTS) == []


def _mcpgen(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return inprocess.mcpgen(*args, cwd=cwd)


@pytest.mark.parametrize("name", ["mcpgen_runtime", "os"])
@pytest.mark.parametrize("command", ["server", "client", "cli", "init"])
def test_every_generating_command_refuses_them(tmp_path: Path, command: str, name: str) -> None:
    if command == "init":
        done = _mcpgen("init", "project", "--package", name, "--no-wheels", cwd=tmp_path)
    else:
        done = _mcpgen(command, WEATHER, "--out", "out", "--package", name, cwd=tmp_path)
    assert done.returncode == 2, done.stdout + done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"mcpgen: error: --package {name!r} would ")
    assert list(tmp_path.iterdir()) == []  # nothing written
