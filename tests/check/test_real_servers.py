"""`mcpgen check` on real servers' `tools/list` dumps, default configuration: a default
warning or error means a real client or model fails or degrades, so real servers get few.

The dumps are under data/real_servers/ (see its README for the package versions). Before the
defaults were reworked, the same dumps got 1, 34, 4, 55, 102, 58 and 6 warnings and errors
(median 34), nearly all TOOL_FIELD_REVISION, PROPERTY_DESCRIPTION_MISSING and
SCHEMA_DIALECT_PORTABLE.
"""

from __future__ import annotations

import statistics
from pathlib import Path

import pytest

from mcpgen.check import catalog
from mcpgen.check.config import RuleConfig
from mcpgen.check.runner import check_file
from mcpgen.diagnostics import Severity

DATA = Path(__file__).parent / "data" / "real_servers"
DUMPS = sorted(DATA.glob("*.json"))

# file -> (errors, warnings, infos) with the default configuration
EXPECTED = {
    "arxiv-mcp-server@0.8.2.json": (0, 0, 0),
    "mcp-atlassian@0.23.1.json": (0, 0, 0),
    "notion-mcp-server@2.5.2.json": (0, 0, 32),
    "server-github@2025.4.8.json": (0, 0, 77),
    "mcp-server-fetch@2026.10.24.json": (0, 0, 2),
    "mcp-server-git@2026.10.19.json": (0, 0, 36),
    "mcp-server-time@2026.10.19.json": (0, 0, 4),
    # `simulate-research-query` has execution.taskSupport: required: a client on a revision
    # before the tasks extension (2026-07-28) cannot call it (TOOL_TASK_REQUIRED_REVISION).
    "server-everything@2026.8.31.json": (0, 1, 37),
    "server-filesystem@2026.8.31.json": (0, 0, 47),
    "server-memory@2026.8.31.json": (0, 0, 29),
    "server-sequential-thinking@2026.8.31.json": (0, 0, 4),
}


def _counts(path: Path) -> tuple[int, int, int]:
    catalog.load_all()
    res = check_file(str(path), RuleConfig())
    assert not res.unreadable
    by = [d.severity for d in res.diagnostics]
    return by.count(Severity.ERROR), by.count(Severity.WARNING), by.count(Severity.INFO)


def test_every_dump_is_expected() -> None:
    assert [p.name for p in DUMPS] == sorted(EXPECTED)
    assert len(DUMPS) >= 3


@pytest.mark.parametrize("path", DUMPS, ids=[p.stem for p in DUMPS])
def test_default_findings(path: Path) -> None:
    assert _counts(path) == EXPECTED[path.name]


def test_median_server_gets_at_most_three_warnings_and_errors() -> None:
    acted = [e + w for e, w, _ in (_counts(p) for p in DUMPS)]
    assert statistics.median(acted) <= 3, acted
    assert all(e == 0 for e, _, _ in (_counts(p) for p in DUMPS))  # none violates the spec


def test_opt_in_rules_still_see_everything() -> None:
    """The advice is still there for who asks: every rule enabled, infos included."""
    everything = RuleConfig(enable=frozenset(catalog.load_all()))
    res = check_file(str(DATA / "server-filesystem@2026.8.31.json"), everything)
    rules = {d.rule_id for d in res.diagnostics}
    assert {
        "TOOL_FIELD_REVISION",
        "PROPERTY_DESCRIPTION_MISSING",
        "SCHEMA_DIALECT_PORTABLE",
    } <= rules
