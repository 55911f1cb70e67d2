"""Project configuration: ``[tool.mcpgen]`` in the nearest ``pyproject.toml``.

The file is found by walking up from the current directory (or given with ``--config``).
Only the ``check`` and ``breaking`` tables are read here::

    [tool.mcpgen.check]
    disable = ["PROPERTY_DESCRIPTION_MISSING"]     # rule ids to turn off
    enable = ["TOOL_NAME_PORTABLE"]                # rules that are off by default
    severity = { TOOL_DESCRIPTION_MISSING = "error", ANNOTATION_REDUNDANT = "off" }
    fail-on = "warning"                            # error (default) | warning | info | none
    name-max-length = 64                           # 1..128; e.g. 64 for Claude Desktop
    target = ["openai-strict", "gemini"]           # model-API profiles (`mcpgen rules`)

    [tool.mcpgen.breaking]
    disable = ["ANNOTATION_SAFETY_NO_WEAKEN"]
    fail-on = "error"

Unknown keys, unknown rule ids and bad values are usage errors (exit 2), so a typo never
silently turns a rule off. A rule's former id (``YAML_DUPLICATE_KEY`` for ``DUPLICATE_KEY``) is
accepted and means the current one. Other ``[tool.mcpgen.*]`` tables belong to other commands.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcpgen.diagnostics import Severity
from mcpgen.errors import McpgenError
from mcpgen.project import find_pyproject, read_pyproject

FAIL_ON_CHOICES = ("error", "warning", "info", "none")
_KEYS = {"enable", "disable", "severity", "fail-on", "name-max-length", "target"}


@dataclass(frozen=True)
class RuleConfig:
    enable: frozenset[str] = frozenset()
    disable: frozenset[str] = frozenset()
    severity: Mapping[str, Severity | None] = field(default_factory=dict)
    """Per-rule severity; None means "off"."""
    fail_on: Severity | None = Severity.ERROR
    """Lowest severity that makes the command exit 1; None: findings never fail."""
    name_max_length: int = 128
    targets: frozenset[str] = frozenset()
    """Model-API profiles turned on (mcpgen.check.profiles)."""

    @functools.cached_property
    def target_rules(self) -> frozenset[str]:
        """Rules the targets turn on, and default rules they restate (turned off)."""
        from mcpgen.check.profiles import rules_for

        return rules_for(self.targets)

    @functools.cached_property
    def superseded(self) -> frozenset[str]:
        from mcpgen.check.profiles import superseded_by

        return superseded_by(self.targets)

    def merged(
        self,
        *,
        enable: Collection[str] = (),
        disable: Collection[str] = (),
        fail_on: str | None = None,
        name_max_length: int | None = None,
        targets: Collection[str] = (),
    ) -> RuleConfig:
        """Command-line flags on top of the file (flags win; targets add up)."""
        return RuleConfig(
            enable=(self.enable - set(disable)) | set(enable),
            disable=(self.disable - set(enable)) | set(disable),
            severity=self.severity,
            fail_on=self.fail_on if fail_on is None else parse_fail_on(fail_on, "--fail-on"),
            name_max_length=self.name_max_length if name_max_length is None else name_max_length,
            targets=self.targets | set(targets),
        )


@dataclass(frozen=True)
class Config:
    path: Path | None = None
    check: RuleConfig = field(default_factory=RuleConfig)
    breaking: RuleConfig = field(default_factory=RuleConfig)


def parse_fail_on(text: str, where: str) -> Severity | None:
    t = str(text).strip().lower()
    if t == "none":
        return None
    try:
        return Severity.parse(t)
    except ValueError:
        raise McpgenError(
            f"{where}: expected one of {', '.join(FAIL_ON_CHOICES)}, got {text!r}"
        ) from None


def load_config(
    known_rules: Collection[str], *, explicit: Path | None = None, start: Path | None = None
) -> Config:
    path = explicit if explicit is not None else find_pyproject((start or Path.cwd()).resolve())
    if path is None:
        return Config()
    try:
        data = read_pyproject(path)
    except OSError as exc:
        raise McpgenError(f"cannot read config: {exc.strerror or exc}", path=str(path)) from None
    except ValueError as exc:
        raise McpgenError(f"invalid TOML: {exc}", path=str(path)) from None
    table = data.get("tool", {}).get("mcpgen", {})
    if not isinstance(table, dict):
        raise McpgenError("[tool.mcpgen] must be a table", path=str(path))
    return Config(
        path=path,
        check=parse_rule_config(
            table.get("check", {}), "tool.mcpgen.check", known_rules, str(path)
        ),
        breaking=parse_rule_config(
            table.get("breaking", {}), "tool.mcpgen.breaking", known_rules, str(path)
        ),
    )


def parse_rule_config(t: Any, where: str, known: Collection[str], path: str) -> RuleConfig:
    def fail(msg: str) -> McpgenError:
        return McpgenError(f"[{where}] {msg}", path=path)

    from mcpgen.check.registry import canonical_id  # former rule ids (aliases) are accepted

    if not isinstance(t, dict):
        raise fail("must be a table")
    unknown = sorted(set(t) - _KEYS)
    if unknown:
        raise fail(f"unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})")

    def rule_list(key: str) -> frozenset[str]:
        v = t.get(key, [])
        if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
            raise fail(f"{key} must be a list of rule ids")
        ids = frozenset(canonical_id(x) for x in v)
        bad = sorted(ids - set(known))
        if bad:
            raise fail(f"{key}: unknown rule {bad[0]!r} (see `mcpgen rules`)")
        return ids

    sev_table = t.get("severity", {})
    if not isinstance(sev_table, dict):
        raise fail('severity must be a table of RULE_ID = "error"|"warning"|"info"|"off"')
    severity: dict[str, Severity | None] = {}
    for rid, value in sev_table.items():
        rid_u = canonical_id(rid)
        if rid_u not in known:
            raise fail(f"severity: unknown rule {rid!r} (see `mcpgen rules`)")
        if not isinstance(value, str):
            raise fail(f"severity.{rid} must be a string")
        if value.strip().lower() == "off":
            severity[rid_u] = None
        else:
            try:
                severity[rid_u] = Severity.parse(value)
            except ValueError as exc:
                raise fail(f"severity.{rid}: {exc}") from None
    fail_on: Severity | None = Severity.ERROR
    if "fail-on" in t:
        if not isinstance(t["fail-on"], str):
            raise fail("fail-on must be a string")
        try:
            fail_on = parse_fail_on(t["fail-on"], "fail-on")
        except McpgenError as exc:
            raise fail(exc.message) from None
    nml = t.get("name-max-length", 128)
    if isinstance(nml, bool) or not isinstance(nml, int) or not 1 <= nml <= 128:
        raise fail("name-max-length must be an integer from 1 to 128")
    targets = t.get("target", [])
    if not isinstance(targets, list) or not all(isinstance(x, str) for x in targets):
        raise fail("target must be a list of profile names")
    try:
        parsed = parse_targets(targets)
    except ValueError as exc:
        raise fail(f"target: {exc}") from None
    return RuleConfig(rule_list("enable"), rule_list("disable"), severity, fail_on, nml, parsed)


def parse_targets(values: Collection[str]) -> frozenset[str]:
    """Profile names from ``--target a,b`` or ``target = [...]``; ValueError names a bad one."""
    from mcpgen.check.profiles import PROFILES

    out = set()
    for v in values:
        for part in v.split(","):
            name = part.strip().lower()
            if not name:
                continue
            if name not in PROFILES:
                raise ValueError(
                    f"unknown target {part.strip()!r} (known: {', '.join(sorted(PROFILES))})"
                )
            out.add(name)
    return frozenset(out)
