"""`mcpgen server`'s up-to-date check covers every input file, including `$ref`-reached ones.

Generation records a depfile in ``_generated/.mcpgen.json`` (``dependencies``: manifest and every
file the loader read, relative to the manifest's directory, with sha256). The no-op path and
``--check`` hash exactly those files again, stdlib only. Real files, the real CLI (in this
process, tests/inprocess.py; the fast path's imports in a fresh interpreter, ``probe_fast_path``).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mcpgen.manifest.load import load_manifest
from tests.inprocess import mcpgen
from tests.server.helpers import REPO

MANIFEST = """\
server: {name: pts}
tools:
  - name: move
    description: Move to a point.
    inputSchema:
      type: object
      properties:
        to: {$ref: ./schemas/point.json}
      required: [to]
"""
POINT = {
    "type": "object",
    "properties": {"x": {"$ref": "../common.json#/$defs/Num"}, "y": {"type": "number"}},
    "required": ["x", "y"],
}
COMMON = {"$defs": {"Num": {"type": "number"}}}
HEAVY = ("jinja2", "datamodel_code_generator", "black", "yaml", "pydantic")


def run(*args: str | Path, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return mcpgen(*args, cwd=cwd)


def make_project(root: Path) -> Path:
    (root / "schemas").mkdir(parents=True)
    (root / "tools.yaml").write_text(MANIFEST)
    (root / "schemas" / "point.json").write_text(json.dumps(POINT))
    (root / "common.json").write_text(json.dumps(COMMON))
    return root / "tools.yaml"


def snapshot(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


def generate(manifest: Path, out: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return run("server", manifest, "--out", out, "--package", "pts", *extra)


def header_digest(out: Path) -> str:
    """The inputs digest recorded in the marker (headers carry no digest)."""
    marker = json.loads((out / "pts" / "_generated" / ".mcpgen.json").read_text())
    digest = marker["inputs_sha256"]
    assert re.fullmatch(r"[0-9a-f]{64}", digest), digest
    return str(digest)


def added_lines(diff: str) -> list[str]:
    """Lines a diff adds, other than the header lines (whose digest always changes)."""
    return [
        line
        for line in diff.splitlines()
        if line.startswith("+") and not line.startswith("+++") and "Code generated" not in line
    ]


def marker(out: Path) -> dict[str, object]:
    return json.loads((out / "pts" / "_generated" / ".mcpgen.json").read_text())  # type: ignore[no-any-return]


def probe_fast_path(args: list[str], cwd: Path = REPO) -> None:
    """Run the CLI in a fresh interpreter; it must succeed without importing any generator,
    YAML or the manifest loader (the dependencies are hashed, not re-parsed)."""
    code = (
        "import sys\n"
        "from mcpgen.cli import main\n"
        f"try:\n    main({args!r})\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        f"bad = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "bad += [m for m in sys.modules if m.startswith('mcpgen.manifest')]\n"
        "assert not bad, bad\n"
    )
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=cwd, env=env
    )
    assert proc.returncode == 0, proc.stderr


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    manifest = make_project(tmp_path / "proj")
    out = tmp_path / "out"
    proc = generate(manifest, out)
    assert proc.returncode == 0, proc.stderr
    return manifest, out


def test_loader_lists_every_file_it_read(tmp_path: Path) -> None:
    manifest = make_project(tmp_path)
    res = load_manifest(manifest)
    assert not res.errors and res.manifest is not None
    deps = res.manifest.dependencies
    # "../common.json" from schemas/ is folded to the file it names; POSIX, relative, sorted
    assert [d.path for d in deps] == ["common.json", "schemas/point.json"]
    assert [d.resolved for d in deps] == ["common.json", "schemas/point.json"]
    for d in deps:
        assert d.sha256 == hashlib.sha256((tmp_path / d.path).read_bytes()).hexdigest()
    plain = tmp_path / "plain.yaml"
    plain.write_text("tools:\n  - name: t\n    inputSchema: {type: object}\n")
    assert load_manifest(plain).manifest.dependencies == ()  # type: ignore[union-attr]


@pytest.mark.skipif(sys.platform == "win32", reason="needs symlinks")
def test_loader_spells_absolute_and_dotdot_refs_relative(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    (root / "schemas").mkdir(parents=True)
    (root / "p.json").write_text('{"type": "number"}')
    (root / "schemas" / "q.json").write_text('{"$ref": "../schemas/../p.json"}')
    (tmp_path / "door").symlink_to(root)  # a link outside the root, into it
    manifest = root / "tools.yaml"
    manifest.write_text(
        "tools:\n  - name: t\n    inputSchema:\n      type: object\n      properties:\n"
        f"        a: {{$ref: '{tmp_path / 'door' / 'p.json'}'}}\n"
        "        b: {$ref: schemas/q.json}\n"
    )
    res = load_manifest(manifest)
    assert not res.errors, res.errors
    assert [(d.path, d.resolved) for d in res.manifest.dependencies] == [  # type: ignore[union-attr]
        ("p.json", "p.json"),
        ("schemas/q.json", "schemas/q.json"),
    ]


def test_marker_records_relative_dependencies_and_no_absolute_path(
    project: tuple[Path, Path], tmp_path: Path
) -> None:
    manifest, out = project
    deps = marker(out)["dependencies"]
    root = manifest.parent
    assert isinstance(deps, dict)
    assert list(deps) == ["common.json", "schemas/point.json", "tools.yaml"]
    for rel, sha in deps.items():
        assert sha == hashlib.sha256((root / rel).read_bytes()).hexdigest()
    assert "dependency_targets" not in marker(out)  # no symlinks here
    for rel, data in snapshot(out).items():
        assert str(tmp_path).encode() not in data, rel


def test_changed_ref_file_is_drift_and_rerun_regenerates(project: tuple[Path, Path]) -> None:
    manifest, out = project
    ok = generate(manifest, out, "--check")
    assert ok.returncode == 0 and ok.stdout == "", ok.stderr
    old_digest = header_digest(out)
    before = snapshot(out)

    point = dict(POINT, properties={**POINT["properties"], "z": {"type": "integer"}})  # type: ignore[dict-item]
    (manifest.parent / "schemas" / "point.json").write_text(json.dumps(point))
    drift = generate(manifest, out, "--check")
    assert drift.returncode == 1, drift.stderr
    assert "out of date" in drift.stderr
    assert "+    z: int | None = None" in drift.stdout  # the model change, not just the header
    assert snapshot(out) == before  # --check writes nothing

    again = generate(manifest, out)
    assert again.returncode == 0 and "wrote" in again.stderr, again.stderr
    assert "z: int | None = None" in (out / "pts" / "_generated" / "models.py").read_text()
    assert header_digest(out) != old_digest  # the digest covers the $ref-reached file too
    assert generate(manifest, out, "--check").returncode == 0
    assert "up to date" in generate(manifest, out).stderr


def test_nested_ref_file_change_is_seen(project: tuple[Path, Path]) -> None:
    manifest, out = project
    (manifest.parent / "common.json").write_text(
        json.dumps({"$defs": {"Num": {"type": "integer"}}})
    )
    drift = generate(manifest, out, "--check")
    assert drift.returncode == 1
    assert "int" in "".join(added_lines(drift.stdout)), drift.stdout  # Num became an integer


def test_ref_added_later_is_tracked(project: tuple[Path, Path]) -> None:
    manifest, out = project
    (manifest.parent / "label.json").write_text('{"type": "string"}')
    manifest.write_text(
        MANIFEST.replace("      required:", "        label: {$ref: ./label.json}\n      required:")
    )
    assert generate(manifest, out).returncode == 0
    assert "label.json" in marker(out)["dependencies"]  # type: ignore[operator]
    (manifest.parent / "label.json").write_text('{"type": "integer"}')
    assert generate(manifest, out, "--check").returncode == 1


def test_deleted_ref_file_is_input_error_and_tree_unchanged(project: tuple[Path, Path]) -> None:
    manifest, out = project
    before = snapshot(out)
    (manifest.parent / "schemas" / "point.json").unlink()
    for extra in ((), ("--check",)):
        proc = generate(manifest, out, *extra)
        assert proc.returncode == 2, proc.stderr
        assert re.search(
            r"^mcpgen: error: \S*tools\.yaml:8:\d+: .*REF_UNRESOLVED", proc.stderr, re.M
        ), proc.stderr
        assert "Traceback" not in proc.stderr and "up to date" not in proc.stderr
        assert snapshot(out) == before


def test_unchanged_inputs_take_the_fast_path(project: tuple[Path, Path]) -> None:
    manifest, out = project
    again = generate(manifest, out)
    assert again.returncode == 0 and "up to date" in again.stderr and "wrote" not in again.stderr
    for extra in ([], ["--check"]):
        probe_fast_path(["server", str(manifest), "--out", str(out), "--package", "pts", *extra])


def test_moving_the_project_keeps_it_up_to_date(tmp_path: Path) -> None:
    first = tmp_path / "a" / "proj"
    make_project(first)
    proc = run("server", "tools.yaml", "--out", "out", "--package", "pts", cwd=first)
    assert proc.returncode == 0, proc.stderr
    moved = tmp_path / "elsewhere" / "deeper" / "proj"
    moved.parent.mkdir(parents=True)
    shutil.move(first, moved)
    args = ["server", str(moved / "tools.yaml"), "--out", str(moved / "out"), "--package", "pts"]
    probe_fast_path([*args, "--check"])  # up to date without regenerating (a fast-path hit)
    assert "up to date" in run(*args).stderr
    # and a fresh generation elsewhere is byte-identical (no absolute path anywhere)
    fresh = generate(moved / "tools.yaml", tmp_path / "fresh")
    assert fresh.returncode == 0, fresh.stderr
    assert snapshot(tmp_path / "fresh") == snapshot(moved / "out")


def test_marker_without_dependencies_regenerates(project: tuple[Path, Path]) -> None:
    """A marker from before dependencies were recorded cannot prove $ref files unchanged."""
    manifest, out = project
    path = out / "pts" / "_generated" / ".mcpgen.json"
    data = marker(out)
    del data["dependencies"]
    path.write_text(json.dumps(data))
    proc = generate(manifest, out)
    assert proc.returncode == 0 and "wrote" in proc.stderr, proc.stderr
    assert "dependencies" in marker(out)


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="needs symlinks")
def test_retargeted_symlinked_directory_is_seen(tmp_path: Path) -> None:
    """``lib -> v1``: ``lib/a.json`` refs ``b.json``, which the loader resolves beside the real
    file (``v1/b.json``). Retargeting ``lib`` to ``v2`` (same ``a.json``, different ``b.json``)
    changes what loading reads although no recorded file changed."""
    root = tmp_path / "proj"
    for v, kind in (("v1", "number"), ("v2", "integer")):
        (root / v).mkdir(parents=True)
        (root / v / "a.json").write_text(
            '{"type": "object", "properties": {"n": {"$ref": "b.json"}}}'
        )
        (root / v / "b.json").write_text(json.dumps({"type": kind}))
    (root / "lib").symlink_to("v1")
    manifest = root / "tools.yaml"
    manifest.write_text(
        "tools:\n  - name: t\n    inputSchema:\n      type: object\n"
        "      properties: {p: {$ref: lib/a.json}}\n"
    )
    out = tmp_path / "out"
    assert generate(manifest, out).returncode == 0
    assert marker(out)["dependency_targets"] == {"lib/a.json": "v1/a.json"}
    assert generate(manifest, out, "--check").returncode == 0
    (root / "lib").unlink()
    (root / "lib").symlink_to("v2")
    drift = generate(manifest, out, "--check")
    assert drift.returncode == 1
    assert "int" in "".join(added_lines(drift.stdout)), drift.stdout
