"""Helpers for the manifest loader tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.diagnostics import Diagnostic

BAD_INPUTS = Path(__file__).resolve().parent / "bad_inputs"


@pytest.fixture
def write(tmp_path: Path):
    """write(name, text_or_bytes) -> Path, creating parent directories."""

    def _write(name: str, content: str | bytes) -> Path:
        p = tmp_path / name
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            p.write_bytes(content)
        else:
            p.write_text(content, encoding="utf-8")
        return p

    return _write


def by_rule(diags: list[Diagnostic], rule: str) -> list[Diagnostic]:
    return [d for d in diags if d.rule_id == rule]


def where(d: Diagnostic) -> tuple[int, int]:
    return (d.line, d.col)
