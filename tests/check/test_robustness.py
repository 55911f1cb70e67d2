"""Rules never crash on odd values: any JSON in any tool field gives findings, not exceptions."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from mcpgen.check import catalog
from mcpgen.check.breaking import compare
from mcpgen.check.config import RuleConfig
from mcpgen.check.profiles import PROFILES
from mcpgen.check.registry import BREAKING
from mcpgen.check.runner import active_rules, check_manifest
from mcpgen.manifest.model import KNOWN_REVISIONS, Manifest, ServerInfo, SourceMap, ToolDef

# every rule, the model-API profiles' too (they are on only with --target)
ALL_ON = RuleConfig(enable=frozenset(catalog.load_all()), targets=frozenset(PROFILES))

json_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-5, 5),
        st.floats(allow_nan=False),
        st.sampled_from(
            [
                "",
                "object",
                "string",
                "number",
                "#/$defs/X",
                "#",
                "a b",
                "x-mcp-header",
                "https://x",
                "data:x",
                "48x48",
                "light",
            ]
        ),
    ),
    lambda c: st.one_of(
        st.lists(c, max_size=3),
        st.dictionaries(
            st.sampled_from(
                [
                    "type",
                    "properties",
                    "required",
                    "items",
                    "$ref",
                    "$defs",
                    "anyOf",
                    "x-mcp-header",
                    "enum",
                    "additionalProperties",
                    "description",
                    "a",
                    "b",
                    "$schema",
                    "src",
                    "sizes",
                    "theme",
                ]
            ),
            c,
            max_size=4,
        ),
    ),
    max_leaves=15,
)
# schema-shaped objects: keywords that rules read together (properties with required, ...)
schemas = st.fixed_dictionaries(
    {},
    optional={
        "type": st.one_of(st.sampled_from(["object", "string", "array"]), json_values),
        "properties": st.dictionaries(st.sampled_from(["a", "b", "a/b"]), json_values, max_size=3),
        "required": st.lists(json_values, max_size=3),
        "items": json_values,
        "additionalProperties": json_values,
        "enum": st.lists(json_values, max_size=3),
        "anyOf": st.lists(json_values, max_size=2),
        "$ref": json_values,
        "$defs": st.dictionaries(st.sampled_from(["X", "Y"]), json_values, max_size=2),
        "format": json_values,
    },
)
tools = st.fixed_dictionaries(
    {"name": st.one_of(st.text(max_size=5), st.integers())},
    optional={
        "inputSchema": st.one_of(schemas, json_values),
        "outputSchema": st.one_of(schemas, json_values),
    }
    | {
        k: json_values
        for k in (
            "annotations",
            "icons",
            "execution",
            "title",
            "description",
            "_meta",
        )
    },
)


def _manifest(tool_list: list[dict[str, Any]], revisions: tuple[str, ...]) -> Manifest:
    raw = {"tools": tool_list}
    return Manifest(
        "m.yaml",
        ServerInfo("m"),
        revisions,
        tuple(ToolDef(t, f"/tools/{i}") for i, t in enumerate(tool_list)),
        {},
        SourceMap("m.yaml", {"": (1, 1)}, {}),
        raw,
    )


@settings(max_examples=150, deadline=None)
@given(st.lists(tools, max_size=3), st.lists(tools, max_size=3))
def test_rules_and_breaking_survive_any_values(
    a: list[dict[str, Any]], b: list[dict[str, Any]]
) -> None:
    ma, mb = _manifest(a, KNOWN_REVISIONS), _manifest(b, ("2026-07-28",))
    for d in check_manifest(ma, ALL_ON) + check_manifest(mb, ALL_ON):
        assert d.rule_id in catalog.load_all()
    compare(ma, mb, active_rules((BREAKING,), KNOWN_REVISIONS, RuleConfig()))
    assert compare(ma, ma, active_rules((BREAKING,), KNOWN_REVISIONS, RuleConfig())) == []
