"""Small helpers shared by the check tests: lint YAML text, list (line, col, rule) tuples."""

from __future__ import annotations

import textwrap

from mcpgen.check import catalog
from mcpgen.check.config import RuleConfig
from mcpgen.check.runner import apply_ignores, check_manifest
from mcpgen.diagnostics import Diagnostic, sort_diagnostics
from mcpgen.manifest.load import load_manifest_text

ALL_ON = RuleConfig(enable=frozenset(r.id for r in catalog.load_all().values()))


def lint(text: str, cfg: RuleConfig = ALL_ON, path: str = "m.yaml") -> list[Diagnostic]:
    res = load_manifest_text(textwrap.dedent(text).lstrip("\n"), path)
    assert res.manifest is not None, [str(d.location) + " " + d.message for d in res.diagnostics]
    diags = check_manifest(res.manifest, cfg)
    ignores = getattr(res.manifest.source_map, "ignores", {})
    return sort_diagnostics(apply_ignores(diags, ignores, res.manifest.path))


def tuples(diags: list[Diagnostic], rule_id: str | None = None) -> list[tuple[str, int, int, str]]:
    return [
        (d.path, d.line, d.col, d.rule_id) for d in diags if rule_id is None or d.rule_id == rule_id
    ]
