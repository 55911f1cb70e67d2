"""[tool.mcpgen] parsing and how it turns rules on, off and up."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcpgen.check import catalog
from mcpgen.check.config import RuleConfig, load_config
from mcpgen.check.registry import LINT, RULES
from mcpgen.check.runner import active_rules, rule_severity
from mcpgen.diagnostics import Severity
from mcpgen.errors import McpgenError
from mcpgen.manifest.model import KNOWN_REVISIONS

catalog.load_all()


def _cfg(tmp_path: Path, text: str) -> RuleConfig:
    (tmp_path / "pyproject.toml").write_text(text)
    return load_config(RULES, start=tmp_path).check


def test_no_pyproject_gives_defaults(tmp_path: Path) -> None:
    cfg = RuleConfig()
    assert rule_severity(RULES["TOOL_NAME_PORTABLE"], cfg) is None  # off by default
    assert rule_severity(RULES["TOOL_NAME_CHARSET"], cfg) is Severity.ERROR


def test_enable_disable_severity(tmp_path: Path) -> None:
    cfg = _cfg(
        tmp_path,
        """
[tool.mcpgen.check]
enable = ["tool_name_portable"]
disable = ["TOOL_NAME_CHARSET"]
severity = { TOOL_DESCRIPTION_MISSING = "error", ANNOTATION_REDUNDANT = "off", ICON_SRC = "info" }
fail-on = "warning"
name-max-length = 64
""",
    )
    assert rule_severity(RULES["TOOL_NAME_PORTABLE"], cfg) is Severity.WARNING
    assert rule_severity(RULES["TOOL_NAME_CHARSET"], cfg) is None
    assert rule_severity(RULES["TOOL_DESCRIPTION_MISSING"], cfg) is Severity.ERROR
    assert rule_severity(RULES["ANNOTATION_REDUNDANT"], cfg) is None
    assert rule_severity(RULES["ICON_SRC"], cfg) is Severity.INFO
    assert cfg.fail_on is Severity.WARNING and cfg.name_max_length == 64


def test_flags_override_file() -> None:
    cfg = RuleConfig(disable=frozenset({"TOOL_NAME_CHARSET"})).merged(
        enable=["TOOL_NAME_CHARSET"], fail_on="none"
    )
    assert rule_severity(RULES["TOOL_NAME_CHARSET"], cfg) is Severity.ERROR
    assert cfg.fail_on is None


def test_rules_apply_by_revision() -> None:
    legacy = active_rules((LINT,), ["2025-06-18"], RuleConfig())
    modern = active_rules((LINT,), ["2026-07-28"], RuleConfig())
    assert "X_MCP_HEADER_TYPE" not in legacy and "X_MCP_HEADER_TYPE" in modern
    # execution.taskSupport: the 2025-11-25 wire field, and the server's choice under the tasks
    # extension from 2026-07-28; a revision before both has no tasks at all
    assert "EXECUTION_TASK_SUPPORT" not in legacy and "EXECUTION_TASK_SUPPORT" in modern
    assert "TOOL_TASK_REQUIRED_REVISION" in legacy and "TOOL_TASK_REQUIRED_REVISION" not in modern
    assert "EXECUTION_TASK_SUPPORT" in active_rules((LINT,), KNOWN_REVISIONS, RuleConfig())


def test_nearest_pyproject_wins_and_other_tables_are_ignored(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcpgen.check]\nfail-on = "info"\n')
    sub = tmp_path / "a" / "b"
    sub.mkdir(parents=True)
    assert load_config(RULES, start=sub).check.fail_on is Severity.INFO
    (tmp_path / "a" / "pyproject.toml").write_text(
        "[tool.mcpgen.server]\nanything = 1\n[tool.other]\nx=1\n"
    )
    cfg = load_config(RULES, start=sub)
    assert cfg.check.fail_on is Severity.ERROR and cfg.path == tmp_path / "a" / "pyproject.toml"


@pytest.mark.parametrize(
    "text",
    [
        '[tool.mcpgen.check]\nenable = "TOOL_NAME_PORTABLE"\n',
        '[tool.mcpgen.check]\nfail-on = "fatal"\n',
        '[tool.mcpgen.breaking]\ndisable = ["NOPE"]\n',
        "[tool.mcpgen.check]\nname-max-length = true\n",
    ],
)
def test_bad_values_raise(tmp_path: Path, text: str) -> None:
    with pytest.raises(McpgenError) as exc:
        _cfg(tmp_path, text)
    assert exc.value.path == str(tmp_path / "pyproject.toml")
