"""The spec's own example messages (2026-07-28 and draft) validate into the class named by
their folder and dump back equal to the input (by_alias, exclude_unset)."""

from __future__ import annotations

import importlib
import json
from pathlib import Path

import pytest
from pydantic import TypeAdapter

MODERN = {"2026-07-28": "v2026_07_28", "draft": "draft"}


def _examples(spec_dir: Path, revision: str) -> list[Path]:
    root = spec_dir / revision / "examples"
    if not root.is_dir():
        pytest.skip(
            f"no examples for {revision} in {spec_dir} (only the local spec mirror has them)"
        )
    return sorted(root.glob("*/*.json"))


def _roundtrip(module: object, path: Path) -> tuple[object, object]:
    type_name = path.parent.name
    cls = getattr(module, type_name)
    data = json.loads(path.read_text(encoding="utf-8"))
    adapter = TypeAdapter(cls)
    value = adapter.validate_python(data)
    dumped = adapter.dump_python(value, mode="json", by_alias=True, exclude_unset=True)
    return data, dumped


@pytest.mark.parametrize("revision", sorted(MODERN))
def test_all_examples_roundtrip(spec_dir: Path, revision: str) -> None:
    module = importlib.import_module(f"mcp_wire.{MODERN[revision]}")
    examples = _examples(spec_dir, revision)
    assert len(examples) == 129
    failures = []
    for path in examples:
        try:
            data, dumped = _roundtrip(module, path)
        except Exception as exc:  # collect every failure for one readable report
            failures.append(f"{path.parent.name}/{path.name}: {type(exc).__name__}: {exc}"[:400])
            continue
        if dumped != data:
            failures.append(f"{path.parent.name}/{path.name}: dump differs: {dumped!r}"[:400])
    assert not failures, f"{len(failures)}/{len(examples)} examples failed:\n" + "\n".join(failures)
