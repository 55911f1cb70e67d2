"""What a bundle carries (issue 50): exactly the package (its sources, ``_generated/`` with the
skills and views), never a dotfile, ``__pycache__``, build output or an earlier bundle, plus
``--include``; a package older than its manifest is refused; the start check compares the
bundled server's ``tools/list`` with ``manifest.json``."""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

import pytest

from tests.publish.conftest import mcpgen

REPO = Path(__file__).resolve().parents[2]
WEATHER = REPO / "examples" / "weather"
PKG = "weather_server"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("bundle-contents")
    for name in ("tools.yaml", "skills", "view"):
        src = WEATHER / name
        (shutil.copytree if src.is_dir() else shutil.copyfile)(src, root / name)
    proc = mcpgen("server", str(root / "tools.yaml"), "--out", str(root), "--package", PKG)
    assert proc.returncode == 0, proc.stderr
    shutil.copyfile(WEATHER / PKG / "handlers.py", root / PKG / "handlers.py")
    return root


def _copy(project: Path, tmp_path: Path) -> Path:
    p = tmp_path / "p"
    shutil.copytree(project, p)
    return p


def _entries(mcpb: Path) -> list[str]:
    prefix = f"server/{PKG}/"
    with zipfile.ZipFile(mcpb) as zf:
        return sorted(n[len(prefix) :] for n in zf.namelist() if n.startswith(prefix))


EXPECTED = [
    "__init__.py",
    "__main__.py",
    "_generated/__init__.py",
    "_generated/base.py",
    "_generated/discovery.py",
    "_generated/models.py",
    "_generated/py.typed",
    "_generated/resources/1-forecast_card",
    "_generated/server.py",
    "_generated/skills/reading-forecasts/SKILL.md",
    "_generated/skills/reading-forecasts/references/units.md",
    "_generated/tools.py",
    "handlers.py",
]


def test_bundle_packs_exactly_the_package(project: Path, tmp_path: Path) -> None:
    p = _copy(project, tmp_path)
    pkg = p / PKG
    (pkg / ".env").write_text("API_KEY=secret\n")
    (pkg / ".venv" / "lib").mkdir(parents=True)
    (pkg / ".venv" / "lib" / "x.py").write_text("x = 1\n")
    (pkg / "__pycache__").mkdir(exist_ok=True)
    (pkg / "__pycache__" / "handlers.cpython-311.pyc").write_bytes(b"\0")
    (pkg / "build" / "lib").mkdir(parents=True)
    (pkg / "build" / "lib" / "old.py").write_text("x = 1\n")
    (pkg / "demo.egg-info").mkdir()
    (pkg / "demo.egg-info" / "PKG-INFO").write_text("Name: demo\n")
    (pkg / "weather-1.0.0.mcpb").write_bytes(b"PK an earlier bundle")
    (pkg / "notes.txt").write_text("not packed\n")
    (pkg / "data").mkdir()
    (pkg / "data" / "cities.csv").write_text("Paris\n")
    base = ["bundle", str(p / "tools.yaml"), "--out", str(p), "--package", PKG]
    out = tmp_path / "a.mcpb"
    proc = mcpgen(*base, "--no-start-check", "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    assert _entries(out) == EXPECTED
    with zipfile.ZipFile(out) as zf:
        assert zf.comment == b"written by mcpgen bundle"
    # --include adds what the user names; the same inputs give the same bytes
    out2 = tmp_path / "b.mcpb"
    inc = ("--include", "data/*.csv", "--no-start-check")
    proc = mcpgen(*base, *inc, "-o", str(out2))
    assert proc.returncode == 0, proc.stderr
    assert _entries(out2) == sorted([*EXPECTED, "data/cities.csv"])
    again = tmp_path / "c.mcpb"
    assert mcpgen(*base, *inc, "-o", str(again)).returncode == 0
    assert again.read_bytes() == out2.read_bytes()
    # a glob that matches nothing is a usage error, and nothing is written
    proc = mcpgen(*base, "--include", "nosuch/*", "--no-start-check", "-o", str(tmp_path / "d"))
    assert proc.returncode == 2 and "matches no file" in proc.stderr, proc.stderr
    assert not (tmp_path / "d").exists()


def test_bundle_refuses_a_stale_package(project: Path, tmp_path: Path) -> None:
    p = _copy(project, tmp_path)
    manifest = p / "tools.yaml"
    text = manifest.read_text()
    assert "\ntools:\n" in text
    manifest.write_text(
        text.replace(
            "\ntools:\n",
            "\ntools:\n  - name: brand_new\n    description: A tool the package lacks.\n"
            "    inputSchema: {type: object}\n",
            1,
        )
    )
    out = tmp_path / "w.mcpb"
    proc = mcpgen("bundle", str(manifest), "--out", str(p), "--package", PKG, "-o", str(out))
    assert proc.returncode == 2, proc.stderr
    assert "out of date" in proc.stderr and "mcpgen server" in proc.stderr, proc.stderr
    assert not out.exists()


def test_start_check_compares_tools_list_with_the_manifest(project: Path) -> None:
    from mcpgen.manifest.load import require_manifest
    from mcpgen.publish.bundle import bundle_files
    from mcpgen.publish.package_files import package_files
    from mcpgen.publish.probe import BundleDoesNotStart, probe
    from mcpgen.publish.vendor import platform_facts, vendored_files

    loaded = require_manifest(project / "tools.yaml")
    vendored = vendored_files()
    files = bundle_files(
        loaded, PKG, package_files(project / PKG), vendored, platform_facts(vendored)
    )
    doc = json.loads(files["manifest.json"])
    doc["tools"].append({"name": "ghost_tool", "description": "not served"})
    files["manifest.json"] = json.dumps(doc).encode()
    with pytest.raises(BundleDoesNotStart) as exc:
        probe(files)
    assert "tools/list does not match manifest.json" in str(exc.value)
    assert "ghost_tool" in str(exc.value)
