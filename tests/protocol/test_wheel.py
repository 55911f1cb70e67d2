"""The two built wheels are self-contained: ``mcpgen`` and ``mcpgen-runtime`` (not on the package
index yet, so both are built from this checkout) installed into a fresh, plain venv (no system
site-packages, other dependencies from the package index), run from outside the checkout,
provide ``mcpgen``, the ``mcp_wire`` models (in the runtime wheel), the packaged pins and
templates."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from mcpgen import __version__

from .conftest import COMMITTED, REPO_ROOT, REVISIONS, clean_env, sha256_file

pytestmark = pytest.mark.slow


def codegen_version() -> str:
    return __version__


def run(*args: str | Path, cwd: Path, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    env = clean_env()
    for var in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME"):
        env.pop(var, None)
    proc = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert proc.returncode == 0, (
        f"{args}: exit {proc.returncode}\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
    )
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(venv dir, a working directory outside the checkout)."""
    root = tmp_path_factory.mktemp("wheel")
    dist = root / "dist"
    run(
        sys.executable,
        "-m",
        "build",
        "--wheel",
        "--no-isolation",
        "--outdir",
        dist,
        REPO_ROOT,
        cwd=root,
    )
    run(
        sys.executable,
        "-m",
        "build",
        "--wheel",
        "--no-isolation",
        "--outdir",
        dist,
        REPO_ROOT / "runtime",
        cwd=root,
    )
    (wheel,) = dist.glob("mcpgen-*.whl")
    (runtime_wheel,) = dist.glob("mcpgen_runtime-*.whl")
    venv = root / "venv"
    base_python = getattr(sys, "_base_executable", sys.executable)
    run(base_python, "-m", "venv", venv, cwd=root)
    cfg = (venv / "pyvenv.cfg").read_text(encoding="utf-8")
    assert "include-system-site-packages = false" in cfg
    run(venv / "bin" / "python", "-m", "pip", "install", "--quiet", wheel, runtime_wheel, cwd=root)
    work = root / "elsewhere"
    work.mkdir()
    return venv, work


def test_wheel_contents(installed: tuple[Path, Path]) -> None:
    venv, _ = installed
    (wheel,) = (venv.parent / "dist").glob("mcpgen-*.whl")
    (runtime_wheel,) = (venv.parent / "dist").glob("mcpgen_runtime-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert "mcpgen/_data/schema/revisions.json" in names
    assert "mcpgen/_data/templates/protocol/_base.py.jinja" in names
    assert not any(
        n.startswith(("tests/", "generated/", "mcp_wire/", "mcpgen_runtime/")) for n in names
    )
    runtime_names = set(zipfile.ZipFile(runtime_wheel).namelist())
    shipped = {
        f"mcp_wire/{p.relative_to(COMMITTED).as_posix()}"
        for p in COMMITTED.rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert shipped <= runtime_names
    assert "mcpgen_runtime/server/tools.py" in runtime_names
    assert not any(n.startswith(("mcpgen/", "tests/", "generated/")) for n in runtime_names)
    metadata = (
        zipfile.ZipFile(wheel)
        .read(next(n for n in names if n.endswith(".dist-info/METADATA")))
        .decode()
    )
    assert f"Requires-Dist: mcpgen-runtime=={codegen_version()}" in metadata


def test_installed_cli_and_models(installed: tuple[Path, Path]) -> None:
    venv, work = installed
    py, mcpgen = venv / "bin" / "python", venv / "bin" / "mcpgen"
    assert "Usage: mcpgen" in run(mcpgen, "--help", cwd=work).stdout
    probe = run(
        py,
        "-c",
        (
            "import mcpgen, mcp_wire, mcpgen.resources as r\n"
            "from mcp_wire.v2026_07_28 import "
            "Tool, CallToolResult, TextContent, InputRequiredResult\n"
            "t = Tool(name='t', input_schema={'type': 'object'})\n"
            "print(mcpgen.__file__); print(mcp_wire.__file__); "
            "print(r.templates_dir()); print(r.schema_dir())\n"
            "print(t.model_dump_json(exclude_unset=True))\n"
        ),
        cwd=work,
    ).stdout.splitlines()
    codegen_file, wire_file, templates, schema, dumped = (
        Path(x) if i < 4 else x for i, x in enumerate(probe)
    )
    site = venv.resolve()
    for path in (codegen_file, wire_file, templates, schema):
        assert Path(path).resolve().is_relative_to(site), path  # not the checkout
    assert Path(templates) == Path(codegen_file).parent / "_data" / "templates"
    assert (Path(templates) / "protocol" / "_base.py.jinja").is_file()
    assert dumped == '{"inputSchema":{"type":"object"},"name":"t"}'


def test_installed_pull_uses_packaged_pins(installed: tuple[Path, Path], spec_dir: Path) -> None:
    venv, work = installed
    cache = work / "cache"
    out = run(
        venv / "bin" / "mcpgen",
        "protocol",
        "pull",
        "--from",
        spec_dir,
        "--cache-dir",
        cache,
        cwd=work,
    )
    assert out.stdout.strip().splitlines()[-1] == str(cache)
    for rev in REVISIONS:
        assert sha256_file(cache / rev / "schema.json") == sha256_file(
            spec_dir / rev / "schema.json"
        )


def test_installed_generate_matches_committed_module(
    installed: tuple[Path, Path], spec_dir: Path
) -> None:
    """The installed generator (its own templates, pinned generator versions) reproduces the
    committed bytes."""
    venv, work = installed
    out = work / "gen"
    run(
        venv / "bin" / "mcpgen",
        "protocol",
        "generate",
        "-r",
        "2024-11-05",
        "--from",
        spec_dir,
        "--out",
        out,
        cwd=work,
    )
    for name in ("v2024_11_05/content.py", "v2024_11_05/protocol.py", "_base.py", "__init__.py"):
        assert (out / "mcp_wire" / name).read_bytes() == (COMMITTED / name).read_bytes(), name
    assert not os.path.exists(work / "generated")


def test_init_from_a_wheel_install_copies_the_wheels(installed: tuple[Path, Path]) -> None:
    """mcpgen installed from local wheel files (not from an index): ``init`` copies those very
    wheels into the new project's wheels/ and prints the --find-links next step."""
    venv, work = installed
    project = work / "from-wheel"
    made = run(venv / "bin" / "mcpgen", "init", project, "--package", "fw_server", cwd=work)
    copied = sorted(p.name for p in (project / "wheels").glob("*.whl"))
    built = sorted(p.name for p in (venv.parent / "dist").glob("*.whl"))
    assert copied == built, made.stderr
    assert "--find-links wheels -e '.[dev]'" in made.stderr
    assert "not on the package index yet" in (project / "README.md").read_text()
