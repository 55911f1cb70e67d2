"""Golden trees: five manifests through ``mcpgen server``, ``mcpgen client`` and ``mcpgen cli``
(and ``mcpgen import openapi`` for the OpenAPI one), byte for byte; generation is deterministic;
every golden package imports and passes ``mypy --strict``.

The cases and where their manifests come from: ``tests/regen_golden.py``. Rewrite the golden
trees with ``python -m tests.regen_golden`` and review the diff.
"""

from __future__ import annotations

import difflib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.regen_golden import (
    CASES,
    COMMAND,
    GOLDEN,
    KINDS,
    Case,
    GenerationFailed,
    generate_all,
    package,
    read_tree,
)

PARTS = [
    pytest.param(case, part, id=f"{case.name}-{part}")
    for case in CASES
    for part in (("tools.yaml",) if case.openapi else ()) + KINDS
]


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every case generated once, into a new directory, as the regeneration command does."""
    root = tmp_path_factory.mktemp("golden")
    try:
        generate_all(root)
    except GenerationFailed as exc:
        pytest.fail(str(exc), pytrace=False)
    return root


def _part(files: dict[str, bytes], part: str) -> dict[str, bytes]:
    return {k: v for k, v in files.items() if k == part or k.startswith(part + "/")}


def _diff(rel: str, committed: bytes | None, fresh: bytes | None) -> str:
    def lines(data: bytes | None) -> list[str]:
        return [] if data is None else data.decode("utf-8", "replace").splitlines(keepends=True)

    return "".join(
        difflib.unified_diff(
            lines(committed), lines(fresh), f"committed/{rel}", f"generated/{rel}", n=2
        )
    )


@pytest.mark.parametrize("case, part", PARTS)
def test_golden(case: Case, part: str, generated: Path) -> None:
    fresh = _part(read_tree(case, generated), part)
    committed = _part(read_tree(case, GOLDEN), part)
    assert fresh, f"{case.name}: nothing generated for {part}"
    stale = sorted(
        rel for rel in committed.keys() | fresh.keys() if committed.get(rel) != fresh.get(rel)
    )
    if stale:
        diffs = "\n".join(_diff(rel, committed.get(rel), fresh.get(rel)) for rel in stale)
        pytest.fail(
            f"tests/golden/{case.name}/{part} differs from what mcpgen generates now "
            f"({', '.join(stale)}); if the change is intended, run `{COMMAND}` and review the "
            f"diff:\n{diffs}",
            pytrace=False,
        )


@pytest.mark.slow
def test_generation_is_deterministic(generated: Path, tmp_path: Path) -> None:
    """A second run, under another hash seed, writes the same bytes, marker files included."""
    generate_all(tmp_path, hash_seed="4242")

    def everything(root: Path) -> dict[str, bytes]:
        return {
            p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts
        }

    first, second = everything(generated), everything(tmp_path)
    assert sorted(first) == sorted(second)
    differ = [rel for rel in first if first[rel] != second[rel]]
    assert not differ, "\n".join(_diff(rel, first[rel], second[rel]) for rel in differ)


def test_golden_holds_only_the_cases() -> None:
    """No tree of a case that is gone, and nothing else a regeneration would leave behind."""
    names = {case.name for case in CASES}
    assert {p.name for p in GOLDEN.iterdir()} == names
    for case in CASES:
        inputs = {case.manifest.name} if case.manifest.parent == GOLDEN / case.name else set()
        outputs = {"tools.yaml"} if case.openapi else set()
        assert {p.name for p in (GOLDEN / case.name).iterdir()} == set(KINDS) | inputs | outputs
        for kind in KINDS:
            assert [p.name for p in (GOLDEN / case.name / kind).iterdir()] == [package(case, kind)]


def _golden_env() -> dict[str, str]:
    """Every golden package importable by its name, and no ``__pycache__`` in the tree."""
    dirs = [str(GOLDEN / case.name / kind) for case in CASES for kind in KINDS]
    return {
        **os.environ,
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": os.pathsep.join([*dirs, os.environ.get("PYTHONPATH", "")]),
        "MYPYPATH": os.pathsep.join(dirs),
    }


IMPORT_ALL = """
import importlib, sys
for name in sys.argv[1:]:
    if name.endswith("_server"):
        handlers = importlib.import_module(name + ".handlers")
        generated = importlib.import_module(name + "._generated")
        server = generated.create_server(handlers.Handlers())
        assert type(server).__name__ == "Server", (name, server)
    else:
        importlib.import_module(name)
        if name.endswith("_cli"):
            importlib.import_module(name + ".__main__")
            assert importlib.import_module(name + "._generated.cli").COMMANDS
    print(name)
"""


def test_golden_packages_import() -> None:
    """Each golden server builds its SDK server from its first-created (stub) handlers; each
    client and CLI package imports."""
    names = [package(case, kind) for case in CASES for kind in KINDS]
    proc = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL, *names],
        capture_output=True,
        text=True,
        env=_golden_env(),
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.split() == names


# Generator bugs the goldens show, pinned so that the test fails both on any other error and
# when one of these is fixed (then delete its entry): (golden path, mypy message).
_NESTED_DEFAULT = (
    'error: Incompatible types in assignment (expression has type "dict[str, object]", variable'
    ' has type "StringsInputNested | None")  [assignment]'
)
KNOWN_MYPY_ERRORS = {
    # An object property with properties and an object default: the field is typed as its model
    # and its default is the dict (pydantic validates it, mypy refuses it). Upstream:
    # datamodel-code-generator issue #2361 (with --use-annotated the default is not wrapped in
    # Model.model_validate), open; 0.89.0, pinned, is the newest release on 2026-11-27. Not
    # patched here: surgery on the library's output is what the house avoids.
    ("hostile/server/hostile_server/_generated/models.py", _NESTED_DEFAULT),
    ("hostile/client/hostile_client/_generated/models.py", _NESTED_DEFAULT),
    ("hostile/cli/hostile_cli/_generated/models.py", _NESTED_DEFAULT),
}


@pytest.mark.slow
def test_golden_packages_pass_mypy_strict(tmp_path: Path) -> None:
    """One ``mypy --strict`` run over every golden package (its stub handlers included)."""
    packages = [a for case in CASES for kind in KINDS for a in ("-p", package(case, kind))]
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--hide-error-context"]
        + ["--no-error-summary", "--cache-dir", str(tmp_path / "cache"), *packages],
        capture_output=True,
        text=True,
        cwd=GOLDEN,
        env=_golden_env(),
        timeout=600,
    )
    assert not proc.stderr, proc.stderr
    found = set()
    for line in proc.stdout.splitlines():
        match = re.match(r"(?P<path>[^:]+):\d+: (?P<message>.*)$", line)
        assert match, proc.stdout
        path = (GOLDEN / match["path"]).resolve().relative_to(GOLDEN).as_posix()
        found.add((path, match["message"]))
    assert found - KNOWN_MYPY_ERRORS == set(), proc.stdout
    assert KNOWN_MYPY_ERRORS - found == set(), "fixed: delete these from KNOWN_MYPY_ERRORS"
