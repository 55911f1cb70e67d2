"""One table row per lint rule: a small manifest and the exact (line, col) of each finding.

buf style: every row asserts the complete list of findings *of that rule*, so a rule that
fires too often or in the wrong place fails, and so does one that stops firing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lint_helpers import lint, tuples
from rule_cases_profiles import CASES as PROFILE_CASES
from rule_cases_schemas import CASES as SCHEMA_CASES
from rule_cases_surface import CASES as SURFACE_CASES
from rule_cases_tools import CASES as TOOL_CASES

# The table, by topic (tests/check/rule_cases_*.py); the docs' rule pages take each rule's
# first case here as its example.
CASES: list[tuple[str, str, list[tuple[int, int]]]] = (
    TOOL_CASES + SCHEMA_CASES + SURFACE_CASES + PROFILE_CASES
)


@pytest.mark.parametrize(("rule_id", "text", "expected"), CASES, ids=[c[0] for c in CASES])
def test_rule_positions(rule_id: str, text: str, expected: list[tuple[int, int]]) -> None:
    got = tuples(lint(text), rule_id)
    assert got == [("m.yaml", line, col, rule_id) for line, col in expected]


REGISTRY = """\
server:
  name: weather
  version: 1.0.0
  registry: io.github.user/weather
tools: []
"""


def test_registry_version_agreement_positions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rule that reads files beside the manifest (more in tests/publish/test_server_json.py):
    the manifest's version and each file that disagrees, each at its place."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "w"\nversion = "1.0.1"\n')
    (tmp_path / "server.json").write_text('{"version": "1.0.0"}')  # agrees: not reported
    got = tuples(lint(REGISTRY), "REGISTRY_VERSION_AGREEMENT")
    assert got == [
        ("m.yaml", 3, 12, "REGISTRY_VERSION_AGREEMENT"),
        ("pyproject.toml", 3, 1, "REGISTRY_VERSION_AGREEMENT"),
    ]
    # an inline ignore silences the manifest's line, never a line of another file that
    # happens to have the same number
    ignored = REGISTRY.replace("1.0.0\n", "1.0.0  # mcpgen: ignore REGISTRY_VERSION_AGREEMENT\n")
    assert tuples(lint(ignored), "REGISTRY_VERSION_AGREEMENT") == [
        ("pyproject.toml", 3, 1, "REGISTRY_VERSION_AGREEMENT"),
    ]
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "w"\nversion = "1.0.0"\n')
    assert tuples(lint(REGISTRY), "REGISTRY_VERSION_AGREEMENT") == []


FILE_CASES = {"REGISTRY_VERSION_AGREEMENT"}
"""Rules whose case needs files beside the manifest: tested above, not in CASES."""


def test_every_lint_rule_has_a_case() -> None:
    from mcpgen.check import catalog
    from mcpgen.check.registry import LINT

    lint_ids = {r.id for r in catalog.load_all().values() if r.category == LINT}
    covered = {c[0] for c in CASES if c[2]} | FILE_CASES
    assert lint_ids - covered == set()


def test_toolset_names_follow_the_schema() -> None:
    """Toolset names go into comma-separated command-line lists: lower-case, no spaces, and
    not the reserved ``all``/``default``; the loader reports each at its place."""
    from mcpgen.manifest.load import load_manifest_text

    text = (
        "server:\n"
        "  toolsets: {all: {}, Read Only: {}, ok: {default: maybe}}\n"
        "tools:\n"
        "  - name: t\n"
        "    inputSchema: {type: object}\n"
        "    x-mcpgen: {toolsets: [ok, 'a,b']}\n"
    )
    res = load_manifest_text(text, "m.yaml")
    got = [(d.line, d.col, d.rule_id, d.message) for d in res.diagnostics]
    assert [(2, 14), (2, 23)] == [g[:2] for g in got][:2], got  # at the keys
    messages = " | ".join(g[3] for g in got)
    assert "the string 'all' is a reserved word here" in messages
    assert "'Read Only' does not match" in messages
    assert "`server.toolsets.ok.default` must be true or false" in messages
    assert (6, 31) in [g[:2] for g in got]  # 'a,b'


def test_template_variable_schemas_are_checked_like_tool_schemas() -> None:
    """A variable's schema types a handler argument: an invalid one is SCHEMA_VALID at its
    place (``completions``, mcpgen's own key, is not part of the schema). Found by fuzzing:
    check passed such a manifest and ``mcpgen server`` then failed inside the model generator."""
    text = """
        tools: []
        resourceTemplates:
          - uriTemplate: "a://t/{id}/{n}"
            name: t
            variables:
              id: {type: 1e+308, completions: [a]}
              n: {type: integer, minimum: low, completions: [1]}
        """
    got = [(d.line, d.col, d.message) for d in lint(text) if d.rule_id == "SCHEMA_VALID"]
    assert [g[:2] for g in got] == [(6, 18), (7, 35)], got
    assert "variable schema is not valid 2020-12: 1e+308 is not one of" in got[0][2]
    assert "'low' is not of type 'number'" in got[1][2]
    fine = text.replace("1e+308", "string").replace("minimum: low", "minimum: 1")
    assert [d for d in lint(fine) if d.rule_id == "SCHEMA_VALID"] == []


def test_template_variable_patterns_must_also_compile_with_pythons_re() -> None:
    """Tool schemas are checked by jsonschema-rs, so ``check`` accepts the patterns it compiles
    (``\\p{L}``); a template variable is checked by its pydantic model alone, which
    datamodel-code-generator switches to Python's ``re`` for a lookaround: such a pattern made
    a server whose models did not import ("bad escape \\p"), so check refuses it there."""
    text = """
        tools: []
        resourceTemplates:
          - uriTemplate: "a://t/{id}/{n}"
            name: t
            variables:
              id: {type: string, pattern: '^(?=\\p{Lu})\\p{L}+$'}
              n: {type: object, patternProperties: {'\\p{L}': {}}}
        """
    got = [(d.line, d.col, d.message) for d in lint(text) if d.rule_id == "SCHEMA_VALID"]
    assert [g[:2] for g in got] == [(6, 35), (7, 45)], got
    assert "Python's re cannot compile" in got[0][2]
    fine = text.replace("\\p{Lu}", "[A-Z]").replace("\\p{L}", "[A-Za-z]")
    assert [d for d in lint(fine) if d.rule_id == "SCHEMA_VALID"] == []
