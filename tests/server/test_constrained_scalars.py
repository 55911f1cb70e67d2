"""Constrained scalars stay plain Python types (issue: ``items: {type: string, minLength: 1}``
became a ``RootModel`` wrapper, so handlers needed ``t.root`` and typed clients rejected
``tags=["a"]`` under mypy --strict). Checked over a constrained fixture, the seven real servers'
``tools/list`` dumps and a bench manifest: no scalar ``RootModel`` anywhere, constraints still
enforced, and ``mypy --strict`` accepts plain lists in a handler and in typed client calls."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic import ValidationError

from tests.client.helpers import write_client
from tests.mypy_cache import strict_args
from tests.server.helpers import DATA, REPO, imported, write_package
from tests.server.test_runtime import _call

REAL = sorted((REPO / "tests" / "check" / "data" / "real_servers").glob("*.json"))
SCALAR_ROOT = re.compile(r"RootModel\[(str|int|float|bool)\]")

HANDLERS = """
from __future__ import annotations

from mcpgen_runtime import ToolContext

from ._generated import ToolsBase
from ._generated.models import CreateNoteInput, CreateNoteOutput


class Handlers(ToolsBase):
    async def create_note(self, args: CreateNoteInput, ctx: ToolContext) -> CreateNoteOutput:
        tags: list[str] = [t.upper() for t in args.tags]
        first: str = tags[0]
        total: int = sum(args.scores or [])
        return CreateNoteOutput(id=len(first) + total, tags=tags)
"""

CLIENT_USE = """
from __future__ import annotations

from notes_client import NotesClient


async def use(client: NotesClient) -> list[str]:
    out = await client.create_note(title="t", tags=["a", "b"], scores=[1, 2], grid=[[0.5]])
    return out.tags
"""


def _bench_manifest(tmp: Path) -> Path:
    sys.path.insert(0, str(REPO / "bench"))
    try:
        from manifest_factory import dump_json, make_manifest
    finally:
        sys.path.remove(str(REPO / "bench"))
    path = tmp / "bench.json"
    path.write_text(dump_json(make_manifest(40, seed=3)))
    return path


@pytest.mark.slow
def test_no_scalar_root_models_and_mypy_strict_accepts_plain_values(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    write_package(DATA / "constrained.yaml", tmp_path, "notes_server", HANDLERS)
    write_client(DATA / "constrained.yaml", tmp_path, "notes_client")
    (tmp_path / "use_notes").mkdir()
    (tmp_path / "use_notes" / "__init__.py").write_text(CLIENT_USE)
    packages = ["notes_server", "notes_client", "use_notes"]
    for i, manifest in enumerate([*REAL, _bench_manifest(tmp_path)]):
        write_package(manifest, tmp_path, f"real{i}_server")
        write_client(manifest, tmp_path, f"real{i}_client")
        packages += [f"real{i}_server", f"real{i}_client"]
    for pkg in packages[:2] + packages[3:]:
        models = (tmp_path / pkg / "_generated" / "models.py").read_text()
        assert not SCALAR_ROOT.search(models), f"{pkg}: {SCALAR_ROOT.search(models)}"
    args = [sys.executable, *strict_args(tmp_path_factory, tmp_path)]
    for pkg in packages:
        args += ["-p", pkg]
    proc = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr


def test_constraints_still_enforced_on_plain_values(tmp_path: Path) -> None:
    write_package(DATA / "constrained.yaml", tmp_path, "notes_plain", HANDLERS)
    with imported(tmp_path, "notes_plain") as handlers:
        from notes_plain._generated.models import CreateNoteInput

        ok = CreateNoteInput.model_validate({"title": "t", "tags": ["a", "b"]})
        assert ok.tags == ["a", "b"] and all(type(t) is str for t in ok.tags)
        for bad in (
            {"title": "t", "tags": [""]},
            {"title": "t", "tags": ["a"], "scores": [11]},
            {"title": "t", "tags": ["a"], "grid": [[0]]},
        ):
            with pytest.raises(ValidationError):
                CreateNoteInput.model_validate(bad)
        # a `pattern` is the schema's to enforce (jsonschema-rs, on every call): pydantic's
        # regex engines read ECMA-262 patterns otherwise (issue 36)
        labels = {"title": "t", "tags": ["a"], "labels": {"k": "A"}}
        assert CreateNoteInput.model_validate(labels).labels == {"k": "A"}
        refused = _call(handlers, "2025-11-25", "create_note", labels)["result"]
        assert refused["isError"] is True
        assert '- /labels/k: "A" does not match "^[a-z]+$"' in refused["content"][0]["text"]
