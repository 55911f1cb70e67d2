"""``mcpgen install`` refuses what ``mcpgen server`` refuses (issue 50): a ``--package`` that is
a path (the entry could never start) and an empty ``--name`` (no silent fallback): exit 2, one
line, the client's file untouched."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mcpgen.cli import main

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    return code, capsys.readouterr().err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copyfile(WEATHER / "tools.yaml", tmp_path / "tools.yaml")
    pkg = tmp_path / "demo" / "demo_server"
    pkg.mkdir(parents=True)
    (pkg / "__main__.py").write_text("")
    (tmp_path / "mcp.json").write_text('{"servers": {}}\n')
    return tmp_path


@pytest.mark.parametrize("package", ["../demo/demo_server", "demo/demo_server", "demo-server"])
def test_a_package_that_is_not_a_module_name_is_refused(
    project: Path, package: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = project / "mcp.json"
    code, err = run(
        capsys, "install", "vscode", str(project / "tools.yaml"), "--out", str(project / "demo"),
        "--package", package, "--config", str(cfg),
    )  # fmt: skip
    assert code == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"mcpgen: error: --package {package!r}"), err
    if "/" in package:
        assert "--package demo_server" in err
    assert cfg.read_text() == '{"servers": {}}\n'


@pytest.mark.parametrize("name", ["", "  "])
def test_an_empty_name_is_refused(
    project: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    cfg = project / "mcp.json"
    code, err = run(
        capsys, "install", "vscode", str(project / "tools.yaml"), "--out", str(project / "demo"),
        "--package", "demo_server", "--name", name, "--config", str(cfg),
    )  # fmt: skip
    assert code == 2 and "--name is empty" in err, err
    assert cfg.read_text() == '{"servers": {}}\n'
